// The calling convention between a kernel compiled for the host (codegen's CpuCodegen.h) and
// the CPU executor that runs it (CpuExecutor.h). Header-only and free of compiler types: the
// codegen builds its LLVM view of CpuLaunchContext from this definition, so the two cannot
// drift apart.
#pragma once

#include <atomic>
#include <cstdint>

namespace kaji::abi {

// What a host kernel records of a thread that raised, for indexError and raiseException: its
// index along the grid's x (blockIdx.x * blockDim.x + threadIdx.x), from which the executor
// divides out threadIdx.x and blockIdx.x — the kernel code holds that index alone where the
// threads of a row of blocks run as one loop — then threadIdx.y, .z and blockIdx.y, .z.
struct CpuRaisingThread {
  uint64_t globalX;
  uint32_t threadYZ[2];
  uint32_t blockYZ[2];
};

// What a host kernel reads about the thread it runs as. The kernel only reads it.
struct CpuLaunchContext {
  // Of this thread for a kernel run one fiber per thread; ignored by a kernel whose entry loops
  // over the block's threads itself.
  uint32_t threadIdx[3];
  uint32_t blockIdx[3];
  uint32_t blockDim[3];
  uint32_t gridDim[3];
  // The block's shared memory: the kernel's static shared arrays at the offsets the codegen
  // chose, CpuKernel::staticSharedBytes in all, then the launch's dynamic bytes.
  void *sharedMemory;
  // Passed back to the callbacks; owned by the executor.
  void *executor;
  // Returns once every thread of the block that has not returned has called it (kernels that
  // run one fiber per thread only).
  void (*barrier)(void *executor);
  // An array index out of range: `site` is "file:line:col: in kernel 'name'", `thread` the
  // thread's coordinates, `index` the value the kernel
  // computed, its bits read as unsigned where `indexIsUnsigned` is nonzero. Returns; the kernel
  // then continues on scratch memory.
  void (*indexError)(void *executor, const char *site, const CpuRaisingThread *thread, int64_t axis,
                     int64_t index, int64_t extent, uint32_t indexIsUnsigned);
  // Warp-level operations; kernels that use them run one fiber per thread, like kernels with
  // barriers. A warp is 32 consecutive threads of the block's linear thread index (x fastest);
  // `mask` names the lanes taking part, of which only threads still running count.
  // Returns once the participating threads of the caller's warp have called it (syncwarp).
  void (*warpBarrier)(void *executor, uint32_t mask);
  // A WarpOp over the participating threads of the caller's warp (see WarpOp).
  uint64_t (*warpCollective)(void *executor, uint32_t op, uint32_t mask, uint64_t value,
                             uint32_t operand);
  // A block-wide barrier that also reduces `predicate` over the block's running threads
  // (syncthreads_count/and/or, see BlockReduceOp).
  uint32_t (*blockReduce)(void *executor, uint32_t op, uint32_t predicate);
  // Bytes at sharedMemory: the static arrays' CpuKernel::staticSharedBytes, then the
  // launch's dynamic shared memory.
  uint64_t sharedBytes;
  // Returns once every thread of the grid that has not returned has called it (a cooperative
  // launch only, CpuThreads::Cooperative; kernels whose blocks have all finished no longer
  // count).
  void (*gridBarrier)(void *executor);
  // The kernel raised an exception (`raise`, a failing `assert`): `site` and `thread` as
  // indexError's, `exception` "Class" or "Class: message" (kaji IR's raise). Returns; the
  // thread then ends.
  void (*raiseException)(void *executor, const char *site, const CpuRaisingThread *thread,
                         const char *exception);
  // Lets the block's other threads run before the caller goes on: called in loops where a
  // thread waits for another (kernels that call it run one fiber per thread).
  void (*yield)(void *executor);
  // A barrier-free kernel's entry runs this many blocks, blockIdx's and those after it in
  // linear order (x fastest), one after another, so that a worker's consecutive blocks cost
  // one call; it starts none once launchFailed holds. Kernels run per thread run one block.
  uint64_t blockCount;
  const std::atomic<bool> *launchFailed;
  // Memory of the block's threads for a kernel whose barriers split it into loops over the
  // threads (CpuKernel::threadStorageBytes per thread, kSharedMemoryAlignment aligned): what
  // each thread keeps from one barrier to the next. Not cleared between blocks.
  void *threadStorage;
};
static_assert(sizeof(std::atomic<bool>) == 1 && std::atomic<bool>::is_always_lock_free,
              "kernels read CpuLaunchContext::launchFailed as an atomic byte");

// What the executor offers kernels beside CpuLaunchContext, at an address compiled into them
// (codegen's CpuOptions::hooks; the executor's are CpuExecutor::hooks()): functions whose
// parameters the optimiser has pared down to what they use can still reach it.
struct CpuRuntimeHooks {
  // Nonzero stops the launch (Ctrl-C): kernels load it at the header of every loop and at the
  // entry of every function that may call itself, then call interrupted(), which does not
  // return.
  std::atomic<uint32_t> interruptRequested{0};
  void (*interrupted)() = nullptr;
  // A function that may call itself found too little stack left (see kRecursionStackBytes);
  // `function` names it. Does not return.
  void (*stackOverflow)(const char *function) = nullptr;
};

// Each thread of a kernel that may recurse runs on a stack of kRecursionStackBytes (its guard
// page included) aligned to that size, so that a function finds how much is left from its
// frame address alone: it calls CpuRuntimeHooks::stackOverflow when that is below
// kRecursionStackReserveBytes, what the guard page, the frames of the functions that do not
// recurse (at most 512 KiB, CpuExecutor::kMaxFrameBytes) and the C library functions a kernel
// calls (printf, libm) need.
inline constexpr uint64_t kRecursionStackBytes = uint64_t(8) << 20;
inline constexpr uint64_t kRecursionStackReserveBytes = uint64_t(640) << 10;

// The alignment of CpuLaunchContext::sharedMemory: what the largest alignment= a shared
// array may ask for needs.
constexpr uint64_t kSharedMemoryAlignment = 1024;

// CpuLaunchContext::warpCollective's operations. `value` is the caller's operand (an integer
// or a float's bits, zero-extended to 64 bits); each returns the caller's result.
enum class WarpOp : uint32_t {
  // Shuffles give the caller its own value when the source lane does not take part.
  ShuffleIndex, // value of lane `operand % 32`
  ShuffleUp,    // value of lane - operand, own value when that is below lane 0
  ShuffleDown,  // value of lane + operand, own value when that is above lane 31
  ShuffleXor,   // value of lane ^ operand (operand % 32)
  Ballot,       // bit i set when lane i's value is nonzero
  All,          // 1 when every participating lane's value is nonzero
  Any,          // 1 when some participating lane's value is nonzero
  Equal,        // 1 when every participating lane's value is the same
  MatchAny,     // mask of the participating lanes whose value equals the caller's
  ActiveMask,   // mask of the warp's running lanes (mask and value ignored); after the warp
                // diverged, only those that run this call together: the lanes at the same
                // call site, `operand` = activeMaskSite() of its source position
  MatchAll,     // mask of the participating lanes when all their values are equal, else 0
};
// The last WarpOp: new ones go after it (the values are the ABI) and become it.
constexpr WarpOp kLastWarpOp = WarpOp::MatchAll;

// activemask()'s call site as the executor orders sites: by line, then column. Lanes waiting
// at several sites go on site by site, the earliest first, as a GPU runs the branches of an
// `if` one after the other and reconverges after them.
constexpr uint32_t activeMaskSite(unsigned line, unsigned column) {
  constexpr unsigned kColumnBits = 10, kLineBits = 32 - kColumnBits;
  unsigned clampedLine = line < (1u << kLineBits) ? line : (1u << kLineBits) - 1;
  unsigned clampedColumn = column < (1u << kColumnBits) ? column : (1u << kColumnBits) - 1;
  return clampedLine << kColumnBits | clampedColumn;
}

// CpuLaunchContext::blockReduce's operations over the predicates (each 0 or 1).
enum class BlockReduceOp : uint32_t {
  Count, // how many are 1
  And,   // 1 when all are 1
  Or,    // 1 when any is 1
};

// A compiled host kernel. `params` is cuLaunchKernel's kernelParams: one pointer per
// flattened parameter, as KernelABI.h lays them out.
using CpuKernelEntry = void (*)(void *const *params, const CpuLaunchContext *context);

} // namespace kaji::abi
