#include "kaji/runtime/MemoryLimit.h"
#include "kaji/runtime/Error.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

using namespace kaji::runtime;

namespace {

TEST(ParseByteSizeTest, PlainBytesAndBinarySuffixes) {
  EXPECT_EQ(parseByteSize("0"), 0u);
  EXPECT_EQ(parseByteSize("1048576"), 1048576u);
  EXPECT_EQ(parseByteSize("512MiB"), 512u << 20);
  EXPECT_EQ(parseByteSize("4 GiB"), std::size_t(4) << 30);
  EXPECT_EQ(parseByteSize("1.5GiB"), std::size_t(3) << 29);
  EXPECT_EQ(parseByteSize("2K"), 2048u);
  EXPECT_EQ(parseByteSize("3T"), std::size_t(3) << 40);
  EXPECT_EQ(parseByteSize("100B"), 100u);
}

TEST(ParseByteSizeTest, RefusesWhatIsNotASize) {
  for (const char *bad : {"", "GiB", "-1", "1.2.3", "12 apples", "4GB", "1e9", "."})
    EXPECT_THROW(parseByteSize(bad), std::invalid_argument) << bad;
  EXPECT_THROW(parseByteSize("20000000TiB"), std::invalid_argument);
}

TEST(DescribeBytesTest, ExactCountAndReadableUnit) {
  EXPECT_EQ(describeBytes(12), "12 bytes");
  EXPECT_EQ(describeBytes(1536), "1536 bytes (1.5 KiB)");
  EXPECT_EQ(describeBytes(std::size_t(1) << 50), "1125899906842624 bytes (1.0 PiB)");
}

class MemoryLimitTest : public testing::Test {
protected:
  void TearDown() override { setMemoryLimit(std::nullopt); }
};

TEST_F(MemoryLimitTest, ReservationsCountWhileTheyLive) {
  setMemoryLimit(std::nullopt);
  std::size_t before = memoryInUse();
  {
    MemoryReservation first(1000);
    MemoryReservation second(24);
    EXPECT_EQ(memoryInUse(), before + 1024);
    MemoryReservation moved = std::move(first);
    EXPECT_EQ(moved.bytes(), 1000u);
    EXPECT_EQ(memoryInUse(), before + 1024);
  }
  EXPECT_EQ(memoryInUse(), before);
}

TEST_F(MemoryLimitTest, PassingTheLimitIsOutOfMemoryNamingIt) {
  setMemoryLimit(memoryInUse() + 4096);
  EXPECT_EQ(memoryLimit(), memoryInUse() + 4096);
  MemoryReservation fits(4000);
  try {
    MemoryReservation tooMuch(100);
    FAIL() << "a reservation past the limit succeeded";
  } catch (const OutOfMemory &error) {
    std::string message = error.what();
    EXPECT_NE(message.find("cannot allocate 100 bytes"), std::string::npos) << message;
    EXPECT_NE(message.find("memory limit is"), std::string::npos) << message;
  }
  MemoryReservation stillFits(96);
  EXPECT_THROW(MemoryReservation(1), OutOfMemory);
  setMemoryLimit(std::nullopt);
  EXPECT_EQ(memoryLimit(), std::nullopt);
  MemoryReservation unlimited(std::size_t(1) << 40);
}

TEST_F(MemoryLimitTest, AHugeRequestDoesNotWrapAround) {
  setMemoryLimit(std::size_t(1) << 20);
  EXPECT_THROW(MemoryReservation(~std::size_t(0)), OutOfMemory);
}

} // namespace
