/* A fake CUDA driver over host memory, loaded by kaji through KAJI_CUDA_DRIVER, so that the
 * memory paths (pool or plain allocation, asynchronous or waited-for copies, page-locking,
 * staging) can be checked on machines without a GPU. "Device" memory is malloc'ed, copies
 * are memcpy, kernels do not run. fake_counts() reports how often each call was made;
 * FAKE_MEMORY_POOLS=0 makes the device lack memory pools. One device of 1 GiB. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;

enum { CUDA_SUCCESS = 0, CUDA_ERROR_OUT_OF_MEMORY = 2, CUDA_ERROR_STREAM_CAPTURE_IMPLICIT = 906 };
enum {
  ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
  ATTRIBUTE_CC_MAJOR = 75,
  ATTRIBUTE_CC_MINOR = 76,
  ATTRIBUTE_MEMORY_POOLS_SUPPORTED = 115
};

static const size_t total_bytes = (size_t)1 << 30;
static size_t used_bytes;
static int context;
static uintptr_t next_stream = 0x100;
/* Streams of "another library": fake_non_blocking_stream() hands them out. */
static const uintptr_t first_non_blocking_stream = 0x10000;
static uintptr_t next_non_blocking_stream = first_non_blocking_stream;
/* Set by fake_capture_blocking_stream(): the legacy stream then refuses work. */
static int blocking_stream_capturing;

/* The counters, in the order fake_counts() reports them. */
enum {
  ALLOC,
  ALLOC_ASYNC,
  FREE,
  FREE_ASYNC,
  HOST_ALLOC,
  HOST_FREE,
  HOST_REGISTER,
  HOST_UNREGISTER,
  ALLOC_MANAGED,
  COPY_ASYNC,
  STREAM_SYNCHRONIZE,
  EVENT_RECORD,
  STREAM_WAIT_EVENT,
  COUNTERS
};
static int counts[COUNTERS];

int fake_counter_count(void) { return COUNTERS; }
void fake_counts(int *out) { memcpy(out, counts, sizeof counts); }

/* Device allocations carry their size in front, so that frees give the bytes back. */
static CUresult allocate(CUdeviceptr *pointer, size_t bytes) {
  if (bytes > total_bytes - used_bytes)
    return CUDA_ERROR_OUT_OF_MEMORY;
  size_t *block = calloc(1, bytes + sizeof(size_t));
  *block = bytes;
  used_bytes += bytes;
  *pointer = (CUdeviceptr)(uintptr_t)(block + 1);
  return CUDA_SUCCESS;
}

static void release(CUdeviceptr pointer) {
  size_t *block = (size_t *)(uintptr_t)pointer - 1;
  used_bytes -= *block;
  free(block);
}

CUresult cuInit(unsigned flags) { return CUDA_SUCCESS; }
CUresult cuDriverGetVersion(int *version) {
  *version = 12040;
  return CUDA_SUCCESS;
}
CUresult cuGetErrorName(CUresult error, const char **name) {
  *name = error == CUDA_ERROR_OUT_OF_MEMORY ? "CUDA_ERROR_OUT_OF_MEMORY" : "CUDA_ERROR_UNKNOWN";
  return CUDA_SUCCESS;
}
CUresult cuGetErrorString(CUresult error, const char **text) {
  *text = "fake";
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetCount(int *count) {
  *count = 1;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGet(int *device, int ordinal) {
  *device = ordinal;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetName(char *name, int length, int device) {
  snprintf(name, (size_t)length, "Fake GPU");
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetUuid_v2(unsigned char uuid[16], int device) {
  for (int i = 0; i < 16; ++i)
    uuid[i] = (unsigned char)(0x10 * i + device);
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetAttribute(int *value, int attribute, int device) {
  const char *pools = getenv("FAKE_MEMORY_POOLS");
  switch (attribute) {
  case ATTRIBUTE_MEMORY_POOLS_SUPPORTED:
    *value = !pools || strcmp(pools, "0") != 0;
    break;
  case ATTRIBUTE_CC_MAJOR:
    *value = 9;
    break;
  case ATTRIBUTE_CC_MINOR:
    *value = 0;
    break;
  default:
    *value = 1024;
  }
  return CUDA_SUCCESS;
}
CUresult cuDeviceTotalMem_v2(size_t *bytes, int device) {
  *bytes = total_bytes;
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRetain(void **handle, int device) {
  *handle = &context;
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRelease_v2(int device) { return CUDA_SUCCESS; }
CUresult cuCtxGetCurrent(void **handle) {
  *handle = &context;
  return CUDA_SUCCESS;
}
CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total) {
  *free_bytes = total_bytes - used_bytes;
  *total = total_bytes;
  return CUDA_SUCCESS;
}
CUresult cuFuncGetAttribute(int *value, int attribute, void *function) {
  *value = attribute == 0 ? 1024 : 0; /* MAX_THREADS_PER_BLOCK; no registers, no shared */
  return CUDA_SUCCESS;
}

CUresult cuMemAlloc_v2(CUdeviceptr *p, size_t bytes) {
  counts[ALLOC]++;
  return allocate(p, bytes);
}
CUresult cuMemFree_v2(CUdeviceptr p) {
  counts[FREE]++;
  release(p);
  return CUDA_SUCCESS;
}
CUresult cuMemAllocAsync(CUdeviceptr *p, size_t bytes, void *stream) {
  counts[ALLOC_ASYNC]++;
  return allocate(p, bytes);
}
CUresult cuMemFreeAsync(CUdeviceptr p, void *stream) {
  counts[FREE_ASYNC]++;
  release(p);
  return CUDA_SUCCESS;
}
CUresult cuMemAllocManaged(CUdeviceptr *p, size_t bytes, unsigned flags) {
  counts[ALLOC_MANAGED]++;
  return allocate(p, bytes);
}
CUresult cuMemHostAlloc(void **p, size_t bytes, unsigned flags) {
  counts[HOST_ALLOC]++;
  *p = calloc(1, bytes);
  return CUDA_SUCCESS;
}
CUresult cuMemFreeHost(void *p) {
  counts[HOST_FREE]++;
  free(p);
  return CUDA_SUCCESS;
}
CUresult cuMemHostRegister_v2(void *p, size_t bytes, unsigned flags) {
  counts[HOST_REGISTER]++;
  return CUDA_SUCCESS;
}
CUresult cuMemHostUnregister(void *p) {
  counts[HOST_UNREGISTER]++;
  return CUDA_SUCCESS;
}
/* Unified addressing: mapped host memory has the same address on the device. */
CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *device, void *host, unsigned flags) {
  *device = (CUdeviceptr)(uintptr_t)host;
  return CUDA_SUCCESS;
}

static void *at(CUdeviceptr pointer) { return (void *)(uintptr_t)pointer; }
CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t bytes) {
  memcpy(at(dst), src, bytes);
  return CUDA_SUCCESS;
}
CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t bytes) {
  memcpy(dst, at(src), bytes);
  return CUDA_SUCCESS;
}
CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t bytes) {
  memcpy(at(dst), at(src), bytes);
  return CUDA_SUCCESS;
}
CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t bytes, void *stream) {
  counts[COPY_ASYNC]++;
  return cuMemcpyHtoD_v2(dst, src, bytes);
}
CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t bytes, void *stream) {
  counts[COPY_ASYNC]++;
  return cuMemcpyDtoH_v2(dst, src, bytes);
}
CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t bytes, void *stream) {
  return cuMemcpyDtoD_v2(dst, src, bytes);
}
CUresult cuStreamCreate(void **stream, unsigned flags) {
  *stream = (void *)next_stream++;
  return CUDA_SUCCESS;
}
uintptr_t fake_non_blocking_stream(void) { return next_non_blocking_stream++; }
void fake_capture_blocking_stream(int capturing) { blocking_stream_capturing = capturing; }
CUresult cuStreamGetFlags(void *stream, unsigned *flags) {
  *flags = (uintptr_t)stream >= first_non_blocking_stream ? 1u : 0u;
  return CUDA_SUCCESS;
}
CUresult cuStreamGetCaptureInfo_v2(void *stream, int *status, unsigned long long *id, void **graph,
                                   const void **dependencies, size_t *count) {
  if ((uintptr_t)stream == 1 && blocking_stream_capturing)
    return CUDA_ERROR_STREAM_CAPTURE_IMPLICIT;
  *status = 0;
  return CUDA_SUCCESS;
}
CUresult cuStreamSynchronize(void *stream) {
  counts[STREAM_SYNCHRONIZE]++;
  return CUDA_SUCCESS;
}
CUresult cuEventRecord(void *event, void *stream) {
  counts[EVENT_RECORD]++;
  return CUDA_SUCCESS;
}
CUresult cuStreamWaitEvent(void *stream, void *event, unsigned flags) {
  counts[STREAM_WAIT_EVENT]++;
  return CUDA_SUCCESS;
}

/* What kaji binds but these checks never need: succeed and do nothing. */
#define SUCCEED(name)                                                                              \
  CUresult name() { return CUDA_SUCCESS; }
// clang-format off
SUCCEED(cuCtxSetCurrent)
SUCCEED(cuCtxSynchronize)
SUCCEED(cuCtxGetLimit)
SUCCEED(cuCtxSetLimit)
SUCCEED(cuModuleLoadDataEx)
SUCCEED(cuModuleUnload)
SUCCEED(cuModuleGetFunction)
SUCCEED(cuModuleGetGlobal_v2)
SUCCEED(cuOccupancyMaxPotentialBlockSize)
SUCCEED(cuOccupancyMaxActiveBlocksPerMultiprocessor)
SUCCEED(cuFuncSetAttribute)
SUCCEED(cuLaunchKernel)
SUCCEED(cuLaunchCooperativeKernel)
SUCCEED(cuMemcpyPeerAsync)
SUCCEED(cuDeviceCanAccessPeer)
SUCCEED(cuCtxEnablePeerAccess)
SUCCEED(cuMemsetD8_v2)
SUCCEED(cuMemsetD32_v2)
SUCCEED(cuMemsetD8Async)
SUCCEED(cuMemsetD32Async)
SUCCEED(cuStreamDestroy_v2)
SUCCEED(cuEventCreate)
SUCCEED(cuEventDestroy_v2)
SUCCEED(cuEventSynchronize)
SUCCEED(cuEventQuery)
SUCCEED(cuEventElapsedTime)
// clang-format on
