// A kernel whose threads meet at barriers, cut at its barriers into regions, so that the
// entry runs a block as one loop over its threads per region instead of one fiber per thread.
//
// A region starts at the kernel's start or just after a barrier, and a thread runs it until it
// reaches a barrier or returns. Each round, every thread that has not returned runs once, from
// where it stopped: no thread passes a barrier before every running thread has reached one,
// which is what the executor's fiber barrier (a count of the threads that arrived) guarantees.
// Values a thread keeps from one region to the next, and its local arrays, live in the
// block's thread storage (CpuLaunchContext::threadStorage), one array per value indexed by the
// thread's linear index, so that the loop over threads reads and writes them contiguously.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace llvm {
class Function;
} // namespace llvm

namespace kaji::codegen {

// Each thread's next region (an i32) is kept at the start of the thread storage, for the
// rounds in which the threads are not all at the same one.
inline constexpr uint64_t kRegionStateBytes = 4;

// The block's thread storage: one slot per value every thread keeps alike (uniformOffsets),
// then the per-thread arrays from threadArraysOffset on — each thread's next region (an i32),
// then the values it keeps and its local arrays, each an array over the block's threads.
struct BarrierRegions {
  // `i32 (<the kernel's parameters>, <implicit>, ptr thread_storage, ptr shared, i32 region,
  // <uniform values>)`: runs the calling thread from the start of `region` (0 the kernel's
  // start, k just after its k-th barrier) and returns the region it stopped before (k when it
  // reached the k-th barrier), or regionCount when it returned, which it also stores as its
  // state. thread_storage is CpuLaunchContext::threadStorage, shared the block's shared memory
  // (which the function reads from here, not from its implicit parameter); the uniform values
  // are what the slots at uniformOffsets held when the round began. Internal and always inlined; it
  // replaces the kernel and has its name.
  llvm::Function *resume = nullptr;
  unsigned regionCount = 0;
  uint64_t threadArraysOffset = 0;
  std::vector<uint64_t> uniformOffsets;
  // What the block's thread storage must hold per thread (the uniform slots counted once per
  // thread, which a block of one thread needs).
  uint64_t storageBytesPerThread = 0;
};

// Cuts `kernel` (a lowered host kernel whose barriers are kBarrierMarker calls) into regions
// and returns them; `kernel` itself is erased. Barriers in device functions are inlined
// first. Returns nullopt, leaving a kernel that still runs correctly on fibers (device
// functions may have been inlined), where the regions would cost more than fibers or cannot
// be formed: a barrier in a function that may call itself, more than kMaxBarriers barriers,
// a local array whose size is known only at run time, or more than kMaxThreadStorageBytes of
// thread storage per thread.
std::optional<BarrierRegions> splitAtBarriers(llvm::Function &kernel);

// Each region is a copy of the code it reaches, so the kernel is compiled about once per
// barrier.
inline constexpr unsigned kMaxBarriers = 16;
// Per thread: 4 MiB for a block of 1024 threads, on each worker.
inline constexpr uint64_t kMaxThreadStorageBytes = 4096;

} // namespace kaji::codegen
