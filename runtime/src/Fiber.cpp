#include "Fiber.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <new>
#include <stdexcept>

#if !defined(__x86_64__)
#error "kaji's fibers switch with x86-64 assembly (System V ABI); port Fiber.cpp to this CPU"
#endif

// Saves the callee-saved registers on the current stack, stores the stack pointer in *save,
// switches to the stack `load` and restores the registers saved there. A new fiber's stack
// is prepared (prepareStack) so that the restore "returns" into kaji_fiber_start, which calls
// r13(r12). The System V ABI makes every other register caller-saved, so this is the whole
// context. ucontext's swapcontext would also save the signal mask — a system call per switch.
extern "C" void kaji_fiber_switch(void **save, void *load);
asm(R"(
  .text
  .p2align 4
  .hidden kaji_fiber_switch
  .globl kaji_fiber_switch
  .type kaji_fiber_switch, @function
kaji_fiber_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size kaji_fiber_switch, .-kaji_fiber_switch

  .p2align 4
  .hidden kaji_fiber_start
  .globl kaji_fiber_start
  .type kaji_fiber_start, @function
kaji_fiber_start:
  movq %r12, %rdi
  callq *%r13
  ud2
  .size kaji_fiber_start, .-kaji_fiber_start
)");
extern "C" char kaji_fiber_start[];

namespace kaji::runtime {
namespace {

size_t pageSize() { return size_t(sysconf(_SC_PAGESIZE)); }

// The initial stack of a fiber running function(argument): the six registers
// kaji_fiber_switch pops (r13 = function, r12 = argument) and its return address. After the
// ret the stack pointer is `top`, 16-byte aligned, as `callq` in kaji_fiber_start needs.
void *prepareStack(char *top, void (*function)(void *), void *argument) {
  auto *slots = reinterpret_cast<void **>(top) - 7;
  slots[0] = nullptr;                               // r15
  slots[1] = nullptr;                               // r14
  slots[2] = reinterpret_cast<void *>(function);    // r13
  slots[3] = argument;                              // r12
  slots[4] = nullptr;                               // rbx
  slots[5] = nullptr;                               // rbp
  slots[6] = static_cast<void *>(kaji_fiber_start); // return address
  return slots;
}

} // namespace

FiberGroup::FiberGroup(size_t stackBytes) {
  size_t page = pageSize();
  stackBytes_ = (stackBytes + page - 1) / page * page;
  slotBytes_ = stackBytes_ + page;
}

FiberGroup::~FiberGroup() { releaseStacks(); }

void FiberGroup::releaseStacks() {
  if (stacks_)
    munmap(stacks_, slotBytes_ * stackCount_);
  stacks_ = nullptr;
  stackCount_ = 0;
}

void FiberGroup::growStacks(size_t bytes) {
  size_t page = pageSize();
  bytes = (bytes + page - 1) / page * page;
  if (bytes <= stackBytes_)
    return;
  releaseStacks();
  stackBytes_ = bytes;
  slotBytes_ = bytes + page;
  alignedSlots_ = false;
}

void FiberGroup::useAlignedStacks(size_t slotBytes) {
  if (alignedSlots_ && slotBytes_ == slotBytes)
    return;
  releaseStacks();
  stackBytes_ = slotBytes - pageSize();
  slotBytes_ = slotBytes;
  alignedSlots_ = true;
}

void FiberGroup::reserveStacks(unsigned count) {
  if (count <= stackCount_)
    return;
  releaseStacks();
  // Pages are only backed once touched; a fiber touches a few. Aligned slots take one slot
  // more, whose unaligned ends are given back.
  size_t bytes = slotBytes_ * count;
  size_t slack = alignedSlots_ ? slotBytes_ : 0;
  void *mapped = mmap(nullptr, bytes + slack, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mapped == MAP_FAILED)
    throw std::bad_alloc();
  char *start = static_cast<char *>(mapped);
  if (alignedSlots_) {
    char *aligned = reinterpret_cast<char *>((reinterpret_cast<uintptr_t>(start) + slack - 1) &
                                             ~uintptr_t(slack - 1));
    if (aligned != start)
      munmap(start, size_t(aligned - start));
    if (size_t tail = size_t(start + bytes + slack - (aligned + bytes)))
      munmap(aligned + bytes, tail);
    start = aligned;
  }
  stacks_ = start;
  stackCount_ = count;
  // A guard page below each stack turns an overflow into a fault, not a corrupted neighbour.
  for (unsigned i = 0; i < count; ++i)
    mprotect(stacks_ + i * slotBytes_, pageSize(), PROT_NONE);
}

void FiberGroup::start(void *argument) {
  auto *fiber = static_cast<Fiber *>(argument);
  FiberGroup &group = *fiber->group;
  auto index = unsigned(fiber - group.fibers_.data());
  group.body_(group.argument_, index);
  group.finish(index);
  void *unused;
  kaji_fiber_switch(&unused, group.schedulerStackPointer_);
}

void FiberGroup::run(unsigned count, Body body, void *argument) {
  reserveStacks(count);
  body_ = body;
  argument_ = argument;
  fibers_.assign(count, Fiber{this, nullptr, kReady, 0, 0});
  for (unsigned i = 0; i < count; ++i) {
    char *top = stacks_ + (i + 1) * slotBytes_;
    fibers_[i].stackPointer = prepareStack(top, &FiberGroup::start, &fibers_[i]);
  }
  warps_.assign((count + kWarpSize - 1) / kWarpSize, Warp{~0u, 0, 0, false, 0});
  if (unsigned partial = count % kWarpSize)
    warps_.back().running = (1u << partial) - 1;
  running_ = count;
  atBarrier_ = 0;
  inActiveLanes_ = 0;
  // A new epoch, so that what was counted towards a barrier of an earlier run (one abandoned
  // in a deadlock) is not taken for this run's.
  ++epoch_;
  while (running_ > 0) {
    bool ran = false;
    for (current_ = 0; current_ < count; ++current_) {
      Fiber &fiber = fibers_[current_];
      if (fiber.asleepThrough >= epoch_)
        continue;
      ran = true;
      inFiber_ = true;
      kaji_fiber_switch(&schedulerStackPointer_, fiber.stackPointer);
      inFiber_ = false;
      if (abandoned_) {
        abandoned_ = false;
        return;
      }
    }
    // Every release happens when a fiber arrives or returns, so a pass in which none could
    // run leaves nothing that could ever run.
    if (!ran)
      throw std::runtime_error(deadlockMessage());
  }
}

void FiberGroup::yield() {
  // It stays ready: the scheduler's pass comes back to it after the others.
  kaji_fiber_switch(&fibers_[current_].stackPointer, schedulerStackPointer_);
}

void FiberGroup::abandon() {
  abandoned_ = true;
  void *unused;
  kaji_fiber_switch(&unused, schedulerStackPointer_);
  __builtin_unreachable();
}

void FiberGroup::suspend(Fiber &self) {
  if (inActiveLanes_ != 0 && warps_[current_ / kWarpSize].converging != 0)
    releaseConverging(current_ / kWarpSize);
  if (self.asleepThrough >= epoch_)
    kaji_fiber_switch(&self.stackPointer, schedulerStackPointer_);
}

void FiberGroup::barrier() {
  if (++atBarrier_ == running_) {
    releaseBarrier();
    return;
  }
  Fiber &self = fibers_[current_];
  self.asleepThrough = epoch_;
  suspend(self);
}

void FiberGroup::releaseBarrier() {
  atBarrier_ = 0;
  // Wakes every waiter without visiting it.
  ++epoch_;
}

void FiberGroup::warpBarrier(uint32_t mask) {
  Fiber &self = fibers_[current_];
  Warp &warp = warps_[current_ / kWarpSize];
  uint32_t lane = 1u << current_ % kWarpSize;
  self.warpMask = mask | lane;
  if (warp.waiting == 0) {
    warp.mask = self.warpMask;
    warp.mixedMasks = false;
  } else if (self.warpMask != warp.mask) {
    warp.mixedMasks = true;
  }
  warp.waiting |= lane;
  self.asleepThrough = kAsleep;
  releaseWarp(current_ / kWarpSize);
  suspend(self);
}

void FiberGroup::releaseWarp(unsigned index) {
  Warp &warp = warps_[index];
  Fiber *lanes = &fibers_[index * kWarpSize];
  uint32_t absent = warp.running & ~warp.waiting;
  uint32_t released = 0;
  if (!warp.mixedMasks) {
    if ((warp.mask & absent) == 0)
      released = warp.waiting;
  } else {
    for (uint32_t waiting = warp.waiting; waiting != 0; waiting &= waiting - 1) {
      unsigned lane = unsigned(std::countr_zero(waiting));
      if ((lanes[lane].warpMask & absent) == 0)
        released |= 1u << lane;
    }
  }
  warp.waiting &= ~released;
  for (; released != 0; released &= released - 1)
    lanes[std::countr_zero(released)].asleepThrough = kReady;
}

uint32_t FiberGroup::activeLanes(uint32_t site) {
  Fiber &self = fibers_[current_];
  self.site = site;
  warps_[current_ / kWarpSize].converging |= 1u << current_ % kWarpSize;
  ++inActiveLanes_;
  self.asleepThrough = kAsleep;
  suspend(self);
  return self.warpMask;
}

void FiberGroup::releaseConverging(unsigned index) {
  Warp &warp = warps_[index];
  Fiber *lanes = &fibers_[index * kWarpSize];
  // Lanes at a warp barrier cannot run; those elsewhere only if at a barrier() not released.
  for (uint32_t others = warp.running & ~warp.converging & ~warp.waiting; others != 0;
       others &= others - 1)
    if (lanes[std::countr_zero(others)].asleepThrough != epoch_)
      return;
  uint32_t earliest = ~0u;
  for (uint32_t waiting = warp.converging; waiting != 0; waiting &= waiting - 1)
    earliest = std::min(earliest, lanes[std::countr_zero(waiting)].site);
  uint32_t together = 0;
  for (uint32_t waiting = warp.converging; waiting != 0; waiting &= waiting - 1)
    if (lanes[std::countr_zero(waiting)].site == earliest)
      together |= waiting & -waiting;
  for (uint32_t released = together; released != 0; released &= released - 1) {
    Fiber &fiber = lanes[std::countr_zero(released)];
    fiber.asleepThrough = kReady;
    fiber.warpMask = together;
  }
  inActiveLanes_ -= unsigned(std::popcount(together));
  warp.converging &= ~together;
}

void FiberGroup::finish(unsigned index) {
  fibers_[index].asleepThrough = kAsleep;
  --running_;
  unsigned warp = index / kWarpSize;
  warps_[warp].running &= ~(1u << index % kWarpSize);
  if (atBarrier_ != 0 && atBarrier_ == running_)
    releaseBarrier();
  if (warps_[warp].waiting != 0)
    releaseWarp(warp);
  if (inActiveLanes_ != 0 && warps_[warp].converging != 0)
    releaseConverging(warp);
}

// A fiber at a warp barrier is stuck only on a lane of its mask that is neither there nor
// returned nor able to run: one at barrier(). So a deadlock always has waiters of both kinds,
// and none in activeLanes(), which returns once the rest of its warp is stuck.
std::string FiberGroup::deadlockMessage() const {
  unsigned atWarpBarrier = 0;
  for (const Warp &warp : warps_)
    atWarpBarrier += unsigned(std::popcount(warp.waiting));
  auto waiting = [](unsigned threads, const char *noun) {
    return std::to_string(threads) + noun + (threads == 1 ? " waits" : " wait");
  };
  return "kernel deadlock: " + waiting(atBarrier_, atBarrier_ == 1 ? " thread" : " threads") +
         " at syncthreads() while " + waiting(atWarpBarrier, "") +
         " at syncwarp() or a warp collective; the threads of a block must reach the same "
         "barriers";
}

} // namespace kaji::runtime
