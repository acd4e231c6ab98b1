#pragma once

#include "kaji/runtime/CudaDriver.h"

#include <gtest/gtest.h>

// Tests that need a real driver and device: skipped, with the reason, where there is none.
class GpuTest : public testing::Test {
protected:
  void SetUp() override {
    if (!kaji::runtime::CudaDriver::available())
      GTEST_SKIP() << kaji::runtime::CudaDriver::unavailableReason();
  }
};
