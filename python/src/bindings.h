// What each part of kaji._core adds to the module (module.cpp calls them in order).
#pragma once

#include <pybind11/pybind11.h>

namespace kaji::python {

namespace py = pybind11;

void bindCompiler(py::module_ &m);    // FunctionSource, compile, typeof, versions
void bindRuntime(py::module_ &m);     // devices, streams, events, synchronize
void bindDeviceArray(py::module_ &m); // DeviceArray, to_device, device_array
void bindMemoryKinds(py::module_ &m); // pinned, mapped and managed memory, the memory limit
void bindDispatcher(py::module_ &m);  // Dispatcher, ConfiguredLaunch
void bindGraphs(py::module_ &m);      // Graph (kaji.graph)
void bindIpc(py::module_ &m);         // memory shared with other processes (CUDA IPC)

} // namespace kaji::python
