#include "Fiber.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <new>

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

FiberGroup::~FiberGroup() {
  if (stacks_)
    munmap(stacks_, slotBytes_ * stackCount_);
}

void FiberGroup::reserveStacks(unsigned count) {
  if (count <= stackCount_)
    return;
  if (stacks_)
    munmap(stacks_, slotBytes_ * stackCount_);
  stacks_ = nullptr;
  stackCount_ = 0;
  // Pages are only backed once touched; a fiber touches a few.
  void *mapped = mmap(nullptr, slotBytes_ * count, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (mapped == MAP_FAILED)
    throw std::bad_alloc();
  stacks_ = static_cast<char *>(mapped);
  stackCount_ = count;
  // A guard page below each stack turns an overflow into a fault, not a corrupted neighbour.
  for (unsigned i = 0; i < count; ++i)
    mprotect(stacks_ + i * slotBytes_, pageSize(), PROT_NONE);
}

void FiberGroup::start(void *argument) {
  auto *fiber = static_cast<Fiber *>(argument);
  FiberGroup &group = *fiber->group;
  group.body_(group.argument_, fiber->index);
  fiber->finished = true;
  void *unused;
  kaji_fiber_switch(&unused, group.schedulerStackPointer_);
}

void FiberGroup::run(unsigned count, Body body, void *argument) {
  reserveStacks(count);
  body_ = body;
  argument_ = argument;
  fibers_.assign(count, Fiber{this, 0, nullptr, false});
  for (unsigned i = 0; i < count; ++i) {
    fibers_[i].index = i;
    char *top = stacks_ + (i + 1) * slotBytes_;
    fibers_[i].stackPointer = prepareStack(top, &FiberGroup::start, &fibers_[i]);
  }
  unsigned running = count;
  while (running > 0) {
    for (current_ = 0; current_ < count; ++current_) {
      Fiber &fiber = fibers_[current_];
      if (fiber.finished)
        continue;
      kaji_fiber_switch(&schedulerStackPointer_, fiber.stackPointer);
      if (fiber.finished)
        --running;
    }
  }
}

void FiberGroup::barrier() {
  kaji_fiber_switch(&fibers_[current_].stackPointer, schedulerStackPointer_);
}

} // namespace kaji::runtime
