// Arrays other libraries own, read without copying: anything with `__cuda_array_interface__`
// (v3: CuPy, PyTorch, Numba, ...) or DLPack (`__dlpack__` on a CUDA device: JAX, ...).
#pragma once

#include "kaji/ir/Type.h"
#include "kaji/runtime/CudaDriverTypes.h"

#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace kaji::python {

namespace py = pybind11;

// Where an array's elements are: device pointer, shape, strides in bytes.
struct ArrayView {
  ir::ScalarKind element = ir::ScalarKind::Float32;
  runtime::CUdeviceptr data = 0;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
  // Keeps a DLPack tensor alive until the view is gone (then its deleter runs).
  std::shared_ptr<void> owner;
  // The stream the producer's pending work on the array is queued on, which a launch must
  // wait for; null when the producer says there is none.
  runtime::CUstream producerStream = nullptr;
};

// Whether the strides are those of a row-major (C) or column-major (F) array. Axes of extent 1
// do not count, as in numpy; an empty array is both.
bool isContiguous(std::span<const int64_t> shape, std::span<const int64_t> strides,
                  int64_t itemSize, bool fortranOrder);
// C when C-contiguous, else F when F-contiguous, else Any.
ir::Layout layoutOf(std::span<const int64_t> shape, std::span<const int64_t> strides,
                    int64_t itemSize);
// Row-major (C) or column-major (F) strides in bytes.
std::vector<int64_t> contiguousStrides(std::span<const int64_t> shape, int64_t itemSize,
                                       bool fortranOrder);
// The same, written over `strides` (whose storage is reused).
void assignContiguousStrides(std::span<const int64_t> shape, int64_t itemSize, bool fortranOrder,
                             std::vector<int64_t> &strides);

// Numba's CUDA_ARRAY_INTERFACE_SYNC: whether work on a foreign array waits for the stream its
// producer names (a launch orders that stream's work before the kernel, on the device;
// as_cuda_array synchronizes it). On unless turned off.
bool waitsForProducers();
void setWaitsForProducers(bool wait);

// The view an object's `__cuda_array_interface__` describes, or false when it has none.
// Throws TypeError naming what is wrong with a malformed or unsupported one.
bool cudaArrayInterfaceView(py::handle object, ArrayView &view);
// The view of an object exporting DLPack on a CUDA device, or false when it exports none.
bool dlpackView(py::handle object, ArrayView &view);

} // namespace kaji::python
