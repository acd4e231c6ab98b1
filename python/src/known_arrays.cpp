#include "known_arrays.h"

#include "array_sizes.h"
#include "cached_attribute.h"
#include "dlpack_abi.h"
#include "dtypes.h"
#include "integers.h"

#include <pybind11/numpy.h>

#include <algorithm>
#include <array>
#include <string>
#include <string_view>
#include <unordered_map>

namespace kaji::python {

namespace {

enum class KnownType { Other, Cupy, Torch };

// Interned once per call site: attribute lookups with them skip building a string.
#define KAJI_NAME(text)                                                                            \
  ([] {                                                                                            \
    static PyObject *const name = PyUnicode_InternFromString(text);                                \
    return name;                                                                                   \
  }())

// `object.name`, or null (the error cleared) when reading it fails.
py::object attribute(py::handle object, PyObject *name) {
  PyObject *value = PyObject_GetAttr(object.ptr(), name);
  if (!value)
    PyErr_Clear();
  return py::reinterpret_steal<py::object>(value);
}

py::object callMethod(py::handle object, PyObject *name) {
  PyObject *value = PyObject_CallMethodNoArgs(object.ptr(), name);
  if (!value)
    PyErr_Clear();
  return py::reinterpret_steal<py::object>(value);
}

// sys.modules[name] (an interned name), or null: nothing is imported here.
py::object loadedModule(PyObject *name) {
  PyObject *module = PyDict_GetItemWithError(PyImport_GetModuleDict(), name);
  if (!module)
    PyErr_Clear();
  return py::reinterpret_borrow<py::object>(module);
}

bool isTrue(const py::object &value) { return value && value.ptr() == Py_True; }

// What the fast paths read of every array, each through its own cached descriptor.
struct CupyAttributes {
  CachedAttribute dtype{"dtype"}, ndim{"ndim"}, size{"size"}, shape{"shape"}, strides{"strides"},
      cContiguous{"_c_contiguous"}, data{"data"}, pointer{"ptr"};
};

struct TorchAttributes {
  CachedAttribute isCuda{"is_cuda"}, requiresGrad{"requires_grad"}, dtype{"dtype"}, shape{"shape"};
};

std::optional<int64_t> int64Of(const py::object &value) {
  if (!value || !PyLong_Check(value.ptr()))
    return std::nullopt;
  int64_t result = PyLong_AsLongLong(value.ptr());
  if (result == -1 && PyErr_Occurred()) {
    PyErr_Clear();
    return std::nullopt;
  }
  return result;
}

template <class Attributes> Attributes &cachedAttributes() {
  static Attributes attributes;
  return attributes;
}

// cupy.ndarray (a Python class in module `cupy` since CuPy 13, the Cython class
// cupy._core.core.ndarray before) or torch.Tensor; subclasses are left to the protocol.
KnownType classify(PyTypeObject *type) {
  std::string_view name = type->tp_name;
  name = name.substr(name.rfind('.') + 1);
  if (name != "ndarray" && name != "Tensor")
    return KnownType::Other;
  py::object moduleName =
      attribute(py::handle(reinterpret_cast<PyObject *>(type)), KAJI_NAME("__module__"));
  if (!moduleName || !PyUnicode_Check(moduleName.ptr()))
    return KnownType::Other;
  std::string_view module = PyUnicode_AsUTF8(moduleName.ptr());
  if (name == "ndarray" && (module == "cupy" || module == "cupy._core.core"))
    return KnownType::Cupy;
  if (name == "Tensor" && module == "torch")
    return KnownType::Torch;
  return KnownType::Other;
}

// Puts `type` in a cache slot. The cache keeps the type object alive, so that its address is
// not reused by another type.
void remember(PyTypeObject *&slot, PyTypeObject *type) {
  Py_INCREF(type);
  Py_XDECREF(slot);
  slot = type;
}

// classify(), cached by type: every argument of every launch asks, and kaji arrays, numpy
// arrays and scalars are answered by a few pointer comparisons.
KnownType knownType(PyTypeObject *type) {
  static PyTypeObject *cupyType = nullptr;
  static PyTypeObject *torchType = nullptr;
  static std::array<PyTypeObject *, 4> otherTypes{};
  static size_t nextOther = 0;
  if (type == cupyType)
    return KnownType::Cupy;
  if (type == torchType)
    return KnownType::Torch;
  if (std::find(otherTypes.begin(), otherTypes.end(), type) != otherTypes.end())
    return KnownType::Other;
  KnownType known = classify(type);
  switch (known) {
  case KnownType::Cupy:
    remember(cupyType, type);
    break;
  case KnownType::Torch:
    remember(torchType, type);
    break;
  case KnownType::Other:
    remember(otherTypes[nextOther++ % otherTypes.size()], type);
    break;
  }
  return known;
}

// The element kind of a dtype object (numpy's for CuPy, torch's for PyTorch), by the typestr
// the library's __cuda_array_interface__ would give; cached per dtype object (they are
// singletons, kept alive by the cache).
std::optional<ir::ScalarKind> cachedKind(const py::object &dtype,
                                         std::optional<std::string> (*typestrOf)(py::handle)) {
  static std::unordered_map<PyObject *, std::optional<ir::ScalarKind>> kinds;
  if (auto found = kinds.find(dtype.ptr()); found != kinds.end())
    return found->second;
  std::optional<std::string> typestr = typestrOf(dtype);
  std::optional<ir::ScalarKind> kind =
      typestr ? scalarKindFromTypestr(*typestr) : std::optional<ir::ScalarKind>();
  kinds.emplace(dtype.inc_ref().ptr(), kind);
  return kind;
}

std::optional<std::string> numpyTypestr(py::handle dtype) {
  py::object typestr = attribute(dtype, KAJI_NAME("str"));
  if (!typestr || !PyUnicode_Check(typestr.ptr()))
    return std::nullopt;
  return std::string(PyUnicode_AsUTF8(typestr.ptr()));
}

// torch/_tensor.py's _dtype_to_typestr for the dtypes kaji takes (little-endian hosts).
std::optional<std::string> torchTypestr(py::handle dtype) {
  static const std::unordered_map<std::string_view, const char *> typestrs = {
      {"torch.bool", "|b1"},      {"torch.int8", "|i1"},        {"torch.uint8", "|u1"},
      {"torch.int16", "<i2"},     {"torch.uint16", "<u2"},      {"torch.int32", "<i4"},
      {"torch.uint32", "<u4"},    {"torch.int64", "<i8"},       {"torch.uint64", "<u8"},
      {"torch.float16", "<f2"},   {"torch.float32", "<f4"},     {"torch.float64", "<f8"},
      {"torch.complex64", "<c8"}, {"torch.complex128", "<c16"}, {"torch.bfloat16", "<V2"},
  };
  PyObject *text = PyObject_Str(dtype.ptr());
  if (!text) {
    PyErr_Clear();
    return std::nullopt;
  }
  py::object owner = py::reinterpret_steal<py::object>(text);
  auto found = typestrs.find(PyUnicode_AsUTF8(text));
  return found == typestrs.end() ? std::nullopt : std::optional<std::string>(found->second);
}

// A tuple (or tuple subclass, torch.Size) of ints; nullopt for anything else.
std::optional<std::vector<int64_t>> intTuple(const py::object &value) {
  if (!value || !PyTuple_Check(value.ptr()))
    return std::nullopt;
  Py_ssize_t size = PyTuple_GET_SIZE(value.ptr());
  std::vector<int64_t> items(size_t(size), 0);
  for (Py_ssize_t i = 0; i < size; ++i) {
    std::optional<int64_t> item =
        int64Of(py::reinterpret_borrow<py::object>(PyTuple_GET_ITEM(value.ptr(), i)));
    if (!item)
      return std::nullopt;
    items[size_t(i)] = *item;
  }
  return items;
}

// Fills the view as the protocol would: strides of a C-contiguous array are those the
// protocol's None means, and the sizes are checked as for any foreign array.
// No strides stand for C-contiguous ones.
void finishView(ArrayView &view, ir::ScalarKind element, runtime::CUdeviceptr data,
                std::vector<int64_t> shape, std::optional<std::vector<int64_t>> strides,
                runtime::CUstream producerStream) {
  int64_t itemSize = ir::byteSize(element);
  int64_t count = checkedElementCount(shape, itemSize);
  if (strides && !isContiguous(shape, *strides, itemSize, false)) {
    byteExtent(shape, *strides, itemSize);
  } else {
    if (!strides)
      strides.emplace();
    assignContiguousStrides(shape, itemSize, false, *strides); // in the given strides' storage
  }
  view.element = element;
  view.data = count > 0 ? data : 0;
  view.shape = std::move(shape);
  view.strides = std::move(*strides);
  view.owner.reset();
  view.producerStream = producerStream;
}

// The DLPack C exchange API `type` exports (torch.Tensor does in PyTorch 2.11), or null; asked
// again only when the type changes.
const dlpack::ExchangeApi *exchangeApiOf(PyTypeObject *type) {
  static PyTypeObject *askedOf = nullptr;
  static unsigned int askedAtVersion = 0;
  static const dlpack::ExchangeApi *api = nullptr;
  if (type == askedOf && stillTagged(type, askedAtVersion))
    return api;
  api = nullptr;
  py::object capsule = attribute(py::handle(reinterpret_cast<PyObject *>(type)),
                                 KAJI_NAME(dlpack::kExchangeApiAttribute));
  if (capsule && PyCapsule_IsValid(capsule.ptr(), dlpack::kExchangeApiCapsuleName)) {
    auto *exported = static_cast<const dlpack::ExchangeApi *>(
        PyCapsule_GetPointer(capsule.ptr(), dlpack::kExchangeApiCapsuleName));
    // The capsule lives as long as the type's attribute; the table, as long as the library.
    if (exported->version.major == dlpack::kExchangeApiMajorVersion &&
        exported->tensorFromPyObjectNoSync)
      api = exported;
  }
  askedOf = type;
  askedAtVersion = type->tp_version_tag;
  return api;
}

// CuPy builds its shape tuple at each read; a 1-D array's shape is its size, which it keeps.
std::optional<std::vector<int64_t>> cupyShape(CupyAttributes &read, py::handle array) {
  if (int64Of(read.ndim.read(array)) == 1) {
    std::optional<int64_t> size = int64Of(read.size.read(array));
    return size ? std::optional(std::vector<int64_t>{*size}) : std::nullopt;
  }
  return intTuple(read.shape.read(array));
}

// What CuPy's cupy_backends.cuda.stream module gives the fast path, found once per module
// object (a reference kept for the life of the process).
struct CupyStreamModule {
  PyObject *module = nullptr;
  // get_current_stream_ptr, the C function CuPy's __cuda_array_interface__ calls, which the
  // module exports to Cython callers in its __pyx_capi__ under its C signature; null when it
  // exports no function of that signature.
  intptr_t (*currentStream)() = nullptr;
  // What CuPy exports for its null stream, fixed when CuPy loads: the legacy default stream,
  // or the per-thread one (CUPY_CUDA_PER_THREAD_DEFAULT_STREAM). CuPy versions without
  // get_default_stream_ptr export the legacy stream.
  runtime::CUstream defaultStream = runtime::CU_STREAM_LEGACY;
};

intptr_t (*exportedCurrentStreamFunction(py::handle module))() {
  py::object exports = attribute(module, KAJI_NAME("__pyx_capi__"));
  if (!exports || !PyDict_Check(exports.ptr()))
    return nullptr;
  PyObject *capsule = PyDict_GetItemString(exports.ptr(), "get_current_stream_ptr");
  static constexpr const char *signature = "intptr_t (void)";
  if (!capsule || !PyCapsule_IsValid(capsule, signature))
    return nullptr;
  return reinterpret_cast<intptr_t (*)()>(PyCapsule_GetPointer(capsule, signature));
}

const CupyStreamModule &cupyStreamModule() {
  static CupyStreamModule found;
  py::object module = loadedModule(KAJI_NAME("cupy_backends.cuda.stream"));
  if (module.ptr() == found.module)
    return found;
  Py_XDECREF(found.module);
  found = CupyStreamModule{module.inc_ref().ptr()};
  if (!module)
    return found;
  found.currentStream = exportedCurrentStreamFunction(module);
  py::object getDefault = attribute(module, KAJI_NAME("get_default_stream_ptr"));
  std::optional<int64_t> pointer =
      getDefault ? int64Of(py::reinterpret_steal<py::object>(PyObject_CallNoArgs(getDefault.ptr())))
                 : std::nullopt;
  PyErr_Clear();
  if (pointer)
    found.defaultStream = reinterpret_cast<runtime::CUstream>(*pointer);
  return found;
}

// The handle of CuPy's current stream (0: its null stream), or nullopt when it cannot be read.
std::optional<uintptr_t> cupyCurrentStream(const CupyStreamModule &streams) {
  if (streams.currentStream) {
    intptr_t handle = streams.currentStream();
    if (!PyErr_Occurred())
      return uintptr_t(handle);
    PyErr_Clear();
  }
  py::object cuda = loadedModule(KAJI_NAME("cupy.cuda"));
  py::object getCurrent = cuda ? attribute(cuda, KAJI_NAME("get_current_stream")) : py::object();
  py::object current =
      getCurrent ? py::reinterpret_steal<py::object>(PyObject_CallNoArgs(getCurrent.ptr()))
                 : py::object();
  std::optional<int64_t> pointer =
      current ? int64Of(attribute(current, KAJI_NAME("ptr"))) : std::nullopt;
  PyErr_Clear();
  return pointer ? std::optional<uintptr_t>(uintptr_t(*pointer)) : std::nullopt;
}

} // namespace

bool KnownArrayReader::read(py::handle object, ArrayView &view) {
  switch (knownType(Py_TYPE(object.ptr()))) {
  case KnownType::Cupy:
    return readCupy(object, view);
  case KnownType::Torch:
    return readTorch(object, view);
  case KnownType::Other:
    break;
  }
  return false;
}

std::optional<runtime::CUstream> KnownArrayReader::cupyProducerStream() {
  if (cupyStream_)
    return *cupyStream_;
  std::optional<runtime::CUstream> stream;
  py::object util = loadedModule(KAJI_NAME("cupy._util"));
  py::object version =
      util ? attribute(util, KAJI_NAME("CUDA_ARRAY_INTERFACE_EXPORT_VERSION")) : py::object();
  if (version && PyLong_Check(version.ptr())) {
    long exported = PyLong_AsLong(version.ptr());
    if (exported == 2) {
      stream = nullptr; // version 2 exports no stream
    } else if (exported == 3) {
      const CupyStreamModule &streams = cupyStreamModule();
      std::optional<uintptr_t> handle = cupyCurrentStream(streams);
      // The protocol never exports 0: CuPy gives its null stream as the default stream.
      if (handle)
        stream = *handle ? reinterpret_cast<runtime::CUstream>(*handle) : streams.defaultStream;
    }
  }
  PyErr_Clear();
  cupyStream_ = stream;
  return stream;
}

bool KnownArrayReader::readCupy(py::handle array, ArrayView &view) {
  CupyAttributes &read = cachedAttributes<CupyAttributes>();
  py::object dtype = read.dtype.read(array);
  std::optional<ir::ScalarKind> element = dtype ? cachedKind(dtype, numpyTypestr) : std::nullopt;
  if (!element)
    return false;
  std::optional<runtime::CUstream> producer = cupyProducerStream();
  if (!producer)
    return false;
  std::optional<std::vector<int64_t>> shape = cupyShape(read, array);
  if (!shape)
    return false;
  // CuPy's own contiguity flag, which its interface reads to export no strides: then the
  // strides tuple need not be built.
  std::optional<std::vector<int64_t>> strides;
  if (!isTrue(read.cContiguous.read(array))) {
    strides = intTuple(read.strides.read(array));
    if (!strides || strides->size() != shape->size())
      return false;
  }
  py::object memory = read.data.read(array);
  py::object pointer = memory ? read.pointer.read(memory) : py::object();
  if (!pointer || !PyLong_Check(pointer.ptr()))
    return false;
  finishView(view, *element, readUint64(pointer, "CuPy array pointer"), std::move(*shape),
             std::move(strides), *producer);
  return true;
}

// The protocol refuses tensors that need grad, which the exchange API gives.
bool KnownArrayReader::readTorch(py::handle tensor, ArrayView &view) {
  TorchAttributes &read = cachedAttributes<TorchAttributes>();
  if (read.requiresGrad.read(tensor).ptr() != Py_False)
    return false;
  if (const dlpack::ExchangeApi *api = exchangeApiOf(Py_TYPE(tensor.ptr())))
    return readTorchThroughExchangeApi(*api, tensor, view);
  return readTorchAttributes(tensor, view);
}

// Tensors the exchange API refuses to describe, and those not on the GPU, are left to the
// protocol.
bool KnownArrayReader::readTorchThroughExchangeApi(const dlpack::ExchangeApi &api,
                                                   py::handle tensor, ArrayView &view) {
  dlpack::Tensor described{};
  if (api.tensorFromPyObjectNoSync(tensor.ptr(), &described) != 0) {
    PyErr_Clear();
    return false;
  }
  if (described.device.deviceType != dlpack::kDLCUDA || described.dtype.lanes != 1 ||
      described.ndim < 0)
    return false;
  std::optional<ir::ScalarKind> element =
      scalarKindFromDLPack(described.dtype.code, described.dtype.bits);
  if (!element)
    return false;
  std::vector<int64_t> shape(described.shape, described.shape + described.ndim);
  std::optional<std::vector<int64_t>> strides;
  if (described.strides) {
    strides.emplace(size_t(described.ndim));
    for (int32_t axis = 0; axis < described.ndim; ++axis)
      if (__builtin_mul_overflow(described.strides[axis], ir::byteSize(*element),
                                 &(*strides)[size_t(axis)]))
        return false; // the protocol's path names the stride
  }
  auto data = reinterpret_cast<runtime::CUdeviceptr>(described.data) + described.byteOffset;
  // Version 2 of the protocol, as PyTorch exports it: no stream to wait for.
  finishView(view, *element, data, std::move(shape), std::move(strides), nullptr);
  return true;
}

// Tensors of other layouts (sparse, nested) have no strides: `stride()` raises, and the
// protocol then says what is wrong.
bool KnownArrayReader::readTorchAttributes(py::handle tensor, ArrayView &view) {
  TorchAttributes &read = cachedAttributes<TorchAttributes>();
  if (!isTrue(read.isCuda.read(tensor)))
    return false;
  py::object dtype = read.dtype.read(tensor);
  std::optional<ir::ScalarKind> element = dtype ? cachedKind(dtype, torchTypestr) : std::nullopt;
  if (!element)
    return false;
  std::optional<std::vector<int64_t>> shape = intTuple(read.shape.read(tensor));
  std::optional<std::vector<int64_t>> strides = intTuple(callMethod(tensor, KAJI_NAME("stride")));
  if (!shape || !strides || strides->size() != shape->size())
    return false;
  int64_t itemSize = ir::byteSize(*element);
  for (int64_t &stride : *strides)
    if (__builtin_mul_overflow(stride, itemSize, &stride))
      return false; // the protocol's path names the stride
  py::object pointer = callMethod(tensor, KAJI_NAME("data_ptr"));
  if (!pointer || !PyLong_Check(pointer.ptr()))
    return false;
  // Version 2 of the protocol, as PyTorch exports it: no stream to wait for.
  finishView(view, *element, readUint64(pointer, "PyTorch tensor pointer"), std::move(*shape),
             std::move(strides), nullptr);
  return true;
}

} // namespace kaji::python
