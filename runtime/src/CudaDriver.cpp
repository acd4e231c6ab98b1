#include "kaji/runtime/CudaDriver.h"

#include <atomic>
#include <cstdlib>
#include <dlfcn.h>
#include <mutex>
#include <pthread.h>
#include <type_traits>

namespace kaji::runtime {

namespace {

constexpr const char *kWhatStillWorks = "kaji can still compile; launch on target cpu";

std::string lastDlError() {
  const char *message = dlerror();
  return message ? message : "unknown dynamic loader error";
}

} // namespace

void CudaDriver::LibraryCloser::operator()(void *handle) const { dlclose(handle); }

CudaDriver::CudaDriver(const std::string &libraryPath) : libraryPath_(libraryPath) {
  library_.reset(dlopen(libraryPath_.c_str(), RTLD_NOW | RTLD_LOCAL));
  if (!library_)
    throw DriverUnavailable("no NVIDIA driver found: cannot load '" + libraryPath_ +
                            "': " + lastDlError() + ". " + kWhatStillWorks +
                            ", or set KAJI_CUDA_DRIVER to the path of libcuda.so");
  resolveEntryPoints();
  initialize();
}

CudaDriver::~CudaDriver() = default;

void CudaDriver::resolveEntryPoints() {
  auto bind = [this](auto &entry, const char *symbol) {
    entry =
        reinterpret_cast<std::remove_reference_t<decltype(entry)>>(dlsym(library_.get(), symbol));
    if (!entry)
      throw DriverUnavailable("the CUDA driver '" + libraryPath_ + "' has no entry point " +
                              symbol + ": it is too old for kaji (CUDA 11 or newer needed). " +
                              kWhatStillWorks + ", or update the NVIDIA driver");
  };
  bind(api_.cuInit, "cuInit");
  bind(api_.cuDriverGetVersion, "cuDriverGetVersion");
  bind(api_.cuGetErrorName, "cuGetErrorName");
  bind(api_.cuGetErrorString, "cuGetErrorString");
  bind(api_.cuDeviceGetCount, "cuDeviceGetCount");
  bind(api_.cuDeviceGet, "cuDeviceGet");
  bind(api_.cuDeviceGetName, "cuDeviceGetName");
  bind(api_.cuDeviceGetAttribute, "cuDeviceGetAttribute");
  bind(api_.cuDeviceTotalMem, "cuDeviceTotalMem_v2");
  bind(api_.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  bind(api_.cuCtxSetCurrent, "cuCtxSetCurrent");
  bind(api_.cuCtxGetCurrent, "cuCtxGetCurrent");
  bind(api_.cuCtxSynchronize, "cuCtxSynchronize");
  bind(api_.cuCtxGetLimit, "cuCtxGetLimit");
  bind(api_.cuCtxSetLimit, "cuCtxSetLimit");
  bind(api_.cuMemGetInfo, "cuMemGetInfo_v2");
  bind(api_.cuModuleLoadDataEx, "cuModuleLoadDataEx");
  bind(api_.cuModuleUnload, "cuModuleUnload");
  bind(api_.cuModuleGetFunction, "cuModuleGetFunction");
  bind(api_.cuModuleGetGlobal, "cuModuleGetGlobal_v2");
  bind(api_.cuFuncGetAttribute, "cuFuncGetAttribute");
  bind(api_.cuOccupancyMaxPotentialBlockSize, "cuOccupancyMaxPotentialBlockSize");
  bind(api_.cuOccupancyMaxActiveBlocksPerMultiprocessor,
       "cuOccupancyMaxActiveBlocksPerMultiprocessor");
  bind(api_.cuFuncSetAttribute, "cuFuncSetAttribute");
  bind(api_.cuLaunchKernel, "cuLaunchKernel");
  bind(api_.cuLaunchCooperativeKernel, "cuLaunchCooperativeKernel");
  bind(api_.cuMemAlloc, "cuMemAlloc_v2");
  bind(api_.cuMemFree, "cuMemFree_v2");
  bind(api_.cuMemHostAlloc, "cuMemHostAlloc");
  bind(api_.cuMemFreeHost, "cuMemFreeHost");
  bind(api_.cuMemHostRegister, "cuMemHostRegister_v2");
  bind(api_.cuMemHostUnregister, "cuMemHostUnregister");
  bind(api_.cuMemHostGetDevicePointer, "cuMemHostGetDevicePointer_v2");
  bind(api_.cuMemAllocManaged, "cuMemAllocManaged");
  bind(api_.cuMemcpyHtoD, "cuMemcpyHtoD_v2");
  bind(api_.cuMemcpyDtoH, "cuMemcpyDtoH_v2");
  bind(api_.cuMemcpyDtoD, "cuMemcpyDtoD_v2");
  bind(api_.cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2");
  bind(api_.cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2");
  bind(api_.cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2");
  bind(api_.cuMemcpyPeerAsync, "cuMemcpyPeerAsync");
  bind(api_.cuDeviceCanAccessPeer, "cuDeviceCanAccessPeer");
  bind(api_.cuCtxEnablePeerAccess, "cuCtxEnablePeerAccess");
  bind(api_.cuMemsetD8, "cuMemsetD8_v2");
  bind(api_.cuMemsetD32, "cuMemsetD32_v2");
  bind(api_.cuMemsetD8Async, "cuMemsetD8Async");
  bind(api_.cuMemsetD32Async, "cuMemsetD32Async");
  bind(api_.cuStreamCreate, "cuStreamCreate");
  bind(api_.cuStreamDestroy, "cuStreamDestroy_v2");
  bind(api_.cuStreamSynchronize, "cuStreamSynchronize");
  bind(api_.cuStreamWaitEvent, "cuStreamWaitEvent");
  bind(api_.cuEventCreate, "cuEventCreate");
  bind(api_.cuEventDestroy, "cuEventDestroy_v2");
  bind(api_.cuEventRecord, "cuEventRecord");
  bind(api_.cuEventSynchronize, "cuEventSynchronize");
  bind(api_.cuEventQuery, "cuEventQuery");
  // cuda.h maps cuEventElapsedTime to _v2 from CUDA 12.8 on; older drivers only have the
  // original, which behaves the same for the events kaji creates.
  if (dlsym(library_.get(), "cuEventElapsedTime_v2"))
    bind(api_.cuEventElapsedTime, "cuEventElapsedTime_v2");
  else
    bind(api_.cuEventElapsedTime, "cuEventElapsedTime");
  // Optional entry points: a driver without them still launches; Graph.h and Linker.h name
  // what is missing, and allocations fall back to cuMemAlloc.
  auto bindOptional = [this](auto &entry, const char *symbol) {
    entry =
        reinterpret_cast<std::remove_reference_t<decltype(entry)>>(dlsym(library_.get(), symbol));
  };
  bindOptional(api_.cuMemAllocAsync, "cuMemAllocAsync");
  bindOptional(api_.cuMemFreeAsync, "cuMemFreeAsync");
  bindOptional(api_.cuStreamGetFlags, "cuStreamGetFlags");
  bindOptional(api_.cuLinkCreate, "cuLinkCreate_v2");
  bindOptional(api_.cuLinkAddData, "cuLinkAddData_v2");
  bindOptional(api_.cuLinkComplete, "cuLinkComplete");
  bindOptional(api_.cuLinkDestroy, "cuLinkDestroy");
  bindOptional(api_.cuMemGetAddressRange, "cuMemGetAddressRange_v2");
  bindOptional(api_.cuIpcGetMemHandle, "cuIpcGetMemHandle");
  bindOptional(api_.cuIpcOpenMemHandle, "cuIpcOpenMemHandle_v2");
  bindOptional(api_.cuIpcCloseMemHandle, "cuIpcCloseMemHandle");
  bindOptional(api_.cuStreamBeginCapture, "cuStreamBeginCapture_v2");
  bindOptional(api_.cuStreamEndCapture, "cuStreamEndCapture");
  bindOptional(api_.cuStreamGetCaptureInfo, "cuStreamGetCaptureInfo_v2");
  bindOptional(api_.cuGraphInstantiate, "cuGraphInstantiateWithFlags");
  bindOptional(api_.cuGraphLaunch, "cuGraphLaunch");
  bindOptional(api_.cuGraphExecKernelNodeSetParams, "cuGraphExecKernelNodeSetParams_v2");
  bindOptional(api_.cuGraphExecDestroy, "cuGraphExecDestroy");
  bindOptional(api_.cuGraphDestroy, "cuGraphDestroy");
}

namespace {

// Set in a child that fork() made after this process initialized CUDA: the driver fails every
// call there, and the error says why.
std::atomic<bool> forkedAfterInitialization{false};

} // namespace

void CudaDriver::initialize() {
  if (CUresult result = api_.cuInit(0); result != CUDA_SUCCESS) {
    std::string why = result == CUDA_ERROR_NO_DEVICE ? "no CUDA device found"
                      : result == CUDA_ERROR_STUB_LIBRARY
                          ? "'" + libraryPath_ + "' is the CUDA toolkit's stub, not a driver"
                          : "the CUDA driver '" + libraryPath_ + "' could not be initialized";
    throw DriverUnavailable(why + ": " + error(result, "cuInit").what() + ". " + kWhatStillWorks);
  }
  check(api_.cuDriverGetVersion(&version_), "cuDriverGetVersion");
  pthread_atfork(nullptr, nullptr, [] { forkedAfterInitialization = true; });
}

CudaError CudaDriver::error(CUresult result, std::string_view call, std::string detail) const {
  // A stub or broken driver may fail to name its own errors: fall back to kaji's table.
  const char *name = nullptr;
  std::string errorName = api_.cuGetErrorName(result, &name) == CUDA_SUCCESS && name
                              ? std::string(name)
                              : cudaErrorName(result);
  const char *description = nullptr;
  std::string errorDescription =
      api_.cuGetErrorString(result, &description) == CUDA_SUCCESS && description
          ? std::string(description)
          : std::string();
  if (forkedAfterInitialization)
    detail = "CUDA initialized before forking: this process was forked from one that had "
             "initialized CUDA, and the driver cannot serve it; start processes that use the "
             "GPU with multiprocessing's 'spawn' or 'forkserver' method" +
             (detail.empty() ? std::string() : "; " + detail);
  return CudaError(std::string(call), result, std::move(errorName), std::move(errorDescription),
                   std::move(detail));
}

void CudaDriver::raise(CUresult result, std::string_view call, std::string detail) const {
  throw error(result, call, std::move(detail));
}

std::string CudaDriver::defaultLibraryPath() {
  const char *override = std::getenv("KAJI_CUDA_DRIVER");
  return override && *override ? override : "libcuda.so.1";
}

namespace {

struct ProcessDriver {
  std::once_flag loaded;
  // Never deleted: buffers and modules held by static objects may be released after any
  // destructor of ours would run, and unloading libcuda at exit races the driver's teardown.
  const CudaDriver *driver = nullptr;
  std::string unavailableReason;
};

ProcessDriver &processDriver() {
  static ProcessDriver state;
  std::call_once(state.loaded, [] {
    try {
      state.driver = new CudaDriver(CudaDriver::defaultLibraryPath());
    } catch (const DriverUnavailable &unavailable) {
      state.unavailableReason = unavailable.what();
    } catch (const CudaError &failure) {
      state.unavailableReason = failure.what();
    }
  });
  return state;
}

} // namespace

const CudaDriver &CudaDriver::get() {
  ProcessDriver &state = processDriver();
  if (!state.driver)
    throw DriverUnavailable(state.unavailableReason);
  return *state.driver;
}

bool CudaDriver::available() { return processDriver().driver != nullptr; }

std::string CudaDriver::unavailableReason() { return processDriver().unavailableReason; }

} // namespace kaji::runtime
