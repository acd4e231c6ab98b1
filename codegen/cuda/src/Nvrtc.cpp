// NVRTC through dlopen, as runtime/src/Driver.cpp loads libcuda: kaji links nothing of the
// CUDA toolkit, so it imports, compiles (LLVM path) and runs cpu kernels without it.
#include "kaji/codegen/cuda/CudaCodegen.h"

#include "CommaSeparated.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <dlfcn.h>
#include <filesystem>
#include <mutex>
#include <optional>
#include <regex>
#include <sstream>
#include <vector>

namespace kaji::codegen::cuda {
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
};

struct LoadedNvrtc {
  NvrtcInfo info;
  NvrtcApi api;
};

std::mutex searchLock;
std::vector<std::string> extraDirectories;

// libnvrtc.so* files of `directory`, the most specific name first (libnvrtc.so.13 before
// libnvrtc.so), skipping libnvrtc-builtins.
std::vector<std::string> librariesIn(const std::filesystem::path &directory) {
  std::vector<std::string> found;
  std::error_code error;
  for (const auto &entry : std::filesystem::directory_iterator(directory, error)) {
    std::string name = entry.path().filename().string();
    if (name.rfind("libnvrtc.so", 0) == 0)
      found.push_back(entry.path().string());
  }
  std::sort(found.begin(), found.end(), [](const std::string &a, const std::string &b) {
    return a.size() > b.size() || (a.size() == b.size() && a > b);
  });
  return found;
}

std::vector<std::string> candidates(std::vector<std::string> &searched) {
  std::vector<std::string> paths;
  // An explicit path is the only one tried.
  if (const char *explicitPath = std::getenv("KAJI_NVRTC"); explicitPath && *explicitPath) {
    searched.push_back(std::string("$KAJI_NVRTC=") + explicitPath);
    return {explicitPath};
  }
  std::vector<std::string> directories;
  for (const char *variable : {"CUDA_HOME", "CUDA_PATH"})
    if (const char *root = std::getenv(variable); root && *root)
      directories.push_back(std::string(root) + "/lib64");
  directories.push_back("/usr/local/cuda/lib64");
  {
    std::lock_guard<std::mutex> guard(searchLock);
    directories.insert(directories.end(), extraDirectories.begin(), extraDirectories.end());
  }
  for (const std::string &directory : directories) {
    searched.push_back(directory);
    for (std::string &path : librariesIn(directory))
      paths.push_back(std::move(path));
  }
  // Last, whatever the dynamic loader finds on its own path.
  for (const char *soname : {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"}) {
    searched.push_back(soname);
    paths.push_back(soname);
  }
  return paths;
}

template <class F> bool bind(void *library, F &entry, const char *symbol) {
  entry = reinterpret_cast<F>(dlsym(library, symbol));
  return entry != nullptr;
}

LoadedNvrtc load() {
  std::vector<std::string> searched;
  std::string lastError;
  for (const std::string &path : candidates(searched)) {
    void *library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!library) {
      const char *message = dlerror();
      lastError = message ? message : "";
      continue;
    }
    LoadedNvrtc loaded;
    NvrtcApi &api = loaded.api;
    bool complete = bind(library, api.getErrorString, "nvrtcGetErrorString") &&
                    bind(library, api.version, "nvrtcVersion") &&
                    bind(library, api.createProgram, "nvrtcCreateProgram") &&
                    bind(library, api.destroyProgram, "nvrtcDestroyProgram") &&
                    bind(library, api.compileProgram, "nvrtcCompileProgram") &&
                    bind(library, api.getProgramLogSize, "nvrtcGetProgramLogSize") &&
                    bind(library, api.getProgramLog, "nvrtcGetProgramLog") &&
                    bind(library, api.getPTXSize, "nvrtcGetPTXSize") &&
                    bind(library, api.getPTX, "nvrtcGetPTX");
    if (!complete) {
      lastError = path + " lacks an NVRTC entry point kaji needs (CUDA 11.1 or newer)";
      dlclose(library);
      continue;
    }
    // Kept loaded for the life of the process, as the driver is.
    loaded.info.path = path;
    api.version(&loaded.info.major, &loaded.info.minor);
    return loaded;
  }
  std::string where = commaSeparated(searched);
  throw NvrtcUnavailable("the nvrtc backend needs NVRTC (libnvrtc.so from the CUDA toolkit, or "
                         "the nvidia-cuda-nvrtc wheel) and none was found; searched " +
                         where + (lastError.empty() ? "" : " (last error: " + lastError + ")") +
                         ". Set KAJI_NVRTC to the library's path, or use backend='llvm'");
}

// Loaded once; a failure is not remembered, so installing NVRTC (or adding a search
// directory) later in the process works.
const LoadedNvrtc &nvrtc() {
  static std::mutex lock;
  static std::unique_ptr<LoadedNvrtc> loaded;
  std::lock_guard<std::mutex> guard(lock);
  if (!loaded)
    loaded = std::make_unique<LoadedNvrtc>(load());
  return *loaded;
}

// `sm_90` → its number; anything else is a std::runtime_error.
std::string archNumber(const std::string &arch) {
  static const std::regex pattern("sm_([0-9]+a?)");
  std::smatch match;
  if (!std::regex_match(arch, match, pattern))
    throw std::runtime_error("unknown GPU architecture '" + arch + "': expected sm_XX");
  return match[1];
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
        if (op->opcode() == ir::Opcode::ExternCall)
          return true;
  return false;
}

struct NvrtcOutput {
  std::optional<std::string> ptx; // none when NVRTC rejected the source
  std::string log;
  std::string error; // NVRTC's name for the failure
};

// `source` compiled by NVRTC to PTX for compute_`arch`, with kaji's prelude as a header or
// without.
NvrtcOutput runNvrtc(const std::string &source, const std::string &programName,
                     const std::string &arch, std::vector<std::string> flags, bool withPrelude) {
  const NvrtcApi &api = nvrtc().api;
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
  // --fmad=true (NVRTC's default, said outright): a * b + c may contract to fma, as on the
  // LLVM path's NVPTX target (docs/sema.md, "Accuracy").
  flags.insert(flags.begin(), {"-arch=compute_" + arch, "-std=c++17", "--fmad=true"});
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
  api.getPTXSize(program, &size);
  std::string ptx(size, '\0');
  api.getPTX(program, ptx.data());
  while (!ptx.empty() && ptx.back() == '\0')
    ptx.pop_back();
  output.ptx = std::move(ptx);
  return output;
}

double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

} // namespace

void addNvrtcSearchDirectory(const std::string &directory) {
  std::lock_guard<std::mutex> guard(searchLock);
  if (std::find(extraDirectories.begin(), extraDirectories.end(), directory) ==
      extraDirectories.end())
    extraDirectories.push_back(directory);
}

NvrtcInfo nvrtcInfo() { return nvrtc().info; }

std::string compileCudaSource(const std::string &source, const std::string &fileName,
                              const std::string &arch) {
  NvrtcOutput output = runNvrtc(source, fileName, archNumber(arch), {"-rdc=true"},
                                /*withPrelude=*/false);
  if (!output.ptx)
    throw NvrtcCompileError("NVRTC could not compile '" + fileName + "' (" + output.error + "):\n" +
                            output.log);
  return *output.ptx;
}

std::string compileWithNvrtc(const ir::Module &module, const PTXOptions &options,
                             CodegenTimings *timings) {
  auto start = std::chrono::steady_clock::now();
  std::string arch = archNumber(options.arch);
  std::string source = emitCUDA(module, options.boundsCheck);
  if (timings)
    timings->lowerMs = millisecondsSince(start);
  start = std::chrono::steady_clock::now();
  std::string programName =
      module.functions().empty() ? "kaji.cu" : module.functions().front()->name() + ".cu";
  std::vector<std::string> flags;
  if (options.fastMath)
    flags.push_back("--use_fast_math");
  if (options.lineInfo)
    flags.push_back("-lineinfo");
  // A call of a linked CUDA C++ function needs relocatable device code, which the driver's
  // linker then resolves.
  if (callsLinkedCode(module))
    flags.push_back("-rdc=true");
  NvrtcOutput output = runNvrtc(source, programName, arch, flags, /*withPrelude=*/true);
  if (!output.ptx)
    throw ir::CompileError(errorLocation(output.log, module),
                           "NVRTC rejected the CUDA C++ of this kernel (" + output.error + "):\n" +
                               output.log);
  if (timings)
    timings->emitMs = millisecondsSince(start);
  return *output.ptx;
}

} // namespace kaji::codegen::cuda
