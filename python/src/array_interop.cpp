#include "array_interop.h"

#include "array_sizes.h"
#include "dlpack_abi.h"
#include "dtypes.h"
#include "integers.h"

#include <atomic>
#include <string>

namespace kaji::python {

namespace {

std::vector<int64_t> int64Tuple(py::handle sequence, const char *what) {
  if (!py::isinstance<py::tuple>(sequence))
    throw py::type_error(std::string("__cuda_array_interface__['") + what +
                         "'] must be a tuple of ints");
  std::vector<int64_t> values;
  for (py::handle item : sequence)
    values.push_back(readInt64(item, std::string("__cuda_array_interface__['") + what + "'] item"));
  return values;
}

} // namespace

bool isContiguous(std::span<const int64_t> shape, std::span<const int64_t> strides,
                  int64_t itemSize, bool fortranOrder) {
  for (int64_t extent : shape)
    if (extent == 0)
      return true;
  int64_t expected = itemSize;
  for (size_t i = 0; i < shape.size(); ++i) {
    size_t axis = fortranOrder ? i : shape.size() - 1 - i;
    if (shape[axis] == 1)
      continue;
    if (strides[axis] != expected)
      return false;
    expected *= shape[axis];
  }
  return true;
}

ir::Layout layoutOf(std::span<const int64_t> shape, std::span<const int64_t> strides,
                    int64_t itemSize) {
  if (isContiguous(shape, strides, itemSize, false))
    return ir::Layout::C;
  return isContiguous(shape, strides, itemSize, true) ? ir::Layout::F : ir::Layout::Any;
}

void assignContiguousStrides(std::span<const int64_t> shape, int64_t itemSize, bool fortranOrder,
                             std::vector<int64_t> &strides) {
  strides.resize(shape.size());
  int64_t stride = itemSize;
  for (size_t i = 0; i < shape.size(); ++i) {
    size_t axis = fortranOrder ? i : shape.size() - 1 - i;
    strides[axis] = stride;
    stride *= std::max<int64_t>(shape[axis], 1);
  }
}

std::vector<int64_t> contiguousStrides(std::span<const int64_t> shape, int64_t itemSize,
                                       bool fortranOrder) {
  std::vector<int64_t> strides;
  assignContiguousStrides(shape, itemSize, fortranOrder, strides);
  return strides;
}

namespace {

std::atomic<bool> producersWaitedFor{true};

// Version 3's 'stream': absent or None when no wait is needed, 1 and 2 for the legacy and
// per-thread default streams, else a CUstream; 0 is disallowed as ambiguous.
runtime::CUstream producerStream(const py::dict &fields) {
  if (!fields.contains("stream") || fields["stream"].is_none())
    return nullptr;
  py::object stream = fields["stream"];
  if (!PyLong_Check(stream.ptr()) ||
      PyObject_RichCompareBool(stream.ptr(), py::int_(0).ptr(), Py_LE))
    throw py::type_error("__cuda_array_interface__['stream'] must be None or a positive int "
                         "(1: legacy default stream, 2: per-thread default stream, else a "
                         "CUstream), not " +
                         std::string(py::repr(stream)));
  return reinterpret_cast<runtime::CUstream>(
      readUint64(stream, "__cuda_array_interface__['stream']"));
}

} // namespace

bool waitsForProducers() { return producersWaitedFor.load(std::memory_order_relaxed); }

void setWaitsForProducers(bool wait) { producersWaitedFor.store(wait, std::memory_order_relaxed); }

bool cudaArrayInterfaceView(py::handle object, ArrayView &view) {
  PyObject *raw = PyObject_GetAttrString(object.ptr(), "__cuda_array_interface__");
  if (!raw) {
    if (!PyErr_ExceptionMatches(PyExc_AttributeError))
      throw py::error_already_set();
    PyErr_Clear();
    return false;
  }
  py::object interface = py::reinterpret_steal<py::object>(raw);
  if (!py::isinstance<py::dict>(interface))
    throw py::type_error("__cuda_array_interface__ must be a dict");
  py::dict fields = py::reinterpret_borrow<py::dict>(interface);
  for (const char *required : {"shape", "typestr", "data"})
    if (!fields.contains(required))
      throw py::type_error(std::string("__cuda_array_interface__ has no '") + required + "'");
  if (fields.contains("mask") && !fields["mask"].is_none()) {
    // Numba's class and words: the protocol has masks, kaji does not implement them.
    PyErr_SetString(PyExc_NotImplementedError,
                    "Masked arrays are not supported (__cuda_array_interface__['mask'])");
    throw py::error_already_set();
  }

  std::string typestr = py::str(fields["typestr"]);
  std::optional<ir::ScalarKind> element = scalarKindFromTypestr(typestr);
  if (!element)
    throw py::type_error("array element type '" + typestr +
                         "' is not supported by kaji kernels (supported: bool, int8-int64, "
                         "uint8-uint64, float16, float32, float64 in native byte order)");
  py::tuple data = fields["data"].cast<py::tuple>();
  if (data.size() != 2)
    throw py::type_error("__cuda_array_interface__['data'] must be (pointer, read_only)");

  view.element = *element;
  view.data = readUint64(data[0], "__cuda_array_interface__['data'] pointer");
  view.shape = int64Tuple(fields["shape"], "shape");
  int64_t itemSize = ir::byteSize(*element);
  checkedElementCount(view.shape, itemSize);
  if (fields.contains("strides") && !fields["strides"].is_none())
    view.strides = int64Tuple(fields["strides"], "strides");
  else
    view.strides = contiguousStrides(view.shape, itemSize, false);
  if (view.strides.size() != view.shape.size())
    throw py::type_error("__cuda_array_interface__ has " + std::to_string(view.shape.size()) +
                         " dimensions in 'shape' but " + std::to_string(view.strides.size()) +
                         " in 'strides'");
  byteExtent(view.shape, view.strides, itemSize);
  view.producerStream = producerStream(fields);
  return true;
}

bool dlpackView(py::handle object, ArrayView &view) {
  if (!py::hasattr(object, "__dlpack__") || !py::hasattr(object, "__dlpack_device__"))
    return false;
  py::tuple device = object.attr("__dlpack_device__")();
  int deviceType = device[0].cast<int>();
  if (deviceType != dlpack::kDLCUDA && deviceType != dlpack::kDLCUDAManaged)
    return false;

  // The producer orders its pending work before the legacy default stream (DLPack's 1), the
  // stream a launch elsewhere then waits for; producers from before the `stream` argument
  // are called without it.
  py::capsule capsule;
  try {
    try {
      capsule = object.attr("__dlpack__")(py::arg("stream") = 1);
    } catch (py::error_already_set &error) {
      if (!error.matches(PyExc_TypeError))
        throw;
      capsule = object.attr("__dlpack__")();
    }
  } catch (py::error_already_set &error) {
    // The exporter's own reason (a PyTorch tensor that is sparse, or conjugated): an argument
    // kaji kernels cannot take.
    if (!error.matches(PyExc_BufferError))
      throw;
    throw py::type_error("its __dlpack__ refused to export it: " +
                         py::str(error.value()).cast<std::string>());
  }
  view.producerStream = runtime::CU_STREAM_LEGACY;
  auto *managed = static_cast<dlpack::ManagedTensor *>(capsule.get_pointer());
  // The capsule is consumed: its deleter no longer frees the tensor, the view's owner does.
  if (PyCapsule_SetName(capsule.ptr(), "used_dltensor") != 0)
    throw py::error_already_set();
  view.owner = std::shared_ptr<void>(managed, [](void *tensor) {
    auto *self = static_cast<dlpack::ManagedTensor *>(tensor);
    if (self->deleter)
      self->deleter(self);
  });

  const dlpack::Tensor &tensor = managed->tensor;
  std::optional<ir::ScalarKind> element =
      tensor.dtype.lanes == 1 ? scalarKindFromDLPack(tensor.dtype.code, tensor.dtype.bits)
                              : std::nullopt;
  if (!element)
    throw py::type_error("DLPack element type (code " + std::to_string(tensor.dtype.code) + ", " +
                         std::to_string(tensor.dtype.bits) + " bits, " +
                         std::to_string(tensor.dtype.lanes) +
                         " lanes) is not supported by kaji kernels");
  int64_t itemSize = ir::byteSize(*element);
  view.element = *element;
  view.data = reinterpret_cast<runtime::CUdeviceptr>(tensor.data) + tensor.byteOffset;
  view.shape.assign(tensor.shape, tensor.shape + tensor.ndim);
  checkedElementCount(view.shape, itemSize);
  if (tensor.strides) {
    view.strides.resize(tensor.ndim);
    for (int32_t axis = 0; axis < tensor.ndim; ++axis)
      if (__builtin_mul_overflow(tensor.strides[axis], itemSize, &view.strides[axis]))
        throw py::value_error("DLPack stride " + std::to_string(tensor.strides[axis]) +
                              " is too large");
    byteExtent(view.shape, view.strides, itemSize);
  } else {
    view.strides = contiguousStrides(view.shape, itemSize, false);
  }
  return true;
}

} // namespace kaji::python
