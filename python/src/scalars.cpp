#include "scalars.h"

#include "dtypes.h"

#include <bit>
#include <cstring>
#include <iterator>
#include <string>
#include <unordered_map>

namespace kaji::python {

namespace {

// numpy's scalar types by their type object, found once numpy is first needed.
class NumpyScalarTypes {
public:
  static const NumpyScalarTypes &get() {
    static const NumpyScalarTypes *types = new NumpyScalarTypes();
    return *types;
  }

  std::optional<ir::ScalarKind> kindOf(PyTypeObject *type) const {
    auto it = kinds_.find(type);
    return it == kinds_.end() ? std::nullopt : std::optional(it->second);
  }

private:
  NumpyScalarTypes() {
    py::module_ numpy = py::module_::import("numpy");
    for (const char *name :
         {"bool_",   "byte",    "ubyte",   "short",     "ushort",    "intc",      "uintc",
          "int_",    "uint",    "long",    "ulong",     "longlong",  "ulonglong", "intp",
          "uintp",   "int8",    "int16",   "int32",     "int64",     "uint8",     "uint16",
          "uint32",  "uint64",  "half",    "single",    "double",    "float16",   "float32",
          "float64", "csingle", "cdouble", "complex64", "complex128"}) {
      if (!py::hasattr(numpy, name))
        continue;
      py::object type = numpy.attr(name);
      kinds_.emplace(reinterpret_cast<PyTypeObject *>(type.ptr()), scalarKindFromDtype(type));
      type.release(); // numpy's scalar types live as long as the interpreter
    }
  }

  std::unordered_map<PyTypeObject *, ir::ScalarKind> kinds_;
};

// The kind of ml_dtypes' scalar type `type` (bfloat16, float8_e4m3fn, float8_e5m2,
// float8_e8m0fnu), once the user has imported ml_dtypes (kaji never imports it for a scalar:
// such a scalar cannot exist before). Their objects are laid out as numpy's scalars.
std::optional<ir::ScalarKind> mlDtypesScalarKind(PyTypeObject *type) {
  static constexpr ir::ScalarKind kKinds[] = {ir::ScalarKind::BFloat16, ir::ScalarKind::Float8E4M3,
                                              ir::ScalarKind::Float8E5M2,
                                              ir::ScalarKind::Float8E8M0};
  static PyTypeObject *types[std::size(kKinds)] = {};
  if (!types[0]) {
    // Asked of every argument that is no Python or numpy scalar while ml_dtypes is not loaded.
    static PyObject *const moduleName = PyUnicode_InternFromString("ml_dtypes");
    PyObject *module = PyImport_GetModule(moduleName);
    if (!module) {
      PyErr_Clear();
      return std::nullopt;
    }
    py::object owner = py::reinterpret_steal<py::object>(module);
    for (size_t i = 0; i < std::size(kKinds); ++i) {
      std::string name(ir::numpyName(kKinds[i]));
      if (py::hasattr(owner, name.c_str())) // lives as ml_dtypes does
        types[i] =
            reinterpret_cast<PyTypeObject *>(py::object(owner.attr(name.c_str())).release().ptr());
    }
    if (!types[0])
      return std::nullopt;
  }
  for (size_t i = 0; i < std::size(kKinds); ++i)
    if (type == types[i])
      return kKinds[i];
  return std::nullopt;
}

template <class T> ScalarValue make(ir::ScalarKind kind, bool weak, T value, py::handle object) {
  ScalarValue result;
  result.kind = kind;
  result.weak = weak;
  result.object = object;
  std::memcpy(result.bytes.data(), &value, sizeof value);
  return result;
}

ScalarValue pythonInt(py::handle object) {
  int overflow = 0;
  long long value = PyLong_AsLongLongAndOverflow(object.ptr(), &overflow);
  if (!overflow) {
    if (value == -1 && PyErr_Occurred())
      throw py::error_already_set();
    return make(ir::ScalarKind::Int64, true, int64_t(value), object);
  }
  if (overflow > 0) {
    unsigned long long unsignedValue = PyLong_AsUnsignedLongLong(object.ptr());
    if (!PyErr_Occurred())
      return make(ir::ScalarKind::UInt64, true, uint64_t(unsignedValue), object);
    PyErr_Clear();
  }
  throw py::value_error("Python int " + py::repr(object).cast<std::string>() +
                        " does not fit in 64 bits (int64 or uint64)");
}

// numpy's scalar objects (numpy/arrayscalars.h) are the object header followed by the value.
template <class T> struct NumpyScalarObject { PyObject_HEAD T value; };

template <class T> const void *valueOf(py::handle object) {
  return &reinterpret_cast<const NumpyScalarObject<T> *>(object.ptr())->value;
}

// `object` is an instance of the numpy scalar type of `kind` (NumpyScalarTypes says so).
ScalarValue numpyScalar(py::handle object, ir::ScalarKind kind) {
  ScalarValue result;
  result.kind = kind;
  result.object = object;
  switch (ir::byteSize(kind)) {
  case 1:
    std::memcpy(result.bytes.data(), valueOf<uint8_t>(object), 1);
    break;
  case 2:
    std::memcpy(result.bytes.data(), valueOf<uint16_t>(object), 2);
    break;
  case 4:
    std::memcpy(result.bytes.data(), valueOf<uint32_t>(object), 4);
    break;
  case 8:
    std::memcpy(result.bytes.data(), valueOf<uint64_t>(object), 8);
    break;
  default: // complex128: two doubles
    std::memcpy(result.bytes.data(), valueOf<std::array<double, 2>>(object), 16);
  }
  return result;
}

} // namespace

int64_t ScalarValue::asInt64() const {
  int64_t value = 0;
  switch (ir::byteSize(kind)) {
  case 1:
    value = ir::isSigned(kind) ? int64_t(std::bit_cast<int8_t>(bytes[0])) : int64_t(bytes[0]);
    break;
  case 2: {
    uint16_t bits;
    std::memcpy(&bits, bytes.data(), 2);
    value = ir::isSigned(kind) ? int64_t(int16_t(bits)) : int64_t(bits);
    break;
  }
  case 4: {
    uint32_t bits;
    std::memcpy(&bits, bytes.data(), 4);
    value = ir::isSigned(kind) ? int64_t(int32_t(bits)) : int64_t(bits);
    break;
  }
  default:
    std::memcpy(&value, bytes.data(), 8);
  }
  return value;
}

double ScalarValue::asDouble() const {
  if (kind == ir::ScalarKind::Float16 || kind == ir::ScalarKind::BFloat16)
    return py::float_(py::reinterpret_borrow<py::object>(object));
  if (kind == ir::ScalarKind::Float32) {
    float value;
    std::memcpy(&value, bytes.data(), 4);
    return value;
  }
  double value;
  std::memcpy(&value, bytes.data(), 8);
  return value;
}

std::optional<ScalarValue> scalarValue(py::handle object) {
  PyTypeObject *type = Py_TYPE(object.ptr());
  if (type == &PyBool_Type)
    return make(ir::ScalarKind::Bool, true, uint8_t(object.ptr() == Py_True), object);
  if (type == &PyLong_Type)
    return pythonInt(object);
  if (type == &PyFloat_Type)
    return make(ir::ScalarKind::Float64, true, PyFloat_AS_DOUBLE(object.ptr()), object);
  if (std::optional<ir::ScalarKind> kind = NumpyScalarTypes::get().kindOf(type))
    return numpyScalar(object, *kind);
  if (std::optional<ir::ScalarKind> kind = mlDtypesScalarKind(type))
    return numpyScalar(object, *kind);
  if (PyLong_Check(object.ptr())) // int subclasses: IntEnum, ...
    return pythonInt(object);
  if (PyFloat_Check(object.ptr()))
    return make(ir::ScalarKind::Float64, true, PyFloat_AsDouble(object.ptr()), object);
  if (PyComplex_Check(object.ptr())) {
    Py_complex value = PyComplex_AsCComplex(object.ptr());
    return make(ir::ScalarKind::Complex128, true, std::array<double, 2>{value.real, value.imag},
                object);
  }
  return std::nullopt;
}

namespace {

// The bits of a Python int that is within `target`'s width read as unsigned or as signed
// (0xFFFFFFFF or -1 for an int32 or a uint32), or nullopt: a mask written in hex keeps its
// bits, as Numba passes it.
std::optional<uint64_t> pythonIntBits(const ScalarValue &value, ir::ScalarKind target) {
  if (!value.weak || !ir::isInteger(value.kind) || !ir::isInteger(target))
    return std::nullopt;
  unsigned width = ir::bitWidth(target);
  if (width == 64) // every Python int scalarValue reads is 64 bits as int64 or uint64
    return std::bit_cast<uint64_t>(value.asInt64());
  if (value.kind == ir::ScalarKind::UInt64)
    return std::nullopt;
  int64_t integer = value.asInt64();
  if (integer < -(int64_t(1) << (width - 1)) || integer >= (int64_t(1) << width))
    return std::nullopt;
  return uint64_t(integer);
}

} // namespace

void storeScalar(const ScalarValue &value, ir::ScalarKind target, std::byte *out) {
  if (value.kind == target) {
    std::memcpy(out, value.bytes.data(), ir::byteSize(target));
    return;
  }
  if (std::optional<uint64_t> bits = pythonIntBits(value, target)) {
    std::memcpy(out, &*bits, ir::byteSize(target)); // little-endian: the low bytes
    return;
  }
  // A conversion (to an eagerly compiled signature's type): numpy does it, as numpy would.
  py::object converted = numpyDtype(target).attr("type")(value.object);
  ScalarValue convertedValue = numpyScalar(converted, target);
  std::memcpy(out, convertedValue.bytes.data(), ir::byteSize(target));
}

} // namespace kaji::python
