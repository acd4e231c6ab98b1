#include "kaji/runtime/DeviceAttributes.h"

#include <algorithm>

namespace kaji::runtime {

const std::vector<std::pair<std::string_view, int>> &deviceAttributeNames() {
  // The values of cuda.h (CUDA 13.0); the driver keeps them stable across releases.
  static const std::vector<std::pair<std::string_view, int>> names = {
      {"MAX_THREADS_PER_BLOCK", 1},
      {"MAX_BLOCK_DIM_X", 2},
      {"MAX_BLOCK_DIM_Y", 3},
      {"MAX_BLOCK_DIM_Z", 4},
      {"MAX_GRID_DIM_X", 5},
      {"MAX_GRID_DIM_Y", 6},
      {"MAX_GRID_DIM_Z", 7},
      {"MAX_SHARED_MEMORY_PER_BLOCK", 8},
      {"SHARED_MEMORY_PER_BLOCK", 8},
      {"TOTAL_CONSTANT_MEMORY", 9},
      {"WARP_SIZE", 10},
      {"MAX_PITCH", 11},
      {"MAX_REGISTERS_PER_BLOCK", 12},
      {"REGISTERS_PER_BLOCK", 12},
      {"CLOCK_RATE", 13},
      {"GPU_OVERLAP", 15},
      {"MULTIPROCESSOR_COUNT", 16},
      {"KERNEL_EXEC_TIMEOUT", 17},
      {"INTEGRATED", 18},
      {"CAN_MAP_HOST_MEMORY", 19},
      {"COMPUTE_MODE", 20},
      {"CONCURRENT_KERNELS", 31},
      {"ECC_ENABLED", 32},
      {"PCI_BUS_ID", 33},
      {"PCI_DEVICE_ID", 34},
      {"TCC_DRIVER", 35},
      {"MEMORY_CLOCK_RATE", 36},
      {"GLOBAL_MEMORY_BUS_WIDTH", 37},
      {"L2_CACHE_SIZE", 38},
      {"MAX_THREADS_PER_MULTIPROCESSOR", 39},
      {"ASYNC_ENGINE_COUNT", 40},
      {"UNIFIED_ADDRESSING", 41},
      {"CAN_TEX2D_GATHER", 44},
      {"PCI_DOMAIN_ID", 50},
      {"COMPUTE_CAPABILITY_MAJOR", 75},
      {"COMPUTE_CAPABILITY_MINOR", 76},
      {"STREAM_PRIORITIES_SUPPORTED", 78},
      {"GLOBAL_L1_CACHE_SUPPORTED", 79},
      {"LOCAL_L1_CACHE_SUPPORTED", 80},
      {"MAX_SHARED_MEMORY_PER_MULTIPROCESSOR", 81},
      {"MAX_REGISTERS_PER_MULTIPROCESSOR", 82},
      {"MANAGED_MEMORY", 83},
      {"MULTI_GPU_BOARD", 84},
      {"MULTI_GPU_BOARD_GROUP_ID", 85},
      {"HOST_NATIVE_ATOMIC_SUPPORTED", 86},
      {"SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO", 87},
      {"PAGEABLE_MEMORY_ACCESS", 88},
      {"CONCURRENT_MANAGED_ACCESS", 89},
      {"COMPUTE_PREEMPTION_SUPPORTED", 90},
      {"CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM", 91},
      {"COOPERATIVE_LAUNCH", 95},
      {"COOPERATIVE_MULTI_DEVICE_LAUNCH", 96},
      {"MAX_SHARED_MEMORY_PER_BLOCK_OPTIN", 97},
      {"CAN_FLUSH_REMOTE_WRITES", 98},
      {"HOST_REGISTER_SUPPORTED", 99},
      {"PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES", 100},
      {"DIRECT_MANAGED_MEM_ACCESS_FROM_HOST", 101},
      {"VIRTUAL_ADDRESS_MANAGEMENT_SUPPORTED", 102},
      {"VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED", 102},
      {"HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED", 103},
      {"HANDLE_TYPE_WIN32_HANDLE_SUPPORTED", 104},
      {"HANDLE_TYPE_WIN32_KMT_HANDLE_SUPPORTED", 105},
      {"MAX_BLOCKS_PER_MULTIPROCESSOR", 106},
      {"GENERIC_COMPRESSION_SUPPORTED", 107},
      {"MAX_PERSISTING_L2_CACHE_SIZE", 108},
      {"MAX_ACCESS_POLICY_WINDOW_SIZE", 109},
      {"GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED", 110},
      {"RESERVED_SHARED_MEMORY_PER_BLOCK", 111},
      {"SPARSE_CUDA_ARRAY_SUPPORTED", 112},
      {"READ_ONLY_HOST_REGISTER_SUPPORTED", 113},
      {"TIMELINE_SEMAPHORE_INTEROP_SUPPORTED", 114},
      {"MEMORY_POOLS_SUPPORTED", 115},
      {"GPU_DIRECT_RDMA_SUPPORTED", 116},
      {"GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS", 117},
      {"GPU_DIRECT_RDMA_WRITES_ORDERING", 118},
      {"MEMPOOL_SUPPORTED_HANDLE_TYPES", 119},
      {"CLUSTER_LAUNCH", 120},
      {"DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED", 121},
      {"CAN_USE_64_BIT_STREAM_MEM_OPS", 122},
      {"CAN_USE_STREAM_WAIT_VALUE_NOR", 123},
      {"DMA_BUF_SUPPORTED", 124},
  };
  return names;
}

std::optional<int> deviceAttributeCode(std::string_view name) {
  const auto &names = deviceAttributeNames();
  auto found = std::find_if(names.begin(), names.end(),
                            [name](const auto &entry) { return entry.first == name; });
  if (found == names.end())
    return std::nullopt;
  return found->second;
}

} // namespace kaji::runtime
