// The compile pipeline, source → kaji IR → LLVM IR → PTX, as one call. Used by
// the CLI, the Python binding and the benchmarks; it owns no compiler logic of
// its own beyond ordering the stages.
#pragma once

#include "kaji/codegen/GpuBackend.h"
#include "kaji/codegen/cpu/CpuCodegen.h"
#include "kaji/driver/CompiledModule.h"
#include "kaji/driver/DiskCache.h"
#include "kaji/frontend/Environment.h"
#include "kaji/frontend/Parser.h"
#include "kaji/frontend/Signature.h"
#include "kaji/frontend/Source.h"
#include "kaji/ir/IR.h"
#include "kaji/ir/Type.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kaji::driver {

// CudaCpp: the CUDA C++ the nvrtc backend compiles; Cubin: the GPU binary for the request's
// arch (ptxas on the LLVM backend's PTX, NVRTC itself on the nvrtc backend's source); LtoIr:
// NVRTC's LTO-IR of that CUDA C++ (-dlto, the nvrtc backend only), for nvJitLink.
enum class Stage { IR, LLVM, PTX, CudaCpp, Cubin, LtoIr };

// How kaji IR becomes PTX for the GPU: LLVM's NVPTX backend, or CUDA C++ compiled by NVRTC
// (codegen/nvrtc). The cpu target always goes through LLVM.
enum class Backend { LLVM, NVRTC };

// "llvm" / "nvrtc", and back (nothing for another name).
const char *backendName(Backend backend);
std::optional<Backend> backendFromName(std::string_view name);

// A device function compiled on its own (frontend::exportDeviceFunction): the symbol code linked
// with it calls, its calling convention, and the signature's return type (none: what it returns).
struct DeviceFunctionExport {
  std::string symbol;
  ir::Function::Export abi = ir::Function::Export::CAbi;
  std::optional<ir::Type> result;
};

// One kernel to compile, specialised on its argument types.
struct KernelSpec {
  frontend::FunctionRef function; // parsed kernel with its environment
  std::vector<ir::Type> argTypes; // the leaves of the kernel's parameters, in order
  // How argTypes group into the parameters (tuples); empty: one type per parameter.
  std::vector<frontend::ParameterStructure> structure;
};

// Where a request's kernels run: the GPU (PTX, compile()) or this process's CPU (machine
// code loaded by the ORC JIT, compileCpu()).
enum class Target { CUDA, CPU };

// Every kernel of a request lands in one module (one PTX text, one entry each).
struct CompileRequest {
  std::vector<KernelSpec> kernels;
  Target target = Target::CUDA;
  codegen::PTXOptions ptx; // Target::CUDA
  // Target::CUDA: who makes the PTX. LLVM stands for NVRTC on GPUs newer than LLVM knows (sm_100
  // and later), where only NVRTC can.
  Backend backend = Backend::LLVM;
  // Target::CUDA, Backend::NVRTC only (Numba's lto=True): compile() makes the module's LTO-IR
  // (CompiledModule::ltoIr) instead of its PTX, for nvJitLink to optimise together with the
  // LTO-IR of the code it links (docs/python.md, "Link-time optimisation").
  bool lto = false;
  codegen::CpuOptions cpu; // Target::CPU
  bool optimizeIR = true;  // run kaji's default pass pipeline before codegen
  // Numba's debug=True: raise and assert report their exception on the cuda target too
  // (frontend::LoweringOptions::reportExceptions; the cpu target always reports), and
  // without fastmath `/`, `//` and `%` by zero raise ZeroDivisionError (divisionByZeroRaises).
  bool debug = false;
  // Where compile() looks up and stores the PTX (Target::CUDA only: host code lives in the
  // process and is never cached); null for no disk cache.
  const DiskCache *diskCache = nullptr;
  // Set: the request's one function is not a kernel but a device function exported this way.
  std::optional<DeviceFunctionExport> exported;
  // Every source text the kernels and their device functions come from, part of the disk
  // cache key (the AST keeps no text); required with diskCache.
  std::vector<frontend::SourceFile> sources;
};

// Kernels compiled for the CPU, loaded and callable: run them with
// runtime::CpuExecutor::launch (CpuKernel says how: usesBarrier, staticSharedBytes,
// frameBytes, recursive, threadStorageBytes).
struct CpuCompiledModule {
  std::vector<codegen::CpuKernel> kernels; // in request order
  CompileTimings timings;                  // codegen: summed over the kernels
};

// Parses `source`; see frontend::parseModule for what `errors` changes.
std::shared_ptr<const frontend::Module>
parse(const frontend::SourceFile &source,
      frontend::TopLevelErrors errors = frontend::TopLevelErrors::Throw);

// The top-level function `name` of `module` with environment `env`; throws
// std::invalid_argument naming the function if there is none.
frontend::FunctionRef findFunction(std::shared_ptr<const frontend::Module> module,
                                   std::string_view name,
                                   std::shared_ptr<const frontend::Environment> env);

// Compiles to PTX (LTO-IR with request.lto) with its CompiledModule record, or reads both from
// request.diskCache. Throws ir::CompileError for errors in the user's code, std::invalid_argument
// if request.target is not Target::CUDA, request.lto asks the LLVM backend for LTO-IR or a disk
// cache is given without sources.
CompiledModule compile(const CompileRequest &request);

// Compiles for this machine's CPU, whatever request.target says. Throws ir::CompileError for
// errors in the user's code. Thread-safe.
CpuCompiledModule compileCpu(const CompileRequest &request);

// The text of one stage: kaji IR after the pass pipeline, LLVM IR (for request.target; the
// LLVM backend), PTX, CUDA C++, a cubin's bytes or LTO-IR's (Target::CUDA only;
// std::invalid_argument for Target::CPU, for LLVM IR from the nvrtc backend and for LTO-IR from
// the LLVM backend). PTX is the backend's, before any link: request.lto changes no stage.
std::string emitStage(const CompileRequest &request, Stage stage);

// A device function compiled on its own: its code at `stage` and the type it returns.
struct ExportedDeviceFunction {
  std::string code;
  ir::Type result;
};

// emitStage() of a request with `exported` set; std::invalid_argument without.
ExportedDeviceFunction emitDeviceFunction(const CompileRequest &request, Stage stage);

// The types of the variables of the request's one kernel, its parameters among them, by name,
// as Numba spells types (frontend::localVariableTypes), for the request's target. Throws
// ir::CompileError as compile() does; std::invalid_argument for a request of another number
// of kernels.
std::vector<std::pair<std::string, std::string>> localVariableTypes(const CompileRequest &request);

// What the PTX of `request` depends on: sources, the kernels' environments (frontend::
// fingerprint), argument types, target options and the compiler version.
CacheKey cacheKey(const CompileRequest &request);

} // namespace kaji::driver
