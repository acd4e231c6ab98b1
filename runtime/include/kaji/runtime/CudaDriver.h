// The CUDA driver library, opened at run time, and its entry points.
#pragma once

#include "kaji/runtime/CudaDriverApi.h"
#include "kaji/runtime/Error.h"

#include <memory>
#include <string>
#include <string_view>

namespace kaji::runtime {

// The CUDA driver library, opened with dlopen and initialized with cuInit. kaji has no
// link-time dependency on libcuda, so it imports and compiles on machines without a GPU;
// only using the driver needs one.
class CudaDriver {
public:
  // Opens the library at `libraryPath`, resolves every entry point kaji uses and calls cuInit.
  // Throws DriverUnavailable saying what failed.
  explicit CudaDriver(const std::string &libraryPath);
  ~CudaDriver();
  CudaDriver(const CudaDriver &) = delete;
  CudaDriver &operator=(const CudaDriver &) = delete;

  // The process-wide driver, loaded on first use from defaultLibraryPath(). Thread-safe.
  // Throws DriverUnavailable (with the same reason on every call) when there is none.
  static const CudaDriver &get();
  static bool available();
  // Why get() throws; empty when the driver is available.
  static std::string unavailableReason();
  // $KAJI_CUDA_DRIVER when set, otherwise "libcuda.so.1" found by the dynamic loader.
  static std::string defaultLibraryPath();

  const CudaDriverApi &api() const { return api_; }
  const std::string &libraryPath() const { return libraryPath_; }
  // The CUDA version the driver supports, as cuDriverGetVersion encodes it (12040 = 12.4).
  int version() const { return version_; }

  void check(CUresult result, const char *call) const {
    if (result != CUDA_SUCCESS) [[unlikely]]
      raise(result, call);
  }
  // Throws the CudaError for `result`, named by the driver where it can name it.
  [[noreturn]] void raise(CUresult result, std::string_view call, std::string detail = {}) const;
  CudaError error(CUresult result, std::string_view call, std::string detail = {}) const;

private:
  struct LibraryCloser {
    void operator()(void *handle) const;
  };

  void resolveEntryPoints();
  void initialize();

  std::string libraryPath_;
  std::unique_ptr<void, LibraryCloser> library_;
  CudaDriverApi api_{};
  int version_ = 0;
};

} // namespace kaji::runtime
