#include "kaji/driver/PtxAssembler.h"

#include "ToolkitProcess.h"
#include "kaji/abi/CudaToolkit.h"
#include "kaji/abi/PtxTarget.h"

#include <algorithm>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <vector>

namespace kaji::driver {
namespace {

std::filesystem::path requirePtxas(const char *purpose) {
  std::optional<std::filesystem::path> ptxas = findPtxas();
  if (!ptxas)
    throw std::runtime_error(std::string(purpose) +
                             " needs the CUDA toolkit's ptxas, found neither in " +
                             abi::cudaToolkitSearchText("bin") + " nor $PATH");
  return *ptxas;
}

// ptxas's log (and output in `cubin`) for `ptx` with `extraArgs`; throws its log on failure.
std::string runPtxas(const std::filesystem::path &ptxas, std::string_view ptx,
                     const std::string &arch, unsigned optLevel,
                     const std::vector<std::string> &extraArgs, const TemporaryFile &cubin) {
  TemporaryFile input(".ptx"), log(".log");
  writeFile(input.path(), ptx);
  std::vector<std::string> argv{ptxas.string(), "--gpu-name",
                                abi::ptxAssemblyArchitecture(ptx, arch),
                                "-O" + std::to_string(optLevel)};
  argv.insert(argv.end(), extraArgs.begin(), extraArgs.end());
  argv.insert(argv.end(), {input.path().string(), "-o", cubin.path().string()});
  int status = runProgram(argv, log.path());
  if (status != 0)
    throw std::runtime_error(ptxas.string() + " failed (exit status " + std::to_string(status) +
                             "):\n" + readFile(log.path()));
  return readFile(log.path());
}

// The count `pattern` captures first in `line` ("12 registers" → 12), or 0 when absent.
int64_t countBefore(const std::string &line, const std::regex &pattern) {
  std::smatch match;
  return std::regex_search(line, match, pattern) ? std::stoll(match[1].str()) : 0;
}

// How many threads of a block fit the register file: registers are allocated per warp in
// units of 256, out of 64 Ki per block (every architecture from sm_50 to sm_90).
int64_t threadsFittingRegisters(int64_t registersPerThread) {
  constexpr int64_t registersPerBlock = 64 * 1024, unit = 256, warp = 32, architectureMax = 1024;
  if (registersPerThread <= 0)
    return architectureMax;
  int64_t perWarp = (registersPerThread * warp + unit - 1) / unit * unit;
  return std::min(architectureMax, registersPerBlock / perWarp * warp);
}

} // namespace

std::optional<std::filesystem::path> findPtxas() { return findToolkitProgram("ptxas"); }

std::string assemblePTX(std::string_view ptx, const std::string &arch, unsigned optLevel) {
  std::filesystem::path ptxas = requirePtxas("a cubin");
  TemporaryFile output(".cubin");
  runPtxas(ptxas, ptx, arch, optLevel, {}, output);
  return readFile(output.path());
}

ResourceUsage ptxasResourceUsage(std::string_view ptx, const std::string &entry,
                                 const std::string &arch, unsigned optLevel) {
  std::filesystem::path ptxas = requirePtxas("a kernel's resource usage without a GPU");
  TemporaryFile output(".cubin");
  std::istringstream log(runPtxas(ptxas, ptx, arch, optLevel, {"--verbose"}, output));
  static const std::regex registers(R"((\d+) registers)"), shared(R"((\d+) bytes smem)"),
      stack(R"((\d+) bytes stack frame)"), constBank(R"((\d+) bytes cmem\[([1-9]\d*)\])");
  ResourceUsage usage;
  bool inEntry = false, found = false;
  for (std::string line; std::getline(log, line);) {
    if (line.find("Compiling entry function") != std::string::npos ||
        line.find("Function properties for") != std::string::npos) {
      inEntry = line.find("'" + entry + "'") != std::string::npos || line.ends_with("for " + entry);
      found = found || inEntry;
      continue;
    }
    if (!inEntry)
      continue;
    usage.localBytesPerThread = std::max(usage.localBytesPerThread, countBefore(line, stack));
    if (line.find(" registers") == std::string::npos)
      continue;
    usage.registersPerThread = countBefore(line, registers);
    usage.sharedBytesPerBlock = countBefore(line, shared);
    for (std::sregex_iterator bank(line.begin(), line.end(), constBank), end; bank != end; ++bank)
      usage.constBytes += std::stoll((*bank)[1].str());
  }
  if (!found)
    throw std::runtime_error("ptxas reported nothing for the entry '" + entry + "'");
  usage.maxThreadsPerBlock = threadsFittingRegisters(usage.registersPerThread);
  // A .maxntid between the entry's name and its body caps the block.
  static const std::regex maxntid(R"(\.maxntid\s+(\d+),\s*(\d+),\s*(\d+))");
  std::string text(ptx);
  size_t header = text.find(".entry " + entry + "(");
  if (header != std::string::npos) {
    std::string directives = text.substr(header, text.find('{', header) - header);
    std::smatch match;
    if (std::regex_search(directives, match, maxntid)) {
      int64_t threads = 1;
      for (size_t axis = 1; axis <= 3; ++axis)
        threads *= std::stoll(match[axis].str());
      usage.maxThreadsPerBlock = std::min(usage.maxThreadsPerBlock, threads);
    }
  }
  return usage;
}

} // namespace kaji::driver
