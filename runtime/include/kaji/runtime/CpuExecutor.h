// Runs host kernels (codegen's CpuCodegen.h) on the CPU: the blocks of a grid in parallel
// on a thread pool, the threads of a block as a loop inside the kernel's entry or, for
// kernels that use barriers, as fibers that switch at each barrier. See docs/cpu-backend.md.
#pragma once

#include "kaji/abi/CpuKernelABI.h"
#include "kaji/runtime/Dim3.h"

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace kaji::runtime {

class ThreadPool;
struct LaunchState;

// The thread that raised a kernel's exception: its threadIdx and blockIdx.
struct RaisingThread {
  Dim3 thread;
  Dim3 block;
};

// A bounds-checked kernel indexed an array out of range. what() reads
// "file.py:12:9: in 'kernel', tid=[3, 0, 0] ctaid=[1, 0, 0]: index 10 is out of bounds for
// axis 0 with size 10" (the first such access the launch saw; the thread as Numba names it,
// where known); the Python layer raises it as IndexError. The GPU reports its index errors
// with the same text.
class KernelIndexError : public std::out_of_range {
public:
  // `index` is read as unsigned where `indexIsUnsigned`.
  KernelIndexError(const std::string &site, std::optional<RaisingThread> thread, int64_t axis,
                   int64_t index, int64_t extent, bool indexIsUnsigned);
};

// A kernel raised an exception: what() reads "file.py:12:9: in 'kernel', tid=[3, 0, 0]
// ctaid=[1, 0, 0]: message" (the first raise the launch saw, by the thread that raised it
// where known), exceptionClass() names Python's exception class as kaji IR's raise op does
// (docs/ir.md); the Python layer raises that class.
class KernelException : public std::runtime_error {
public:
  KernelException(const std::string &site, std::optional<RaisingThread> thread,
                  std::string_view exception);
  const std::string &exceptionClass() const { return exceptionClass_; }

private:
  std::string exceptionClass_;
};

// The launch was stopped by CpuExecutor::requestInterrupt() (Ctrl-C) before it was done: the
// blocks that had not finished did not all run.
class LaunchInterrupted : public std::runtime_error {
public:
  LaunchInterrupted();
};

// How a host kernel's entry covers the threads of a block (CpuKernel::usesBarrier).
enum class CpuThreads {
  LoopInEntry, // one entry call per chunk of blocks: kernels whose entry loops over the
               // threads (barrier-free kernels, and kernels cut at their barriers)
  Fibers,      // one entry call per thread, each on a fiber: kernels with warp operations,
               // and barrier kernels not cut at their barriers
  Cooperative, // as Fibers, and every block at once on an OS thread of its own: kernels with a
               // grid sync (at most kMaxCooperativeBlocks blocks)
};

class CpuExecutor {
public:
  // `workers` OS threads run blocks; 0 means defaultCpuWorkers() (CpuWorkers.h). Throws
  // std::invalid_argument for a KAJI_CPU_THREADS it cannot use.
  explicit CpuExecutor(unsigned workers = 0);
  ~CpuExecutor();
  CpuExecutor(const CpuExecutor &) = delete;
  CpuExecutor &operator=(const CpuExecutor &) = delete;

  // The process-wide executor, sized to the machine, created on first use (and tried again
  // on the next use if that threw).
  static CpuExecutor &shared();

  unsigned workerCount() const;

  // Runs entry over `grid` × `block` and returns when every block is done. `sharedBytes`
  // is the block's shared memory (CpuKernel::staticSharedBytes plus any dynamic bytes),
  // `params` the flattened parameters (CpuKernelABI.h). Throws std::invalid_argument for
  // a grid or block outside CUDA's limits (block ≤ 1024 threads, x/y ≤ 1024, z ≤ 64; grid
  // y/z ≤ 65535, x < 2^31, no zero extent), KernelIndexError if the kernel indexed out of
  // range, KernelException if it raised one, std::runtime_error "block (x, y, z): kernel deadlock:
  // ..." if the threads of a block wait at barriers that wait for each other (syncthreads() against
  // syncwarp() or a warp collective); no further blocks are started once one of these happened.
  // Launches from several threads run one after another. `frameBytes` is the stack the kernel's
  // code uses per thread (CpuKernel::frameBytes); over kMaxFrameBytes is std::invalid_argument
  // before anything runs. CpuThreads::Cooperative over kMaxCooperativeBlocks blocks is
  // std::invalid_argument too. A `recursive` kernel (CpuKernel::recursive) runs every thread
  // on a stack of abi::kRecursionStackBytes (CpuKernelABI.h); recursing past it is a
  // KernelException of class RecursionError. requestInterrupt() during the launch makes it
  // throw LaunchInterrupted. `threadStorageBytes` per thread of a block is what the kernel
  // finds at CpuLaunchContext::threadStorage (CpuKernel::threadStorageBytes).
  // Works in a child process after fork().
  void launch(abi::CpuKernelEntry entry, CpuThreads threads, Dim3 grid, Dim3 block,
              uint64_t sharedBytes, void *const *params, uint64_t frameBytes = 0,
              bool recursive = false, uint64_t threadStorageBytes = 0);

  // Stops the launch running now, else the next one, at its next loop iteration, function call
  // that may recurse or block: async-signal-safe, so a SIGINT handler may call it.
  static void requestInterrupt();
  // Forgets a requestInterrupt() made for a launch that is not going to start.
  static void withdrawInterrupt();
  // What kernels call into (codegen's CpuOptions::hooks).
  static const abi::CpuRuntimeHooks *hooks();

  // What a CUDA thread may have in local memory (512 KiB): a kernel that fits on the GPU fits
  // here.
  static constexpr uint64_t kMaxFrameBytes = 512 * 1024;

  // The most blocks a cooperative launch may have: each is an OS thread while it runs. A
  // larger grid is std::invalid_argument before anything runs.
  static constexpr uint64_t kMaxCooperativeBlocks = 128;

private:
  struct Worker;
  void prepare(Worker &worker, LaunchState &state, uint64_t sharedBytes);
  void launchCooperative(LaunchState &state, uint64_t sharedBytes);
  void launchBlocks(LaunchState &state, uint64_t sharedBytes);

  std::vector<std::unique_ptr<Worker>> workers_;
  // A cooperative launch's blocks, one each, kept for the next one.
  std::vector<std::unique_ptr<Worker>> cooperativeWorkers_;
  std::unique_ptr<ThreadPool> pool_;
  // The fork generation (see CpuExecutor.cpp) pool_'s threads were started in: a child
  // process has none of them.
  uint64_t poolForkGeneration_ = 0;
  std::mutex launchLock_;
};

} // namespace kaji::runtime
