// kaji-compile's command line.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace kaji::tools {

enum class EmitKind { AST, IR, LLVM, PTX, Cubin, CUDA, LtoIr, Aot };
enum class TargetKind { CUDA, CPU };

struct CommandLine {
  std::string inputPath;
  std::vector<std::string> kernels;    // empty: every decorated function with a signature
  std::vector<std::string> signatures; // one for all kernels, or one per --kernel
  std::optional<EmitKind> emit;        // default: ptx for cuda, llvm for cpu
  TargetKind target = TargetKind::CUDA;
  bool nvrtc = false; // --backend nvrtc: CUDA C++ compiled by NVRTC instead of LLVM's NVPTX
  // --export c|numba: the one --kernel is a device function compiled on its own, which code
  // linked with the output calls by the C ABI or Numba's (cuda.compile(device=True)).
  enum class ExportAbi { None, C, Numba } exportAbi = ExportAbi::None;
  // --boundscheck / --no-boundscheck; unset: checked on cpu, and on cuda with --debug (as
  // @jit's boundscheck=None)
  std::optional<bool> boundsCheck;
  std::string arch = "sm_90";
  // Options a kernel's decorator may also state (tools/kaji-compile/DecoratorOptions.h);
  // unset: the decorators', else the defaults (-O3, no debug, lineinfo or fast math).
  std::optional<unsigned> optLevel;
  std::optional<bool> debug;    // raise/assert report on cuda too (@jit(debug=True))
  std::optional<bool> lineInfo; // cuda: .loc directives with each instruction's Python line
  std::optional<bool> fastMath; // both targets: fast-math flags on float instructions
  // cuda: --launch-bounds THREADS[,BLOCKS[,CLUSTER]] (0 where not given) and
  // --max-registers N (0: none)
  std::optional<std::array<unsigned, 3>> launchBounds;
  std::optional<unsigned> maxRegisters;
  std::string outputPath; // empty: stdout
  bool showHelp = false;
  bool showVersion = false;
};

// Parses argv; on a usage error returns nullopt and writes the reason to `error`.
std::optional<CommandLine> parseCommandLine(int argc, char **argv, std::string &error);

const char *usageText();

} // namespace kaji::tools
