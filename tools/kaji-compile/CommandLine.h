// kaji-compile's command line.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace kaji::tools {

enum class EmitKind { AST, IR, LLVM, PTX, Cubin, CUDA };
enum class TargetKind { CUDA, CPU };

struct CommandLine {
  std::string inputPath;
  std::vector<std::string> kernels;    // empty: every decorated function with a signature
  std::vector<std::string> signatures; // one for all kernels, or one per --kernel
  std::optional<EmitKind> emit;        // default: ptx for cuda, llvm for cpu
  TargetKind target = TargetKind::CUDA;
  bool nvrtc = false; // --backend nvrtc: CUDA C++ compiled by NVRTC instead of LLVM's NVPTX
  // --boundscheck / --no-boundscheck; unset: checked on cpu, and on cuda with --debug (as
  // @jit's boundscheck=None)
  std::optional<bool> boundsCheck;
  std::string arch = "sm_90";
  unsigned optLevel = 3;
  bool debug = false;    // raise/assert report on cuda too (@jit(debug=True))
  bool lineInfo = false; // cuda: .loc directives with each instruction's Python line
  bool fastMath = false; // both targets: fast-math flags on float instructions
  // cuda: --launch-bounds THREADS[,BLOCKS[,CLUSTER]] and --max-registers N (0: none)
  unsigned maxThreadsPerBlock = 0;
  unsigned minBlocksPerMultiprocessor = 0;
  unsigned maxBlocksPerCluster = 0;
  unsigned maxRegisters = 0;
  std::string outputPath; // empty: stdout
  bool showHelp = false;
  bool showVersion = false;
};

// Parses argv; on a usage error returns nullopt and writes the reason to `error`.
std::optional<CommandLine> parseCommandLine(int argc, char **argv, std::string &error);

const char *usageText();

} // namespace kaji::tools
