#include "kaji/runtime/CpuWorkers.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace kaji::runtime {
namespace {

TEST(CpuWorkers, SettingIsAWholeNumberInRange) {
  EXPECT_EQ(parseCpuWorkers("1"), 1u);
  EXPECT_EQ(parseCpuWorkers("16"), 16u);
  EXPECT_EQ(parseCpuWorkers(std::to_string(kMaxCpuWorkers)), kMaxCpuWorkers);
  for (const char *refused :
       {"0", "-2", "two", "4 ", " 4", "2.5", "", "4097", "99999999999999999999"})
    EXPECT_THROW(parseCpuWorkers(refused), std::invalid_argument) << refused;
}

TEST(CpuWorkers, RefusalNamesTheVariableAndValue) {
  try {
    parseCpuWorkers("lots");
    FAIL() << "parseCpuWorkers accepted 'lots'";
  } catch (const std::invalid_argument &error) {
    EXPECT_NE(std::string(error.what()).find("KAJI_CPU_THREADS='lots'"), std::string::npos)
        << error.what();
  }
}

TEST(CpuWorkers, CgroupQuotaRoundsUpToWholeCpus) {
  EXPECT_EQ(cpuMaxQuota("200000 100000"), 2u);
  EXPECT_EQ(cpuMaxQuota("150000 100000"), 2u);
  EXPECT_EQ(cpuMaxQuota("50000 100000"), 1u);
  EXPECT_EQ(cpuMaxQuota("max 100000"), std::nullopt);
  EXPECT_EQ(cpuMaxQuota("100000 0"), std::nullopt);
  EXPECT_EQ(cpuMaxQuota("garbage"), std::nullopt);
}

TEST(CpuWorkers, AvailableCpusIsAtLeastOne) { EXPECT_GE(availableCpus(), 1u); }

} // namespace
} // namespace kaji::runtime
