// An attribute read that skips the attribute lookup: the launch fast path reads the same few
// attributes of CuPy arrays and PyTorch tensors at every launch, and PyObject_GetAttr's lookup
// cost as much as the read. The type's descriptor is looked up once and its __get__ called as
// PyObject_GetAttr would call it.
#pragma once

#include <pybind11/pybind11.h>

namespace kaji::python {

namespace py = pybind11;

// Whether `type` is unchanged since it carried the version tag `version` (CPython gives a type
// a new tag whenever it or a base is modified; 0 is no tag).
bool stillTagged(PyTypeObject *type, unsigned int version);

class CachedAttribute {
public:
  // `name` is interned and kept for the life of the process.
  explicit CachedAttribute(const char *name);
  CachedAttribute(const CachedAttribute &) = delete;
  CachedAttribute &operator=(const CachedAttribute &) = delete;

  // `object.name`, or null (the error cleared) when reading it fails.
  py::object read(py::handle object);

private:
  // The descriptor is taken only where PyObject_GetAttr would call it first: a data
  // descriptor (a property or an extension type's attribute, which an instance's __dict__
  // cannot shadow) of a type with the generic attribute lookup.
  PyObject *descriptorFor(PyTypeObject *type);

  PyObject *name_;
  PyTypeObject *type_ = nullptr;
  // CPython gives a type a new version tag whenever it or a base changes: a cached descriptor
  // is used only while the tag it was found under is still the type's.
  unsigned int version_ = 0;
  // A strong reference, never dropped at exit: call sites keep their CachedAttribute in a
  // static, destroyed after the interpreter is gone.
  PyObject *descriptor_ = nullptr;
};

} // namespace kaji::python
