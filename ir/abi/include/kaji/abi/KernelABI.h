// What compiled kernels and their launchers agree on: the parameters as the compiler lowers them
// and a launcher packs them (cuLaunchKernel's kernelParams, the CPU executor's `params`), the
// limits both hold to, and the device globals a GPU module defines for its launcher.
//
// Each parameter is flattened, in order, into
//   scalar of type T      → one parameter of T (bool as one byte, 0 or 1)
//   complex c64 / c128    → two parameters of its part type f32 / f64: real, imaginary
//   array of ndim n       → data pointer (8 bytes), then n × i64 shape, then n × i64
//                           strides in bytes
// each aligned to its own size, as in CUDA's parameter space. Kernels keep their IR function
// name as the PTX entry name.
#pragma once

#include <cstdint>

namespace kaji::abi {

// An array's elements take at most kMaxArrayBytes bytes (its extents multiplied by the element
// size, zero extents left out), so each extent lies in [0, kMaxArrayBytes]: kernels are
// compiled on that fact and launchers refuse larger arrays. 2**62 bytes: far beyond any
// memory, and small enough that an index below an extent plus any grid-sized step still fits
// an int64.
inline constexpr int64_t kMaxArrayBytes = int64_t(1) << 62;

// CUDA's launch limits, per dimension x, y, z: the extents of a block (and its 1024 threads in
// all) and of a grid. Every launcher refuses a launch beyond them (the driver on the GPU,
// CpuExecutor on the cpu target), so kernels are compiled on them: threadIdx.x < 1024,
// blockIdx.y < 65535, ...
inline constexpr uint32_t kMaxBlockThreads = 1024;
inline constexpr uint32_t kMaxBlockExtent[3] = {1024, 1024, 64};
inline constexpr uint32_t kMaxGridExtent[3] = {0x7fffffff, 65535, 65535};

// The parameter space of a kernel in the PTX kaji emits: ptxas accepts 4 352 bytes (0x1100)
// below PTX ISA 8.1, and LLVM 19 emits 7.8 for sm_90 (CUDA 12.1's 32 764 bytes on Volta and
// newer need PTX ISA 8.1). The cpu target holds to it too, so that a kernel compiles for both,
// and because LLVM's interprocedural passes grow with the parameter count: 8 000 array
// parameters took 69 s and 1.5 GB there.
inline constexpr uint64_t kMaxKernelParameterBytes = 4352;

// The device globals a GPU module defines for its launcher, each zero at module load.

// An i32: the number of the first exception a launch raised (ir/ExceptionTable.h numbers them;
// the compiled module's exception table names them).
inline constexpr const char *kExceptionSlotSymbol = "kaji_exception";

// i64 x kIndexErrorFields: what the message of an index error needs, filled by the thread that
// won the exception slot with one, in this order.
inline constexpr const char *kIndexErrorSymbol = "kaji_index_error";
enum IndexErrorField { kIndexErrorAxis, kIndexErrorIndex, kIndexErrorExtent, kIndexErrorUnsigned };
inline constexpr unsigned kIndexErrorFields = 4;

// u32 x kRaisingThreadFields: the threadIdx (x, y, z) and blockIdx (x, y, z) of the thread that
// won the exception slot, filled by it.
inline constexpr const char *kRaisingThreadSymbol = "kaji_raising_thread";
inline constexpr unsigned kRaisingThreadFields = 6;

// A u32: grid_sync's counter.
inline constexpr const char *kGridBarrierSymbol = "kaji_grid_barrier";

} // namespace kaji::abi
