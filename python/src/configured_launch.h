// `kernel[config]`: a kernel with its launch configuration, what `launch(*args)` launches.
#pragma once

#include "dispatcher.h"
#include "launch_stream.h"

#include <pybind11/pybind11.h>

namespace kaji::python {

namespace py = pybind11;

// `kernel[grid, block]`, `kernel[grid, block, stream]`, `kernel[grid, block, stream, shared]`.
class ConfiguredLaunch {
public:
  ConfiguredLaunch(py::object dispatcher, const py::handle &config);
  // `args`: the tuple of kernel arguments; `self`: this launch's Python object, which the
  // pre-launch callbacks are given.
  void operator()(py::handle self, py::handle args) const;
  // Pickles as `kernel[config]` made again (a stream in the config does not pickle, nor does
  // a launch with pre-launch callbacks).
  py::tuple reduce() const;

  // Numba's _LaunchConfiguration attributes.
  const py::object &dispatcher() const { return dispatcherObject_; }
  const LaunchShape &shape() const { return shape_; }
  // The stream as given in the configuration, 0 when none was.
  py::object stream() const;
  // Called as `callback(kernel, launch)` before each launch; the user appends to it.
  const py::list &preLaunchCallbacks() const { return preLaunchCallbacks_; }

  // For cycle collection (cycle_collection.h): the kernel, the configuration, the stream
  // object and the callbacks. Only the callbacks (which may refer to the launch) are dropped:
  // the raw pointers into the others would dangle, and a cycle through a launch also runs
  // through its kernel, whose breakCycles() breaks it.
  template <class F> void forEachPythonReference(F &&f) const {
    f(dispatcherObject_);
    f(config_);
    f(preLaunchCallbacks_);
    stream_.forEachPythonReference(f);
  }
  void breakCycles() { PyList_SetSlice(preLaunchCallbacks_.ptr(), 0, PY_SSIZE_T_MAX, nullptr); }

private:
  py::object dispatcherObject_; // keeps the kernel alive
  py::object config_;           // as the user wrote it, for pickling
  Dispatcher *dispatcher_;
  LaunchShape shape_;
  LaunchStream stream_;
  py::list preLaunchCallbacks_;
};

} // namespace kaji::python
