// The launch fast path of a @jit kernel: `kernel[grid, block, stream, shared](*args)` is one
// C++ call that types the arguments, finds the specialization (compiling and loading it on a
// miss), packs the parameters per the ABI of codegen/Codegen.h into a buffer kept with the
// specialization, and launches. A dispatcher has one target for its life: cuda (PTX loaded on
// the selected device) or cpu (host code run synchronously by runtime::CpuExecutor).
#pragma once

#include "arguments.h"
#include "compilation.h"
#include "linked_module.h"
#include "specializations.h"

#include "kaji/driver/PtxAssembler.h"
#include "kaji/runtime/Device.h"
#include "kaji/runtime/Stream.h"

#include <pybind11/pybind11.h>

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace kaji::python {

namespace py = pybind11;

class Dispatcher {
public:
  struct Options {
    bool fastMath = false;
    unsigned optLevel = 3;
    driver::Target target = driver::Target::CUDA;
    bool boundsCheck = true;      // every array index checked (IndexError)
    bool diskCache = false;       // cuda target: PTX kept in DiskCache::defaultDirectory()
    bool lineInfo = false;        // cuda target: .loc directives with the Python lines
    bool debug = false;           // raise/assert report on the cuda target too
    codegen::KernelLimits limits; // launch_bounds= and max_registers=, in the PTX
    // shared_memory_carveout=: a percentage, or -1 for the driver's default
    std::optional<int> sharedCarveout;
    // cuda target: who makes the PTX. Fixed per dispatcher, so every specialization of
    // compiled_ (and its disk cache key) is the backend's.
    driver::Backend backend = driver::Backend::LLVM;
    // cuda target: the files @jit(link=...) names, linked into the module with those of the
    // cuda.declare_device functions the kernel calls (kaji/linking.py).
    std::vector<std::string> linkFiles;
    // cuda target, nvrtc backend (Numba's lto=True): the kernel is compiled to LTO-IR and
    // linked with its files' LTO-IR by nvJitLink, optimised together (linked_module.h).
    bool lto = false;
  };

  Dispatcher(std::shared_ptr<driver::FunctionSource> source, py::object describeGlobals,
             std::vector<std::string> parameterNames, Options options);

  const std::string &name() const { return kernel_.source->functionName(); }
  driver::Target target() const { return settings_.target; }
  driver::Backend backend() const { return settings_.backend; }
  // Compiles for `signature` now (for the target's device), leaving launches free to compile
  // for other argument types.
  void compileSignature(const std::string &signature);
  // compileSignature(); from then on, launches use only the signatures given this way
  // (converting scalar arguments), as Numba does for eagerly compiled kernels.
  void addSignature(const std::string &signature);
  // "void(float32[::1], float32)" for each specialization compiled so far.
  std::vector<std::string> signatures() const;
  // The kaji IR, LLVM IR (for the dispatcher's target), or CUDA C++ or PTX (for the GPU,
  // whatever the target) of the kernel for `signature`.
  // `arch` ("sm_75") overrides the kernel's own for the LLVM IR, PTX and CUDA C++.
  std::string inspect(const std::string &signature, driver::Stage stage,
                      const std::string &arch = "") const;
  // The types of the kernel's variables for `signature`, by name.
  std::vector<std::pair<std::string, std::string>>
  localVariableTypes(const std::string &signature) const;
  // The function compiled for the GPU as a device function on its own (cuda.compile(device=
  // True)), for `signature`'s parameters and, when `resultDeclared`, its return type: its code
  // at `stage` for `arch` (the dispatcher's own when empty) and the type it returns.
  driver::ExportedDeviceFunction exportDeviceFunction(const std::string &signature,
                                                      bool resultDeclared, std::string symbol,
                                                      ir::Function::Export abi, driver::Stage stage,
                                                      const std::string &arch) const;
  // What link-time optimisation makes of the kernel for `signature` (and `arch`, where given)
  // with its files (Numba's inspect_lto_ptx). Throws std::runtime_error "LTO is not enabled"
  // (Numba's RuntimeError) unless the kernel was made with lto.
  LtoLinkedPtx ltoPtx(const std::string &signature, const std::string &arch = "") const;
  // The SASS of the kernel for `signature`, assembled for the target arch (nvdisasm or
  // cuobjdump from the CUDA toolkit; no GPU needed).
  std::string sass(const std::string &signature) const;
  // What the kernel for `signature` uses of the GPU: the driver's answer
  // (cuFuncGetAttribute) for the cuda target on a usable GPU, else ptxas's report on its
  // PTX for the target arch.
  driver::ResourceUsage resourceUsage(const std::string &signature);
  // The most blocks of `blockThreads` threads a cooperative launch of the kernel for
  // `signature` may have on the current device (the cpu target's fixed limit there).
  int64_t maxCooperativeGridBlocks(const std::string &signature, int64_t blockThreads,
                                   int64_t dynamicSharedBytes);
  // Whether the kernel for `signature` synchronizes its grid, and so is launched cooperatively
  // (Numba's overload.cooperative); the cpu target answers for the cuda target's code.
  bool cooperative(const std::string &signature);
  // The signature text a launch with `args` compiles for (Numba's specialize()).
  std::string signatureFor(const py::tuple &args);

  // `kernel[config]` (`self` is this dispatcher's Python object): a ConfiguredLaunch. The last
  // one is kept and given again while the configuration stays the same, as it does in the
  // usual `kernel[grid, block](...)` in a loop.
  py::object configure(py::handle self, py::handle config);
  // `args` is the tuple of arguments; `self` as for configure().
  void launch(const LaunchShape &shape, const runtime::Stream *stream, py::handle self,
              py::handle args);
  // The parameters `args` pack into for `kernel` (a specialization of this dispatcher, which
  // they must select), for a captured launch's graph node: no staging, nothing launched.
  void **packedParameters(LoadedKernel &kernel, py::handle args);
  // The block size forall() launches with: the occupancy API's for the specialization `args`
  // select (compiled and loaded if need be).
  int occupancyBlockSize(const py::tuple &args, py::handle sharedmem);

  // Numba's argument extensions: objects whose prepare_args(ty, val, stream=, retr=) each
  // argument passes through before a launch (ConfiguredLaunch); the user appends to it.
  const py::list &extensions() const { return extensions_; }

  // For cycle collection (cycle_collection.h): the globals callback, the kernel's only
  // reference. Dropped, it is None: a later compile raises TypeError; compiled
  // specializations still launch. The extensions are dropped too.
  template <class F> void forEachPythonReference(F &&f) const {
    f(kernel_.describeGlobals);
    f(lastConfig_);
    f(lastLaunch_);
    f(extensions_);
  }
  void breakCycles() {
    kernel_.describeGlobals = py::none();
    lastConfig_ = py::object();
    lastLaunch_ = py::object();
    PyList_SetSlice(extensions_.ptr(), 0, PY_SSIZE_T_MAX, nullptr);
  }

private:
  struct TypesHash {
    size_t operator()(const std::vector<uint32_t> &key) const;
  };

  using Key = std::vector<uint32_t>;

  // No structure when no parameter is a tuple, as launches without tuples key.
  frontend::Signature parameterTypes(const std::string &signature) const;
  // The arguments, tuples taken apart into their leaves, with how they group into the
  // parameters in structureScratch_ (left empty when no argument is a tuple). Throws
  // TypeError for a wrong count or an argument the target cannot take.
  std::vector<Argument> readArguments(py::handle args);
  // (where it runs: a device, or the host; argument types and structureScratch_): the
  // specialization cache key, in keyScratch_ (no allocation per launch).
  const Key &keyOf(uint32_t where, const std::vector<Argument> &arguments);
  // The parameter types a launch with `arguments` (and structureScratch_) compiles for:
  // theirs, or the eager signature that accepts them.
  frontend::Signature launchTypes(const std::vector<Argument> &arguments) const;
  void requireOnSelectedDevice(const std::vector<Argument> &arguments,
                               const runtime::Stream *stream) const;
  void launchOnDevice(const LaunchShape &shape, const runtime::Stream *stream, py::handle self,
                      py::handle args, std::vector<Argument> &arguments);
  void launchOnCpu(const LaunchShape &shape, std::vector<Argument> &arguments);
  LoadedKernel &specialization(std::vector<Argument> &arguments);
  CpuSpecialization &cpuSpecialization(const std::vector<Argument> &arguments);
  const CompiledKernel &compiled(const frontend::Signature &params, const std::string &arch);
  CpuSpecialization &compiledForCpu(const frontend::Signature &params);
  LoadedKernel &load(const CompiledKernel &compiled, int device);
  // What the module of a kernel compiled to `module` links: the kernel's own files (jit's
  // link=), then those of the CUDA C++ functions it calls, each once.
  std::vector<std::string> linkFilesOf(const driver::CompiledModule &module) const;
  // `module`, compiled with lto by `settings`, linked with its files: ltoLinkedPtx.
  LtoLinkedPtx ltoLinked(const driver::CompiledModule &module,
                         const driver::CompileRequest &settings) const;

  KernelDefinition kernel_;
  std::vector<std::string> parameterNames_;
  driver::CompileRequest settings_; // target and options; no kernels
  bool diskCache_;
  std::optional<int> sharedCarveout_;
  std::vector<std::string> linkFiles_;
  std::vector<frontend::Signature> eagerSignatures_;
  std::vector<std::unique_ptr<CompiledKernel>> compiled_;
  std::vector<std::unique_ptr<LoadedKernel>> loaded_;
  std::vector<std::unique_ptr<CpuSpecialization>> cpuCompiled_;
  // (device, argument types) → the loaded kernel that launches with them.
  std::unordered_map<Key, LoadedKernel *, TypesHash> launchCache_;
  // The entry of launchCache_ found last, checked before hashing: a loop launches one
  // specialization again and again.
  Key lastLaunchedKey_;
  LoadedKernel *lastLaunched_ = nullptr;
  // (host, argument types) → the host kernel that launches with them.
  std::unordered_map<Key, CpuSpecialization *, TypesHash> cpuLaunchCache_;
  Key keyScratch_;
  std::vector<frontend::ParameterStructure> structureScratch_;
  // The last configuration given to configure() and the ConfiguredLaunch made for it.
  py::object lastConfig_;
  py::object lastLaunch_;
  py::list extensions_;
};

// The arch the specializations for a device of `capability` are compiled for
// (specialization_cache.cpp).
std::string archFor(runtime::ComputeCapability capability);
// A specialization's parameter types as a signature, "void(float32[::1], float32)"
// (dispatcher_queries.cpp).
std::string signatureText(const std::vector<ir::Type> &params,
                          const std::vector<frontend::ParameterStructure> &structure);

} // namespace kaji::python
