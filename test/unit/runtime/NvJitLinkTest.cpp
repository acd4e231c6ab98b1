// nvJitLink (NvJitLink.h) links on the CPU, so these run without a GPU where the toolkit's
// libnvJitLink is installed (skipped with the reason otherwise): a kernel's PTX with the PTX
// defining the function it calls becomes a cubin; a missing symbol is named with the input.
// (LTO-IR linked into PTX is tested where NVRTC makes it: test/unit/codegen/CudaEmitterTest.)
#include "LinkerPtx.h"

#include "kaji/runtime/NvJitLink.h"

#include <gtest/gtest.h>

#include <stdexcept>

using namespace kaji::runtime;
using namespace kaji::runtime::testing;

namespace {

class NvJitLinkTest : public ::testing::Test {
protected:
  void SetUp() override {
    try {
      nvJitLinkInfo();
    } catch (const NvJitLinkUnavailable &error) {
      GTEST_SKIP() << error.what();
    }
  }
};

TEST(NvJitLinkInputsTest, NothingOrAnEmptyInputIsRefusedBeforeLoadingIt) {
  EXPECT_THROW(linkWithNvJitLink({}, "sm_90"), std::invalid_argument);
  try {
    linkWithNvJitLink({{CU_JIT_INPUT_NVVM, "empty.ltoir", ""}}, "sm_90");
    FAIL() << "no exception";
  } catch (const std::invalid_argument &error) {
    EXPECT_NE(std::string(error.what()).find("'empty.ltoir'"), std::string::npos) << error.what();
  }
}

TEST_F(NvJitLinkTest, ReportsItsVersion) { EXPECT_GE(nvJitLinkInfo().major, 12u); }

TEST_F(NvJitLinkTest, LinksACallToADeviceFunctionOfAnotherFileIntoACubin) {
  std::string cubin = linkWithNvJitLink(
      {{CU_JIT_INPUT_PTX, "caller.ptx", kCallerPtx}, {CU_JIT_INPUT_PTX, "ops.ptx", kTwicePtx}},
      "sm_90");
  ASSERT_GT(cubin.size(), 4u);
  EXPECT_EQ(cubin.substr(0, 4), "\x7f"
                                "ELF");
  EXPECT_NE(cubin.find("call_twice"), std::string::npos);
}

TEST_F(NvJitLinkTest, AssemblesPtxUnoptimisedOnRequest) {
  std::vector<LinkInput> inputs{{CU_JIT_INPUT_PTX, "caller.ptx", kCallerPtx},
                                {CU_JIT_INPUT_PTX, "ops.ptx", kTwicePtx}};
  std::string optimised = linkWithNvJitLink(inputs, "sm_90");
  std::string unoptimised = linkWithNvJitLink(inputs, "sm_90", PtxOptimization::None);
  EXPECT_EQ(unoptimised.substr(0, 4), optimised.substr(0, 4));
  EXPECT_NE(unoptimised, optimised);
}

TEST_F(NvJitLinkTest, AMissingSymbolIsNamedWithTheInputs) {
  try {
    linkWithNvJitLink({{CU_JIT_INPUT_PTX, "caller.ptx", kCallerPtx}}, "sm_90");
    FAIL() << "no exception";
  } catch (const LinkError &error) {
    std::string message = error.what();
    EXPECT_NE(message.find("'twice'"), std::string::npos) << message;
    EXPECT_NE(message.find("caller.ptx"), std::string::npos) << message;
  }
}

TEST(NvJitLinkInputsTest, PtxOfInputsThatAreNotAllLtoIrIsRefusedBeforeLoadingIt) {
  // nvJitLink makes PTX (-lto -ptx) of LTO-IR alone.
  try {
    linkLtoIrToPtx(
        {{CU_JIT_INPUT_NVVM, "kernel.ltoir", "LTO-IR"}, {CU_JIT_INPUT_PTX, "ops.ptx", kTwicePtx}},
        "sm_90");
    FAIL() << "no exception";
  } catch (const std::invalid_argument &error) {
    EXPECT_NE(std::string(error.what()).find("'ops.ptx' is not LTO-IR"), std::string::npos)
        << error.what();
  }
}

TEST_F(NvJitLinkTest, InputThatIsNotLtoIrIsALinkErrorNamingIt) {
  try {
    linkLtoIrToPtx({{CU_JIT_INPUT_NVVM, "bogus.ltoir", "not LTO-IR at all"}}, "sm_90");
    FAIL() << "no exception";
  } catch (const LinkError &error) {
    EXPECT_NE(std::string(error.what()).find("bogus.ltoir"), std::string::npos) << error.what();
  }
}

TEST(NvJitLinkInputsTest, AMalformedArchitectureIsRefusedBeforeLoadingIt) {
  // nvJitLink itself would end the process on sm_1.
  for (const char *arch : {"sm_1", "compute_90", "90", ""})
    EXPECT_THROW(linkWithNvJitLink({{CU_JIT_INPUT_PTX, "caller.ptx", kCallerPtx}}, arch),
                 std::invalid_argument)
        << arch;
}

TEST_F(NvJitLinkTest, AnArchitectureItDoesNotKnowIsALinkError) {
  try {
    linkWithNvJitLink({{CU_JIT_INPUT_PTX, "caller.ptx", kCallerPtx}}, "sm_95");
    FAIL() << "no exception";
  } catch (const LinkError &error) {
    EXPECT_NE(std::string(error.what()).find("NVJITLINK_ERROR_UNRECOGNIZED_ARCH"),
              std::string::npos)
        << error.what();
  }
}

} // namespace
