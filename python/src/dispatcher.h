// The launch fast path of a @jit kernel: `kernel[grid, block, stream, shared](*args)` is one
// C++ call that types the arguments, finds the specialization (compiling and loading it on a
// miss), packs the parameters per the ABI of codegen/Codegen.h into a buffer kept with the
// specialization, and launches.
#pragma once

#include "arguments.h"
#include "compilation.h"

#include "kaji/runtime/Launch.h"
#include "kaji/runtime/Module.h"

#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace kaji::python {

namespace py = pybind11;

// Grid, block and dynamic shared memory as the user wrote them, checked only against the
// device at launch.
struct LaunchShape {
  runtime::Extent3 grid{1, 1, 1};
  runtime::Extent3 block{1, 1, 1};
  int64_t sharedBytes = 0;
};

// The PTX of one kernel for one target and argument types.
struct CompiledKernel {
  std::string arch;
  std::vector<ir::Type> paramTypes;
  std::string ptx;
  std::string entry;
};

// A CompiledKernel loaded on one device, with its preallocated parameter buffer.
struct LoadedKernel {
  const CompiledKernel *compiled;
  runtime::Module module;
  runtime::Function function;
  std::vector<uint64_t> slots; // one 8-byte slot per flattened parameter
  std::vector<void *> params;  // cuLaunchKernel's pointers, one into each slot
  int64_t sharedBytesOptedIn = 0;
};

class Dispatcher {
public:
  struct Options {
    bool fastMath = false;
    unsigned optLevel = 3;
  };

  Dispatcher(std::shared_ptr<FunctionSource> source, py::object describeGlobals,
             std::vector<std::string> parameterNames, Options options);

  const std::string &name() const { return kernel_.source->functionName(); }
  // Compiles for `signature` now; from then on, launches use only the signatures given this
  // way (converting scalar arguments), as Numba does for eagerly compiled kernels.
  void addSignature(const std::string &signature);
  // "void(float32[::1], float32)" for each specialization compiled so far.
  std::vector<std::string> signatures() const;
  // The kaji IR, LLVM IR or PTX of the kernel for `signature`.
  std::string inspect(const std::string &signature, driver::Stage stage) const;

  void launch(const LaunchShape &shape, const runtime::Stream *stream, const py::args &args);

private:
  struct TypesHash {
    size_t operator()(const std::vector<uint32_t> &key) const;
  };

  std::vector<ir::Type> parameterTypes(const std::string &signature) const;
  LoadedKernel &specialization(std::vector<Argument> &arguments);
  const CompiledKernel &compiled(const std::vector<ir::Type> &argTypes, const std::string &arch);
  const CompiledKernel &eagerMatch(const std::vector<Argument> &arguments, const std::string &arch);
  LoadedKernel &load(const CompiledKernel &compiled, int device);
  void pack(LoadedKernel &kernel, const std::vector<Argument> &arguments) const;

  KernelDefinition kernel_;
  std::vector<std::string> parameterNames_;
  codegen::PTXOptions ptxOptions_;
  std::vector<std::vector<ir::Type>> eagerSignatures_;
  std::vector<std::unique_ptr<CompiledKernel>> compiled_;
  std::vector<std::unique_ptr<LoadedKernel>> loaded_;
  // (device, argument types) → the loaded kernel that launches with them.
  std::unordered_map<std::vector<uint32_t>, LoadedKernel *, TypesHash> launchCache_;
};

// `kernel[grid, block]`, `kernel[grid, block, stream]`, `kernel[grid, block, stream, shared]`.
class ConfiguredLaunch {
public:
  ConfiguredLaunch(py::object dispatcher, const py::handle &config);
  void operator()(const py::args &args) const;

private:
  py::object dispatcherObject_; // keeps the kernel (and the stream below) alive
  Dispatcher *dispatcher_;
  LaunchShape shape_;
  py::object streamObject_;
  const runtime::Stream *stream_ = nullptr;
};

} // namespace kaji::python
