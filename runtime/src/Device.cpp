#include "kaji/runtime/Device.h"

#include "kaji/runtime/Context.h"
#include "kaji/runtime/CudaDriver.h"

#include <stdexcept>
#include <vector>

namespace kaji::runtime {

class Device::Table {
public:
  static const std::vector<Device> &devices() {
    // Built once; a failure (no driver) propagates and the next call tries again.
    static const std::vector<Device> table = query(CudaDriver::get());
    return table;
  }

private:
  static std::vector<Device> query(const CudaDriver &driver) {
    const CudaDriverApi &api = driver.api();
    int count = 0;
    driver.check(api.cuDeviceGetCount(&count), "cuDeviceGetCount");
    std::vector<Device> devices;
    for (int ordinal = 0; ordinal < count; ++ordinal) {
      Device device;
      describe(driver, ordinal, device);
      devices.push_back(std::move(device));
    }
    return devices;
  }

  static void describe(const CudaDriver &driver, int ordinal, Device &device) {
    const CudaDriverApi &api = driver.api();
    device.ordinal_ = ordinal;
    driver.check(api.cuDeviceGet(&device.handle_, ordinal), "cuDeviceGet");
    auto attribute = [&](CUdevice_attribute which) {
      int value = 0;
      driver.check(api.cuDeviceGetAttribute(&value, which, device.handle_), "cuDeviceGetAttribute");
      return value;
    };
    char name[256] = {};
    driver.check(api.cuDeviceGetName(name, sizeof(name) - 1, device.handle_), "cuDeviceGetName");
    device.name_ = name;
    device.computeCapability_ = {attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
                                 attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)};
    device.multiprocessorCount_ = attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
    driver.check(api.cuDeviceTotalMem(&device.totalMemory_, device.handle_), "cuDeviceTotalMem");
    DeviceLimits &limits = device.limits_;
    limits.maxThreadsPerBlock = attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    limits.maxBlockDim = {attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X),
                          attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y),
                          attribute(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z)};
    limits.maxGridDim = {attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X),
                         attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y),
                         attribute(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z)};
    limits.maxSharedBytesPerBlock = attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
    limits.maxSharedBytesPerBlockOptin =
        attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
    limits.warpSize = attribute(CU_DEVICE_ATTRIBUTE_WARP_SIZE);
  }
};

int Device::count() { return static_cast<int>(Table::devices().size()); }

const Device &Device::get(int ordinal) {
  const std::vector<Device> &devices = Table::devices();
  if (ordinal < 0 || static_cast<std::size_t>(ordinal) >= devices.size()) {
    std::string has = devices.size() == 1
                          ? "1 CUDA device (ordinal 0)"
                          : std::to_string(devices.size()) + " CUDA devices (ordinals 0 to " +
                                std::to_string(devices.size() - 1) + ")";
    throw std::out_of_range("there is no CUDA device " + std::to_string(ordinal) +
                            ": this machine has " + has);
  }
  return devices[static_cast<std::size_t>(ordinal)];
}

std::size_t Device::freeMemory() const { return memoryInfo().first; }

std::pair<std::size_t, std::size_t> Device::memoryInfo() const {
  const CudaDriver &driver = CudaDriver::get();
  makeCurrent(ordinal_);
  std::size_t freeBytes = 0;
  std::size_t totalBytes = 0;
  driver.check(driver.api().cuMemGetInfo(&freeBytes, &totalBytes), "cuMemGetInfo");
  return {freeBytes, totalBytes};
}

int Device::attribute(int code) const {
  const CudaDriver &driver = CudaDriver::get();
  int value = 0;
  driver.check(driver.api().cuDeviceGetAttribute(&value, CUdevice_attribute(code), handle_),
               "cuDeviceGetAttribute");
  return value;
}

} // namespace kaji::runtime
