#include "kaji/driver/Fatbin.h"

#include "ToolkitProcess.h"
#include "kaji/abi/CudaToolkit.h"

#include <memory>
#include <regex>
#include <stdexcept>

namespace kaji::driver {

std::string architectureNumber(const std::string &arch) {
  static const std::regex pattern(R"(sm_(\d+[af]?))");
  std::smatch match;
  if (!std::regex_match(arch, match, pattern))
    throw std::invalid_argument("'" + arch + "' is not an architecture (sm_80, sm_90, ...)");
  return match[1].str();
}

std::string packFatbin(const std::vector<std::pair<std::string, std::string>> &cubins,
                       const std::string &ptxArch, const std::string &ptx) {
  std::optional<std::filesystem::path> fatbinary = findToolkitProgram("fatbinary");
  if (!fatbinary)
    throw std::runtime_error("a fatbin needs the CUDA toolkit's fatbinary, found neither in " +
                             abi::cudaToolkitSearchText("bin") + " nor $PATH");
  std::vector<std::unique_ptr<TemporaryFile>> images;
  TemporaryFile output(".fatbin"), log(".log");
  std::vector<std::string> argv{fatbinary->string(), "--64", "--create=" + output.path().string()};
  for (const auto &[arch, cubin] : cubins) {
    images.push_back(std::make_unique<TemporaryFile>(".cubin"));
    writeFile(images.back()->path(), cubin);
    argv.push_back("--image3=kind=elf,sm=" + architectureNumber(arch) +
                   ",file=" + images.back()->path().string());
  }
  images.push_back(std::make_unique<TemporaryFile>(".ptx"));
  writeFile(images.back()->path(), ptx);
  argv.push_back("--image3=kind=ptx,sm=" + architectureNumber(ptxArch) +
                 ",file=" + images.back()->path().string());
  int status = runProgram(argv, log.path());
  if (status != 0)
    throw std::runtime_error(fatbinary->string() + " failed (exit status " +
                             std::to_string(status) + "):\n" + readFile(log.path()));
  return readFile(output.path());
}

} // namespace kaji::driver
