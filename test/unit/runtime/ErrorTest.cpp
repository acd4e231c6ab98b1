#include "kaji/runtime/Error.h"

#include <gtest/gtest.h>

using namespace kaji::runtime;

namespace {

TEST(ErrorTest, NamesResultsAsCudaHeaderDoes) {
  EXPECT_EQ(cudaErrorName(0), "CUDA_SUCCESS");
  EXPECT_EQ(cudaErrorName(34), "CUDA_ERROR_STUB_LIBRARY");
  EXPECT_EQ(cudaErrorName(100), "CUDA_ERROR_NO_DEVICE");
  EXPECT_EQ(cudaErrorName(218), "CUDA_ERROR_INVALID_PTX");
  EXPECT_EQ(cudaErrorName(999), "CUDA_ERROR_UNKNOWN");
}

TEST(ErrorTest, UnknownResultIsNamedByItsCode) {
  EXPECT_EQ(cudaErrorName(12345), "CUresult 12345");
  EXPECT_EQ(cudaErrorName(-1), "CUresult -1");
}

TEST(ErrorTest, MessageNamesCallErrorAndDescription) {
  CudaError error("cuModuleLoadDataEx", 218, "CUDA_ERROR_INVALID_PTX",
                  "a PTX JIT compilation failed");
  EXPECT_STREQ(error.what(),
               "cuModuleLoadDataEx failed: CUDA_ERROR_INVALID_PTX (a PTX JIT compilation failed)");
  EXPECT_EQ(error.call(), "cuModuleLoadDataEx");
  EXPECT_EQ(error.code(), 218);
  EXPECT_EQ(error.errorName(), "CUDA_ERROR_INVALID_PTX");
  EXPECT_EQ(error.description(), "a PTX JIT compilation failed");
  EXPECT_EQ(error.detail(), "");
}

TEST(ErrorTest, DetailFollowsOnItsOwnLines) {
  CudaError error("cuModuleLoadDataEx", 218, "CUDA_ERROR_INVALID_PTX",
                  "a PTX JIT compilation failed", "PTX JIT error log:\nline 6; error");
  EXPECT_STREQ(error.what(), "cuModuleLoadDataEx failed: CUDA_ERROR_INVALID_PTX (a PTX JIT "
                             "compilation failed)\nPTX JIT error log:\nline 6; error");
}

TEST(ErrorTest, MissingDescriptionLeavesNoEmptyParentheses) {
  EXPECT_EQ(formatCudaFailure("cuInit", "CUDA_ERROR_STUB_LIBRARY", ""),
            "cuInit failed: CUDA_ERROR_STUB_LIBRARY");
}

} // namespace
