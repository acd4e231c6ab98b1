#include "bindings.h"
#include "integers.h"
#include "kernel_exceptions.h"
#include "launch_stream.h"

#include "kaji/runtime/Context.h"
#include "kaji/runtime/CudaDriver.h"
#include "kaji/runtime/Device.h"
#include "kaji/runtime/DeviceAttributes.h"
#include "kaji/runtime/Event.h"
#include "kaji/runtime/PeerCopy.h"
#include "kaji/runtime/Stream.h"

#include <pybind11/stl.h>

#include <cstdint>
#include <optional>
#include <sstream>
#include <string>

namespace kaji::python {

namespace {

// `with stream.auto_synchronize():` — the stream inside, synchronized on leaving.
struct AutoSynchronize {
  py::object stream;
};

} // namespace

void bindRuntime(py::module_ &m) {
  py::class_<runtime::Device>(m, "Device", "A CUDA device and its properties.")
      .def_property_readonly("id", &runtime::Device::ordinal)
      .def(
          "can_access_peer",
          [](const runtime::Device &d, int peer) {
            return runtime::enablePeerAccess(d.ordinal(), runtime::Device::get(peer).ordinal());
          },
          py::arg("peer"),
          "Whether this device and device `peer` reach each other's memory directly (NVLink or "
          "PCIe); where they do, peer access is enabled both ways for the process, so copies "
          "between them go device to device.")
      .def_property_readonly("name", &runtime::Device::name)
      .def_property_readonly("compute_capability",
                             [](const runtime::Device &d) {
                               return py::make_tuple(d.computeCapability().major,
                                                     d.computeCapability().minor);
                             })
      .def_property_readonly("multiprocessor_count", &runtime::Device::multiprocessorCount)
      .def_property_readonly("total_memory", &runtime::Device::totalMemory)
      .def_property_readonly("warp_size", &runtime::Device::warpSize)
      .def_property_readonly("max_threads_per_block",
                             [](const runtime::Device &d) { return d.limits().maxThreadsPerBlock; })
      .def("free_memory", &runtime::Device::freeMemory)
      .def("memory_info", &runtime::Device::memoryInfo,
           "(free, total) bytes of the device's memory, asked of the driver now.")
      .def(
          "__getattr__",
          [](const runtime::Device &d, const std::string &name) {
            std::optional<int> code = runtime::deviceAttributeCode(name);
            if (!code)
              throw py::attribute_error("kaji.Device has no attribute '" + name +
                                        "' (device attributes are CUdevice_attribute names "
                                        "without CU_DEVICE_ATTRIBUTE_, e.g. "
                                        "MULTIPROCESSOR_COUNT)");
            return d.attribute(*code);
          },
          "Numba's device attributes: CUdevice_attribute names without the "
          "CU_DEVICE_ATTRIBUTE_ prefix (MULTIPROCESSOR_COUNT, MAX_THREADS_PER_BLOCK, ...).")
      .def("__dir__",
           [](py::object self) {
             py::list names = py::module_::import("builtins").attr("object").attr("__dir__")(self);
             for (const auto &[name, code] : runtime::deviceAttributeNames())
               names.append(py::str(std::string(name)));
             return names;
           })
      .def("__repr__", [](const runtime::Device &d) {
        return "<kaji.Device " + std::to_string(d.ordinal()) + " '" + d.name() + "' sm_" +
               std::to_string(d.computeCapability().major) +
               std::to_string(d.computeCapability().minor) + ">";
      });

  py::class_<AutoSynchronize>(m, "AutoSynchronize")
      .def("__enter__", [](const AutoSynchronize &guard) { return guard.stream; })
      .def("__exit__", [](const AutoSynchronize &guard, py::args) {
        guard.stream.attr("synchronize")();
        return false;
      });

  py::class_<runtime::Stream>(m, "Stream", "A queue of device work.")
      .def("synchronize",
           [](const runtime::Stream &stream) {
             {
               py::gil_scoped_release released;
               stream.synchronize();
             }
             raiseKernelExceptions();
           })
      .def(
          "auto_synchronize", [](py::object self) { return AutoSynchronize{std::move(self)}; },
          "A context manager giving the stream and synchronizing it on leaving (Numba's "
          "stream.auto_synchronize()).")
      .def_property_readonly(
          "handle",
          [](const runtime::Stream &s) { return reinterpret_cast<std::uintptr_t>(s.handle()); })
      .def_property_readonly("device", &runtime::Stream::device)
      .def_property_readonly(
          "external",
          [](const runtime::Stream &s) {
            return !s.owned() && !s.isDefault() && s.handle() != runtime::CU_STREAM_LEGACY &&
                   s.handle() != runtime::CU_STREAM_PER_THREAD;
          },
          "Whether another library made the stream (Numba's external): kaji neither made it "
          "nor destroys it, and it is none of the default streams.")
      .def(
          "__int__",
          [](const runtime::Stream &s) { return reinterpret_cast<std::uintptr_t>(s.handle()); },
          "The CUstream handle, as Numba's int(stream): 0, 1 and 2 for the default, legacy "
          "default and per-thread default streams.")
      .def(
          "__cuda_stream__",
          [](const runtime::Stream &s) {
            return py::make_tuple(0, reinterpret_cast<std::uintptr_t>(s.handle()));
          },
          "The CUDA stream protocol: (version 0, CUstream handle), for other libraries.")
      .def("__repr__", [](const runtime::Stream &s) {
        // Numba's words for each kind of stream.
        std::string onDevice = " on device " + std::to_string(s.device()) + ">";
        if (s.isDefault())
          return "<kaji.Stream: Default CUDA stream" + onDevice;
        if (s.handle() == runtime::CU_STREAM_LEGACY)
          return "<kaji.Stream: Legacy default CUDA stream" + onDevice;
        if (s.handle() == runtime::CU_STREAM_PER_THREAD)
          return "<kaji.Stream: Per-thread default CUDA stream" + onDevice;
        std::ostringstream handle;
        handle << std::hex << reinterpret_cast<std::uintptr_t>(s.handle());
        return std::string("<kaji.Stream: ") + (s.owned() ? "" : "External ") + "CUDA stream 0x" +
               handle.str() + onDevice;
      });

  py::class_<runtime::Event>(m, "Event", "A marker in a stream, for waiting and timing.")
      .def(py::init<bool>(), py::arg("timing") = true)
      .def_property_readonly("timing", &runtime::Event::timing)
      .def(
          "record",
          [](runtime::Event &event, py::handle stream) {
            event.record(LaunchStream(stream).get());
          },
          py::arg("stream") = py::none(),
          "Records the event on `stream` (any stream a launch takes; default: the default one).")
      .def("query", &runtime::Event::query, "Whether the recorded work is done (no waiting).")
      .def(
          "wait",
          [](const runtime::Event &event, py::handle stream) {
            event.wait(LaunchStream(stream).get());
          },
          py::arg("stream") = py::none(),
          "Makes work queued on `stream` (any stream a launch takes) from now on wait for the "
          "recorded work.")
      .def("synchronize", &runtime::Event::synchronize, py::call_guard<py::gil_scoped_release>())
      .def(
          "elapsed_time",
          [](const runtime::Event &start, const runtime::Event &end) {
            return runtime::Event::elapsedMs(start, end);
          },
          py::arg("end"), "Milliseconds from this event to `end`.");

  m.def("stream", &runtime::Stream::create,
        "A new stream on the selected device that does not synchronize with the default one.");
  m.def("default_stream", [] { return runtime::Stream(); });
  m.def(
      "external_stream",
      [](py::handle handle) {
        return runtime::Stream::external(
            reinterpret_cast<runtime::CUstream>(readUint64(handle, "stream handle")));
      },
      py::arg("handle"),
      "A kaji stream over a CUstream another library made and keeps alive (Numba's "
      "cuda.external_stream).");
  m.def("device_count", &runtime::Device::count);
  m.def(
      "get_device",
      [](py::handle ordinal) { return &runtime::Device::get(readInt(ordinal, "device id")); },
      py::return_value_policy::reference, py::arg("ordinal") = 0);
  m.def(
      "select_device",
      [](py::handle ordinal) { runtime::selectDevice(readInt(ordinal, "device id")); },
      py::arg("ordinal"));
  m.def("selected_device", &runtime::selectedDevice);
  m.def(
      "synchronize",
      [] {
        runtime::synchronize();
        raiseKernelExceptions();
      },
      "Waits for all work queued on the selected device.");
  m.def(
      "stack_size",
      [](py::handle ordinal) {
        return runtime::Context::primary(readInt(ordinal, "device id")).stackSize();
      },
      py::arg("ordinal"));
  m.def(
      "set_stack_size",
      [](py::handle ordinal, py::handle bytes) {
        int64_t value = readInt64(bytes, "stack size");
        if (value <= 0)
          throw py::value_error("set_stack_size: a GPU thread's stack must be a positive "
                                "number of bytes, not " +
                                std::to_string(value));
        runtime::Context::primary(readInt(ordinal, "device id")).setStackSize(size_t(value));
      },
      py::arg("ordinal"), py::arg("bytes"));
  m.def("is_available", &runtime::CudaDriver::available);
  m.def("unavailable_reason", &runtime::CudaDriver::unavailableReason);
}

} // namespace kaji::python
