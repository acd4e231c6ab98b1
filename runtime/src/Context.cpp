#include "kaji/runtime/Context.h"

#include "kaji/runtime/CudaDriver.h"
#include "kaji/runtime/Device.h"

#include <memory>
#include <mutex>
#include <vector>

namespace kaji::runtime {

namespace detail {
constinit thread_local int currentDeviceOnThread = -1;
} // namespace detail

namespace {

constinit thread_local int selectedDeviceOnThread = 0;

struct PrimaryContexts {
  std::mutex mutex;
  std::vector<std::unique_ptr<const Context>> byDevice;
};

} // namespace

const Context &Context::primary(int device) {
  const Device &checked = Device::get(device);
  // Never destroyed, for the reason given in Context.h.
  static auto *contexts = new PrimaryContexts;
  std::lock_guard lock(contexts->mutex);
  if (contexts->byDevice.empty())
    contexts->byDevice.resize(static_cast<std::size_t>(Device::count()));
  auto &slot = contexts->byDevice[static_cast<std::size_t>(device)];
  if (!slot) {
    const CudaDriver &driver = CudaDriver::get();
    CUcontext handle = nullptr;
    driver.check(driver.api().cuDevicePrimaryCtxRetain(&handle, checked.handle()),
                 "cuDevicePrimaryCtxRetain");
    slot.reset(new Context(handle, device));
  }
  return *slot;
}

void Context::synchronize() const {
  const CudaDriver &driver = CudaDriver::get();
  makeCurrent(device_);
  driver.check(driver.api().cuCtxSynchronize(), "cuCtxSynchronize");
}

std::size_t Context::stackSize() const {
  const CudaDriver &driver = CudaDriver::get();
  makeCurrent(device_);
  std::size_t bytes = 0;
  driver.check(driver.api().cuCtxGetLimit(&bytes, CU_LIMIT_STACK_SIZE), "cuCtxGetLimit");
  return bytes;
}

void Context::setStackSize(std::size_t bytes) const {
  const CudaDriver &driver = CudaDriver::get();
  makeCurrent(device_);
  driver.check(driver.api().cuCtxSetLimit(CU_LIMIT_STACK_SIZE, bytes), "cuCtxSetLimit");
}

void selectDevice(int ordinal) {
  makeCurrent(ordinal);
  selectedDeviceOnThread = ordinal;
}

int selectedDevice() { return selectedDeviceOnThread; }

void synchronize() { Context::primary(selectedDevice()).synchronize(); }

void makeCurrent(int device) { detail::recoverCurrentContext(device); }

namespace detail {

bool recoverCurrentContext(int device) {
  const Context &context = Context::primary(device);
  const CudaDriver &driver = CudaDriver::get();
  CUcontext current = nullptr;
  driver.check(driver.api().cuCtxGetCurrent(&current), "cuCtxGetCurrent");
  bool switched = current != context.handle();
  if (switched)
    driver.check(driver.api().cuCtxSetCurrent(context.handle()), "cuCtxSetCurrent");
  currentDeviceOnThread = device;
  return switched;
}

bool tryMakeCurrent(int device) noexcept {
  try {
    makeCurrent(device);
    return true;
  } catch (...) {
    return false;
  }
}

} // namespace detail

} // namespace kaji::runtime
