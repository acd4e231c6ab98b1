// CUDA IPC: device memory that one process exports and other processes on the same machine
// open (cuIpcGetMemHandle / cuIpcOpenMemHandle), as Numba's IpcHandle shares it.
#pragma once

#include "kaji/runtime/CudaDriverTypes.h"

#include <array>
#include <cstddef>

namespace kaji::runtime {

using IpcHandleBytes = std::array<std::byte, sizeof(CUipcMemHandle)>;

// The handle of the allocation that holds a pointer, and where the pointer lies in it.
struct IpcExport {
  IpcHandleBytes handle;
  std::size_t offset;         // of the pointer from the allocation's start
  std::size_t allocationSize; // of the whole allocation
};

// Exports the cuMemAlloc allocation on `device` that holds `pointer`, after the work queued on
// the device is done, as no other process can wait for it. Memory the driver cannot
// export (from a stream-ordered pool: arrays made with a stream; managed or host memory)
// throws the CudaError of cuIpcGetMemHandle, saying so; a driver without IPC throws
// std::runtime_error.
IpcExport exportIpcMemory(CUdeviceptr pointer, int device);

// An allocation another process exported, opened in this process on `device` (which may
// differ from the exporter's: peer access is enabled as the driver can), until close() or
// destruction. The exporting process cannot open its own handle (the driver refuses:
// CudaError naming cuIpcOpenMemHandle).
class IpcMapping {
public:
  IpcMapping(const IpcHandleBytes &handle, int device);
  IpcMapping(const IpcMapping &) = delete;
  IpcMapping &operator=(const IpcMapping &) = delete;
  ~IpcMapping();

  // The allocation's start here; 0 once closed.
  CUdeviceptr pointer() const { return pointer_; }
  int device() const { return device_; }
  // Unmaps the allocation (arrays over it must not be used after); a second call does nothing.
  void close();

private:
  CUdeviceptr pointer_ = 0;
  int device_;
};

} // namespace kaji::runtime
