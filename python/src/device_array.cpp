#include "device_array.h"
#include "kernel_exceptions.h"

#include "array_interop.h"
#include "array_sizes.h"
#include "dtypes.h"
#include "host_memory.h"
#include "launch_stream.h"
#include "shared_reference.h"

#include "bindings.h"

#include "kaji/runtime/Context.h"
#include "kaji/runtime/PageLockedMemory.h"
#include "kaji/runtime/PeerCopy.h"

#include <pybind11/stl.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <optional>
#include <string>

namespace kaji::python {

namespace {

std::vector<int64_t> hostShape(const py::array &host) {
  return std::vector<int64_t>(host.shape(), host.shape() + host.ndim());
}

std::vector<int64_t> hostStrides(const py::array &host) {
  return std::vector<int64_t>(host.strides(), host.strides() + host.ndim());
}

// numpy's _attempt_nocopy_reshape: the strides that view the elements of a non-contiguous
// array of `oldShape` and `oldStrides` (at least one element) in `shape`, read in C or F order,
// or none where the groups of old axes that make up each group of new ones do not merge
// into one stride.
std::optional<std::vector<int64_t>> stridesWithoutCopy(const std::vector<int64_t> &oldShape,
                                                       const std::vector<int64_t> &oldStrides,
                                                       const std::vector<int64_t> &shape,
                                                       int64_t itemSize, bool fortranOrder) {
  // Axes of extent 1 take any stride: left out of the old axes, given one at the end.
  std::vector<int64_t> oldExtents, oldSteps;
  for (size_t axis = 0; axis < oldShape.size(); ++axis)
    if (oldShape[axis] != 1) {
      oldExtents.push_back(oldShape[axis]);
      oldSteps.push_back(oldStrides[axis]);
    }
  std::vector<int64_t> strides(shape.size());
  size_t oldFirst = 0, oldEnd = 1, first = 0, end = 1;
  while (first < shape.size() && oldFirst < oldExtents.size()) {
    // The smallest groups [first, end) and [oldFirst, oldEnd) of equal element counts.
    int64_t count = shape[first], oldCount = oldExtents[oldFirst];
    while (count != oldCount) {
      if (count < oldCount)
        count *= shape[end++];
      else
        oldCount *= oldExtents[oldEnd++];
    }
    for (size_t axis = oldFirst; axis + 1 < oldEnd; ++axis) {
      bool merge = fortranOrder ? oldSteps[axis + 1] == oldExtents[axis] * oldSteps[axis]
                                : oldSteps[axis] == oldExtents[axis + 1] * oldSteps[axis + 1];
      if (!merge)
        return std::nullopt;
    }
    if (fortranOrder) {
      strides[first] = oldSteps[oldFirst];
      for (size_t axis = first + 1; axis < end; ++axis)
        strides[axis] = strides[axis - 1] * shape[axis - 1];
    } else {
      strides[end - 1] = oldSteps[oldEnd - 1];
      for (size_t axis = end - 1; axis > first; --axis)
        strides[axis - 1] = strides[axis] * shape[axis];
    }
    first = end++;
    oldFirst = oldEnd++;
  }
  // The new shape's trailing axes of extent 1.
  int64_t trailing = first == 0 ? itemSize : strides[first - 1];
  if (fortranOrder && first > 0)
    trailing *= shape[first - 1];
  for (size_t axis = first; axis < shape.size(); ++axis)
    strides[axis] = trailing;
  return strides;
}

// Numba's error for what kaji, as Numba, does not do (a reshape or ravel needing a copy, IPC).
[[noreturn]] void notImplemented(const std::string &message) {
  PyErr_SetString(PyExc_NotImplementedError, message.c_str());
  throw py::error_already_set();
}

// numpy's `order` of reshape and ravel (`what`), whether it reads the elements in F order:
// 'A' (and 'K' where `what` takes it) is F for an array F- and not C-contiguous.
bool readsInFortranOrder(const DeviceArray &a, const std::string &order, const char *what,
                         bool takesK) {
  if (order == "A" || (takesK && order == "K"))
    return isContiguous(a.shape(), a.strides(), a.itemSize(), true) &&
           !isContiguous(a.shape(), a.strides(), a.itemSize(), false);
  if (order != "C" && order != "F")
    throw py::value_error(std::string(what) + ": order must be " +
                          (takesK ? "'C', 'F', 'A' or 'K'" : "'C', 'F' or 'A'") + ", not '" +
                          order + "'");
  return order == "F";
}

// Pageable host memory may be reused by the caller as soon as a copy returns, and the driver
// may still be reading or writing it: wait for the stream unless the memory is page-locked.
void finishUnlessPageLocked(const void *host, size_t bytes, const runtime::Stream &stream) {
  if (!runtime::isPageLocked(host, bytes))
    stream.synchronize();
}

} // namespace

DeviceArray::DeviceArray(Element element, std::vector<int64_t> shape, std::vector<int64_t> strides,
                         std::shared_ptr<runtime::DeviceBuffer> buffer, runtime::CUdeviceptr data,
                         py::object hostBuffer)
    : element_(element), shape_(std::move(shape)), strides_(std::move(strides)),
      buffer_(std::move(buffer)), data_(data), hostBuffer_(std::move(hostBuffer)),
      argumentType_(element_.arrayType(unsigned(shape_.size()),
                                       layoutOf(shape_, strides_, element_.size()))) {}

// Copies that follow the work queued on `stream` when one is given. They are done on return,
// except that a copy from or to page-locked host memory on a stream is left queued there, as
// Numba's are: the caller synchronizes the stream before touching that memory. A host-backed
// array copies with memcpy: the cpu target has no queued work.
void DeviceArray::copyIn(runtime::CUdeviceptr dst, const void *src, size_t bytes,
                         const runtime::Stream *stream) const {
  if (bytes == 0)
    return;
  if (onHost()) {
    std::memcpy(reinterpret_cast<void *>(dst), src, bytes);
    return;
  }
  if (!stream)
    return runtime::copyHostToDevice(dst, src, bytes);
  runtime::copyHostToDeviceAsync(dst, src, bytes, *stream);
  finishUnlessPageLocked(src, bytes, *stream);
}

void DeviceArray::copyOut(void *dst, runtime::CUdeviceptr src, size_t bytes,
                          const runtime::Stream *stream) const {
  if (bytes == 0)
    return;
  if (onHost()) {
    std::memcpy(dst, reinterpret_cast<const void *>(src), bytes);
    return;
  }
  if (!stream)
    return runtime::copyDeviceToHost(dst, src, bytes);
  runtime::copyDeviceToHostAsync(dst, src, bytes, *stream);
  finishUnlessPageLocked(dst, bytes, *stream);
}

DeviceArray DeviceArray::empty(std::vector<int64_t> shape, Element element, bool fortranOrder,
                               bool onHost, AllocationStream allocateOn) {
  std::vector<int64_t> axisOrder(shape.size());
  std::iota(axisOrder.begin(), axisOrder.end(), 0);
  if (!fortranOrder)
    std::reverse(axisOrder.begin(), axisOrder.end());
  return emptyInAxisOrder(std::move(shape), element, axisOrder, onHost, std::move(allocateOn));
}

DeviceArray DeviceArray::emptyInAxisOrder(std::vector<int64_t> shape, Element element,
                                          const std::vector<int64_t> &axisOrder, bool onHost,
                                          AllocationStream allocateOn) {
  int64_t bytes = checkedElementCount(shape, element.size()) * element.size();
  std::vector<int64_t> sorted = axisOrder;
  std::sort(sorted.begin(), sorted.end());
  for (size_t axis = 0; axis < sorted.size(); ++axis)
    if (sorted.size() != shape.size() || sorted[axis] != int64_t(axis))
      throw py::value_error("the axis order " + shapeText(axisOrder) +
                            " is not a permutation of the axes of shape " + shapeText(shape));
  // numpy (since 1.23) gives a new array without elements zero strides, so that none of its
  // strides can step outside the byte it allocates; kaji's strides are numpy's.
  std::vector<int64_t> strides(shape.size(), 0);
  int64_t stride = element.size();
  if (bytes != 0)
    for (int64_t axis : axisOrder) {
      strides[size_t(axis)] = stride;
      stride *= shape[size_t(axis)];
    }
  return emptyWithStrides(std::move(shape), std::move(strides), element, onHost,
                          std::move(allocateOn));
}

DeviceArray DeviceArray::emptyWithStrides(std::vector<int64_t> shape, std::vector<int64_t> strides,
                                          Element element, bool onHost,
                                          AllocationStream allocateOn) {
  if (strides.size() != shape.size())
    throw py::value_error("strides " + shapeText(strides) + " do not match the shape " +
                          shapeText(shape));
  checkedElementCount(shape, element.size());
  auto [low, high] = byteExtent(shape, strides, element.size());
  size_t bytes = size_t(high - low);
  if (onHost) {
    py::array memory = limitedHostMemory(bytes);
    auto start = runtime::CUdeviceptr(reinterpret_cast<uintptr_t>(memory.mutable_data()));
    return DeviceArray(element, std::move(shape), std::move(strides), nullptr,
                       start - runtime::CUdeviceptr(low), std::move(memory));
  }
  auto buffer = std::make_shared<runtime::DeviceBuffer>(bytes, allocateOn);
  runtime::CUdeviceptr start = buffer->pointer();
  DeviceArray array(element, std::move(shape), std::move(strides), std::move(buffer),
                    start - runtime::CUdeviceptr(low));
  array.stream_ = std::move(allocateOn);
  return array;
}

DeviceArray DeviceArray::foreign(const ArrayView &view, py::object owner) {
  // The owner rides in the buffer's control block: the aliasing pointer itself is null, as
  // kaji allocated nothing.
  std::shared_ptr<runtime::DeviceBuffer> buffer(sharedReference(std::move(owner)), nullptr);
  return DeviceArray(view.element, view.shape, view.strides, std::move(buffer), view.data);
}

DeviceArray DeviceArray::emptyLike(const py::array &host, AllocationStream allocateOn) {
  return emptyWithStrides(hostShape(host), hostStrides(host), elementFromDtype(host.dtype()), false,
                          std::move(allocateOn));
}

DeviceArray DeviceArray::fromHost(const py::array &hostArray, const runtime::Stream *stream,
                                  bool onHost, AllocationStream allocateOn) {
  Element element = elementFromDtype(hostArray.dtype());
  if (hostArray.flags() & (py::array::c_style | py::array::f_style)) {
    bool fortranOrder = !(hostArray.flags() & py::array::c_style);
    DeviceArray device =
        empty(hostShape(hostArray), element, fortranOrder, onHost, std::move(allocateOn));
    device.copyIn(device.data_, hostArray.data(), size_t(hostArray.nbytes()), stream);
    return device;
  }
  std::vector<int64_t> shape = hostShape(hostArray), strides = hostStrides(hostArray);
  auto [low, high] = byteExtent(shape, strides, element.size());
  const char *span = static_cast<const char *>(hostArray.data()) + low;
  size_t bytes = size_t(high - low);
  if (onHost) {
    py::array copy = limitedHostMemory(bytes);
    std::memcpy(copy.mutable_data(), span, bytes);
    auto data = runtime::CUdeviceptr(reinterpret_cast<uintptr_t>(copy.mutable_data()) - low);
    return DeviceArray(element, std::move(shape), std::move(strides), nullptr, data,
                       std::move(copy));
  }
  auto buffer = std::make_shared<runtime::DeviceBuffer>(bytes, allocateOn);
  runtime::CUdeviceptr spanStart = buffer->pointer();
  DeviceArray device(element, std::move(shape), std::move(strides), std::move(buffer),
                     spanStart - runtime::CUdeviceptr(low));
  device.stream_ = std::move(allocateOn);
  device.copyIn(spanStart, span, bytes, stream);
  return device;
}

DeviceArray DeviceArray::viewOf(Element element, std::vector<int64_t> shape,
                                std::vector<int64_t> strides, runtime::CUdeviceptr data) const {
  DeviceArray view(element, std::move(shape), std::move(strides), buffer_, data, hostBuffer_);
  view.stream_ = stream_;
  return view;
}

int64_t DeviceArray::spanBytes() const {
  auto [low, high] = byteExtent(shape_, strides_, itemSize());
  return high - low;
}

DeviceArray DeviceArray::bound(AllocationStream stream) const {
  DeviceArray view = *this;
  view.stream_ = std::move(stream);
  return view;
}

int64_t DeviceArray::size() const {
  return std::accumulate(shape_.begin(), shape_.end(), int64_t(1), std::multiplies<>());
}

py::array DeviceArray::copyToHost(const runtime::Stream *stream) const {
  py::dtype dtype = numpyDtype(element_);
  if (contiguous()) {
    py::array host(dtype, shape_, strides_);
    copyOut(host.mutable_data(), data_, size_t(size() * itemSize()), stream);
    return host;
  }
  // A strided view: fetch the bytes it spans, then let numpy gather the elements.
  auto [low, high] = byteExtent(shape_, strides_, itemSize());
  py::array_t<uint8_t> span(high - low);
  copyOut(span.mutable_data(), data_ + low, size_t(high - low), stream);
  py::array view(dtype, shape_, strides_, span.data() - low, span);
  return view.attr("copy")();
}

void DeviceArray::copyToHost(py::array &host, const runtime::Stream *stream) const {
  requireShapeOf(host, "copy_to_host");
  if (!host.writeable())
    throw py::value_error("copy_to_host: the destination array is read-only");
  bool sameDtype = elementFromDtype(host.dtype()) == element_;
  if (sameDtype && contiguous() && hostStrides(host) == strides_) {
    copyOut(host.mutable_data(), data_, size_t(size() * itemSize()), stream);
    return;
  }
  py::module_::import("numpy").attr("copyto")(host, copyToHost(stream));
}

void DeviceArray::copyFromHost(const py::array &hostArray, const runtime::Stream *stream) {
  requireShapeOf(hostArray, "copy_to_device");
  assign(hostArray, stream);
}

void DeviceArray::copyFromDevice(const DeviceArray &source, const runtime::Stream *stream) {
  if (source.shape_ != shape_ || source.element_ != element_)
    throw py::value_error("copy_to_device: the source is " + shapeText(source.shape_) + " " +
                          elementName(source.element_) + ", the destination " + shapeText(shape_) +
                          " " + elementName(element_));
  size_t bytes = size_t(size() * itemSize());
  if (bytes == 0 || source.data_ == data_) // an empty array's strides do not matter
    return;
  // One memcpy: Numba's messages.
  if (!contiguous() || !source.contiguous())
    throw py::value_error("Array contains non-contiguous buffer and cannot be transferred as a "
                          "single memory region. Please ensure contiguous buffer with numpy "
                          ".ascontiguousarray()");
  if (source.strides_ != strides_)
    throw py::value_error("incompatible strides: " + shapeText(strides_) + " vs. " +
                          shapeText(source.strides_));
  if (source.onHost())
    return copyIn(data_, reinterpret_cast<const void *>(source.data_), bytes, stream);
  if (onHost())
    return source.copyOut(reinterpret_cast<void *>(data_), source.data_, bytes, stream);
  // The device of memory kaji did not allocate (another library's array, another process's
  // CUDA IPC memory) is unknown; with unified addressing the copy goes as between two arrays of
  // the known one's device.
  int sourceDevice = source.device() >= 0 ? source.device() : device();
  int destinationDevice = device() >= 0 ? device() : sourceDevice;
  if (destinationDevice < 0)
    sourceDevice = destinationDevice = runtime::selectedDevice();
  runtime::copyPeer(data_, destinationDevice, source.data_, sourceDevice, bytes, stream);
}

DeviceArray DeviceArray::broadcastTo(const std::vector<int64_t> &shape) const {
  size_t ndim = shape.size();
  if (shape_.size() > ndim)
    throw py::value_error("cannot broadcast an array of shape " + shapeText(shape_) +
                          " to the shape " + shapeText(shape) + " of fewer dimensions");
  size_t added = ndim - shape_.size();
  std::vector<int64_t> strides(ndim, 0);
  for (size_t axis = added; axis < ndim; ++axis) {
    int64_t extent = shape_[axis - added];
    if (extent == shape[axis])
      strides[axis] = strides_[axis - added];
    else if (extent != 1)
      throw py::value_error("cannot broadcast an array of shape " + shapeText(shape_) +
                            " to the shape " + shapeText(shape));
  }
  return viewOf(element_, shape, std::move(strides), data_);
}

DeviceArray DeviceArray::transposed(std::vector<int64_t> axes) const {
  size_t ndim = shape_.size();
  if (axes.empty()) {
    for (size_t axis = ndim; axis-- > 0;)
      axes.push_back(int64_t(axis));
  }
  if (axes.size() != ndim)
    throw py::value_error("transpose: axes " + shapeText(axes) + " don't match a " +
                          std::to_string(ndim) + "-d array");
  std::vector<int64_t> shape, strides;
  std::vector<bool> seen(ndim, false);
  for (int64_t axis : axes) {
    int64_t normalized = axis < 0 ? axis + int64_t(ndim) : axis;
    // numpy's messages.
    if (normalized < 0 || normalized >= int64_t(ndim))
      throw py::value_error("axis " + std::to_string(axis) +
                            " is out of bounds for array of "
                            "dimension " +
                            std::to_string(ndim));
    if (seen[size_t(normalized)])
      throw py::value_error("repeated axis in transpose");
    seen[size_t(normalized)] = true;
    shape.push_back(shape_[size_t(normalized)]);
    strides.push_back(strides_[size_t(normalized)]);
  }
  return viewOf(element_, std::move(shape), std::move(strides), data_);
}

DeviceArray DeviceArray::viewAs(Element element) const {
  int64_t newSize = element.size();
  std::vector<int64_t> shape = shape_, strides = strides_;
  if (newSize != itemSize()) {
    // numpy's rule (since 1.23): only the last axis changes, so only it must be contiguous.
    bool lastAxisContiguous =
        !shape.empty() && (shape.back() == 1 || size() == 0 || strides.back() == itemSize());
    // numpy's messages.
    if (!lastAxisContiguous)
      throw py::value_error("To change to a dtype of a different size, the last axis must be "
                            "contiguous");
    int64_t lastBytes = shape.back() * itemSize();
    if (newSize < itemSize() && itemSize() % newSize != 0)
      throw py::value_error("When changing to a smaller dtype, its size must be a divisor of the "
                            "size of original dtype");
    if (newSize > itemSize() && lastBytes % newSize != 0)
      throw py::value_error("When changing to a larger dtype, its size must be a divisor of the "
                            "total size in bytes of the last axis of the array.");
    shape.back() = lastBytes / newSize;
    strides.back() = newSize;
  }
  return viewOf(element, std::move(shape), std::move(strides), data_);
}

DeviceArray DeviceArray::squeezed(const std::optional<std::vector<int64_t>> &axes) const {
  size_t ndim = shape_.size();
  std::vector<bool> drop(ndim, !axes);
  if (axes)
    for (int64_t axis : *axes) {
      int64_t normalized = axis < 0 ? axis + int64_t(ndim) : axis;
      if (normalized < 0 || normalized >= int64_t(ndim))
        throw py::value_error("squeeze: axis " + std::to_string(axis) + " is out of bounds for a " +
                              std::to_string(ndim) + "-d array");
      if (shape_[size_t(normalized)] != 1)
        throw py::value_error("squeeze: cannot select axis " + std::to_string(axis) +
                              ", whose extent is " + std::to_string(shape_[size_t(normalized)]) +
                              ", not 1");
      drop[size_t(normalized)] = true;
    }
  std::vector<int64_t> shape, strides;
  for (size_t axis = 0; axis < ndim; ++axis)
    if (!(drop[axis] && shape_[axis] == 1)) {
      shape.push_back(shape_[axis]);
      strides.push_back(strides_[axis]);
    }
  return viewOf(element_, std::move(shape), std::move(strides), data_);
}

void DeviceArray::requireShapeOf(const py::array &host, const char *what) const {
  if (hostShape(host) != shape_)
    throw py::value_error(std::string(what) + ": shapes differ, " + shapeText(hostShape(host)) +
                          " on the host and " + shapeText(shape_) + " on the device");
}

py::object DeviceArray::getItem(const py::handle &index, const runtime::Stream *stream) const {
  DeviceArray selected = view(index);
  if (!selected.shape_.empty())
    return py::cast(std::move(selected));
  py::array scalar(numpyDtype(element_), std::vector<int64_t>{});
  copyOut(scalar.mutable_data(), selected.data_, size_t(itemSize()), stream);
  return scalar[py::tuple()];
}

void DeviceArray::setItem(const py::handle &index, const py::handle &value,
                          const runtime::Stream *stream) {
  view(index).assign(value, stream);
}

namespace {

// `value` as a numpy array of `shape`, broadcast as numpy's `a[...] = value` broadcasts, and
// refused with its ValueError ("could not broadcast input array from shape (2,) into shape
// (5,)"), which broadcast_to words otherwise.
py::array broadcastForAssignment(const py::module_ &numpy, const py::handle &value,
                                 const py::dtype &dtype, const std::vector<int64_t> &shape) {
  py::object values = numpy.attr("asarray")(value, dtype);
  try {
    return numpy.attr("broadcast_to")(values, py::tuple(py::cast(shape)));
  } catch (py::error_already_set &error) {
    if (!error.matches(PyExc_ValueError))
      throw;
  }
  // An assignment into a zero-strided stand-in of no memory raises numpy's own error.
  py::object standIn =
      numpy.attr("lib")
          .attr("stride_tricks")
          .attr("as_strided")(numpy.attr("empty")(1, dtype), py::tuple(py::cast(shape)),
                              py::tuple(py::cast(std::vector<int64_t>(shape.size(), 0))),
                              py::arg("writeable") = true);
  standIn[py::ellipsis()] = values;
  throw std::logic_error("numpy assigned what it would not broadcast");
}

} // namespace

void DeviceArray::assign(const py::handle &value, const runtime::Stream *stream) {
  py::module_ numpy = py::module_::import("numpy");
  py::array values = broadcastForAssignment(numpy, value, numpyDtype(element_), shape_);
  if (contiguous()) {
    const char *order = layout() == ir::Layout::F ? "F" : "C";
    py::array packed = numpy.attr("require")(values, numpyDtype(element_), order);
    copyIn(data_, packed.data(), size_t(size() * itemSize()), stream);
    return;
  }
  // Strided: write the elements through a numpy view of the bytes the array spans and copy
  // the span in. A span with gaps (a slice with steps) is read first so that the gaps keep
  // their bytes; a dense one (device_array_like of a view, a transposed axis order) is
  // written whole.
  auto [low, high] = byteExtent(shape_, strides_, itemSize());
  py::array span(py::dtype("uint8"), std::vector<int64_t>{high - low});
  if (high - low != size() * itemSize())
    copyOut(span.mutable_data(), data_ + low, size_t(high - low), stream);
  py::array window(numpyDtype(element_), shape_, strides_,
                   static_cast<char *>(span.mutable_data()) - low, span);
  window[py::ellipsis()] = values;
  copyIn(data_ + low, span.data(), size_t(high - low), stream);
}

DeviceArray DeviceArray::reshape(std::vector<int64_t> shape, bool fortranOrder) const {
  // numpy's order of tries: the same shape spelled without -1 is the same view; a contiguous
  // array takes contiguous strides; any other needs axes that merge and split without a copy.
  if (shape == shape_)
    return *this;
  std::optional<size_t> unknown;
  for (size_t axis = 0; axis < shape.size(); ++axis) {
    if (shape[axis] == -1 && !unknown)
      unknown = axis;
    else if (shape[axis] < 0)
      throw py::value_error("reshape: extents are non-negative, with at most one -1");
  }
  if (unknown) {
    shape[*unknown] = 1;
    int64_t known = checkedElementCount(shape, itemSize());
    shape[*unknown] = known != 0 && size() % known == 0 ? size() / known : -1;
  }
  if ((unknown && shape[*unknown] == -1) || checkedElementCount(shape, itemSize()) != size())
    throw py::value_error("reshape: cannot reshape a device array of size " +
                          std::to_string(size()) + " into shape " + shapeText(shape));
  std::optional<std::vector<int64_t>> strides;
  if (isContiguous(shape_, strides_, itemSize(), fortranOrder))
    strides = contiguousStrides(shape, itemSize(), fortranOrder);
  else
    strides = stridesWithoutCopy(shape_, strides_, shape, itemSize(), fortranOrder);
  if (!strides)
    notImplemented(std::string("reshape: the device array's elements cannot be viewed in ") +
                   (fortranOrder ? "F" : "C") + " order with shape " + shapeText(shape) +
                   " (numpy would copy them); copy it first");
  return viewOf(element_, shape, std::move(*strides), data_);
}

DeviceArray DeviceArray::raveled(bool fortranOrder) const {
  // numpy's ravel copies an array that is not contiguous in the order asked, where a device
  // array's ravel is a view or nothing.
  if (!isContiguous(shape_, strides_, itemSize(), fortranOrder))
    notImplemented(std::string("ravel: the device array is not ") + (fortranOrder ? "F" : "C") +
                   "-contiguous, so its elements cannot be viewed in that order; copy it first");
  return reshape({-1}, fortranOrder);
}

DeviceArray DeviceArray::view(const py::handle &index) const {
  py::tuple indices = py::isinstance<py::tuple>(index) ? py::reinterpret_borrow<py::tuple>(index)
                                                       : py::make_tuple(index);
  size_t indexed = 0;
  for (py::handle item : indices)
    indexed += item.ptr() != Py_Ellipsis;
  if (indexed > shape_.size())
    throw py::index_error("too many indices for a device array: array is " +
                          std::to_string(shape_.size()) + "-dimensional, but " +
                          std::to_string(indexed) + " were indexed");

  std::vector<int64_t> shape, strides;
  int64_t offset = 0;
  size_t axis = 0;
  bool sawEllipsis = false;
  for (py::handle item : indices) {
    if (item.ptr() == Py_Ellipsis) {
      if (sawEllipsis)
        throw py::index_error("an index can only have a single ellipsis ('...')");
      sawEllipsis = true;
      for (size_t kept = shape_.size() - indexed; kept > 0; --kept, ++axis) {
        shape.push_back(shape_[axis]);
        strides.push_back(strides_[axis]);
      }
    } else if (PySlice_Check(item.ptr())) {
      Py_ssize_t start, stop, step;
      if (PySlice_Unpack(item.ptr(), &start, &stop, &step) != 0)
        throw py::error_already_set();
      Py_ssize_t length = PySlice_AdjustIndices(shape_[axis], &start, &stop, step);
      // numpy points an empty slice at its axis's start with the axis's own stride.
      if (length == 0) {
        start = 0;
        step = 1;
      }
      offset += start * strides_[axis];
      shape.push_back(length);
      // With two or more elements the step is below the extent, so the product is within
      // the array's span; a larger step takes at most one element, and no stride is needed.
      int64_t stride;
      strides.push_back(__builtin_mul_overflow(strides_[axis], step, &stride) ? strides_[axis]
                                                                              : stride);
      ++axis;
    } else if (PyIndex_Check(item.ptr())) {
      // Clamped to the Py_ssize_t range, which is out of bounds however far beyond it lies.
      Py_ssize_t position = PyNumber_AsSsize_t(item.ptr(), nullptr);
      if (position == -1 && PyErr_Occurred())
        throw py::error_already_set();
      int64_t extent = shape_[axis];
      if (position < -extent || position >= extent)
        throw py::index_error("index " + std::string(py::str(item)) +
                              " is out of bounds for axis " + std::to_string(axis) + " with size " +
                              std::to_string(extent));
      offset += (position < 0 ? position + extent : position) * strides_[axis];
      ++axis;
    } else {
      throw py::type_error("device arrays are indexed by ints, slices and '...', not '" +
                           std::string(Py_TYPE(item.ptr())->tp_name) + "'");
    }
  }
  for (; axis < shape_.size(); ++axis) {
    shape.push_back(shape_[axis]);
    strides.push_back(strides_[axis]);
  }
  return viewOf(element_, std::move(shape), std::move(strides), data_ + offset);
}

py::dict DeviceArray::cudaArrayInterface() const {
  if (onHost())
    throw py::attribute_error("a host-backed device array (made for the cpu target) has no "
                              "__cuda_array_interface__; copy_to_host() gives its contents");
  py::dict interface;
  interface["shape"] = py::tuple(py::cast(shape_));
  interface["strides"] = layout() == ir::Layout::C ? py::object(py::none())
                                                   : py::object(py::tuple(py::cast(strides_)));
  if (element_.record)
    throw py::attribute_error("a device array of records has no __cuda_array_interface__ in "
                              "kaji; copy_to_host() gives its contents");
  interface["typestr"] = typestrOf(element_.scalar);
  interface["data"] = py::make_tuple(data_, false);
  interface["version"] = 3;
  // Version 3: the stream whose work on the memory a consumer must wait for. An array made
  // on a kaji stream (to_device, device_array with stream=) names it; any other array's
  // copies are done, or ordered on the legacy default stream, before a consumer can see it.
  runtime::CUstream stream = stream_ ? stream_->handle() : nullptr;
  interface["stream"] =
      stream ? py::object(py::int_(reinterpret_cast<uintptr_t>(stream))) : py::object(py::none());
  return interface;
}

void bindDeviceArray(py::module_ &m) {
  // Any stream a launch takes (a kaji stream, 0, None, another library's), read when the
  // call is made; a wrong one is the launch's TypeError naming it.
  using Stream = py::handle;
  py::class_<DeviceArray>(m, "DeviceArray",
                          "An n-d array in GPU memory. Kernels take it without copies; other "
                          "libraries read it through __cuda_array_interface__.")
      .def(py::init([](py::args args, py::kwargs kwargs) {
             return py::module_::import("kaji._arrays")
                 .attr("device_ndarray")(*args, **kwargs)
                 .cast<DeviceArray>();
           }),
           "Numba's DeviceNDArray(shape, strides, dtype, stream=0, gpu_data=None): an "
           "uninitialized array with those strides (kaji._arrays.device_ndarray).")
      .def_property_readonly("shape",
                             [](const DeviceArray &a) { return py::tuple(py::cast(a.shape())); })
      .def_property_readonly("strides",
                             [](const DeviceArray &a) { return py::tuple(py::cast(a.strides())); })
      .def_property_readonly("dtype", [](const DeviceArray &a) { return numpyDtype(a.element()); })
      .def_property_readonly("ndim", [](const DeviceArray &a) { return a.shape().size(); })
      .def_property_readonly("size", &DeviceArray::size)
      .def_property_readonly("itemsize", &DeviceArray::itemSize)
      .def_property_readonly("nbytes", [](const DeviceArray &a) { return a.size() * a.itemSize(); })
      .def_property_readonly("device_pointer", &DeviceArray::data,
                             "The address of the first element.")
      .def_property_readonly(
          "device_ctypes_pointer",
          [](const DeviceArray &a) {
            return py::module_::import("ctypes").attr("c_size_t")(a.data());
          },
          "The address of the first element as a ctypes.c_size_t (Numba's).")
      .def_property_readonly("alloc_size", &DeviceArray::spanBytes,
                             "The bytes the elements span (Numba's alloc_size).")
      .def_property_readonly(
          "stream",
          [](py::object self) -> py::object {
            const runtime::Stream *stream = self.cast<const DeviceArray &>().stream();
            if (!stream)
              return py::int_(0);
            // A kaji stream object is returned as itself (pybind11 finds its instance).
            return py::cast(stream, py::return_value_policy::reference_internal, self);
          },
          "The stream the array was made on or bound to, which its copies default to; 0 "
          "for none (Numba's).")
      .def(
          "bind",
          [](const DeviceArray &a, Stream stream) {
            return a.bound(LaunchStream(stream).retained());
          },
          py::arg("stream") = 0,
          "A view of the same memory whose copies default to `stream` (Numba's bind).")
      .def_property_readonly("on_host", &DeviceArray::onHost,
                             "Whether the array is host-backed (made for the cpu target).")
      .def_property_readonly("__cuda_array_interface__", &DeviceArray::cudaArrayInterface)
      .def("is_c_contiguous",
           [](const DeviceArray &a) {
             return isContiguous(a.shape(), a.strides(), a.itemSize(), false);
           })
      .def("is_f_contiguous",
           [](const DeviceArray &a) {
             return isContiguous(a.shape(), a.strides(), a.itemSize(), true);
           })
      .def(
          "copy_to_host",
          [](const DeviceArray &a, py::object out, Stream stream) -> py::object {
            LaunchStream queue(stream);
            const runtime::Stream *on = queue.get() ? queue.get() : a.stream();
            py::array host;
            if (out.is_none()) {
              host = a.copyToHost(on);
            } else {
              host = out.cast<py::array>();
              a.copyToHost(host, on);
            }
            // The copy waited for the kernels before it: what they raised surfaces here.
            raiseKernelExceptions();
            return host;
          },
          py::arg("ary") = py::none(), py::arg("stream") = py::none(),
          "Copies to a new numpy array, or into `ary`, after the work queued on `stream`, by "
          "default the array's own (Numba's).")
      .def(
          "__array__",
          [](const DeviceArray &a, py::object dtype, py::object copy) -> py::object {
            if (!copy.is_none() && !py::bool_(copy))
              throw py::value_error("`copy=False` is not supported: the elements of a device "
                                    "array are always copied to a new host array");
            py::object host = a.copyToHost(a.stream());
            raiseKernelExceptions();
            return dtype.is_none() ? host : host.attr("astype")(dtype, py::arg("copy") = false);
          },
          py::arg("dtype") = py::none(), py::arg("copy") = py::none(),
          "numpy's conversion (np.array(a), np.asarray(a)): one copy of the whole array to the "
          "host, after the work queued on the array's stream.")
      .def(
          "copy_to_device",
          [](DeviceArray &a, py::handle source, Stream stream) {
            LaunchStream queue(stream);
            const runtime::Stream *on = queue.get() ? queue.get() : a.stream();
            if (py::isinstance<DeviceArray>(source))
              return a.copyFromDevice(source.cast<const DeviceArray &>(), on);
            py::array host = py::array::ensure(source);
            if (!host)
              throw py::type_error("copy_to_device takes a device array or a numpy array (or "
                                   "what numpy.asarray takes), not '" +
                                   std::string(Py_TYPE(source.ptr())->tp_name) + "'");
            a.copyFromHost(host, on);
          },
          py::arg("ary"), py::arg("stream") = py::none(),
          "Copies `ary` in: a host array (or anything numpy.asarray takes), or a device array "
          "on any device (a peer copy between GPUs, queued on `stream`, which must be this "
          "array's device's), after the work queued on `stream`, by default the array's own.")
      .def_property_readonly(
          "device_id",
          [](const DeviceArray &a) -> py::object {
            return a.onHost() ? py::object(py::none()) : py::int_(a.device());
          },
          "The ordinal of the GPU holding the elements (None for a host-backed array).")
      .def(
          "__reduce__",
          [](const DeviceArray &a) {
            return py::make_tuple(py::module_::import("kaji._arrays").attr("to_device"),
                                  py::make_tuple(a.copyToHost(nullptr)));
          },
          "Pickles as its host data; unpickled, it is a device array on the current device "
          "(host-backed when the default target is cpu).")
      .def("_broadcast_to", &DeviceArray::broadcastTo, py::arg("shape"),
           "numpy's broadcast_to, for kaji's ufuncs: a view with `shape` whose broadcast axes "
           "have stride 0, to be read only.")
      .def(
          "transpose",
          [](const DeviceArray &a, py::args axes) {
            std::vector<int64_t> order;
            py::object given = axes.size() == 1 && !PyIndex_Check(axes[0].ptr())
                                   ? py::object(axes[0])
                                   : py::object(axes);
            if (!given.is_none())
              for (py::handle axis : given)
                order.push_back(axis.cast<int64_t>());
            return a.transposed(std::move(order));
          },
          "numpy's transpose: a view with the axes reversed, or in the order given.")
      .def_property_readonly("T", [](const DeviceArray &a) { return a.transposed({}); })
      .def(
          "view",
          [](const DeviceArray &a, const py::object &dtype) {
            return a.viewAs(elementFromDtype(dtype));
          },
          py::arg("dtype"), "numpy's view(dtype): the same memory read as another dtype.")
      .def(
          "squeeze",
          [](const DeviceArray &a, py::object axis, [[maybe_unused]] py::object stream) {
            std::optional<std::vector<int64_t>> axes;
            if (PyIndex_Check(axis.ptr()))
              axes = std::vector<int64_t>{axis.cast<int64_t>()};
            else if (!axis.is_none())
              axes = axis.cast<std::vector<int64_t>>();
            return a.squeezed(axes);
          },
          py::arg("axis") = py::none(), py::arg("stream") = py::none(),
          "numpy's squeeze: a view without the axes of extent 1 (or only those in `axis`).")
      .def("__getitem__",
           [](const DeviceArray &a, py::handle index) { return a.getItem(index, nullptr); })
      .def("__setitem__", [](DeviceArray &a, py::handle index,
                             py::handle value) { a.setItem(index, value, nullptr); })
      .def(
          "getitem",
          [](const DeviceArray &a, py::handle index, Stream stream) {
            LaunchStream queue(stream);
            return a.getItem(index, queue.get());
          },
          py::arg("item"), py::arg("stream") = 0,
          "Numba's ``a.getitem(item, stream=0)``: ``a[item]``, a scalar read after the work "
          "queued on `stream` (0: synchronously).")
      .def(
          "setitem",
          [](DeviceArray &a, py::handle index, py::handle value, Stream stream) {
            LaunchStream queue(stream);
            a.setItem(index, value, queue.get());
          },
          py::arg("key"), py::arg("value"), py::arg("stream") = 0,
          "Numba's ``a.setitem(key, value, stream=0)``: ``a[key] = value``, copied in on "
          "`stream` (0: synchronously).")
      .def(
          "reshape",
          [](const DeviceArray &a, py::args shape, const std::string &order) {
            py::object extents = shape.size() == 1 && !PyIndex_Check(shape[0].ptr())
                                     ? py::object(shape[0])
                                     : py::object(shape);
            return a.reshape(readShape(extents), readsInFortranOrder(a, order, "reshape", false));
          },
          py::kw_only(), py::arg("order") = "C",
          "A view with a new shape, where numpy's reshape gives a view.")
      .def(
          "ravel",
          [](const DeviceArray &a, const std::string &order, py::handle stream) {
            DeviceArray flat = a.raveled(readsInFortranOrder(a, order, "ravel", true));
            LaunchStream queue(stream);
            return queue.get() ? flat.bound(queue.retained()) : flat;
          },
          py::arg("order") = "C", py::arg("stream") = 0,
          "A 1-D view of an array contiguous in `order` (NotImplementedError for any other, "
          "which numpy copies), on `stream` when given, as Numba's.")
      .def_property_readonly(
          "flags",
          [](const DeviceArray &a) {
            py::dict flags;
            flags["C_CONTIGUOUS"] = isContiguous(a.shape(), a.strides(), a.itemSize(), false);
            flags["F_CONTIGUOUS"] = isContiguous(a.shape(), a.strides(), a.itemSize(), true);
            flags["WRITEABLE"] = true;
            flags["ALIGNED"] = true;
            return flags;
          },
          "numpy's flags, as a dict: C_CONTIGUOUS, F_CONTIGUOUS, WRITEABLE, ALIGNED.")
      .def(
          "split",
          [](py::object self, int64_t section, [[maybe_unused]] py::object stream) {
            const DeviceArray &a = self.cast<const DeviceArray &>();
            if (a.shape().size() != 1 || a.strides()[0] != a.itemSize())
              throw py::value_error("split: only 1-d arrays of unit stride can be split");
            if (section <= 0)
              throw py::value_error("split: the section size must be positive, not " +
                                    std::to_string(section));
            py::list parts;
            for (int64_t start = 0; start < a.size(); start += section)
              parts.append(
                  a.getItem(py::slice(py::int_(start),
                                      py::int_(std::min(start + section, a.size())), py::none()),
                            nullptr));
            return parts;
          },
          py::arg("section"), py::arg("stream") = py::none(),
          "Views of `section` elements each (the last may be shorter), as Numba's split.")
      .def("__len__",
           [](const DeviceArray &a) {
             if (a.shape().empty())
               throw py::type_error("len() of a 0-d device array");
             return a.shape()[0];
           })
      .def("__repr__", [](const DeviceArray &a) {
        return "<kaji.DeviceArray shape=" + shapeText(a.shape()) +
               " dtype=" + elementName(a.element()) + (a.onHost() ? " on host>" : ">");
      });

  m.def(
      "as_cuda_array",
      [](py::handle object, py::object owner, bool sync) {
        ArrayView view;
        if (!cudaArrayInterfaceView(object, view))
          throw py::type_error(std::string("as_cuda_array needs an object exporting "
                                           "__cuda_array_interface__, not '") +
                               Py_TYPE(object.ptr())->tp_name + "'");
        if (sync && waitsForProducers() && view.producerStream)
          runtime::Stream::external(view.producerStream).synchronize();
        DeviceArray array = DeviceArray::foreign(
            view, owner.is_none() ? py::reinterpret_borrow<py::object>(object) : owner);
        if (!view.producerStream)
          return array;
        // The producer's stream becomes the array's, as Numba's from_cuda_array_interface.
        return array.bound(std::make_shared<const runtime::Stream>(
            runtime::Stream::external(view.producerStream)));
      },
      py::arg("obj"), py::arg("owner") = py::none(), py::arg("sync") = true,
      "A DeviceArray viewing `obj`'s memory (no copy), kept alive through `owner` (default "
      "`obj`); with `sync` (and CUDA_ARRAY_INTERFACE_SYNC on), after the producer's stream "
      "is done. The producer's stream is the array's.");
  m.def("array_interface_sync", &waitsForProducers,
        "Numba's CUDA_ARRAY_INTERFACE_SYNC: whether launches and as_cuda_array wait for the "
        "stream a foreign array's producer names.");
  m.def("set_array_interface_sync", &setWaitsForProducers, py::arg("wait"));
  m.def(
      "to_device",
      [](const py::array &host, Stream stream, bool onHost) {
        LaunchStream queue(stream);
        return DeviceArray::fromHost(host, queue.get(), onHost, queue.retained());
      },
      py::arg("ary"), py::arg("stream") = py::none(), py::arg("on_host") = false);
  m.def(
      "device_array",
      [](py::handle shape, const py::object &dtype, const std::string &order, bool onHost,
         std::optional<std::vector<int64_t>> axisOrder, Stream stream,
         std::optional<std::vector<int64_t>> strides) {
        if (order != "C" && order != "F")
          throw py::value_error("order must be 'C' or 'F', not '" + order + "'");
        AllocationStream allocateOn = LaunchStream(stream).retained();
        if (strides)
          return DeviceArray::emptyWithStrides(readShape(shape), *strides, elementFromDtype(dtype),
                                               onHost, std::move(allocateOn));
        if (axisOrder)
          return DeviceArray::emptyInAxisOrder(readShape(shape), elementFromDtype(dtype),
                                               *axisOrder, onHost, std::move(allocateOn));
        return DeviceArray::empty(readShape(shape), elementFromDtype(dtype), order == "F", onHost,
                                  std::move(allocateOn));
      },
      py::arg("shape"), py::arg("dtype"), py::arg("order") = "C", py::arg("on_host") = false,
      py::arg("axis_order") = py::none(), py::arg("stream") = py::none(),
      py::arg("strides") = py::none(),
      "Uninitialized; `strides` (in bytes), else `axis_order` (fastest-varying axis first), "
      "overrides `order`; with a kaji `stream`, allocated (and later freed) in its order from "
      "the memory pool.");
}

} // namespace kaji::python
