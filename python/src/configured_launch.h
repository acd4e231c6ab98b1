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
  // `args`: the tuple of kernel arguments.
  void operator()(py::handle args) const;
  // Pickles as `kernel[config]` made again (a stream in the config does not pickle).
  py::tuple reduce() const;

  // For cycle collection (cycle_collection.h): the kernel and the stream object. Neither is
  // dropped: the raw pointers into them would dangle, and a cycle through a launch also runs
  // through its kernel, whose breakCycles() breaks it.
  template <class F> void forEachPythonReference(F &&f) const {
    f(dispatcherObject_);
    f(config_);
    stream_.forEachPythonReference(f);
  }
  void breakCycles() {}

private:
  py::object dispatcherObject_; // keeps the kernel alive
  py::object config_;           // as the user wrote it, for pickling
  Dispatcher *dispatcher_;
  LaunchShape shape_;
  LaunchStream stream_;
};

} // namespace kaji::python
