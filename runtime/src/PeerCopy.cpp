#include "kaji/runtime/PeerCopy.h"

#include "kaji/runtime/Context.h"
#include "kaji/runtime/CudaDriver.h"
#include "kaji/runtime/Device.h"
#include "kaji/runtime/Stream.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <utility>

namespace kaji::runtime {

namespace {

// Lets `from`'s primary context reach `to`'s memory; false when the hardware cannot.
bool enableOneWay(const CudaDriver &driver, int from, int to) {
  int canAccess = 0;
  driver.check(driver.api().cuDeviceCanAccessPeer(&canAccess, Device::get(from).handle(),
                                                  Device::get(to).handle()),
               "cuDeviceCanAccessPeer");
  if (!canAccess)
    return false;
  makeCurrent(from);
  CUresult result = driver.api().cuCtxEnablePeerAccess(Context::primary(to).handle(), 0);
  if (result != CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED)
    driver.check(result, "cuCtxEnablePeerAccess");
  return true;
}

} // namespace

bool enablePeerAccess(int a, int b) {
  if (a == b)
    return true;
  static std::mutex mutex;
  static std::map<std::pair<int, int>, bool> enabled;
  const CudaDriver &driver = CudaDriver::get();
  std::pair<int, int> pair = std::minmax(a, b);
  std::lock_guard lock(mutex);
  if (auto found = enabled.find(pair); found != enabled.end())
    return found->second;
  int current = selectedDevice();
  bool peers = enableOneWay(driver, a, b) && enableOneWay(driver, b, a);
  makeCurrent(current);
  enabled.emplace(pair, peers);
  return peers;
}

void copyPeer(CUdeviceptr dst, int dstDevice, CUdeviceptr src, int srcDevice, std::size_t bytes,
              const Stream *stream) {
  if (stream && stream->device() != dstDevice)
    throw std::invalid_argument("a copy to device " + std::to_string(dstDevice) +
                                " cannot be queued on a stream of device " +
                                std::to_string(stream->device()));
  const CudaDriver &driver = CudaDriver::get();
  if (srcDevice != dstDevice)
    enablePeerAccess(dstDevice, srcDevice);
  makeCurrent(dstDevice);
  CUstream queue = stream ? stream->queueHandle() : nullptr;
  driver.check(driver.api().cuMemcpyPeerAsync(dst, Context::primary(dstDevice).handle(), src,
                                              Context::primary(srcDevice).handle(), bytes, queue),
               "cuMemcpyPeerAsync");
  if (!stream)
    driver.check(driver.api().cuStreamSynchronize(nullptr), "cuStreamSynchronize");
}

} // namespace kaji::runtime
