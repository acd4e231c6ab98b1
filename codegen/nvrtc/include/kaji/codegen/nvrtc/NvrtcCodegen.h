// The second GPU backend: kaji IR → CUDA C++ → NVRTC → PTX or cubin.
//
// The CUDA C++ keeps the kernel parameter ABI of the LLVM path (kaji/abi/KernelABI.h):
// each kernel is an `extern "C" __global__` function under its IR name whose parameters are
// the flattened kaji parameters (scalars; arrays as data pointer, shapes, byte strides; bool
// as one byte), so the runtime launches it without knowing which backend built it.
// NVRTC is loaded with dlopen on first use: nothing here links against it.
#pragma once

#include "kaji/codegen/GpuBackend.h"
#include "kaji/ir/IR.h"

#include <stdexcept>
#include <string>
#include <string_view>

namespace kaji::codegen::nvrtc {

// The NVRTC backend as the compile pipeline calls it: compileWithNvrtc below, entry names
// from cudaName.
const GpuBackend &nvrtcBackend();

// The CUDA C++ of every function of a verified module: kernels as `extern "C" __global__`,
// device functions as `static __device__`, each operation on its own line under a
// `#line N "file.py"` directive. It includes kaji's prelude (preludeName()). Throws
// ir::CompileError at an operation it cannot express. With `boundsCheck`, every array index
// is checked as PTXOptions::boundsCheck says.
std::string emitCUDA(const ir::Module &module, bool boundsCheck = false);

// The C++ name of `function`: its IR name, or "kaji_" + the IR name where that is a C++
// keyword or a name the emitted code uses itself (a kernel called `double`). A kernel's
// entry point in the PTX is this name.
std::string cudaName(const ir::Function &function);

// The header the emitted source includes, and its text (codegen/nvrtc/src/kaji_prelude.cuh).
std::string_view preludeName();
std::string_view preludeText();

// NVRTC cannot be loaded, or lacks an entry point kaji needs.
class NvrtcUnavailable : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// Also looks for libnvrtc.so* in `directory` (the Python package adds the
// nvidia-cuda-nvrtc wheel's), after $KAJI_NVRTC, $CUDA_HOME, $CUDA_PATH and /usr/local/cuda.
void addNvrtcSearchDirectory(const std::string &directory);
// The loaded library's path and version ("/usr/local/cuda/lib64/libnvrtc.so.13", 13.0);
// throws NvrtcUnavailable naming every place searched.
struct NvrtcInfo {
  std::string path;
  int major = 0;
  int minor = 0;
};
NvrtcInfo nvrtcInfo();

// Emits the module's CUDA C++ and compiles it with NVRTC to PTX for options.arch
// (`-arch=compute_XX`), with the rewrites of kaji/codegen/PtxasMiscompiledOps.h made. Not to a
// cubin: ptxas miscompiles the negations NVRTC's PTX can hold, so the driver assembles the
// rewritten PTX itself. fastMath adds --use_fast_math, lineInfo -lineinfo; NVRTC has no
// optimisation levels below its default, so optLevel is not used.
// Throws ir::CompileError with NVRTC's log when it rejects the source (at the user's line
// its #line directive names), NvrtcUnavailable without NVRTC. `timings` gets the emission
// as lowerMs and NVRTC as emitMs.
std::string compileWithNvrtc(const ir::Module &module, const PTXOptions &options,
                             CodegenTimings *timings = nullptr);

// NVRTC's log for a user's CUDA C++ file it rejected.
class NvrtcCompileError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// What NVRTC makes of a user's CUDA C++ file: PTX for the driver's linker, or LTO-IR (-dlto)
// for nvJitLink to optimise together with the other LTO-IR it links.
enum class DeviceCodeFormat { Ptx, LtoIr };

// A user's CUDA C++ file (cuda.declare_device's link=) compiled by NVRTC to relocatable code
// (-rdc=true, so its extern "C" __device__ functions stay for the linker) for `arch` ("sm_90"),
// its #include files searched in `includeDirectories` (-I, Numba's
// CUDA_NVRTC_EXTRA_SEARCH_PATHS), then in the CUDA toolkit's headers (the include/ beside the
// loaded NVRTC's lib/, or a CUDA wheel's, then $CUDA_HOME, $CUDA_PATH and /usr/local/cuda's).
// Throws NvrtcCompileError naming `fileName` with NVRTC's log, NvrtcUnavailable without NVRTC (or,
// for LTO-IR, with an NVRTC older than 12.0).
std::string compileCudaSource(const std::string &source, const std::string &fileName,
                              const std::string &arch,
                              DeviceCodeFormat format = DeviceCodeFormat::Ptx,
                              const std::vector<std::string> &includeDirectories = {});

// The module's CUDA C++ compiled by NVRTC to LTO-IR (-dlto) for options.arch, as
// compileWithNvrtc compiles it to PTX: for nvJitLink to link and optimise with the LTO-IR of the
// CUDA C++ the kernels call (Numba's lto=True). nvJitLink's PTX of it (-lto -ptx) then needs
// rewriteNvvmPtxForPtxas. Throws as compileWithNvrtc, and NvrtcUnavailable for an NVRTC older
// than 12.0.
std::string compileWithNvrtcToLtoIr(const ir::Module &module, const PTXOptions &options,
                                    CodegenTimings *timings = nullptr);

// PTX that NVVM made (NVRTC's, or nvJitLink's after link-time optimisation of NVRTC's LTO-IR)
// with the rewrites of kaji/codegen/PtxasMiscompiledOps.h it needs before ptxas: the
// miscompiled operations, and the unrounded float operations unless `fastMath` lets ptxas fuse
// them.
std::string rewriteNvvmPtxForPtxas(const std::string &ptx, bool fastMath);

} // namespace kaji::codegen::nvrtc
