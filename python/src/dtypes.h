// The element types kaji kernels take, in the spellings array protocols use:
// numpy dtype objects, `__cuda_array_interface__` typestrs ("<f4") and DLPack codes.
#pragma once

#include "kaji/ir/Type.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <optional>
#include <string>
#include <string_view>

namespace kaji::python {

namespace py = pybind11;

// A typestr of native or no byte order ("<f4", "|b1", "=i8"); nullopt for anything else.
std::optional<ir::ScalarKind> scalarKindFromTypestr(std::string_view typestr);
// "<f4", "|b1": the typestr `__cuda_array_interface__` exports.
std::string typestrOf(ir::ScalarKind kind);
// The numpy dtype of `kind` (imports numpy; bfloat16's comes from ml_dtypes, imported then:
// TypeError naming the package when it is missing).
py::object numpyDtype(ir::ScalarKind kind);
py::dtype bfloat16Dtype();
// ml_dtypes.bfloat16's dtype (checked by name: kaji imports ml_dtypes only when it needs it).
bool isBfloat16Dtype(const py::dtype &dtype);
struct Element;
// The element kind of a numpy dtype (or anything numpy.dtype() accepts); throws TypeError
// naming the dtype when kaji kernels cannot take it.
ir::ScalarKind scalarKindFromDtype(const py::handle &dtype);
// DLPack's (code, bits) pair; nullopt for types kaji kernels cannot take.
std::optional<ir::ScalarKind> scalarKindFromDLPack(unsigned code, unsigned bits);

// What an array kernels take holds: numbers, or records (numpy structured dtypes).
struct Element {
  Element(ir::ScalarKind scalar) : scalar(scalar) {}
  Element(const ir::RecordType *record) : record(record) {}
  ir::ScalarKind scalar = ir::ScalarKind::UInt8; // when `record` is null
  const ir::RecordType *record = nullptr;

  int64_t size() const;
  ir::Type arrayType(unsigned ndim, ir::Layout layout) const;
  friend bool operator==(const Element &, const Element &) = default;
};
// The element of arrays of a numpy dtype (anything numpy.dtype() accepts), structured ones
// included; throws TypeError naming the dtype when kaji kernels cannot take it.
Element elementFromDtype(const py::handle &dtype);
py::object numpyDtype(const Element &element);
// numpy's name of the element's dtype, for messages.
std::string elementName(const Element &element);

} // namespace kaji::python
