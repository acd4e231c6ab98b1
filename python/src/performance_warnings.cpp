#include "performance_warnings.h"

#include "bindings.h"

#include <string>

namespace kaji::python {

namespace {

// Lives as long as the interpreter: the module keeps a reference too.
PyObject *performanceWarningType = nullptr;
bool lowOccupancyWarnings = true;
bool implicitCopyWarnings = true;

void warn(const std::string &message) {
  // The warning points at the launch in the user's code, one frame up from the C++ call.
  if (PyErr_WarnEx(performanceWarningType, message.c_str(), 1) < 0)
    throw py::error_already_set();
}

} // namespace

void warnIfLowOccupancy(int64_t blocks) {
  constexpr int64_t enoughBlocks = 128;
  if (lowOccupancyWarnings && blocks < enoughBlocks)
    warn("Grid size " + std::to_string(blocks) +
         " will likely result in GPU under-utilization due to low occupancy.");
}

void warnImplicitCopy() {
  if (implicitCopyWarnings)
    warn("Host array used in CUDA kernel will incur copy overhead to/from device.");
}

void bindPerformanceWarnings(py::module_ &m) {
  performanceWarningType =
      PyErr_NewExceptionWithDoc("kaji.PerformanceWarning",
                                "A launch that leaves the GPU idle or copies host arrays "
                                "(Numba's NumbaPerformanceWarning).",
                                PyExc_UserWarning, nullptr);
  if (!performanceWarningType)
    throw py::error_already_set();
  m.add_object("PerformanceWarning", py::handle(performanceWarningType));
  m.def(
      "set_performance_warnings",
      [](py::object lowOccupancy, py::object implicitCopy) {
        if (!lowOccupancy.is_none())
          lowOccupancyWarnings = lowOccupancy.cast<bool>();
        if (!implicitCopy.is_none())
          implicitCopyWarnings = implicitCopy.cast<bool>();
        return py::make_tuple(lowOccupancyWarnings, implicitCopyWarnings);
      },
      py::arg("low_occupancy") = py::none(), py::arg("implicit_copy") = py::none(),
      "Switches the kinds of PerformanceWarning on or off (None: unchanged); returns the "
      "(low_occupancy, implicit_copy) settings now.");
}

} // namespace kaji::python
