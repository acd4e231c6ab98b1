// Host memory standing in for device memory on the cpu target: the buffers of host-backed
// DeviceArrays and of managed_array without a GPU. It is counted against the process's memory
// limit (kaji.set_memory_limit, KAJI_MEMORY_LIMIT) as the device memory it stands in for is,
// so that a program past its limit fails the same way on both targets.
#pragma once

#include <pybind11/numpy.h>

#include <cstddef>

namespace kaji::python {

namespace py = pybind11;

// A 1-d uint8 numpy array over `bytes` new, uninitialized host bytes, counted against the
// memory limit until the last view of it goes. Past the limit, runtime::OutOfMemory
// (MemoryError) naming the limit, the size and the bytes in use; nothing is allocated then.
py::array limitedHostMemory(std::size_t bytes);

} // namespace kaji::python
