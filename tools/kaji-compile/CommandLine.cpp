#include "CommandLine.h"

#include <charconv>
#include <string_view>

namespace kaji::tools {
namespace {

std::optional<EmitKind> emitKindFromName(std::string_view name) {
  if (name == "ast")
    return EmitKind::AST;
  if (name == "ir")
    return EmitKind::IR;
  if (name == "llvm")
    return EmitKind::LLVM;
  if (name == "ptx")
    return EmitKind::PTX;
  if (name == "cubin")
    return EmitKind::Cubin;
  if (name == "cuda")
    return EmitKind::CUDA;
  if (name == "ltoir")
    return EmitKind::LtoIr;
  if (name == "aot")
    return EmitKind::Aot;
  return std::nullopt;
}

// A positive count that fits a PTX directive, or nullopt.
std::optional<unsigned> positiveCount(std::string_view text) {
  unsigned value = 0;
  auto [end, problem] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (problem != std::errc() || end != text.data() + text.size() || value == 0)
    return std::nullopt;
  return value;
}

// "THREADS[,BLOCKS[,CLUSTER]]" into `cl`; false when malformed.
bool parseLaunchBounds(std::string_view text, CommandLine &cl) {
  std::array<unsigned, 3> bounds{};
  for (unsigned &field : bounds) {
    size_t comma = text.find(',');
    std::optional<unsigned> value = positiveCount(text.substr(0, comma));
    if (!value)
      return false;
    field = *value;
    if (comma == std::string_view::npos) {
      cl.launchBounds = bounds;
      return true;
    }
    text.remove_prefix(comma + 1);
  }
  return false;
}

} // namespace

const char *usageText() {
  return R"(usage: kaji-compile FILE.py [options]

Compiles the kernels of a Python file to kaji IR, LLVM IR, CUDA C++, PTX or a cubin, or ahead
of time into a fatbin and its C launcher.

options:
  --kernel NAME     compile this kernel (repeatable); default: every function whose
                    @jit decorator carries a signature string
  --sig SIG         the kernel's signature, e.g. 'void(float32[:], float32)'; one for
                    all kernels or one per --kernel, in order; default: the decorator's
  --emit KIND       ast | ir | llvm | cuda | ptx | cubin | ltoir (default: ptx; llvm for
                    --target cpu); cuda is the CUDA C++ of --backend nvrtc; cubin needs
                    -o FILE (ptxas assembles the llvm backend's PTX, NVRTC builds its
                    own); ltoir, NVRTC's LTO-IR (-dlto) for nvJitLink as @jit(lto=True)
                    makes it, needs --backend nvrtc and -o FILE; aot writes -o DIR/NAME.h,
                    NAME.c and NAME.fatbin (NAME: the file's stem), a C launcher per kernel
                    for programs without Python, for each architecture of --arch
  --target T        cuda (the GPU, default) or cpu (host LLVM IR, as the CPU backend
                    JIT-compiles it)
  --backend B       cuda: llvm (LLVM's NVPTX, default) or nvrtc (CUDA C++ through NVRTC)
  --export ABI      cuda: compile the one --kernel as a device function on its own, a
                    .visible .func that code linked with the PTX calls by the C ABI (c:
                    RESULT name(ARGS)) or Numba's (numba: int name(RESULT *, ARGS)); its
                    result converts to --sig's return type unless that is void
  --boundscheck     check every array index: out of range is an IndexError (the default
                    on cpu; on cuda the default with --debug)
  --no-boundscheck  leave array indices unchecked
  --lineinfo        cuda: mark each instruction with its Python line (.loc), for
                    profilers and compute-sanitizer
  --debug           cuda: raise and assert report their exception, as @jit(debug=True)
                    (the cpu target always reports), and the PTX carries DWARF line
                    tables for cuda-gdb (llvm backend)
  --fastmath        fast math, as @jit(fastmath=True): float instructions may be
                    reassociated and contracted (a * b + c to fma, also on cpu)
  --launch-bounds THREADS[,BLOCKS[,CLUSTER]]
                    cuda: at most THREADS threads per block (.maxntid), at least BLOCKS
                    resident blocks per SM (.minnctapersm), clusters of at most CLUSTER
                    blocks (.maxclusterrank)
  --max-registers N cuda: at most N registers per thread (.maxnreg)
  --arch sm_XX      GPU architecture (default: sm_90); with --emit aot a list, sm_80,sm_90
  -O0 .. -O3        optimisation level (default: -O3)
  -o FILE           write the output to FILE instead of standard output

A kernel's decorator may state fastmath, opt, boundscheck, lineinfo, debug,
max_registers and launch_bounds (literal values): they apply where the command line
does not give them, and the kernels of one output must agree on them. Options that
cannot apply (link, target, ...) are warned about on standard error.
  --version         print the compiler version
  -h, --help        print this help
)";
}

std::optional<CommandLine> parseCommandLine(int argc, char **argv, std::string &error) {
  CommandLine cl;
  auto needsValue = [&](int &i, std::string_view flag) -> const char * {
    if (i + 1 >= argc) {
      error = "option '" + std::string(flag) + "' needs a value";
      return nullptr;
    }
    return argv[++i];
  };
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "-h" || arg == "--help") {
      cl.showHelp = true;
    } else if (arg == "--version") {
      cl.showVersion = true;
    } else if (arg == "--boundscheck" || arg == "--no-boundscheck") {
      cl.boundsCheck = arg == "--boundscheck";
    } else if (arg == "--lineinfo") {
      cl.lineInfo = true;
    } else if (arg == "--debug") {
      cl.debug = true;
    } else if (arg == "--fastmath") {
      cl.fastMath = true;
    } else if (arg == "--kernel" || arg == "--sig" || arg == "--emit" || arg == "--arch" ||
               arg == "--target" || arg == "--backend" || arg == "--export" ||
               arg == "--launch-bounds" || arg == "--max-registers" || arg == "-o") {
      const char *value = needsValue(i, arg);
      if (!value)
        return std::nullopt;
      if (arg == "--kernel") {
        cl.kernels.emplace_back(value);
      } else if (arg == "--sig") {
        cl.signatures.emplace_back(value);
      } else if (arg == "--emit") {
        auto kind = emitKindFromName(value);
        if (!kind) {
          error = "unknown --emit kind '" + std::string(value) +
                  "' (expected ast, ir, llvm, cuda, ptx, cubin or ltoir)";
          return std::nullopt;
        }
        cl.emit = *kind;
      } else if (arg == "--arch") {
        cl.arch = value;
      } else if (arg == "--backend") {
        std::string_view backend = value;
        if (backend != "llvm" && backend != "nvrtc") {
          error = "unknown --backend '" + std::string(backend) + "' (expected llvm or nvrtc)";
          return std::nullopt;
        }
        cl.nvrtc = backend == "nvrtc";
      } else if (arg == "--export") {
        std::string_view abi = value;
        if (abi != "c" && abi != "numba") {
          error = "unknown --export '" + std::string(abi) + "' (expected c or numba)";
          return std::nullopt;
        }
        cl.exportAbi = abi == "c" ? CommandLine::ExportAbi::C : CommandLine::ExportAbi::Numba;
      } else if (arg == "--launch-bounds") {
        if (!parseLaunchBounds(value, cl)) {
          error = "--launch-bounds takes THREADS[,BLOCKS[,CLUSTER]], positive ints; not '" +
                  std::string(value) + "'";
          return std::nullopt;
        }
      } else if (arg == "--max-registers") {
        std::optional<unsigned> count = positiveCount(value);
        if (!count) {
          error = "--max-registers takes a positive int, not '" + std::string(value) + "'";
          return std::nullopt;
        }
        cl.maxRegisters = *count;
      } else if (arg == "--target") {
        std::string_view target = value;
        if (target != "cuda" && target != "cpu") {
          error = "unknown --target '" + std::string(target) + "' (expected cuda or cpu)";
          return std::nullopt;
        }
        cl.target = target == "cpu" ? TargetKind::CPU : TargetKind::CUDA;
      } else {
        cl.outputPath = value;
      }
    } else if (arg.size() == 3 && arg.substr(0, 2) == "-O" && arg[2] >= '0' && arg[2] <= '3') {
      cl.optLevel = unsigned(arg[2] - '0');
    } else if (!arg.empty() && arg[0] == '-') {
      error = "unknown option '" + std::string(arg) + "'";
      return std::nullopt;
    } else if (cl.inputPath.empty()) {
      cl.inputPath = arg;
    } else {
      error = "more than one input file: '" + cl.inputPath + "' and '" + std::string(arg) + "'";
      return std::nullopt;
    }
  }
  if (cl.showHelp || cl.showVersion)
    return cl;
  if (cl.inputPath.empty()) {
    error = "no input file";
    return std::nullopt;
  }
  if (cl.target == TargetKind::CPU &&
      (cl.emit == EmitKind::PTX || cl.emit == EmitKind::Cubin || cl.emit == EmitKind::LtoIr)) {
    error = "--target cpu has no PTX, cubin or LTO-IR: use --emit ast, ir or llvm";
    return std::nullopt;
  }
  if (cl.target == TargetKind::CPU && cl.emit == EmitKind::CUDA) {
    error = "--target cpu has no CUDA C++: use --emit ast, ir or llvm";
    return std::nullopt;
  }
  if (cl.target == TargetKind::CPU && cl.nvrtc) {
    error = "--backend nvrtc compiles for the GPU; --target cpu always uses LLVM";
    return std::nullopt;
  }
  if (cl.nvrtc && cl.emit == EmitKind::LLVM) {
    error = "--backend nvrtc makes no LLVM IR: use --emit cuda, ptx or cubin";
    return std::nullopt;
  }
  if (cl.emit == EmitKind::LtoIr && !cl.nvrtc) {
    error = "--emit ltoir is made by the nvrtc backend (LLVM's NVPTX backend makes no LTO-IR): "
            "add --backend nvrtc";
    return std::nullopt;
  }
  if (cl.emit == EmitKind::Aot && (cl.target == TargetKind::CPU || cl.outputPath.empty())) {
    error = "--emit aot compiles for the GPU into a directory: give it with -o DIR (and no "
            "--target cpu)";
    return std::nullopt;
  }
  if (cl.emit != EmitKind::Aot && cl.arch.find(',') != std::string::npos) {
    error = "--arch takes a list (sm_80,sm_90) with --emit aot only";
    return std::nullopt;
  }
  if ((cl.emit == EmitKind::Cubin || cl.emit == EmitKind::LtoIr) && cl.outputPath.empty()) {
    error = std::string("--emit ") + (cl.emit == EmitKind::Cubin ? "cubin" : "ltoir") +
            " writes a binary file: give it with -o FILE";
    return std::nullopt;
  }
  if (!cl.emit)
    cl.emit = cl.target == TargetKind::CPU ? EmitKind::LLVM : EmitKind::PTX;
  if (cl.signatures.size() > 1 && cl.signatures.size() != cl.kernels.size()) {
    error = "got " + std::to_string(cl.signatures.size()) + " --sig options for " +
            std::to_string(cl.kernels.size()) +
            " --kernel options; give one --sig for all "
            "kernels or one per kernel";
    return std::nullopt;
  }
  return cl;
}

} // namespace kaji::tools
