// The driver entry points kaji calls, as function pointers resolved from libcuda at run time.
// Each member is named after the cuda.h spelling; Driver.cpp binds it to the versioned symbol
// that cuda.h maps that spelling to (cuMemAlloc -> cuMemAlloc_v2, ...).
#pragma once

#include "kaji/runtime/CudaDriverTypes.h"

#include <cstddef>
#include <cstdint>

namespace kaji::runtime {

struct CudaDriverApi {
  CUresult (*cuInit)(unsigned flags);
  CUresult (*cuDriverGetVersion)(int *version);
  CUresult (*cuGetErrorName)(CUresult error, const char **name);
  CUresult (*cuGetErrorString)(CUresult error, const char **description);

  CUresult (*cuDeviceGetCount)(int *count);
  CUresult (*cuDeviceGet)(CUdevice *device, int ordinal);
  CUresult (*cuDeviceGetName)(char *name, int length, CUdevice device);
  CUresult (*cuDeviceGetAttribute)(int *value, CUdevice_attribute attribute, CUdevice device);
  CUresult (*cuDeviceTotalMem)(std::size_t *bytes, CUdevice device);

  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *context, CUdevice device);
  CUresult (*cuCtxSetCurrent)(CUcontext context);
  CUresult (*cuCtxGetCurrent)(CUcontext *context);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuCtxGetLimit)(std::size_t *value, CUlimit limit);
  CUresult (*cuCtxSetLimit)(CUlimit limit, std::size_t value);
  CUresult (*cuMemGetInfo)(std::size_t *freeBytes, std::size_t *totalBytes);

  CUresult (*cuModuleLoadDataEx)(CUmodule *module, const void *image, unsigned numOptions,
                                 CUjit_option *options, void **optionValues);
  CUresult (*cuModuleUnload)(CUmodule module);
  CUresult (*cuModuleGetFunction)(CUfunction *function, CUmodule module, const char *name);
  CUresult (*cuModuleGetGlobal)(CUdeviceptr *address, std::size_t *bytes, CUmodule module,
                                const char *name);
  CUresult (*cuFuncGetAttribute)(int *value, CUfunction_attribute attribute, CUfunction function);
  CUresult (*cuOccupancyMaxPotentialBlockSize)(int *minGridSize, int *blockSize,
                                               CUfunction function,
                                               std::size_t (*blockSizeToDynamicSharedBytes)(int),
                                               std::size_t dynamicSharedBytes, int blockSizeLimit);
  CUresult (*cuOccupancyMaxActiveBlocksPerMultiprocessor)(int *blocks, CUfunction function,
                                                          int blockSize,
                                                          std::size_t dynamicSharedBytes);
  CUresult (*cuFuncSetAttribute)(CUfunction function, CUfunction_attribute attribute, int value);
  CUresult (*cuLaunchKernel)(CUfunction function, unsigned gridX, unsigned gridY, unsigned gridZ,
                             unsigned blockX, unsigned blockY, unsigned blockZ,
                             unsigned sharedBytes, CUstream stream, void **params, void **extra);
  CUresult (*cuLaunchCooperativeKernel)(CUfunction function, unsigned gridX, unsigned gridY,
                                        unsigned gridZ, unsigned blockX, unsigned blockY,
                                        unsigned blockZ, unsigned sharedBytes, CUstream stream,
                                        void **params);

  CUresult (*cuMemAlloc)(CUdeviceptr *pointer, std::size_t bytes);
  CUresult (*cuMemFree)(CUdeviceptr pointer);
  CUresult (*cuMemHostAlloc)(void **pointer, std::size_t bytes, unsigned flags);
  CUresult (*cuMemFreeHost)(void *pointer);
  CUresult (*cuMemHostRegister)(void *pointer, std::size_t bytes, unsigned flags);
  CUresult (*cuMemHostUnregister)(void *pointer);
  CUresult (*cuMemHostGetDevicePointer)(CUdeviceptr *device, void *host, unsigned flags);
  CUresult (*cuMemAllocManaged)(CUdeviceptr *pointer, std::size_t bytes, unsigned flags);
  CUresult (*cuMemcpyHtoD)(CUdeviceptr dst, const void *src, std::size_t bytes);
  CUresult (*cuMemcpyDtoH)(void *dst, CUdeviceptr src, std::size_t bytes);
  CUresult (*cuMemcpyDtoD)(CUdeviceptr dst, CUdeviceptr src, std::size_t bytes);
  CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr dst, const void *src, std::size_t bytes,
                                CUstream stream);
  CUresult (*cuMemcpyDtoHAsync)(void *dst, CUdeviceptr src, std::size_t bytes, CUstream stream);
  CUresult (*cuMemcpyDtoDAsync)(CUdeviceptr dst, CUdeviceptr src, std::size_t bytes,
                                CUstream stream);
  CUresult (*cuMemcpyPeerAsync)(CUdeviceptr dst, CUcontext dstContext, CUdeviceptr src,
                                CUcontext srcContext, std::size_t bytes, CUstream stream);
  CUresult (*cuDeviceCanAccessPeer)(int *canAccess, CUdevice device, CUdevice peer);
  CUresult (*cuCtxEnablePeerAccess)(CUcontext peer, unsigned flags);
  CUresult (*cuMemsetD8)(CUdeviceptr dst, unsigned char value, std::size_t count);
  CUresult (*cuMemsetD32)(CUdeviceptr dst, unsigned value, std::size_t count);
  CUresult (*cuMemsetD8Async)(CUdeviceptr dst, unsigned char value, std::size_t count,
                              CUstream stream);
  CUresult (*cuMemsetD32Async)(CUdeviceptr dst, unsigned value, std::size_t count, CUstream stream);

  CUresult (*cuStreamCreate)(CUstream *stream, unsigned flags);
  CUresult (*cuStreamDestroy)(CUstream stream);
  CUresult (*cuStreamSynchronize)(CUstream stream);
  CUresult (*cuStreamWaitEvent)(CUstream stream, CUevent event, unsigned flags);
  CUresult (*cuEventCreate)(CUevent *event, unsigned flags);
  CUresult (*cuEventDestroy)(CUevent event);
  CUresult (*cuEventRecord)(CUevent event, CUstream stream);
  CUresult (*cuEventSynchronize)(CUevent event);
  CUresult (*cuEventQuery)(CUevent event);
  CUresult (*cuEventElapsedTime)(float *milliseconds, CUevent start, CUevent end);

  // The driver's linker (Linker.h). Optional: null when the driver lacks them.
  CUresult (*cuLinkCreate)(unsigned numOptions, CUjit_option *options, void **optionValues,
                           CUlinkState *state);
  CUresult (*cuLinkAddData)(CUlinkState state, CUjitInputType type, void *data, std::size_t size,
                            const char *name, unsigned numOptions, CUjit_option *options,
                            void **optionValues);
  CUresult (*cuLinkComplete)(CUlinkState state, void **cubin, std::size_t *size);
  CUresult (*cuLinkDestroy)(CUlinkState state);

  // Stream-ordered allocation (CUDA 11.2). Optional: without them every allocation is
  // cuMemAlloc's.
  CUresult (*cuMemAllocAsync)(CUdeviceptr *pointer, std::size_t bytes, CUstream stream);
  CUresult (*cuMemFreeAsync)(CUdeviceptr pointer, CUstream stream);
  // Optional: without it no freed buffer is reused (PendingFrees.h).
  CUresult (*cuStreamGetFlags)(CUstream stream, unsigned *flags);

  // CUDA IPC (Ipc.h). Optional: null where the driver lacks them (Ipc.h then says so).
  CUresult (*cuMemGetAddressRange)(CUdeviceptr *base, std::size_t *size, CUdeviceptr pointer);
  CUresult (*cuIpcGetMemHandle)(CUipcMemHandle *handle, CUdeviceptr pointer);
  CUresult (*cuIpcOpenMemHandle)(CUdeviceptr *pointer, CUipcMemHandle handle, unsigned flags);
  CUresult (*cuIpcCloseMemHandle)(CUdeviceptr pointer);

  // CUDA graphs. Optional: null when the driver lacks them (Graph.h then says so).
  CUresult (*cuStreamBeginCapture)(CUstream stream, CUstreamCaptureMode mode);
  CUresult (*cuStreamEndCapture)(CUstream stream, CUgraph *graph);
  CUresult (*cuStreamGetCaptureInfo)(CUstream stream, CUstreamCaptureStatus *status,
                                     std::uint64_t *id, CUgraph *graph,
                                     const CUgraphNode **dependencies,
                                     std::size_t *dependencyCount);
  CUresult (*cuGraphInstantiate)(CUgraphExec *exec, CUgraph graph, unsigned long long flags);
  CUresult (*cuGraphLaunch)(CUgraphExec exec, CUstream stream);
  CUresult (*cuGraphExecKernelNodeSetParams)(CUgraphExec exec, CUgraphNode node,
                                             const CUDA_KERNEL_NODE_PARAMS *params);
  CUresult (*cuGraphExecDestroy)(CUgraphExec exec);
  CUresult (*cuGraphDestroy)(CUgraph graph);
};

} // namespace kaji::runtime
