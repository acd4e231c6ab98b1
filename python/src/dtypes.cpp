#include "dtypes.h"

#include "record_dtypes.h"

#include <pybind11/numpy.h>

namespace kaji::python {

namespace {

// numpy has no bfloat16: ml_dtypes' dtype is an opaque two bytes ("<V2", kind 'V'), and torch
// exports its bfloat16 tensors with that typestr too. A plain numpy void of two bytes is "|V2".
constexpr char kBfloat16Code = 'V';

std::optional<ir::ScalarKind> scalarKindFromCode(char code, unsigned bytes) {
  using ir::ScalarKind;
  switch (code) {
  case 'b':
    return bytes == 1 ? std::optional(ScalarKind::Bool) : std::nullopt;
  case 'i':
    switch (bytes) {
    case 1:
      return ScalarKind::Int8;
    case 2:
      return ScalarKind::Int16;
    case 4:
      return ScalarKind::Int32;
    case 8:
      return ScalarKind::Int64;
    }
    return std::nullopt;
  case 'u':
    switch (bytes) {
    case 1:
      return ScalarKind::UInt8;
    case 2:
      return ScalarKind::UInt16;
    case 4:
      return ScalarKind::UInt32;
    case 8:
      return ScalarKind::UInt64;
    }
    return std::nullopt;
  case 'f':
    switch (bytes) {
    case 1: // ml_dtypes gives float8_e5m2, float16's upper byte, kind 'f' ("<f1")
      return ScalarKind::Float8E5M2;
    case 2:
      return ScalarKind::Float16;
    case 4:
      return ScalarKind::Float32;
    case 8:
      return ScalarKind::Float64;
    }
    return std::nullopt;
  case 'c':
    switch (bytes) {
    case 8:
      return ScalarKind::Complex64;
    case 16:
      return ScalarKind::Complex128;
    }
    return std::nullopt;
  case kBfloat16Code:
    return bytes == 2 ? std::optional(ScalarKind::BFloat16) : std::nullopt;
  }
  return std::nullopt;
}

// ml_dtypes' 8-bit floats, single bytes of kind 'V' to numpy (float8_e5m2's kind is 'f'), told
// apart by name.
std::optional<ir::ScalarKind> float8KindNamed(const std::string &name) {
  for (ir::ScalarKind kind :
       {ir::ScalarKind::Float8E4M3, ir::ScalarKind::Float8E5M2, ir::ScalarKind::Float8E8M0})
    if (ir::numpyName(kind) == name)
      return kind;
  return std::nullopt;
}

py::dtype mlDtype(std::string_view name) {
  py::module_ mlDtypes;
  try {
    mlDtypes = py::module_::import("ml_dtypes");
  } catch (py::error_already_set &error) {
    if (!error.matches(PyExc_ImportError))
      throw;
    throw py::type_error(std::string(name) + " arrays on the host need the ml_dtypes package " +
                         "(pip install ml_dtypes), which gives numpy its " + std::string(name) +
                         " dtype");
  }
  return py::dtype::from_args(mlDtypes.attr(std::string(name).c_str()));
}

char codeOf(ir::ScalarKind kind) {
  if (kind == ir::ScalarKind::Bool)
    return 'b';
  if (kind == ir::ScalarKind::BFloat16 ||
      (ir::isFloat8(kind) && kind != ir::ScalarKind::Float8E5M2))
    return kBfloat16Code;
  if (kind == ir::ScalarKind::Float8E5M2)
    return 'f';
  if (ir::isFloat(kind))
    return 'f';
  if (ir::isComplex(kind))
    return 'c';
  return ir::isSigned(kind) ? 'i' : 'u';
}

} // namespace

std::optional<ir::ScalarKind> scalarKindFromTypestr(std::string_view typestr) {
  if (typestr.size() < 3 || (typestr[0] != '<' && typestr[0] != '|' && typestr[0] != '='))
    return std::nullopt;
  unsigned bytes = 0;
  for (char digit : typestr.substr(2)) {
    if (digit < '0' || digit > '9' || bytes > 16)
      return std::nullopt;
    bytes = bytes * 10 + unsigned(digit - '0');
  }
  if (typestr[1] == kBfloat16Code && typestr[0] != '<')
    return std::nullopt;
  return scalarKindFromCode(typestr[1], bytes);
}

std::string typestrOf(ir::ScalarKind kind) {
  unsigned bytes = ir::byteSize(kind);
  return std::string(bytes == 1 ? "|" : "<") + codeOf(kind) + std::to_string(bytes);
}

py::object numpyDtype(ir::ScalarKind kind) {
  if (kind == ir::ScalarKind::BFloat16 || ir::isFloat8(kind))
    return mlDtype(ir::numpyName(kind));
  return py::dtype(std::string(ir::numpyName(kind)));
}

py::dtype bfloat16Dtype() { return mlDtype("bfloat16"); }

bool isBfloat16Dtype(const py::dtype &dtype) {
  return dtype.kind() == kBfloat16Code && dtype.itemsize() == 2 &&
         py::str(dtype.attr("name")).cast<std::string>() == "bfloat16";
}

ir::ScalarKind scalarKindFromDtype(const py::handle &dtypeLike) {
  py::dtype dtype = py::dtype::from_args(py::reinterpret_borrow<py::object>(dtypeLike));
  char byteorder = dtype.byteorder();
  std::optional<ir::ScalarKind> kind;
  if (isBfloat16Dtype(dtype))
    kind = ir::ScalarKind::BFloat16;
  else if (dtype.itemsize() == 1 && (dtype.kind() == kBfloat16Code || dtype.kind() == 'f'))
    kind = float8KindNamed(py::str(dtype.attr("name")).cast<std::string>());
  else if (byteorder != '>' && dtype.kind() != kBfloat16Code)
    kind = scalarKindFromCode(dtype.kind(), unsigned(dtype.itemsize()));
  if (!kind)
    throw py::type_error("dtype " + py::str(dtype).cast<std::string>() +
                         " is not supported by kaji kernels (supported: bool, int8-int64, "
                         "uint8-uint64, float16, bfloat16 (ml_dtypes), float32, float64, "
                         "complex64, complex128 in native byte order, and ml_dtypes' "
                         "float8_e4m3fn, float8_e5m2, float8_e8m0fnu)");
  return *kind;
}

std::optional<ir::ScalarKind> scalarKindFromDLPack(unsigned code, unsigned bits) {
  // DLDataTypeCode: kDLInt 0, kDLUInt 1, kDLFloat 2, kDLBfloat 4, kDLComplex 5, kDLBool 6.
  static constexpr char codes[] = {'i', 'u', 'f', 0, kBfloat16Code, 'c', 'b'};
  if (code >= sizeof(codes) || !codes[code] || bits % 8 != 0)
    return std::nullopt;
  return scalarKindFromCode(codes[code], bits / 8);
}

int64_t Element::size() const { return record ? record->size() : ir::byteSize(scalar); }

ir::Type Element::arrayType(unsigned ndim, ir::Layout layout) const {
  return record ? ir::Type::array(record, ndim, layout) : ir::Type::array(scalar, ndim, layout);
}

Element elementFromDtype(const py::handle &dtypeLike) {
  py::dtype dtype = py::dtype::from_args(py::reinterpret_borrow<py::object>(dtypeLike));
  if (isStructured(dtype))
    return recordFromDtype(dtype);
  return scalarKindFromDtype(dtype);
}

py::object numpyDtype(const Element &element) {
  return element.record ? py::object(dtypeOfRecord(*element.record)) : numpyDtype(element.scalar);
}

std::string elementName(const Element &element) {
  return element.record ? py::str(dtypeOfRecord(*element.record)).cast<std::string>()
                        : std::string(ir::numpyName(element.scalar));
}

} // namespace kaji::python
