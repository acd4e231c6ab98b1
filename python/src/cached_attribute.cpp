#include "cached_attribute.h"

namespace kaji::python {

// CPython 3.12 zeroes a modified type's tag; before 3.12 it only cleared the flag saying the
// tag is valid.
bool stillTagged(PyTypeObject *type, unsigned int version) {
#if PY_VERSION_HEX < 0x030C0000
  if (!PyType_HasFeature(type, Py_TPFLAGS_VALID_VERSION_TAG))
    return false;
#endif
  return version != 0 && type->tp_version_tag == version;
}

CachedAttribute::CachedAttribute(const char *name) : name_(PyUnicode_InternFromString(name)) {}

PyObject *CachedAttribute::descriptorFor(PyTypeObject *type) {
  if (type == type_ && stillTagged(type, version_))
    return descriptor_;
  Py_CLEAR(descriptor_);
  type_ = type;
  // _PyType_Lookup gives the type a valid tag if it has none; read it after.
  PyObject *found =
      type->tp_getattro == PyObject_GenericGetAttr ? _PyType_Lookup(type, name_) : nullptr;
  version_ = type->tp_version_tag;
  if (found && Py_TYPE(found)->tp_descr_get && Py_TYPE(found)->tp_descr_set)
    descriptor_ = found;
  Py_XINCREF(descriptor_);
  return descriptor_;
}

py::object CachedAttribute::read(py::handle object) {
  PyTypeObject *type = Py_TYPE(object.ptr());
  PyObject *descriptor = descriptorFor(type);
  PyObject *value =
      descriptor ? Py_TYPE(descriptor)
                       ->tp_descr_get(descriptor, object.ptr(), reinterpret_cast<PyObject *>(type))
                 : PyObject_GetAttr(object.ptr(), name_);
  if (!value)
    PyErr_Clear();
  return py::reinterpret_steal<py::object>(value);
}

} // namespace kaji::python
