// Device code (PTX, cubins) loaded into a context, and its kernels and globals.
#pragma once

#include "kaji/runtime/CudaDriverTypes.h"
#include "kaji/runtime/Function.h"

#include <cstddef>
#include <optional>
#include <span>
#include <string>

namespace kaji::runtime {

class CudaDriver;

// Device code loaded into the selected device's primary context; unloaded when destroyed.
class Module {
public:
  // JIT-compiles PTX text. A rejected PTX throws CudaError whose detail is the JIT error log.
  // Empty text throws std::invalid_argument.
  static Module loadPtx(const std::string &ptx);
  // Loads a cubin (ELF) or fatbinary image. Anything else throws std::invalid_argument.
  static Module loadCubin(std::span<const std::byte> image);

  Module(Module &&other) noexcept;
  Module &operator=(Module &&other) noexcept;
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;
  ~Module();

  // Throws CudaError (CUDA_ERROR_NOT_FOUND) naming the entry when there is no such kernel.
  Function function(const std::string &entry) const;

  struct Global {
    CUdeviceptr address;
    std::size_t bytes;
  };
  // A module-scope variable (.global / .const), by its PTX name.
  Global global(const std::string &name) const;
  // The same, or nothing where the module has no variable of that name.
  std::optional<Global> findGlobal(const std::string &name) const;

  // What the JIT compiler reported for a successful load (empty for cubins, usually for PTX).
  const std::string &jitInfoLog() const { return jitInfoLog_; }
  int device() const { return device_; }

private:
  Module(CUmodule handle, int device, const CudaDriver &driver, std::string jitInfoLog);
  static Module load(const void *image, const char *what);
  void unload() noexcept;

  CUmodule handle_ = nullptr;
  int device_ = -1;
  const CudaDriver *driver_ = nullptr;
  std::string jitInfoLog_;
};

} // namespace kaji::runtime
