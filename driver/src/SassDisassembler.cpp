#include "kaji/driver/SassDisassembler.h"

#include "ToolkitProcess.h"
#include "kaji/abi/CudaToolkit.h"

#include <stdexcept>
#include <vector>

namespace kaji::driver {

std::string disassembleSass(std::string_view cubin) {
  std::vector<std::string> argv;
  if (std::optional<std::filesystem::path> nvdisasm = findToolkitProgram("nvdisasm"))
    argv = {nvdisasm->string()};
  else if (std::optional<std::filesystem::path> cuobjdump = findToolkitProgram("cuobjdump"))
    argv = {cuobjdump->string(), "--dump-sass"};
  else
    throw std::runtime_error("SASS needs the CUDA toolkit's nvdisasm or cuobjdump, found in "
                             "neither " +
                             abi::cudaToolkitSearchText("bin") + " nor $PATH");
  TemporaryFile input(".cubin"), log(".log");
  writeFile(input.path(), cubin);
  argv.push_back(input.path().string());
  int status = runProgram(argv, log.path());
  std::string output = readFile(log.path());
  if (status != 0)
    throw std::runtime_error(argv[0] + " failed (exit status " + std::to_string(status) + "):\n" +
                             output);
  return output;
}

} // namespace kaji::driver
