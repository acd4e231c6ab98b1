// Warp collectives and block reductions (CpuKernelABI.h) among the fibers of a FiberGroup.
#pragma once

#include "Fiber.h"

#include "kaji/abi/CpuKernelABI.h"

#include <cstdint>
#include <vector>

namespace kaji::runtime {

class WarpExchange {
public:
  explicit WarpExchange(FiberGroup &fibers) : fibers_(fibers) {}

  // Before running blocks of `threads` threads.
  void reserve(unsigned threads) { slots_.resize(threads); }

  // From inside a fiber of the group only. `op` must be a abi::WarpOp / abi::BlockReduceOp.
  uint64_t collective(abi::WarpOp op, uint32_t mask, uint64_t value, uint32_t operand);
  uint32_t blockReduce(abi::BlockReduceOp op, uint32_t predicate);

private:
  // The predicates of the threads that arrived at the block barrier of one epoch.
  struct Tally {
    uint64_t epoch = 0;
    uint32_t threads = 0;
    uint32_t ones = 0;
  };

  FiberGroup &fibers_;
  // One per thread of the block: its operand of the warp collective it is in.
  std::vector<uint64_t> slots_;
  // Indexed by epoch % 2: a thread may read the last epoch's tally while others already add
  // to the next one.
  Tally tallies_[2];
};

} // namespace kaji::runtime
