// The C++ object inside an instance of a class kaji binds, reached without pybind11's cast
// (whose type lookup costs more than the launch path can spend). Every kaji class binds one
// C++ type with no C++ base, so the object is the instance's first and only value.
#pragma once

#include <pybind11/pybind11.h>

namespace kaji::python {

namespace py = pybind11;

// The value pointer pybind11's get_value_and_holder() finds first, read in place: the
// launch path asks for it for every kaji array argument.
template <class T> T &cppObject(PyObject *instance) {
  auto *object = reinterpret_cast<py::detail::instance *>(instance);
  void *value = object->simple_layout ? object->simple_value_holder[0]
                                      : object->nonsimple.values_and_holders[0];
  return *static_cast<T *>(value);
}

// The bound Python type of `T`, looked up once.
template <class T> PyTypeObject *boundType() {
  static PyTypeObject *const type = reinterpret_cast<PyTypeObject *>(py::type::of<T>().ptr());
  return type;
}

// `object`'s C++ `T` when it is an instance of T's bound type (or a subclass), else null.
template <class T> T *cppObjectIf(py::handle object) {
  PyTypeObject *type = boundType<T>();
  if (Py_TYPE(object.ptr()) != type && !PyObject_TypeCheck(object.ptr(), type))
    return nullptr;
  if (!py::detail::is_holder_constructed(object.ptr()))
    return nullptr;
  return &cppObject<T>(object.ptr());
}

} // namespace kaji::python
