#include "WarpExchange.h"

#include <bit>

namespace kaji::runtime {
namespace {

constexpr unsigned kWarpSize = FiberGroup::kWarpSize;

// The lanes of `lanes` whose slot satisfies `test`.
template <typename Test> uint32_t lanesWhere(const uint64_t *slots, uint32_t lanes, Test test) {
  uint32_t found = 0;
  for (; lanes != 0; lanes &= lanes - 1) {
    unsigned lane = unsigned(std::countr_zero(lanes));
    if (test(slots[lane]))
      found |= 1u << lane;
  }
  return found;
}

// `slots` are the warp's, `lanes` those taking part (the caller's `lane` among them).
uint64_t combine(abi::WarpOp op, const uint64_t *slots, uint32_t lanes, unsigned lane,
                 uint64_t value, uint32_t operand) {
  // Source lanes out of the warp (wrapped around below zero) or not taking part give the
  // caller its own value.
  auto from = [&](uint64_t source) {
    return source < kWarpSize && (lanes >> source & 1) ? slots[source] : value;
  };
  auto nonzero = [](uint64_t slot) { return slot != 0; };
  auto same = [value](uint64_t slot) { return slot == value; };
  switch (op) {
  case abi::WarpOp::ShuffleIndex:
    return from(operand % kWarpSize);
  case abi::WarpOp::ShuffleUp:
    return from(uint64_t(lane) - operand);
  case abi::WarpOp::ShuffleDown:
    return from(uint64_t(lane) + operand);
  case abi::WarpOp::ShuffleXor:
    return from(lane ^ (operand % kWarpSize));
  case abi::WarpOp::Ballot:
    return lanesWhere(slots, lanes, nonzero);
  case abi::WarpOp::All:
    return lanesWhere(slots, lanes, nonzero) == lanes;
  case abi::WarpOp::Any:
    return lanesWhere(slots, lanes, nonzero) != 0;
  case abi::WarpOp::Equal:
    return lanesWhere(slots, lanes, same) == lanes;
  case abi::WarpOp::MatchAny:
    return lanesWhere(slots, lanes, same);
  case abi::WarpOp::MatchAll:
    return lanesWhere(slots, lanes, same) == lanes ? lanes : 0;
  case abi::WarpOp::ActiveMask: // answered without an exchange
    break;
  }
  // The executor passes only abi::WarpOp's values.
  __builtin_unreachable();
}

} // namespace

uint64_t WarpExchange::collective(abi::WarpOp op, uint32_t mask, uint64_t value, uint32_t operand) {
  if (op == abi::WarpOp::ActiveMask)
    return fibers_.activeLanes(operand);
  unsigned self = fibers_.current();
  unsigned lane = self % kWarpSize;
  slots_[self] = value;
  fibers_.warpBarrier(mask);
  // Every lane of the mask that has not returned has written its slot, and none of them can
  // return before the second barrier.
  uint32_t lanes = (mask | 1u << lane) & fibers_.runningLanes();
  uint64_t result = combine(op, &slots_[self - lane], lanes, lane, value, operand);
  // No lane writes its slot for its next collective before every lane has read this one's.
  fibers_.warpBarrier(mask);
  return result;
}

// A barrier() with a tally on the side, not slots: one count per thread, where combining the
// slots would cost every thread a pass over the block.
uint32_t WarpExchange::blockReduce(abi::BlockReduceOp op, uint32_t predicate) {
  uint64_t epoch = fibers_.barrierEpoch();
  Tally &tally = tallies_[epoch % 2];
  if (tally.epoch != epoch)
    tally = Tally{epoch, 0, 0};
  ++tally.threads;
  tally.ones += predicate != 0;
  fibers_.barrier();
  // The tally of epoch + 2, the next to use this one's storage, starts after the next
  // barrier(), which waits for this thread.
  switch (op) {
  case abi::BlockReduceOp::Count:
    return tally.ones;
  case abi::BlockReduceOp::And:
    return tally.ones == tally.threads;
  case abi::BlockReduceOp::Or:
    return tally.ones != 0;
  }
  // The executor passes only abi::BlockReduceOp's values.
  __builtin_unreachable();
}

} // namespace kaji::runtime
