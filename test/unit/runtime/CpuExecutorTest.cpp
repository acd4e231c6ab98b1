// The CPU executor with hand-written entries that follow CpuKernelABI.h: no compiler needed.
#include "kaji/runtime/CpuExecutor.h"

#include "kaji/abi/KernelABI.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

using namespace kaji::runtime;

namespace {

uint64_t linearThread(const kaji::abi::CpuLaunchContext &c, const uint32_t thread[3]) {
  uint64_t block =
      (uint64_t(c.blockIdx[2]) * c.gridDim[1] + c.blockIdx[1]) * c.gridDim[0] + c.blockIdx[0];
  uint64_t perBlock = uint64_t(c.blockDim[0]) * c.blockDim[1] * c.blockDim[2];
  return block * perBlock + (uint64_t(thread[2]) * c.blockDim[1] + thread[1]) * c.blockDim[0] +
         thread[0];
}

// Calls body(block's context) for each of the context's blocks, as a compiled barrier-free
// entry does: blockCount blocks from blockIdx on, none once the launch failed.
template <typename Body> void forEachBlock(const kaji::abi::CpuLaunchContext *c, Body body) {
  kaji::abi::CpuLaunchContext block = *c;
  for (uint64_t b = 0; b < c->blockCount && !c->launchFailed->load(); ++b) {
    body(block);
    if (++block.blockIdx[0] == c->gridDim[0]) {
      block.blockIdx[0] = 0;
      if (++block.blockIdx[1] == c->gridDim[1]) {
        block.blockIdx[1] = 0;
        ++block.blockIdx[2];
      }
    }
  }
}

// A barrier-free entry: loops over its blocks' threads and counts each visit.
void countVisits(void *const *params, const kaji::abi::CpuLaunchContext *c) {
  auto *visits = *static_cast<std::atomic<int> *const *>(params[0]);
  forEachBlock(c, [&](const kaji::abi::CpuLaunchContext &block) {
    uint32_t thread[3];
    for (thread[2] = 0; thread[2] < block.blockDim[2]; ++thread[2])
      for (thread[1] = 0; thread[1] < block.blockDim[1]; ++thread[1])
        for (thread[0] = 0; thread[0] < block.blockDim[0]; ++thread[0])
          visits[linearThread(block, thread)]++;
  });
}

TEST(CpuExecutor, RunsEveryThreadOfEveryBlockOnce) {
  CpuExecutor executor(3);
  const Dim3 grid{3, 4, 5}, block{2, 3, 4};
  std::vector<std::atomic<int>> visits(3 * 4 * 5 * 2 * 3 * 4);
  std::atomic<int> *data = visits.data();
  void *params[] = {&data};
  executor.launch(&countVisits, CpuThreads::LoopInEntry, grid, block, 0, params);
  for (size_t i = 0; i < visits.size(); ++i)
    ASSERT_EQ(visits[i].load(), 1) << i;
}

// One thread per call: writes its index to shared memory, waits at the barrier, then reads
// its neighbour's — correct only if every thread wrote before any read.
void rotateThroughShared(void *const *params, const kaji::abi::CpuLaunchContext *c) {
  auto *out = *static_cast<int64_t *const *>(params[0]);
  auto *shared = static_cast<int64_t *>(c->sharedMemory);
  uint32_t n = c->blockDim[0];
  uint32_t t = c->threadIdx[0];
  shared[t] = int64_t(c->blockIdx[0]) * 1000 + t;
  c->barrier(c->executor);
  int64_t neighbour = shared[(t + 1) % n];
  c->barrier(c->executor);
  shared[t] = 0;
  out[c->blockIdx[0] * n + t] = neighbour;
}

TEST(CpuExecutor, FibersMeetAtBarriers) {
  CpuExecutor executor(2);
  const unsigned blocks = 7, threads = 1024;
  std::vector<int64_t> out(blocks * threads, -1);
  int64_t *data = out.data();
  void *params[] = {&data};
  executor.launch(&rotateThroughShared, CpuThreads::Fibers, {blocks, 1, 1}, {threads, 1, 1},
                  threads * sizeof(int64_t), params);
  for (unsigned b = 0; b < blocks; ++b)
    for (unsigned t = 0; t < threads; ++t)
      ASSERT_EQ(out[b * threads + t], int64_t(b) * 1000 + (t + 1) % threads) << b << "," << t;
}

void indexErrorInBlockTwo(void *const *, const kaji::abi::CpuLaunchContext *c) {
  // Block 2's one thread: x index 2 of the grid.
  const kaji::abi::CpuRaisingThread thread{2, {0, 0}, {0, 0}};
  forEachBlock(c, [&](const kaji::abi::CpuLaunchContext &block) {
    if (block.blockIdx[0] == 2)
      block.indexError(block.executor, "k.py:3:7: in 'k'", &thread, 1, -9, 8, 0);
  });
}

TEST(CpuExecutor, IndexErrorThrowsAfterTheLaunch) {
  CpuExecutor executor(2);
  try {
    executor.launch(&indexErrorInBlockTwo, CpuThreads::LoopInEntry, {4, 1, 1}, {1, 1, 1}, 0,
                    nullptr);
    FAIL() << "expected KernelIndexError";
  } catch (const KernelIndexError &error) {
    EXPECT_STREQ(error.what(), "k.py:3:7: in 'k', tid=[0, 0, 0] ctaid=[2, 0, 0]: index -9 is "
                               "out of bounds for axis 1 with size 8");
  }
  // The executor is usable again.
  EXPECT_NO_THROW(executor.launch(&indexErrorInBlockTwo, CpuThreads::LoopInEntry, {2, 1, 1},
                                  {1, 1, 1}, 0, nullptr));
}

// Records which blocks it ran, in order, for a launch on one worker.
void recordBlocks(void *const *params, const kaji::abi::CpuLaunchContext *c) {
  auto *order = *static_cast<std::vector<uint64_t> *const *>(params[0]);
  forEachBlock(c, [&](const kaji::abi::CpuLaunchContext &block) {
    order->push_back((uint64_t(block.blockIdx[2]) * block.gridDim[1] + block.blockIdx[1]) *
                         block.gridDim[0] +
                     block.blockIdx[0]);
  });
}

TEST(CpuExecutor, AWorkerRunsItsBlocksInLinearOrderInFewCalls) {
  CpuExecutor executor(1);
  std::vector<uint64_t> order;
  std::vector<uint64_t> *data = &order;
  void *params[] = {&data};
  executor.launch(&recordBlocks, CpuThreads::LoopInEntry, {5, 3, 2}, {1, 1, 1}, 0, params);
  ASSERT_EQ(order.size(), 30u);
  for (uint64_t i = 0; i < order.size(); ++i)
    EXPECT_EQ(order[i], i);
}

// The entry of a kernel cut at its barriers, as far as its thread storage goes: each block
// fills all it asked for with a mark of its own and reads the mark back, which another worker
// writing the same memory would spoil (and memory short of the size, AddressSanitizer).
void fillThreadStorage(void *const *params, const kaji::abi::CpuLaunchContext *c) {
  uint64_t perThread = *static_cast<const uint64_t *>(params[0]);
  auto *failures = *static_cast<std::atomic<int> *const *>(params[1]);
  forEachBlock(c, [&](const kaji::abi::CpuLaunchContext &block) {
    uint64_t bytes = perThread * block.blockDim[0] * block.blockDim[1] * block.blockDim[2];
    auto *storage = static_cast<unsigned char *>(block.threadStorage);
    if (reinterpret_cast<uintptr_t>(storage) % kaji::abi::kSharedMemoryAlignment != 0)
      ++*failures;
    auto mark = static_cast<unsigned char>(block.blockIdx[0] * 7 + 1);
    std::memset(storage, mark, bytes);
    std::this_thread::yield();
    for (uint64_t i = 0; i < bytes; ++i)
      if (storage[i] != mark) {
        ++*failures;
        break;
      }
  });
}

TEST(CpuExecutor, EachWorkerHasTheThreadStorageItsBlocksAskFor) {
  CpuExecutor executor(3);
  uint64_t perThread = 40;
  std::atomic<int> failures{0};
  std::atomic<int> *counter = &failures;
  void *params[] = {&perThread, &counter};
  executor.launch(&fillThreadStorage, CpuThreads::LoopInEntry, {64, 1, 1}, {32, 4, 1}, 0, params, 0,
                  false, perThread);
  EXPECT_EQ(failures.load(), 0);
}

TEST(CpuExecutor, RejectsLaunchesOutsideCudaLimits) {
  CpuExecutor executor(1);
  EXPECT_THROW(
      executor.launch(&countVisits, CpuThreads::LoopInEntry, {1, 1, 1}, {2048, 1, 1}, 0, nullptr),
      std::invalid_argument);
  EXPECT_THROW(
      executor.launch(&countVisits, CpuThreads::LoopInEntry, {0, 1, 1}, {1, 1, 1}, 0, nullptr),
      std::invalid_argument);
  EXPECT_THROW(
      executor.launch(&countVisits, CpuThreads::LoopInEntry, {1, 1, 1}, {64, 32, 1}, 0, nullptr),
      std::invalid_argument);
  EXPECT_THROW(executor.launch(nullptr, CpuThreads::LoopInEntry, {1, 1, 1}, {1, 1, 1}, 0, nullptr),
               std::invalid_argument);
  EXPECT_THROW(executor.launch(&countVisits, CpuThreads::Fibers, {1, 1, 1}, {1, 1, 1}, 0, nullptr,
                               CpuExecutor::kMaxFrameBytes + 1),
               std::invalid_argument);
}

// Polls the executor's hooks as a compiled loop header does, until asked to stop.
void spinUntilInterrupted(void *const *, const kaji::abi::CpuLaunchContext *) {
  const kaji::abi::CpuRuntimeHooks &hooks = *CpuExecutor::hooks();
  while (!hooks.interruptRequested.load(std::memory_order_relaxed)) {
  }
  hooks.interrupted();
}

TEST(CpuExecutor, AnInterruptStopsALaunchThatWouldNeverEnd) {
  CpuExecutor executor(2);
  std::atomic<int> visits[4]{};
  std::atomic<int> *data = visits;
  void *params[] = {&data};
  for (CpuThreads threads : {CpuThreads::LoopInEntry, CpuThreads::Fibers})
    for (unsigned blocks : {1u, 8u}) {
      std::thread interrupter([] {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        CpuExecutor::requestInterrupt();
      });
      EXPECT_THROW(
          executor.launch(&spinUntilInterrupted, threads, {blocks, 1, 1}, {4, 1, 1}, 0, nullptr),
          LaunchInterrupted);
      interrupter.join();
      // The executor is whole again, and the request is spent.
      for (std::atomic<int> &visit : visits)
        visit = 0;
      executor.launch(&countVisits, CpuThreads::LoopInEntry, {1, 1, 1}, {4, 1, 1}, 0, params);
      for (std::atomic<int> &visit : visits)
        EXPECT_EQ(visit.load(), 1);
    }
}

// Polls the executor's hooks once, as a compiled loop header does, and returns.
void pollOnce(void *const *, const kaji::abi::CpuLaunchContext *) {
  const kaji::abi::CpuRuntimeHooks &hooks = *CpuExecutor::hooks();
  if (hooks.interruptRequested.load(std::memory_order_relaxed))
    hooks.interrupted();
}

TEST(CpuExecutor, AnInterruptBeforeALaunchStopsItUnlessWithdrawn) {
  CpuExecutor executor(2);
  CpuExecutor::requestInterrupt();
  EXPECT_THROW(
      executor.launch(&pollOnce, CpuThreads::LoopInEntry, {1, 1, 1}, {1, 1, 1}, 0, nullptr),
      LaunchInterrupted);
  CpuExecutor::requestInterrupt();
  CpuExecutor::withdrawInterrupt();
  EXPECT_NO_THROW(
      executor.launch(&pollOnce, CpuThreads::LoopInEntry, {1, 1, 1}, {1, 1, 1}, 0, nullptr));
}

TEST(CpuExecutor, SharedExecutorIsSizedToTheMachine) {
  EXPECT_GE(CpuExecutor::shared().workerCount(), 1u);
}

} // namespace
