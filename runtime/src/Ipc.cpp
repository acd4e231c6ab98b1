#include "kaji/runtime/Ipc.h"

#include "kaji/runtime/Context.h"
#include "kaji/runtime/CudaDriver.h"

#include <cstring>
#include <stdexcept>

namespace kaji::runtime {

namespace {

const CudaDriver &ipcDriver() {
  const CudaDriver &driver = CudaDriver::get();
  const CudaDriverApi &api = driver.api();
  if (!api.cuIpcGetMemHandle || !api.cuIpcOpenMemHandle || !api.cuIpcCloseMemHandle ||
      !api.cuMemGetAddressRange)
    throw std::runtime_error("the CUDA driver " + driver.libraryPath() +
                             " has no IPC (cuIpcGetMemHandle): device memory cannot be shared "
                             "with other processes on this system");
  return driver;
}

} // namespace

IpcExport exportIpcMemory(CUdeviceptr pointer, int device) {
  const CudaDriver &driver = ipcDriver();
  makeCurrent(device);
  CUdeviceptr base = 0;
  std::size_t size = 0;
  driver.check(driver.api().cuMemGetAddressRange(&base, &size, pointer), "cuMemGetAddressRange");
  CUipcMemHandle handle;
  if (CUresult result = driver.api().cuIpcGetMemHandle(&handle, base); result != CUDA_SUCCESS)
    driver.raise(result, "cuIpcGetMemHandle",
                 "only memory allocated without a stream can be shared with other processes; "
                 "memory from a stream's pool (an array made with stream=...), managed or "
                 "mapped memory cannot");
  // The importer's work cannot be ordered after this process's streams: what is queued on the
  // memory (a copy from pageable host memory returns before its DMA lands) is done first.
  Context::primary(device).synchronize();
  IpcExport exported{{}, std::size_t(pointer - base), size};
  std::memcpy(exported.handle.data(), handle.reserved, exported.handle.size());
  return exported;
}

IpcMapping::IpcMapping(const IpcHandleBytes &handle, int device) : device_(device) {
  const CudaDriver &driver = ipcDriver();
  makeCurrent(device);
  CUipcMemHandle driverHandle;
  std::memcpy(driverHandle.reserved, handle.data(), handle.size());
  driver.check(
      driver.api().cuIpcOpenMemHandle(&pointer_, driverHandle, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS),
      "cuIpcOpenMemHandle");
}

IpcMapping::~IpcMapping() {
  try {
    close();
  } catch (const std::exception &) {
    // A destructor cannot report it; the mapping goes with the process at the latest.
  }
}

void IpcMapping::close() {
  if (!pointer_)
    return;
  const CudaDriver &driver = CudaDriver::get();
  makeCurrent(device_);
  CUdeviceptr pointer = pointer_;
  pointer_ = 0;
  driver.check(driver.api().cuIpcCloseMemHandle(pointer), "cuIpcCloseMemHandle");
}

} // namespace kaji::runtime
