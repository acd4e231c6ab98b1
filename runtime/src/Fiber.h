// Threads of one block as fibers on one OS thread, switching at barriers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kaji::runtime {

// Runs `count` bodies, each on a stack of its own, round-robin: each runs until it waits at a
// barrier or returns, then the next that can run. Fibers that have returned no longer count
// at any barrier. A fiber whose arrival releases a barrier goes on without a switch. Stacks
// are allocated on first use and reused by later run() calls. Not thread-safe: one
// FiberGroup per OS thread.
class FiberGroup {
public:
  using Body = void (*)(void *argument, unsigned index);
  // A warp is fibers [kWarpSize * w, kWarpSize * w + kWarpSize); lane = index % kWarpSize.
  static constexpr unsigned kWarpSize = 32;

  explicit FiberGroup(size_t stackBytes = 64 * 1024);
  ~FiberGroup();
  FiberGroup(const FiberGroup &) = delete;
  FiberGroup &operator=(const FiberGroup &) = delete;

  // Makes every stack at least `bytes` (rounded up to pages) from the next run() on.
  void growStacks(size_t bytes);
  // Makes every stack, its guard page included, `slotBytes` (a power of two) from the next
  // run() on, and aligns it to that: code can tell how much of it is left from an address in it.
  void useAlignedStacks(size_t slotBytes);

  // Returns when every body has returned. Throws std::bad_alloc if stacks cannot be mapped,
  // and std::runtime_error, abandoning the fibers, when none can go on: every fiber that has
  // not returned waits at a barrier that waits for another one of them (some at barrier(),
  // some at warpBarrier()). The message says how many wait at which kind. Returns early when a
  // body calls abandon().
  void run(unsigned count, Body body, void *argument);

  // Whether the caller runs on one of the fibers (inside run()'s body).
  bool inFiber() const { return inFiber_; }

  // From inside a body only.

  // Lets the other fibers that can run go first, then returns.
  void yield();
  // Leaves every fiber where it is, as a deadlock does, and makes run() return at once.
  [[noreturn]] void abandon();
  // The calling fiber's index.
  unsigned current() const { return current_; }
  // Returns once every fiber that has not returned has called barrier().
  void barrier();
  // Returns once every fiber of the caller's warp whose lane is in `mask` (the caller's own
  // lane always is) has called warpBarrier(), or has returned. Lanes past `count` do not exist.
  void warpBarrier(uint32_t mask);
  // The lanes of the caller's warp that have not returned.
  uint32_t runningLanes() const { return warps_[current_ / kWarpSize].running; }
  // The lanes of the caller's warp that are here with it, as __activemask() on a GPU: waits
  // until every other lane of the warp has called activeLanes() too, has returned, or waits at
  // a barrier, then returns the lanes that called activeLanes() at the same `site`. A warp
  // that has not diverged gets its running lanes; a branch that only some lanes took, those
  // lanes. When lanes wait at several sites, those at the lowest site go on first; the others
  // wait again for them.
  uint32_t activeLanes(uint32_t site);
  // Names the next release of barrier(): it changes when barrier() is released and at every
  // run(), and never takes a value twice. A fiber that reads E before barrier() reads E + 1
  // after it.
  uint64_t barrierEpoch() const { return epoch_; }

private:
  // 32 bytes: the scheduler reads one per fiber and pass.
  struct Fiber {
    FiberGroup *group;
    void *stackPointer;
    // It can run once epoch_ is past this: kReady; the epoch_ of the barrier() it waits at;
    // kAsleep at a warp barrier, in activeLanes() or returned. One compare per fiber and pass.
    uint64_t asleepThrough;
    // At a warp barrier: the lanes it waits for, its own included. Leaving activeLanes(): what
    // that returns.
    uint32_t warpMask;
    uint32_t site; // in activeLanes(): its site
  };
  static constexpr uint64_t kReady = 0;
  static constexpr uint64_t kAsleep = ~uint64_t(0);
  struct Warp {
    uint32_t running;    // lanes that exist and have not returned
    uint32_t waiting;    // lanes at a warp barrier
    uint32_t converging; // lanes in activeLanes()
    // Whether waiting lanes have different masks: one mask makes the release test a single
    // AND, many need one per lane.
    bool mixedMasks;
    uint32_t mask; // the waiting lanes' mask when !mixedMasks
  };
  static void start(void *fiber);
  void reserveStacks(unsigned count);
  void releaseStacks();
  // Switches to the scheduler unless `self`, the caller, is ready again. Being its warp's last
  // lane that could run, it first lets those in activeLanes() go on.
  void suspend(Fiber &self);
  void finish(unsigned index);
  void releaseBarrier();
  void releaseWarp(unsigned warp);
  void releaseConverging(unsigned warp);
  std::string deadlockMessage() const;

  size_t stackBytes_;
  size_t slotBytes_; // a stack and the guard page below it
  bool alignedSlots_ = false;
  char *stacks_ = nullptr;
  unsigned stackCount_ = 0;
  std::vector<Fiber> fibers_;
  std::vector<Warp> warps_;
  void *schedulerStackPointer_ = nullptr;
  unsigned current_ = 0;
  unsigned running_ = 0;   // fibers that have not returned
  unsigned atBarrier_ = 0; // fibers waiting at barrier()
  // Fibers in activeLanes(): spares the common suspend() a look at its warp.
  unsigned inActiveLanes_ = 0;
  uint64_t epoch_ = 0; // kReady < epoch_ during run()
  bool inFiber_ = false;
  bool abandoned_ = false;
  Body body_ = nullptr;
  void *argument_ = nullptr;
};

} // namespace kaji::runtime
