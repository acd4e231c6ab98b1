// Python references held by C++ objects are invisible to Python's cycle collector unless the
// class says where they are. A kernel defined at module level holds (through its dispatcher)
// the callback that reads its module's globals, and those globals hold the kernel: without
// this, every such kernel and its module namespace would live until the process ends.
#pragma once

#include <pybind11/pybind11.h>

namespace kaji::python {

namespace py = pybind11;

// The type setup that makes instances of `T` take part in cycle collection. `T` has
// `template <class F> void forEachPythonReference(F &&f) const`, calling `f(const py::object &)`
// on each reference it owns, and `void breakCycles()`, which drops those it can drop and stay
// safe to use (the collector calls it on every object of an unreachable cycle until the cycle
// is gone, and finalizers may still use an object after it). `moreSetup`, when given, sets
// further slots of the type (pybind11 takes one type setup per class).
template <class T>
py::custom_type_setup cycleCollected(void (*moreSetup)(PyHeapTypeObject *) = nullptr) {
  return py::custom_type_setup([moreSetup](PyHeapTypeObject *heapType) {
    if (moreSetup)
      moreSetup(heapType);
    PyTypeObject *type = &heapType->ht_type;
    type->tp_flags |= Py_TPFLAGS_HAVE_GC;
    type->tp_traverse = [](PyObject *self, visitproc visit, void *arg) {
      Py_VISIT(Py_TYPE(self)); // instances of heap types own a reference to their type
      if (!py::detail::is_holder_constructed(self))
        return 0;
      int result = 0;
      py::cast<const T &>(py::handle(self))
          .forEachPythonReference([&](const py::object &reference) {
            if (result == 0 && reference)
              result = visit(reference.ptr(), arg);
          });
      return result;
    };
    type->tp_clear = [](PyObject *self) {
      if (py::detail::is_holder_constructed(self))
        py::cast<T &>(py::handle(self)).breakCycles();
      return 0;
    };
  });
}

} // namespace kaji::python
