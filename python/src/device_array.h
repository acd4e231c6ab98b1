// kaji.DeviceArray: an n-d array in device memory (a runtime::DeviceBuffer shared by all
// views of it) that kernels take without copies and other libraries read through
// `__cuda_array_interface__` v3. With the cpu target it is host-backed instead: the same
// object over a numpy buffer, so code written for the GPU runs unchanged on the CPU.
#pragma once

#include "array_interop.h"
#include "dtypes.h"

#include "kaji/ir/Type.h"
#include "kaji/runtime/Memory.h"
#include "kaji/runtime/Stream.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <optional>
#include <vector>

namespace kaji::python {

namespace py = pybind11;

// The stream a new array's memory is allocated on, from the device's memory pool, and freed
// on (runtime::DeviceBuffer); null for memory that any stream may use at once.
using AllocationStream = std::shared_ptr<const runtime::Stream>;

class DeviceArray {
public:
  DeviceArray(Element element, std::vector<int64_t> shape, std::vector<int64_t> strides,
              std::shared_ptr<runtime::DeviceBuffer> buffer, runtime::CUdeviceptr data,
              py::object hostBuffer = py::object());
  // Uninitialized memory, row-major or column-major: on the selected device, or in host
  // memory when `onHost`.
  static DeviceArray empty(std::vector<int64_t> shape, Element element, bool fortranOrder,
                           bool onHost = false, AllocationStream allocateOn = nullptr);
  // Uninitialized and dense, with `axisOrder` (a permutation of the axes, fastest-varying
  // first) deciding the strides: numpy's empty_like of a strided array.
  static DeviceArray emptyInAxisOrder(std::vector<int64_t> shape, Element element,
                                      const std::vector<int64_t> &axisOrder, bool onHost = false,
                                      AllocationStream allocateOn = nullptr);
  // Uninitialized, with the given strides (negative ones too): the bytes they span.
  static DeviceArray emptyWithStrides(std::vector<int64_t> shape, std::vector<int64_t> strides,
                                      Element element, bool onHost = false,
                                      AllocationStream allocateOn = nullptr);
  // Uninitialized device memory in `host`'s shape and strides: what fromHost() makes, without
  // the copy (cuda.Out's array).
  static DeviceArray emptyLike(const py::array &host, AllocationStream allocateOn = nullptr);
  // A copy of `host` (on the device unless `onHost`) with the same strides. A strided view
  // is copied with the bytes it spans, as Numba does, so that `x.strides` reads the same in
  // a kernel on every target.
  static DeviceArray fromHost(const py::array &host, const runtime::Stream *stream = nullptr,
                              bool onHost = false, AllocationStream allocateOn = nullptr);

  // A view of device memory another library owns (described by its
  // __cuda_array_interface__): `owner` stays alive as long as any view of it does.
  static DeviceArray foreign(const ArrayView &view, py::object owner);

  const Element &element() const { return element_; }
  const std::vector<int64_t> &shape() const { return shape_; }
  const std::vector<int64_t> &strides() const { return strides_; }
  // The first element's address: in device memory, or in host memory when onHost().
  runtime::CUdeviceptr data() const { return data_; }
  bool onHost() const { return bool(hostBuffer_); }
  // The device whose memory holds the elements; -1 for a host-backed array.
  int device() const { return buffer_ ? buffer_->device() : -1; }
  int64_t itemSize() const { return element_.size(); }
  int64_t size() const;
  ir::Layout layout() const { return argumentType_.layout(); }
  // The type a kernel taking this array sees (element, rank and layout), which the launch
  // path reads at every launch: worked out once, as an array's shape and strides never change.
  const ir::Type &argumentType() const { return argumentType_; }
  bool contiguous() const { return layout() != ir::Layout::Any; }
  // The stream the array was made on or bound to (null: none), which its copies default to.
  const runtime::Stream *stream() const { return stream_.get(); }
  // The bytes its elements span, as Numba's alloc_size: 0 for an array without elements.
  int64_t spanBytes() const;
  // A view of the same memory with `stream` as its stream (Numba's bind).
  DeviceArray bound(AllocationStream stream) const;

  // A new host array with this array's contents (and, when contiguous, its layout).
  py::array copyToHost(const runtime::Stream *stream) const;
  // Into `host`, which must have this array's shape and dtype.
  void copyToHost(py::array &host, const runtime::Stream *stream) const;
  // From `host`, which must have this array's shape.
  void copyFromHost(const py::array &host, const runtime::Stream *stream);
  // From `source`, which must have this array's shape, dtype and (C or F) contiguous layout,
  // on any device: a peer copy between GPUs (queued on `stream`, of this array's device).
  void copyFromDevice(const DeviceArray &source, const runtime::Stream *stream);

  // numpy's basic indexing (ints, slices, Ellipsis): a view, or a host scalar when every
  // axis is indexed by an int, read after the work queued on `stream` (null: synchronously).
  py::object getItem(const py::handle &index, const runtime::Stream *stream) const;
  // d[index] = value: `value` (a number or anything numpy broadcasts to the indexed part) is
  // converted to this array's dtype and copied in on `stream` (null: synchronously).
  void setItem(const py::handle &index, const py::handle &value, const runtime::Stream *stream);
  // A view with `shape` (one extent may be -1) over the same elements read in C or F
  // order, with numpy's strides; NotImplementedError (Numba's) where numpy would copy.
  DeviceArray reshape(std::vector<int64_t> shape, bool fortranOrder) const;
  // A 1-d view of an array contiguous in C or F order (NotImplementedError for any other,
  // which numpy copies).
  DeviceArray raveled(bool fortranOrder) const;
  // numpy's broadcast_to: a view, to be read only, with `shape`, whose new axes and stretched
  // axes of extent 1 have stride 0; ValueError naming both shapes where numpy's rule fails.
  DeviceArray broadcastTo(const std::vector<int64_t> &shape) const;
  // numpy's transpose: a view with the axes in the order `axes` lists (reversed when empty).
  DeviceArray transposed(std::vector<int64_t> axes) const;
  // numpy's view(dtype): the same bytes as `element`s. Another item size needs a contiguous
  // last axis holding a whole number of the new items; only that axis changes.
  DeviceArray viewAs(Element element) const;
  // numpy's squeeze: a view without the axes of extent 1, or only those in `axes`.
  DeviceArray squeezed(const std::optional<std::vector<int64_t>> &axes) const;
  py::dict cudaArrayInterface() const;

private:
  // The part of this array `index` selects, 0-d when every axis is indexed by an int.
  DeviceArray view(const py::handle &index) const;
  // Every element from `value`, converted to this array's dtype and broadcast to its shape.
  void assign(const py::handle &value, const runtime::Stream *stream);
  void requireShapeOf(const py::array &host, const char *what) const;
  // Another view of this array's memory, on the same stream.
  DeviceArray viewOf(Element element, std::vector<int64_t> shape, std::vector<int64_t> strides,
                     runtime::CUdeviceptr data) const;
  void copyIn(runtime::CUdeviceptr dst, const void *src, size_t bytes,
              const runtime::Stream *stream) const;
  void copyOut(void *dst, runtime::CUdeviceptr src, size_t bytes,
               const runtime::Stream *stream) const;

  Element element_;
  std::vector<int64_t> shape_;
  std::vector<int64_t> strides_;
  std::shared_ptr<runtime::DeviceBuffer> buffer_;
  runtime::CUdeviceptr data_;
  py::object hostBuffer_; // owns the memory of a host-backed array (null otherwise)
  // The kaji stream the array was made on, which its views share: work on its memory is
  // queued there, and __cuda_array_interface__ names it to consumers (null: none).
  AllocationStream stream_;
  ir::Type argumentType_;
};

} // namespace kaji::python
