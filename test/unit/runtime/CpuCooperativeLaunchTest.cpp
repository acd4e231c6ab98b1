// CpuThreads::Cooperative: every block at once, so a grid barrier can wait for all of them.
#include "kaji/runtime/CpuExecutor.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

using namespace kaji::runtime;

namespace {

// Each thread writes its grid-wide index, meets the grid, then reads the next thread's slot,
// which another block wrote when the thread is its block's last.
void rotateThroughTheGrid(void *const *params, const kaji::abi::CpuLaunchContext *c) {
  auto *values = *static_cast<int64_t *const *>(params[0]);
  auto *out = *static_cast<int64_t *const *>(params[1]);
  uint64_t n = uint64_t(c->gridDim[0]) * c->blockDim[0];
  uint64_t i = uint64_t(c->blockIdx[0]) * c->blockDim[0] + c->threadIdx[0];
  values[i] = int64_t(i) * 10;
  c->gridBarrier(c->executor);
  out[i] = values[(i + 1) % n];
  c->gridBarrier(c->executor);
  values[i] = -1;
}

TEST(CpuCooperativeLaunch, GridBarrierWaitsForEveryBlock) {
  CpuExecutor executor(2);
  const unsigned blocks = 12, threads = 64;
  std::vector<int64_t> values(blocks * threads, 0), out(blocks * threads, 0);
  int64_t *valueData = values.data(), *outData = out.data();
  void *params[] = {&valueData, &outData};
  executor.launch(&rotateThroughTheGrid, CpuThreads::Cooperative, {blocks, 1, 1}, {threads, 1, 1},
                  0, params);
  for (uint64_t i = 0; i < out.size(); ++i)
    ASSERT_EQ(out[i], int64_t((i + 1) % out.size()) * 10) << i;
}

// Block 0 returns at once; the others still meet at the grid barrier.
void blockZeroLeavesEarly(void *const *params, const kaji::abi::CpuLaunchContext *c) {
  auto *arrived = *static_cast<int64_t *const *>(params[0]);
  if (c->blockIdx[0] == 0)
    return;
  arrived[c->blockIdx[0]] = 1;
  c->gridBarrier(c->executor);
  arrived[c->blockIdx[0]] = 2;
}

TEST(CpuCooperativeLaunch, FinishedBlocksNoLongerCount) {
  CpuExecutor executor(2);
  std::vector<int64_t> arrived(4, 0);
  int64_t *data = arrived.data();
  void *params[] = {&data};
  executor.launch(&blockZeroLeavesEarly, CpuThreads::Cooperative, {4, 1, 1}, {8, 1, 1}, 0, params);
  EXPECT_EQ(arrived, (std::vector<int64_t>{0, 2, 2, 2}));
}

TEST(CpuCooperativeLaunch, GridOverTheLimitIsRefused) {
  CpuExecutor executor(2);
  try {
    executor.launch(&blockZeroLeavesEarly, CpuThreads::Cooperative,
                    {unsigned(CpuExecutor::kMaxCooperativeBlocks + 1), 1, 1}, {1, 1, 1}, 0,
                    nullptr);
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument &error) {
    EXPECT_NE(std::string(error.what()).find("at most 128 blocks"), std::string::npos)
        << error.what();
  }
}

TEST(CpuCooperativeLaunch, GridBarrierOutsideACooperativeLaunchFails) {
  CpuExecutor executor(2);
  std::vector<int64_t> arrived(2, 0);
  int64_t *data = arrived.data();
  void *params[] = {&data};
  EXPECT_THROW(
      executor.launch(&blockZeroLeavesEarly, CpuThreads::Fibers, {2, 1, 1}, {1, 1, 1}, 0, params),
      std::logic_error);
}

} // namespace
