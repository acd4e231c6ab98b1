// Device attributes by the names Numba gives them on its Device objects: CUdevice_attribute
// without the CU_DEVICE_ATTRIBUTE_ prefix (MULTIPROCESSOR_COUNT, MAX_THREADS_PER_BLOCK, ...).
#pragma once

#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace kaji::runtime {

// (name, CUdevice_attribute value) for every attribute but the texture and surface limits.
const std::vector<std::pair<std::string_view, int>> &deviceAttributeNames();

// The CUdevice_attribute value of `name`, or nothing for a name that is not one.
std::optional<int> deviceAttributeCode(std::string_view name);

} // namespace kaji::runtime
