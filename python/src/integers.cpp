#include "integers.h"

#include <limits>
#include <string>

namespace kaji::python {

namespace {

py::int_ exactInt(py::handle value, std::string_view what) {
  if (!PyIndex_Check(value.ptr()))
    throw py::type_error(std::string(what) + " must be an int, not '" +
                         Py_TYPE(value.ptr())->tp_name + "'");
  PyObject *number = PyNumber_Index(value.ptr());
  if (!number)
    throw py::error_already_set();
  return py::reinterpret_steal<py::int_>(number);
}

[[noreturn]] void outOfRange(const py::int_ &number, std::string_view what, const char *range) {
  throw py::value_error(std::string(what) + " " + std::string(py::str(number)) +
                        " is out of range (" + range + ")");
}

// `value` as an integer from `min` to `max`, the range `range` spells.
int64_t readWithin(py::handle value, std::string_view what, int64_t min, int64_t max,
                   const char *range) {
  py::int_ number = exactInt(value, what);
  int overflow = 0;
  long long result = PyLong_AsLongLongAndOverflow(number.ptr(), &overflow);
  if (result == -1 && PyErr_Occurred())
    throw py::error_already_set();
  if (overflow || result < min || result > max)
    outOfRange(number, what, range);
  return result;
}

} // namespace

int64_t readInt64(py::handle value, std::string_view what) {
  return readWithin(value, what, std::numeric_limits<int64_t>::min(),
                    std::numeric_limits<int64_t>::max(), "-2**63 to 2**63-1");
}

int readInt(py::handle value, std::string_view what) {
  return int(readWithin(value, what, std::numeric_limits<int>::min(),
                        std::numeric_limits<int>::max(), "-2**31 to 2**31-1"));
}

uint64_t readUint64(py::handle value, std::string_view what) {
  py::int_ number = exactInt(value, what);
  int overflow = 0;
  long long small = PyLong_AsLongLongAndOverflow(number.ptr(), &overflow);
  // On overflow `small` is -1, which says nothing about the sign: 2**63 to 2**64-1 overflow
  // upwards and are read below.
  if (overflow < 0 || (!overflow && small < 0))
    outOfRange(number, what, "0 to 2**64-1");
  if (!overflow)
    return uint64_t(small);
  unsigned long long result = PyLong_AsUnsignedLongLong(number.ptr());
  if (result == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
    PyErr_Clear();
    outOfRange(number, what, "0 to 2**64-1");
  }
  return result;
}

} // namespace kaji::python
