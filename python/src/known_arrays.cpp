#include "known_arrays.h"

#include "array_sizes.h"
#include "dtypes.h"
#include "integers.h"

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

// cupy.ndarray (a Python class in module `cupy` since CuPy 13, the Cython class
// cupy._core.core.ndarray before) or torch.Tensor; subclasses are left to the protocol.
KnownType knownType(PyTypeObject *type) {
  static PyTypeObject *cupyType = nullptr;
  static PyTypeObject *torchType = nullptr;
  if (type == cupyType)
    return KnownType::Cupy;
  if (type == torchType)
    return KnownType::Torch;
  std::string_view name = type->tp_name;
  name = name.substr(name.rfind('.') + 1);
  if (name != "ndarray" && name != "Tensor")
    return KnownType::Other;
  py::object moduleName =
      attribute(py::handle(reinterpret_cast<PyObject *>(type)), KAJI_NAME("__module__"));
  if (!moduleName || !PyUnicode_Check(moduleName.ptr()))
    return KnownType::Other;
  std::string_view module = PyUnicode_AsUTF8(moduleName.ptr());
  auto remember = [type](PyTypeObject *&slot) {
    Py_INCREF(type); // the cache keeps the type object alive, so its address is not reused
    Py_XDECREF(slot);
    slot = type;
  };
  if (name == "ndarray" && (module == "cupy" || module == "cupy._core.core")) {
    remember(cupyType);
    return KnownType::Cupy;
  }
  if (name == "Tensor" && module == "torch") {
    remember(torchType);
    return KnownType::Torch;
  }
  return KnownType::Other;
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
    PyObject *item = PyTuple_GET_ITEM(value.ptr(), i);
    if (!PyLong_Check(item))
      return std::nullopt;
    items[size_t(i)] = PyLong_AsLongLong(item);
    if (items[size_t(i)] == -1 && PyErr_Occurred()) {
      PyErr_Clear();
      return std::nullopt;
    }
  }
  return items;
}

// Fills the view as the protocol would: strides of a C-contiguous array are those the
// protocol's None means, and the sizes are checked as for any foreign array.
void finishView(ArrayView &view, ir::ScalarKind element, runtime::CUdeviceptr data,
                std::vector<int64_t> shape, std::vector<int64_t> strides,
                runtime::CUstream producerStream) {
  int64_t itemSize = ir::byteSize(element);
  int64_t count = checkedElementCount(shape, itemSize);
  if (isContiguous(shape, strides, itemSize, false))
    strides = contiguousStrides(shape, itemSize, false);
  byteExtent(shape, strides, itemSize);
  view.element = element;
  view.data = count > 0 ? data : 0;
  view.shape = std::move(shape);
  view.strides = std::move(strides);
  view.owner.reset();
  view.producerStream = producerStream;
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
  py::object cuda = loadedModule(KAJI_NAME("cupy.cuda"));
  py::object version =
      util ? attribute(util, KAJI_NAME("CUDA_ARRAY_INTERFACE_EXPORT_VERSION")) : py::object();
  if (version && PyLong_Check(version.ptr())) {
    long exported = PyLong_AsLong(version.ptr());
    if (exported == 2) {
      stream = nullptr; // version 2 exports no stream
    } else if (exported == 3 && cuda) {
      py::object getCurrent = attribute(cuda, KAJI_NAME("get_current_stream"));
      py::object current =
          getCurrent ? py::reinterpret_steal<py::object>(PyObject_CallNoArgs(getCurrent.ptr()))
                     : py::object();
      if (!current)
        PyErr_Clear();
      py::object pointer = current ? attribute(current, KAJI_NAME("ptr")) : py::object();
      if (pointer && PyLong_Check(pointer.ptr())) {
        auto handle = reinterpret_cast<runtime::CUstream>(readUint64(pointer, "CuPy stream"));
        // The protocol never exports 0: CuPy gives its null stream as the legacy default.
        stream = handle ? handle : runtime::CU_STREAM_LEGACY;
      }
    }
  }
  PyErr_Clear();
  cupyStream_ = stream;
  return stream;
}

const py::object &KnownArrayReader::torchStrided() {
  if (!torchStrided_) {
    py::object torch = loadedModule(KAJI_NAME("torch"));
    torchStrided_ = torch ? attribute(torch, KAJI_NAME("strided")) : py::object();
  }
  return *torchStrided_;
}

bool KnownArrayReader::readCupy(py::handle array, ArrayView &view) {
  py::object dtype = attribute(array, KAJI_NAME("dtype"));
  std::optional<ir::ScalarKind> element = dtype ? cachedKind(dtype, numpyTypestr) : std::nullopt;
  if (!element)
    return false;
  std::optional<runtime::CUstream> producer = cupyProducerStream();
  if (!producer)
    return false;
  std::optional<std::vector<int64_t>> shape = intTuple(attribute(array, KAJI_NAME("shape")));
  if (!shape)
    return false;
  // CuPy's own contiguity flag, which its interface reads to export no strides: then the
  // strides tuple need not be built.
  std::optional<std::vector<int64_t>> strides =
      isTrue(attribute(array, KAJI_NAME("_c_contiguous")))
          ? contiguousStrides(*shape, ir::byteSize(*element), false)
          : intTuple(attribute(array, KAJI_NAME("strides")));
  py::object memory = attribute(array, KAJI_NAME("data"));
  py::object pointer = memory ? attribute(memory, KAJI_NAME("ptr")) : py::object();
  if (!strides || strides->size() != shape->size() || !pointer || !PyLong_Check(pointer.ptr()))
    return false;
  finishView(view, *element, readUint64(pointer, "CuPy array pointer"), std::move(*shape),
             std::move(*strides), *producer);
  return true;
}

bool KnownArrayReader::readTorch(py::handle tensor, ArrayView &view) {
  if (!isTrue(attribute(tensor, KAJI_NAME("is_cuda"))) ||
      attribute(tensor, KAJI_NAME("requires_grad")).ptr() != Py_False)
    return false;
  const py::object &strided = torchStrided();
  py::object layout = attribute(tensor, KAJI_NAME("layout"));
  if (!strided || !layout.is(strided))
    return false;
  py::object dtype = attribute(tensor, KAJI_NAME("dtype"));
  std::optional<ir::ScalarKind> element = dtype ? cachedKind(dtype, torchTypestr) : std::nullopt;
  if (!element)
    return false;
  std::optional<std::vector<int64_t>> shape = intTuple(attribute(tensor, KAJI_NAME("shape")));
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
             std::move(*strides), nullptr);
  return true;
}

} // namespace kaji::python
