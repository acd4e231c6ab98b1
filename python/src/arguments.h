// One kernel argument as the launch fast path sees it: its kaji type (the specialization key)
// and what gets packed: a scalar's value, or an array's device pointer, shape and strides.
// For the cuda target numpy arrays are staged: copied to a temporary device array before the
// launch and back after it (Numba's semantics). For the cpu target arrays are host memory:
// numpy arrays are used in place (read-only ones through a private copy, since the kernel
// may write), kaji device arrays must be host-backed.
#pragma once

#include "array_interop.h"
#include "device_array.h"
#include "known_arrays.h"
#include "scalars.h"

#include "kaji/ir/Type.h"

#include <pybind11/numpy.h>

#include <memory>
#include <optional>
#include <span>
#include <string>

namespace kaji::python {

struct Argument {
  // User-provided, so that value-initialization (`std::vector<Argument>(n)` at each launch) runs
  // the member initializers alone instead of first zeroing all of the object's bytes.
  Argument() {}

  ir::Type type;
  ScalarValue scalar;
  runtime::CUdeviceptr data = 0;
  int device = -1; // the GPU holding a kaji device array's elements (-1: unknown or host)
  std::span<const int64_t> shape;
  std::span<const int64_t> strides;

  // Owners of what shape/strides point into, for arrays kaji does not own.
  ArrayView foreign;
  py::object host; // a numpy array (py::array's default constructor would allocate one)
  // On the heap: staging is rare, and every launch allocates its arguments, small enough for
  // the allocator's fast path without it.
  std::unique_ptr<DeviceArray> staged;
  py::object hostCopy; // cpu target: the writable copy of a read-only numpy array
  // Which ways a numpy array is copied around a cuda launch: cuda.In(a) only to the device,
  // cuda.Out(a) only back, a plain array or cuda.InOut(a) both.
  bool copyIn = true;
  bool copyOut = true;
  // A number type passed as a value (`np.float32`): no leaf, the kernel is specialized on it
  // (frontend::ParameterStructure::typeValue). The launch takes it out of the arguments.
  std::optional<ir::ScalarKind> typeValue;

  bool needsStaging() const { return host && !staged; }
  // Copies the numpy array to a new device array (after the work queued on `stream`); on a
  // kaji stream the array is stream-ordered memory from the pool. The launch drops it before
  // it returns, so the stream, which the launch holds, outlives it.
  void stage(const runtime::Stream *stream);
  // Copies the device array back into the numpy array unless that is read-only.
  void unstage(const runtime::Stream *stream);
};

// Where the kernel taking an argument runs.
enum class ArgumentTarget { Cuda, Cpu };

// Reads `object`, the kernel's argument number `index` (named `parameter`), into `argument`;
// `knownArrays` is shared by the arguments of one launch. Throws TypeError naming the argument
// when kaji kernels for `target` cannot take it.
void readArgument(py::handle object, Argument &argument, const std::string &kernel, size_t index,
                  const std::string &parameter, ArgumentTarget target,
                  KnownArrayReader &knownArrays);

// `object` read as a kernel argument for `target` on its own (what typeof shows).
Argument inspectArgument(py::handle object, ArgumentTarget target);

} // namespace kaji::python
