// ptxasResourceUsage reads ptxas's --verbose report of one entry; skipped without ptxas.
#include "kaji/driver/PtxAssembler.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace kaji::driver {
namespace {

// Two entries, so that the report of the one asked for is picked out: `staged` with 256 bytes
// of shared memory and a .maxntid of 4 x 8 x 2, `plain` with neither.
constexpr const char *twoEntries = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry plain(.param .u64 p)
{
  .reg .b32 %r<2>; .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [p];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  st.global.u32 [%rd2], %r1;
  ret;
}
.visible .entry staged(.param .u64 p)
.maxntid 4, 8, 2
{
  .reg .b32 %r<4>; .reg .b64 %rd<4>;
  .shared .align 4 .b8 tile[256];
  ld.param.u64 %rd1, [p];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  st.shared.u32 [tile], %r1;
  bar.sync 0;
  ld.shared.u32 %r2, [tile+4];
  st.global.u32 [%rd2], %r2;
  ret;
}
)";

TEST(PtxResourceUsage, ReportsTheEntryAskedFor) {
  if (!findPtxas())
    GTEST_SKIP() << "no ptxas";
  ResourceUsage staged = ptxasResourceUsage(twoEntries, "staged", "sm_90", 3);
  EXPECT_EQ(staged.sharedBytesPerBlock, 256);
  EXPECT_GT(staged.registersPerThread, 0);
  EXPECT_EQ(staged.maxThreadsPerBlock, 64);
  ResourceUsage plain = ptxasResourceUsage(twoEntries, "plain", "sm_90", 3);
  EXPECT_EQ(plain.sharedBytesPerBlock, 0);
  EXPECT_EQ(plain.localBytesPerThread, 0);
  EXPECT_EQ(plain.maxThreadsPerBlock, 1024);
}

TEST(PtxResourceUsage, AnUnknownEntryIsAnError) {
  if (!findPtxas())
    GTEST_SKIP() << "no ptxas";
  EXPECT_THROW(ptxasResourceUsage(twoEntries, "missing", "sm_90", 3), std::runtime_error);
}

TEST(PtxResourceUsage, PtxasErrorsAreReported) {
  if (!findPtxas())
    GTEST_SKIP() << "no ptxas";
  try {
    ptxasResourceUsage(".version 8.0\n.target sm_90\nnot ptx", "k", "sm_90", 3);
    FAIL() << "malformed PTX was accepted";
  } catch (const std::runtime_error &error) {
    EXPECT_NE(std::string(error.what()).find("failed"), std::string::npos) << error.what();
  }
}

} // namespace
} // namespace kaji::driver
