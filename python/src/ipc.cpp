// CUDA IPC for kaji/_ipc.py (Numba's IpcHandle): exporting the allocation under a device
// pointer, and opening another process's.
#include "bindings.h"

#include "kaji/runtime/Ipc.h"

#include <cstdint>
#include <cstring>
#include <string>

namespace kaji::python {

namespace {

runtime::IpcHandleBytes handleBytes(const py::bytes &handle) {
  std::string bytes = handle;
  runtime::IpcHandleBytes result;
  if (bytes.size() != result.size())
    throw py::value_error("a CUDA IPC handle is " + std::to_string(result.size()) + " bytes, not " +
                          std::to_string(bytes.size()));
  std::memcpy(result.data(), bytes.data(), result.size());
  return result;
}

} // namespace

void bindIpc(py::module_ &m) {
  m.def(
      "ipc_export",
      [](std::uint64_t pointer, int device) {
        runtime::IpcExport exported = runtime::exportIpcMemory(pointer, device);
        return py::make_tuple(py::bytes(reinterpret_cast<const char *>(exported.handle.data()),
                                        exported.handle.size()),
                              exported.offset, exported.allocationSize);
      },
      py::arg("pointer"), py::arg("device"),
      "(handle bytes, offset, allocation size): the CUDA IPC handle of the allocation on "
      "`device` that holds device address `pointer`, and the pointer's offset in it.");
  py::class_<runtime::IpcMapping>(
      m, "IpcMapping",
      "An allocation another process exported (its handle bytes), opened on a device until "
      "close().")
      .def(py::init([](const py::bytes &handle, int device) {
             return new runtime::IpcMapping(handleBytes(handle), device);
           }),
           py::arg("handle"), py::arg("device"))
      .def_property_readonly("pointer", &runtime::IpcMapping::pointer,
                             "The allocation's start in this process; 0 once closed.")
      .def_property_readonly("device", &runtime::IpcMapping::device)
      .def("close", &runtime::IpcMapping::close,
           "Unmaps the allocation; arrays over it must not be used after.");
}

} // namespace kaji::python
