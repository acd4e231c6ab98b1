// kaji.PerformanceWarning, Numba's NumbaPerformanceWarning: raised where Numba warns about a
// launch that wastes the GPU. Each kind can be switched off for the process (Numba's config
// switches CUDA_LOW_OCCUPANCY_WARNINGS and CUDA_WARN_ON_IMPLICIT_COPY), and every one goes
// through Python's warnings filters.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>

namespace kaji::python {

namespace py = pybind11;

// A grid of fewer than 128 blocks (Numba's threshold, whatever the device) leaves the GPU
// idle. Throws py::error_already_set when a warnings filter turns the warning into an error.
void warnIfLowOccupancy(int64_t blocks);
// A numpy array was copied to the device and back for a launch.
void warnImplicitCopy();

// Creates kaji._core.PerformanceWarning and set_performance_warnings().
void bindPerformanceWarnings(py::module_ &m);

} // namespace kaji::python
