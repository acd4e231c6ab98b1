// Threads of one block as fibers on one OS thread, switching at barriers.
#pragma once

#include <cstddef>
#include <vector>

namespace kaji::runtime {

// Runs `count` bodies, each on a stack of its own, round-robin: each runs until it calls
// barrier() or returns, then the next; a barrier returns once every body still running has
// reached it. Stacks are allocated on first use and reused by later run() calls. Not
// thread-safe: one FiberGroup per OS thread.
class FiberGroup {
public:
  using Body = void (*)(void *argument, unsigned index);

  explicit FiberGroup(size_t stackBytes = 64 * 1024);
  ~FiberGroup();
  FiberGroup(const FiberGroup &) = delete;
  FiberGroup &operator=(const FiberGroup &) = delete;

  // Returns when every body has returned. Throws std::bad_alloc if stacks cannot be mapped.
  void run(unsigned count, Body body, void *argument);

  // From inside a body only.
  void barrier();

private:
  struct Fiber {
    FiberGroup *group;
    unsigned index;
    void *stackPointer;
    bool finished;
  };
  static void start(void *fiber);
  void reserveStacks(unsigned count);

  size_t stackBytes_;
  size_t slotBytes_; // a stack and the guard page below it
  char *stacks_ = nullptr;
  unsigned stackCount_ = 0;
  std::vector<Fiber> fibers_;
  void *schedulerStackPointer_ = nullptr;
  unsigned current_ = 0;
  Body body_ = nullptr;
  void *argument_ = nullptr;
};

} // namespace kaji::runtime
