#pragma once

#include "kaji/runtime/Driver.h"

#include <gtest/gtest.h>

// Tests that need a real driver and device: skipped, with the reason, where there is none.
class GpuTest : public testing::Test {
protected:
  void SetUp() override {
    if (!kaji::runtime::Driver::available())
      GTEST_SKIP() << kaji::runtime::Driver::unavailableReason();
  }
};
