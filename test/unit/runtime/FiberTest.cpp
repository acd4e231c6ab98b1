// Barriers, warp collectives and block reductions of fiber kernels (CpuThreads::Fibers), with
// hand-written entries that follow CpuKernelABI.h.
#include "kaji/runtime/CpuExecutor.h"

#include <gtest/gtest.h>

#include <bit>
#include <chrono>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

using namespace kaji::runtime;

namespace {

constexpr unsigned kWarpSize = 32;

uint32_t linearThread(const kaji::abi::CpuLaunchContext &c) {
  return (c.threadIdx[2] * c.blockDim[1] + c.threadIdx[1]) * c.blockDim[0] + c.threadIdx[0];
}

uint32_t threadsPerBlock(const kaji::abi::CpuLaunchContext &c) {
  return c.blockDim[0] * c.blockDim[1] * c.blockDim[2];
}

template <typename T> T *param(void *const *params, int i) {
  return *static_cast<T *const *>(params[i]);
}

void launchFibers(CpuExecutor &executor, kaji::abi::CpuKernelEntry entry, Dim3 grid, Dim3 block,
                  std::vector<void *> params) {
  executor.launch(entry, CpuThreads::Fibers, grid, block, 0, params.data());
}

// Thread t passes t % 5 barriers, counting itself in arrivals[k] before barrier k and noting
// what it reads there after it: every thread that has not returned must have arrived first.
void countingBarrier(void *const *params, const kaji::abi::CpuLaunchContext *c) {
  auto *arrivals = param<int>(params, 0) + c->blockIdx[0] * 8;
  auto *seen = param<int>(params, 1) + c->blockIdx[0] * threadsPerBlock(*c) * 8;
  uint32_t t = linearThread(*c);
  for (uint32_t k = 0; k < t % 5; ++k) {
    ++arrivals[k];
    c->barrier(c->executor);
    seen[t * 8 + k] = arrivals[k];
  }
}

TEST(Fibers, BarrierCountsOnlyThreadsThatHaveNotReturned) {
  CpuExecutor executor(2);
  // 103 threads: the last thread of the block passes two barriers and returns while lower
  // ones wait at the third.
  const unsigned blocks = 4, threads = 103;
  std::vector<int> arrivals(blocks * 8, 0), seen(blocks * threads * 8, -1);
  int *arrivalData = arrivals.data(), *seenData = seen.data();
  launchFibers(executor, &countingBarrier, {blocks, 1, 1}, {threads, 1, 1},
               {&arrivalData, &seenData});
  for (unsigned b = 0; b < blocks; ++b)
    for (unsigned t = 0; t < threads; ++t)
      for (unsigned k = 0; k < t % 5; ++k) {
        int expected = 0;
        for (unsigned u = 0; u < threads; ++u)
          expected += u % 5 > k;
        ASSERT_EQ(seen[(b * threads + t) * 8 + k], expected) << b << "," << t << "," << k;
      }
}

// Lanes below 16 sync among themselves, then everybody meets at syncthreads: a warp barrier
// that waited for the whole warp would deadlock.
void halfWarpThenBlock(void *const *params, const kaji::abi::CpuLaunchContext *c) {
  auto *counts = param<int>(params, 0);
  auto *seen = param<int>(params, 1);
  uint32_t t = linearThread(*c);
  uint32_t lane = t % kWarpSize, warp = t / kWarpSize;
  if (lane < 16) {
    ++counts[warp * 2];
    c->warpBarrier(c->executor, 0x0000ffffu);
    seen[t] = counts[warp * 2];
  } else if (lane < 24) {
    // Lanes 16..23 name only each other; lanes 24..31 never call a warp barrier.
    ++counts[warp * 2 + 1];
    c->warpBarrier(c->executor, 0x00ff0000u);
    seen[t] = counts[warp * 2 + 1];
  }
  c->barrier(c->executor);
}

TEST(Fibers, WarpBarrierWaitsForTheLanesOfItsMaskOnly) {
  CpuExecutor executor(1);
  const unsigned threads = 64;
  std::vector<int> counts(4, 0), seen(threads, -1);
  int *countData = counts.data(), *seenData = seen.data();
  launchFibers(executor, &halfWarpThenBlock, {1, 1, 1}, {threads, 1, 1}, {&countData, &seenData});
  for (unsigned t = 0; t < threads; ++t) {
    unsigned lane = t % kWarpSize;
    EXPECT_EQ(seen[t], lane < 16 ? 16 : lane < 24 ? 8 : -1) << t;
  }
}

// Every lane of a 40-thread block counts itself, syncs the full mask, and reads its warp's
// count: lanes 40..63 do not exist and are not waited for. Thread 39 returns instead, after
// 32..38 arrived: its leaving releases them.
void fullMaskInPartialWarp(void *const *params, const kaji::abi::CpuLaunchContext *c) {
  auto *counts = param<int>(params, 0);
  auto *seen = param<int>(params, 1);
  uint32_t t = linearThread(*c);
  if (t == 39)
    return;
  ++counts[t / kWarpSize];
  c->warpBarrier(c->executor, ~0u);
  seen[t] = counts[t / kWarpSize];
}

TEST(Fibers, WarpBarrierIgnoresLanesPastTheBlockAndReturnedLanes) {
  CpuExecutor executor(1);
  std::vector<int> counts(2, 0), seen(40, -1);
  int *countData = counts.data(), *seenData = seen.data();
  launchFibers(executor, &fullMaskInPartialWarp, {1, 1, 1}, {8, 5, 1}, {&countData, &seenData});
  for (unsigned t = 0; t < 40; ++t)
    EXPECT_EQ(seen[t], t == 39 ? -1 : t < 32 ? 32 : 7) << t;
}

// One warp collective per launch: the case, each thread's value and the results.
struct Collective {
  kaji::abi::WarpOp op;
  uint32_t operand;
  bool wide;      // shuffles: 64-bit values, else a float's bits zero-extended
  bool uniform;   // ballot, all, any, equal: every value nonzero, or all the same
  bool splitMask; // lanes below 16 and the others as two groups
};

uint64_t valueOf(const Collective &k, uint32_t t) {
  switch (k.op) {
  case kaji::abi::WarpOp::Ballot:
  case kaji::abi::WarpOp::All:
  case kaji::abi::WarpOp::Any:
    return k.uniform ? uint64_t(t) + 1 : t % 3 == 0;
  case kaji::abi::WarpOp::Equal:
    // Not uniform: the same in each group of 8 lanes, so the partial warp's 8 lanes agree.
    return k.uniform ? 0x3f800000u : t / 8;
  case kaji::abi::WarpOp::MatchAny:
    return uint64_t(t % 4) << 40;
  case kaji::abi::WarpOp::MatchAll:
    return k.uniform ? uint64_t(7) << 40 : uint64_t(t % 4) << 40;
  default:
    return k.wide ? (uint64_t(t) << 36) | (0xabcu + t) : std::bit_cast<uint32_t>(-1.5f * t);
  }
}

uint32_t maskOf(const Collective &k, uint32_t lane) {
  if (!k.splitMask)
    return ~0u;
  return lane < 16 ? 0x0000ffffu : 0xffff0000u;
}

void warpCollective(void *const *params, const kaji::abi::CpuLaunchContext *c) {
  const auto &k = *param<const Collective>(params, 0);
  auto *out = param<uint64_t>(params, 1);
  uint32_t t = linearThread(*c);
  uint32_t mask = maskOf(k, t % kWarpSize);
  out[c->blockIdx[0] * threadsPerBlock(*c) + t] =
      c->warpCollective(c->executor, uint32_t(k.op), mask, valueOf(k, t), k.operand);
}

// What thread t of a block of `threads` gets, from the definitions in CpuKernelABI.h.
uint64_t expected(const Collective &k, uint32_t t, uint32_t threads) {
  uint32_t lane = t % kWarpSize, base = t - lane;
  uint32_t present = threads - base >= kWarpSize ? ~0u : (1u << (threads - base)) - 1;
  uint32_t lanes = maskOf(k, lane) & present;
  uint64_t own = valueOf(k, t);
  auto at = [&](int64_t source) {
    return source >= 0 && source < 32 && (lanes >> source & 1) ? valueOf(k, base + uint32_t(source))
                                                               : own;
  };
  uint32_t nonzero = 0, same = 0;
  for (uint32_t l = 0; l < kWarpSize; ++l)
    if (lanes >> l & 1) {
      nonzero |= uint32_t(valueOf(k, base + l) != 0) << l;
      same |= uint32_t(valueOf(k, base + l) == own) << l;
    }
  switch (k.op) {
  case kaji::abi::WarpOp::ShuffleIndex:
    return at(k.operand % 32);
  case kaji::abi::WarpOp::ShuffleUp:
    return at(int64_t(lane) - k.operand);
  case kaji::abi::WarpOp::ShuffleDown:
    return at(int64_t(lane) + k.operand);
  case kaji::abi::WarpOp::ShuffleXor:
    return at(lane ^ (k.operand % 32));
  case kaji::abi::WarpOp::Ballot:
    return nonzero;
  case kaji::abi::WarpOp::All:
    return nonzero == lanes;
  case kaji::abi::WarpOp::Any:
    return nonzero != 0;
  case kaji::abi::WarpOp::Equal:
    return same == lanes;
  case kaji::abi::WarpOp::MatchAny:
    return same;
  case kaji::abi::WarpOp::MatchAll:
    return same == lanes ? lanes : 0;
  case kaji::abi::WarpOp::ActiveMask:
    return present;
  }
  return 0;
}

std::string describe(const Collective &k) {
  return "op " + std::to_string(unsigned(k.op)) + " operand " + std::to_string(k.operand) +
         (k.wide ? " wide" : "") + (k.uniform ? " uniform" : "") +
         (k.splitMask ? " split mask" : "");
}

TEST(Fibers, EveryWarpCollectiveInAPartialLastWarp) {
  CpuExecutor executor(2);
  const unsigned blocks = 3, threads = 40;
  std::vector<Collective> cases;
  for (bool split : {false, true}) {
    for (bool wide : {false, true})
      for (kaji::abi::WarpOp op : {kaji::abi::WarpOp::ShuffleIndex, kaji::abi::WarpOp::ShuffleUp,
                                   kaji::abi::WarpOp::ShuffleDown, kaji::abi::WarpOp::ShuffleXor})
        for (uint32_t operand : {0u, 1u, 3u, 5u, 16u, 31u, 37u})
          cases.push_back({op, operand, wide, false, split});
    for (kaji::abi::WarpOp op : {kaji::abi::WarpOp::Ballot, kaji::abi::WarpOp::All,
                                 kaji::abi::WarpOp::Any, kaji::abi::WarpOp::Equal})
      for (bool uniform : {false, true})
        cases.push_back({op, 0, false, uniform, split});
    cases.push_back({kaji::abi::WarpOp::MatchAny, 0, false, false, split});
    for (bool uniform : {false, true})
      cases.push_back({kaji::abi::WarpOp::MatchAll, 0, false, uniform, split});
    cases.push_back({kaji::abi::WarpOp::ActiveMask, 0, false, false, split});
  }
  for (const Collective &k : cases) {
    std::vector<uint64_t> out(blocks * threads, 0xdeadbeef);
    const Collective *kData = &k;
    uint64_t *outData = out.data();
    launchFibers(executor, &warpCollective, {blocks, 1, 1}, {threads, 1, 1}, {&kData, &outData});
    for (unsigned i = 0; i < out.size(); ++i)
      ASSERT_EQ(out[i], expected(k, i % threads, threads))
          << describe(k) << ", thread " << i % threads << " of block " << i / threads;
  }
}

// Lanes with lane % 3 == 0 return, those with lane % 3 == 1 ask for the active mask, the
// others go on to syncthreads: the mask names the lanes on the branch, as on a GPU.
void activeMaskInABranch(void *const *params, const kaji::abi::CpuLaunchContext *c) {
  auto *out = param<uint64_t>(params, 0);
  uint32_t t = linearThread(*c);
  if (t % kWarpSize % 3 == 0)
    return;
  if (t % kWarpSize % 3 == 1)
    out[t] = c->warpCollective(c->executor, uint32_t(kaji::abi::WarpOp::ActiveMask), 0, 0, 0);
  c->barrier(c->executor);
}

TEST(Fibers, ActiveMaskAfterDivergence) {
  CpuExecutor executor(1);
  std::vector<uint64_t> out(40, 0);
  uint64_t *data = out.data();
  launchFibers(executor, &activeMaskInABranch, {1, 1, 1}, {40, 1, 1}, {&data});
  const uint64_t everyThirdFromOne = 0x92492492u;
  for (unsigned t = 0; t < 40; ++t)
    EXPECT_EQ(out[t], t % kWarpSize % 3 != 1 ? 0 : t < 32 ? everyThirdFromOne : 0x92u) << t;
}

// Both arms of an `if` ask for the active mask, at sites 10 and 20, and every lane again
// after it, at site 30: each arm gets its own lanes, and the code after the `if` the warp.
void activeMaskInBothArms(void *const *params, const kaji::abi::CpuLaunchContext *c) {
  auto *out = param<uint64_t>(params, 0);
  uint32_t t = linearThread(*c);
  uint32_t activeMask = uint32_t(kaji::abi::WarpOp::ActiveMask);
  if (t % kWarpSize < 10)
    out[t] = c->warpCollective(c->executor, activeMask, 0, 0, 20);
  else
    out[t] = c->warpCollective(c->executor, activeMask, 0, 0, 10);
  out[64 + t] = c->warpCollective(c->executor, activeMask, 0, 0, 30);
}

TEST(Fibers, ActiveMaskTellsCallSitesApart) {
  CpuExecutor executor(1);
  std::vector<uint64_t> out(128, 0);
  uint64_t *data = out.data();
  launchFibers(executor, &activeMaskInBothArms, {1, 1, 1}, {64, 1, 1}, {&data});
  for (unsigned t = 0; t < 64; ++t) {
    EXPECT_EQ(out[t], t % kWarpSize < 10 ? 0x3FFu : 0xFFFFFC00u) << t;
    EXPECT_EQ(out[64 + t], 0xFFFFFFFFu) << t;
  }
}

// A butterfly sum over each warp, five shuffles back to back: a lane that wrote its next
// value before the others read this one would corrupt their sums.
void warpSum(void *const *params, const kaji::abi::CpuLaunchContext *c) {
  auto *out = param<uint64_t>(params, 0);
  uint32_t t = linearThread(*c);
  uint64_t sum = t;
  for (uint32_t offset = 16; offset > 0; offset /= 2)
    sum +=
        c->warpCollective(c->executor, uint32_t(kaji::abi::WarpOp::ShuffleXor), ~0u, sum, offset);
  out[c->blockIdx[0] * threadsPerBlock(*c) + t] = sum;
}

TEST(Fibers, BackToBackShufflesDoNotOverwriteEachOther) {
  CpuExecutor executor(2);
  const unsigned blocks = 5, threads = 1024;
  std::vector<uint64_t> out(blocks * threads);
  uint64_t *data = out.data();
  launchFibers(executor, &warpSum, {blocks, 1, 1}, {threads, 1, 1}, {&data});
  for (unsigned i = 0; i < out.size(); ++i) {
    uint64_t first = i % threads / kWarpSize * kWarpSize;
    ASSERT_EQ(out[i], kWarpSize * first + kWarpSize * (kWarpSize - 1) / 2) << i;
  }
}

// Thread t returns at once when t % 7 == 6; the others reduce t % 3 == 0 with each op, twice
// in a row and once after a plain barrier, so consecutive reductions use both tallies.
void blockReductions(void *const *params, const kaji::abi::CpuLaunchContext *c) {
  auto *out = param<uint32_t>(params, 0) + c->blockIdx[0] * threadsPerBlock(*c) * 5;
  uint32_t t = linearThread(*c);
  if (t % 7 == 6)
    return;
  uint32_t predicate = t % 3 == 0;
  out[t * 5 + 0] =
      c->blockReduce(c->executor, uint32_t(kaji::abi::BlockReduceOp::Count), predicate);
  out[t * 5 + 1] = c->blockReduce(c->executor, uint32_t(kaji::abi::BlockReduceOp::And), predicate);
  c->barrier(c->executor);
  out[t * 5 + 2] = c->blockReduce(c->executor, uint32_t(kaji::abi::BlockReduceOp::Or), predicate);
  out[t * 5 + 3] = c->blockReduce(c->executor, uint32_t(kaji::abi::BlockReduceOp::And), 1);
  out[t * 5 + 4] = c->blockReduce(c->executor, uint32_t(kaji::abi::BlockReduceOp::Or), t == 1000);
}

TEST(Fibers, BlockReductionsOverThreadsThatHaveNotReturned) {
  CpuExecutor executor(2);
  const unsigned blocks = 3, threads = 100;
  std::vector<uint32_t> out(blocks * threads * 5, 7);
  uint32_t *data = out.data();
  launchFibers(executor, &blockReductions, {blocks, 1, 1}, {threads, 1, 1}, {&data});
  uint32_t count = 0;
  for (unsigned t = 0; t < threads; ++t)
    count += t % 7 != 6 && t % 3 == 0;
  for (unsigned i = 0; i < blocks * threads; ++i) {
    const uint32_t *got = &out[i * 5];
    if (i % threads % 7 == 6) {
      EXPECT_EQ(got[0], 7u) << i;
      continue;
    }
    EXPECT_EQ(got[0], count) << i;
    EXPECT_EQ(got[1], 0u) << i;
    EXPECT_EQ(got[2], 1u) << i;
    EXPECT_EQ(got[3], 1u) << i;
    EXPECT_EQ(got[4], 0u) << i;
  }
}

// Runs `launch` on a thread of its own and returns what it threw ("" if nothing), or nullopt
// if it is still running after `limit`. A hang then fails the test, not the suite: the thread
// is left behind with whatever `launch` holds.
std::optional<std::string> outcomeWithin(std::chrono::seconds limit, std::function<void()> launch) {
  auto outcome = std::make_shared<std::promise<std::string>>();
  std::future<std::string> result = outcome->get_future();
  std::thread([outcome, launch = std::move(launch)] {
    try {
      launch();
      outcome->set_value("");
    } catch (const std::exception &error) {
      outcome->set_value(error.what());
    }
  }).detach();
  if (result.wait_for(limit) != std::future_status::ready)
    return std::nullopt;
  return result.get();
}

// In each warp, lanes below 16 wait at syncthreads and the others at a full-mask syncwarp
// that waits for them.
void syncthreadsAgainstSyncwarp(void *const *, const kaji::abi::CpuLaunchContext *c) {
  if (linearThread(*c) % kWarpSize < 16)
    c->barrier(c->executor);
  else
    c->warpBarrier(c->executor, ~0u);
}

// Only in block 2: thread 0 shuffles with the whole warp while the others are at syncthreads.
void shuffleAgainstSyncthreadsInBlockTwo(void *const *, const kaji::abi::CpuLaunchContext *c) {
  if (c->blockIdx[0] == 2 && linearThread(*c) == 0)
    c->warpCollective(c->executor, uint32_t(kaji::abi::WarpOp::ShuffleIndex), ~0u, 1, 0);
  else
    c->barrier(c->executor);
}

TEST(Fibers, DeadlockFailsTheLaunchInsteadOfHanging) {
  auto executor = std::make_shared<CpuExecutor>(2);
  std::optional<std::string> error = outcomeWithin(std::chrono::seconds(10), [executor] {
    executor->launch(&syncthreadsAgainstSyncwarp, CpuThreads::Fibers, {1, 1, 1}, {64, 1, 1}, 0,
                     nullptr);
  });
  ASSERT_TRUE(error) << "the launch hung";
  EXPECT_EQ(*error, "block (0, 0, 0): kernel deadlock: 32 threads wait at syncthreads() while 32 "
                    "wait at syncwarp() or a warp collective; the threads of a block must reach "
                    "the same barriers");

  error = outcomeWithin(std::chrono::seconds(10), [executor] {
    executor->launch(&shuffleAgainstSyncthreadsInBlockTwo, CpuThreads::Fibers, {4, 1, 1},
                     {48, 1, 1}, 0, nullptr);
  });
  ASSERT_TRUE(error) << "the launch hung";
  EXPECT_EQ(*error, "block (2, 0, 0): kernel deadlock: 47 threads wait at syncthreads() while 1 "
                    "waits at syncwarp() or a warp collective; the threads of a block must reach "
                    "the same barriers");

  // The abandoned fibers' stacks serve the next launch.
  auto sums = std::make_shared<std::vector<uint64_t>>(256);
  error = outcomeWithin(std::chrono::seconds(10), [executor, sums] {
    uint64_t *data = sums->data();
    launchFibers(*executor, &warpSum, {1, 1, 1}, {unsigned(sums->size()), 1, 1}, {&data});
  });
  ASSERT_TRUE(error) << "the launch hung";
  EXPECT_EQ(*error, "");
  EXPECT_EQ(sums->front(), kWarpSize * (kWarpSize - 1) / 2);
  EXPECT_EQ(sums->back(), kWarpSize * (256 - kWarpSize) + kWarpSize * (kWarpSize - 1) / 2);
}

TEST(Fibers, UnknownOperationFailsTheLaunch) {
  CpuExecutor executor(1);
  auto entry = [](void *const *, const kaji::abi::CpuLaunchContext *c) {
    c->warpCollective(c->executor, 99, ~0u, 0, 0);
  };
  try {
    executor.launch(entry, CpuThreads::Fibers, {1, 1, 1}, {32, 1, 1}, 0, nullptr);
    FAIL() << "expected std::logic_error";
  } catch (const std::logic_error &error) {
    EXPECT_STREQ(error.what(), "host kernel passed unknown operation 99 to warpCollective; the "
                               "kernel was compiled against another CpuKernelABI.h");
  }
}

} // namespace

namespace {

// Each thread fills a 256 KiB array on its own stack, waits at a barrier, then sums it: the
// fibers' stacks must be sized from the frame bytes the launch names.
constexpr size_t kBigFrameWords = 256 * 1024 / sizeof(uint64_t);

void bigFrameEntry(void *const *params, const kaji::abi::CpuLaunchContext *context) {
  volatile uint64_t words[kBigFrameWords];
  uint32_t thread = linearThread(*context);
  for (size_t i = 0; i < kBigFrameWords; ++i)
    words[i] = thread + i;
  context->barrier(context->executor);
  uint64_t sum = 0;
  for (size_t i = 0; i < kBigFrameWords; ++i)
    sum += words[i];
  param<uint64_t>(params, 0)[thread] = sum;
}

} // namespace

TEST(Fibers, StacksGrowToTheKernelsFrames) {
  CpuExecutor executor(1);
  std::vector<uint64_t> sums(8);
  uint64_t *data = sums.data();
  void *params[] = {&data};
  executor.launch(&bigFrameEntry, CpuThreads::Fibers, {1, 1, 1}, {8, 1, 1}, 0, params,
                  sizeof(uint64_t) * kBigFrameWords + 4096);
  uint64_t base = kBigFrameWords * (kBigFrameWords - 1) / 2;
  for (uint64_t thread = 0; thread < sums.size(); ++thread)
    EXPECT_EQ(sums[thread], base + thread * kBigFrameWords);
}
