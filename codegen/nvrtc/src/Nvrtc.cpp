// NVRTC through dlopen, as runtime/src/CudaDriver.cpp loads libcuda: kaji links nothing of the
// CUDA toolkit, so it imports, compiles (LLVM path) and runs cpu kernels without it.
#include "kaji/codegen/nvrtc/NvrtcCodegen.h"

#include "kaji/codegen/GpuArchitecture.h"
#include "kaji/codegen/PtxFragments.h"
#include "kaji/codegen/PtxasMiscompiledOps.h"

#include "kaji/abi/CudaToolkit.h"
#include "kaji/abi/ToolkitLibrary.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <optional>
#include <regex>
#include <sstream>
#include <vector>

namespace kaji::codegen::nvrtc {
namespace {

// nvrtc.h's types, as much of them as kaji uses.
using nvrtcResult = int;
using nvrtcProgram = struct _nvrtcProgram *;
constexpr nvrtcResult kNvrtcSuccess = 0;

struct NvrtcApi {
  const char *(*getErrorString)(nvrtcResult);
  nvrtcResult (*version)(int *, int *);
  nvrtcResult (*createProgram)(nvrtcProgram *, const char *, const char *, int, const char *const *,
                               const char *const *);
  nvrtcResult (*destroyProgram)(nvrtcProgram *);
  nvrtcResult (*compileProgram)(nvrtcProgram, int, const char *const *);
  nvrtcResult (*getProgramLogSize)(nvrtcProgram, size_t *);
  nvrtcResult (*getProgramLog)(nvrtcProgram, char *);
  nvrtcResult (*getPTXSize)(nvrtcProgram, size_t *);
  nvrtcResult (*getPTX)(nvrtcProgram, char *);
  nvrtcResult (*getLTOIRSize)(nvrtcProgram, size_t *) = nullptr;
  nvrtcResult (*getLTOIR)(nvrtcProgram, char *) = nullptr;
  nvrtcResult (*getNumSupportedArchs)(int *) = nullptr;
  nvrtcResult (*getSupportedArchs)(int *) = nullptr;
};

struct LoadedNvrtc {
  NvrtcInfo info;
  NvrtcApi api;
};

LoadedNvrtc load(const std::vector<std::string> &extraDirectories) {
  abi::ToolkitLibrarySearch search{"libnvrtc.so",
                                   "KAJI_NVRTC",
                                   extraDirectories,
                                   {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"},
                                   "an NVRTC entry point kaji needs (CUDA 11.1 or newer)"};
  LoadedNvrtc loaded;
  NvrtcApi &api = loaded.api;
  auto bindAll = [&api](void *library) {
    using abi::bindEntryPoint;
    // Only NVRTC 12.0 on makes LTO-IR; older ones still compile to PTX.
    bindEntryPoint(library, api.getLTOIRSize, "nvrtcGetLTOIRSize");
    bindEntryPoint(library, api.getLTOIR, "nvrtcGetLTOIR");
    // NVRTC 11.2 on lists the architectures it compiles for.
    bindEntryPoint(library, api.getNumSupportedArchs, "nvrtcGetNumSupportedArchs");
    bindEntryPoint(library, api.getSupportedArchs, "nvrtcGetSupportedArchs");
    return bindEntryPoint(library, api.getErrorString, "nvrtcGetErrorString") &&
           bindEntryPoint(library, api.version, "nvrtcVersion") &&
           bindEntryPoint(library, api.createProgram, "nvrtcCreateProgram") &&
           bindEntryPoint(library, api.destroyProgram, "nvrtcDestroyProgram") &&
           bindEntryPoint(library, api.compileProgram, "nvrtcCompileProgram") &&
           bindEntryPoint(library, api.getProgramLogSize, "nvrtcGetProgramLogSize") &&
           bindEntryPoint(library, api.getProgramLog, "nvrtcGetProgramLog") &&
           bindEntryPoint(library, api.getPTXSize, "nvrtcGetPTXSize") &&
           bindEntryPoint(library, api.getPTX, "nvrtcGetPTX");
  };
  loaded.info.path = abi::openToolkitLibrary(search, bindAll, [](const std::string &where) {
                       throw NvrtcUnavailable(
                           "the nvrtc backend needs NVRTC (libnvrtc.so from the CUDA "
                           "toolkit, or the nvidia-cuda-nvrtc wheel) and none was found; " +
                           where + ". Set KAJI_NVRTC to the library's path, or use backend='llvm'");
                     }).path;
  api.version(&loaded.info.major, &loaded.info.minor);
  return loaded;
}

abi::LazyToolkitLibrary<LoadedNvrtc> &nvrtcLibrary() {
  static abi::LazyToolkitLibrary<LoadedNvrtc> library(load);
  return library;
}

const LoadedNvrtc &nvrtc() { return nvrtcLibrary().get(); }

// The architectures this NVRTC compiles for (their XX), where it says.
std::vector<int> supportedArchs(const NvrtcApi &api) {
  int count = 0;
  if (!api.getNumSupportedArchs || api.getNumSupportedArchs(&count) != kNvrtcSuccess || count <= 0)
    return {};
  std::vector<int> archs(size_t(count), 0);
  if (api.getSupportedArchs(archs.data()) != kNvrtcSuccess)
    return {};
  return archs;
}

// `sm_90` (or sm_90a, sm_100f) → its number, for `-arch=sm_`; a name NVRTC does not know is a
// std::runtime_error listing those it does.
std::string archNumber(const std::string &arch) {
  std::optional<unsigned> number = smNumber(arch);
  if (!number)
    throw std::runtime_error("unknown GPU architecture '" + arch + "': expected sm_XX");
  std::vector<int> supported = supportedArchs(nvrtc().api);
  if (!supported.empty() &&
      std::find(supported.begin(), supported.end(), int(*number)) == supported.end()) {
    std::string names;
    for (int number : supported)
      names += (names.empty() ? "sm_" : ", sm_") + std::to_string(number);
    const NvrtcInfo &info = nvrtc().info;
    throw std::runtime_error("unknown GPU architecture '" + arch + "'; NVRTC " +
                             std::to_string(info.major) + "." + std::to_string(info.minor) +
                             " knows: " + names);
  }
  return arch.substr(3);
}

// NVRTC names an error in the user's code as `file.py(LINE): error: ...` through the
// #line directives; the first such line becomes the error's location, with the column of
// an operation on that line where there is one.
ir::Location errorLocation(const std::string &log, const ir::Module &module) {
  static const std::regex pattern("^(.*)\\(([0-9]+)\\): (catastrophic )?error");
  std::istringstream lines(log);
  std::smatch match;
  for (std::string line; std::getline(lines, line);) {
    if (!std::regex_search(line, match, pattern))
      continue;
    std::string file = match[1];
    unsigned number = unsigned(std::stoul(match[2]));
    for (const auto &function : module.functions())
      for (const auto &block : function->blocks())
        for (const auto &op : block->operations())
          if (op->location().file && *op->location().file == file && op->location().line == number)
            return op->location();
    for (const auto &function : module.functions())
      if (function->location().file && *function->location().file == file)
        return ir::Location{function->location().file, number, 1};
    break;
  }
  return module.functions().empty() ? ir::Location{} : module.functions().front()->location();
}

bool callsLinkedCode(const ir::Module &module) {
  for (const auto &function : module.functions())
    for (const auto &block : function->blocks())
      for (const auto &op : block->operations())
        if (op->opcode() == ir::Opcode::ExternCall || op->opcode() == ir::Opcode::ExternCallC)
          return true;
  return false;
}

struct NvrtcOutput {
  std::optional<std::string> code; // PTX or LTO-IR; none when NVRTC rejected the source
  std::string log;
  std::string error; // NVRTC's name for the failure
};

// `source` compiled by NVRTC to `format` for compute_`arch`, with kaji's prelude as a header or
// without.
NvrtcOutput runNvrtc(const std::string &source, const std::string &programName,
                     const std::string &arch, std::vector<std::string> flags, bool withPrelude,
                     DeviceCodeFormat format = DeviceCodeFormat::Ptx) {
  const NvrtcApi &api = nvrtc().api;
  const bool ltoIr = format == DeviceCodeFormat::LtoIr;
  if (ltoIr && !api.getLTOIR)
    throw NvrtcUnavailable("NVRTC " + std::to_string(nvrtc().info.major) + "." +
                           std::to_string(nvrtc().info.minor) + " (" + nvrtc().info.path +
                           ") cannot make LTO-IR (nvrtcGetLTOIR, CUDA 12.0 on)");
  if (ltoIr)
    flags.push_back("-dlto");
  const char *headerText = preludeText().data();
  std::string headerName(preludeName());
  const char *headerNames[] = {headerName.c_str()};
  nvrtcProgram program = nullptr;
  if (nvrtcResult result = api.createProgram(
          &program, source.c_str(), programName.c_str(), withPrelude ? 1 : 0,
          withPrelude ? &headerText : nullptr, withPrelude ? headerNames : nullptr);
      result != kNvrtcSuccess)
    throw std::runtime_error(std::string("NVRTC could not create a program: ") +
                             api.getErrorString(result));
  std::unique_ptr<_nvrtcProgram, void (*)(nvrtcProgram)> owner(
      program, [](nvrtcProgram p) { nvrtc().api.destroyProgram(&p); });
  flags.insert(flags.begin(), {"-arch=compute_" + arch, "-std=c++17"});
  // The emitted code uses nothing of the texture API or the device runtime, which
  // -minimal (NVRTC 12.4 on) leaves out: a third of NVRTC's time on saxpy.
  const NvrtcInfo &info = nvrtc().info;
  if (withPrelude && (info.major > 12 || (info.major == 12 && info.minor >= 4)))
    flags.push_back("-minimal");
  std::vector<const char *> flagPointers;
  for (const std::string &flag : flags)
    flagPointers.push_back(flag.c_str());
  nvrtcResult compiled = api.compileProgram(program, int(flagPointers.size()), flagPointers.data());
  NvrtcOutput output;
  size_t logSize = 0;
  api.getProgramLogSize(program, &logSize);
  output.log.assign(logSize, '\0');
  if (logSize)
    api.getProgramLog(program, output.log.data());
  while (!output.log.empty() && (output.log.back() == '\0' || output.log.back() == '\n'))
    output.log.pop_back();
  if (compiled != kNvrtcSuccess) {
    output.error = api.getErrorString(compiled);
    return output;
  }
  size_t size = 0;
  (ltoIr ? api.getLTOIRSize : api.getPTXSize)(program, &size);
  std::string code(size, '\0');
  (ltoIr ? api.getLTOIR : api.getPTX)(program, code.data());
  // PTX is text whose size counts its NUL; LTO-IR is binary, taken whole.
  while (!ltoIr && !code.empty() && code.back() == '\0')
    code.pop_back();
  output.code = std::move(code);
  return output;
}

// The CUDA toolkit's headers (<cuda_fp16.h>, <curand_kernel.h>), as Numba's NVRTC compile
// finds them: the include/ beside the loaded NVRTC's lib/ (a toolkit's, or a CUDA wheel's, whose
// sibling packages under nvidia/ hold theirs: cuda_runtime, curand, ...), then $CUDA_HOME,
// $CUDA_PATH and /usr/local/cuda's; those that exist, each once, each followed by its cccl/
// (CUDA 13 keeps libcu++, <cuda/std/...>, there, where nvcc looks too).
std::vector<std::string> toolkitIncludeDirectories() {
  namespace fs = std::filesystem;
  std::vector<fs::path> candidates;
  fs::path library(nvrtc().info.path);
  if (library.is_absolute()) {
    fs::path package = library.parent_path().parent_path();
    candidates.push_back(package / "include");
    std::error_code error;
    if (package.parent_path().filename() == "nvidia")
      for (const fs::directory_entry &sibling :
           fs::directory_iterator(package.parent_path(), error))
        candidates.push_back(sibling.path() / "include");
  }
  for (const fs::path &directory : abi::inCudaToolkit("include"))
    candidates.push_back(directory);
  std::vector<std::string> found;
  for (const fs::path &candidate : candidates)
    for (const fs::path &directory : {candidate, candidate / "cccl"}) {
      std::error_code error;
      if (!fs::is_directory(directory, error))
        continue;
      std::string canonical = fs::weakly_canonical(directory, error).string();
      if (std::find(found.begin(), found.end(), canonical) == found.end())
        found.push_back(canonical);
    }
  return found;
}

double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

} // namespace

void addNvrtcSearchDirectory(const std::string &directory) {
  nvrtcLibrary().addSearchDirectory(directory);
}

NvrtcInfo nvrtcInfo() { return nvrtc().info; }

std::string compileCudaSource(const std::string &source, const std::string &fileName,
                              const std::string &arch, DeviceCodeFormat format,
                              const std::vector<std::string> &includeDirectories) {
  std::vector<std::string> flags{"-rdc=true", "--fmad=true"};
  for (const std::string &directory : includeDirectories)
    flags.push_back("-I" + directory);
  for (const std::string &directory : toolkitIncludeDirectories())
    flags.push_back("-I" + directory);
  NvrtcOutput output = runNvrtc(source, fileName, archNumber(arch), std::move(flags),
                                /*withPrelude=*/false, format);
  if (!output.code)
    throw NvrtcCompileError("NVRTC could not compile '" + fileName + "' (" + output.error + "):\n" +
                            output.log);
  return *output.code;
}

std::string rewriteNvvmPtxForPtxas(const std::string &ptx, bool fastMath) {
  return rewriteMiscompiledOpsForPtxas(fastMath ? ptx : roundUnroundedFloatOps(ptx));
}

namespace {

// The module's CUDA C++ compiled by NVRTC to `format`: PTX made ready for ptxas, or LTO-IR.
std::string compileModule(const ir::Module &module, const PTXOptions &options,
                          CodegenTimings *timings, DeviceCodeFormat format) {
  auto start = std::chrono::steady_clock::now();
  std::string arch = archNumber(warpgroupArchitecture(module, options.arch));
  std::string source = emitCUDA(module, options.boundsCheck);
  if (timings)
    timings->lowerMs = millisecondsSince(start);
  start = std::chrono::steady_clock::now();
  std::string programName =
      module.functions().empty() ? "kaji.cu" : module.functions().front()->name() + ".cu";
  // a * b + c may contract to fma (NVRTC's default, said outright), as on the LLVM path
  // (docs/sema.md, "FMA contraction"); not at opt level 0, where every operation rounds as
  // written, as NVVM does for Numba's opt=False.
  std::vector<std::string> flags = {options.optLevel > 0 ? "--fmad=true" : "--fmad=false"};
  if (options.fastMath)
    flags.push_back("--use_fast_math");
  if (options.lineInfo)
    flags.push_back("-lineinfo");
  // A call of a linked CUDA C++ function needs relocatable device code, which the driver's
  // linker (or nvJitLink) then resolves; an exported device function, which no kernel calls,
  // is kept only in relocatable device code.
  bool exportsFunctions =
      std::any_of(module.functions().begin(), module.functions().end(),
                  [](const auto &f) { return f->exported() != ir::Function::Export::None; });
  if (callsLinkedCode(module) || exportsFunctions)
    flags.push_back("-rdc=true");
  NvrtcOutput output = runNvrtc(source, programName, arch, flags, /*withPrelude=*/true, format);
  if (!output.code)
    throw ir::CompileError(errorLocation(output.log, module),
                           "NVRTC rejected the CUDA C++ of this kernel (" + output.error + "):\n" +
                               output.log);
  std::string code = format == DeviceCodeFormat::Ptx
                         ? rewriteNvvmPtxForPtxas(*output.code, options.fastMath)
                         : std::move(*output.code);
  if (timings)
    timings->emitMs = millisecondsSince(start);
  return code;
}

} // namespace

std::string compileWithNvrtc(const ir::Module &module, const PTXOptions &options,
                             CodegenTimings *timings) {
  return compileModule(module, options, timings, DeviceCodeFormat::Ptx);
}

std::string compileWithNvrtcToLtoIr(const ir::Module &module, const PTXOptions &options,
                                    CodegenTimings *timings) {
  return compileModule(module, options, timings, DeviceCodeFormat::LtoIr);
}

namespace {

class NvrtcBackend final : public GpuBackend {
public:
  std::string emitPTX(const ir::Module &module, const PTXOptions &options,
                      CodegenTimings *timings) const override {
    return compileWithNvrtc(module, options, timings);
  }

  std::string entryName(const ir::Function &kernel) const override { return cudaName(kernel); }
};

} // namespace

const GpuBackend &nvrtcBackend() {
  static const NvrtcBackend backend;
  return backend;
}

} // namespace kaji::codegen::nvrtc
