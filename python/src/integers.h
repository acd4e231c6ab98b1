// Python ints read into C++ integers. pybind11's own casts fail on an int out of the C++
// type's range with "Unable to cast", which names neither the value nor what it was for;
// these name both. `what` is read only to build an error: launches pass it at every call.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <string_view>

namespace kaji::python {

namespace py = pybind11;

// `value` (an int, or anything with __index__) as an int64. TypeError for anything else,
// ValueError naming `what` and the value when it is out of range.
int64_t readInt64(py::handle value, std::string_view what);
// The same for an int (device ordinals).
int readInt(py::handle value, std::string_view what);
// The same for a uint64 (handles and pointers of other libraries); negative is out of range.
uint64_t readUint64(py::handle value, std::string_view what);

} // namespace kaji::python
