// Python objects kept alive by C++ shared ownership (a buffer's control block, a stream held
// by memory freed later), whose last owner may be a thread without the GIL.
#pragma once

#include <pybind11/pybind11.h>

#include <memory>

namespace kaji::python {

namespace py = pybind11;

// A shared owner of a reference to `object`, dropped under the GIL when the last copy goes.
inline std::shared_ptr<py::object> sharedReference(py::object object) {
  return std::shared_ptr<py::object>(new py::object(std::move(object)), [](py::object *held) {
    py::gil_scoped_acquire gil;
    delete held;
  });
}

} // namespace kaji::python
