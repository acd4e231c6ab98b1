// Peer access between devices, and copies from one device's memory to another's.
#pragma once

#include "kaji/runtime/CudaDriverTypes.h"

#include <cstddef>

namespace kaji::runtime {

class Stream;

// Whether devices `a` and `b` reach each other's memory directly (NVLink or PCIe
// peer-to-peer; a device always reaches its own). The first call for a pair enables that
// access both ways in their primary contexts, for the life of the process.
bool enablePeerAccess(int a, int b);

// Copies `bytes` from `src` on device `srcDevice` to `dst` on device `dstDevice`, queued on
// `stream` (a stream of dstDevice; nullptr: dstDevice's default stream, and the call returns
// when the copy is done). Between peers the copy goes device to device; otherwise the driver
// stages it through host memory.
void copyPeer(CUdeviceptr dst, int dstDevice, CUdeviceptr src, int srcDevice, std::size_t bytes,
              const Stream *stream);

} // namespace kaji::runtime
