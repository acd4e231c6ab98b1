// The narrowing conversions the host JIT offers LLVM (float16 and bfloat16), checked at every
// rounding boundary of both formats against a reference that needs no rounding of its own,
// and called through the addresses the JIT registers, with LLVM's calling convention.
#include "CompilerRuntimeBuiltins.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>

using namespace kaji::codegen;

namespace {

struct Format {
  const char *name;
  uint16_t (*narrow)(double);
  double (*widen)(uint16_t); // exact: every value of the format is a double
  uint16_t largestFinite;
  uint16_t quietBit;
};

double doubleFromBfloat16(uint16_t bits) {
  return double(std::bit_cast<float>(uint32_t(bits) << 16));
}

const Format formats[] = {
    {"float16", &halfFromDouble, &doubleFromHalf, 0x7bff, 0x0200},
    {"bfloat16", &bfloat16FromDouble, &doubleFromBfloat16, 0x7f7f, 0x0040},
};

std::string hex(uint16_t bits) {
  char text[8];
  std::snprintf(text, sizeof text, "0x%04x", bits);
  return text;
}

// Every pair of neighbours b, b + 1 (b + 1 may be infinity): the midpoint between them is
// exact in double (it has a few more significant bits than the format), so it is the
// rounding boundary itself. Below it rounds to b, above it to b + 1, on it to the even one;
// the same negated.
TEST(CompilerRuntimeBuiltins, RoundsToNearestEvenAtEveryBoundary) {
  for (const Format &format : formats) {
    for (uint32_t below = 0; below <= format.largestFinite; ++below) {
      const auto above = uint16_t(below + 1);
      const double low = format.widen(uint16_t(below));
      // Past the largest finite value, infinity's boundary is where the next binade's first
      // value would sit: the largest value plus half its spacing.
      const double high = above > format.largestFinite
                              ? low + (low - format.widen(uint16_t(below - 1)))
                              : format.widen(above);
      const double midpoint = (low + high) / 2;
      const uint16_t even = below % 2 == 0 ? uint16_t(below) : above;
      for (uint16_t sign : {uint16_t(0), uint16_t(0x8000)}) {
        const double s = sign ? -1.0 : 1.0;
        SCOPED_TRACE(std::string(format.name) + " between " + hex(uint16_t(below | sign)) +
                     " and " + hex(uint16_t(above | sign)));
        EXPECT_EQ(format.narrow(s * low), below | sign);
        EXPECT_EQ(format.narrow(s * std::nextafter(midpoint, low)), below | sign);
        EXPECT_EQ(format.narrow(s * midpoint), even | sign);
        EXPECT_EQ(format.narrow(s * std::nextafter(midpoint, 2 * high)), above | sign);
      }
    }
  }
}

TEST(CompilerRuntimeBuiltins, SpecialValues) {
  constexpr double infinity = std::numeric_limits<double>::infinity();
  for (const Format &format : formats) {
    SCOPED_TRACE(format.name);
    const auto formatInfinity = uint16_t(format.largestFinite + 1);
    EXPECT_EQ(format.narrow(0.0), 0x0000);
    EXPECT_EQ(format.narrow(-0.0), 0x8000);
    EXPECT_EQ(format.narrow(infinity), formatInfinity);
    EXPECT_EQ(format.narrow(-infinity), formatInfinity | 0x8000);
    EXPECT_EQ(format.narrow(std::numeric_limits<double>::max()), formatInfinity);
    EXPECT_EQ(format.narrow(std::numeric_limits<double>::denorm_min()), 0x0000);
    EXPECT_EQ(format.narrow(-std::numeric_limits<double>::denorm_min()), 0x8000);
    // The smallest subnormal, half of it (a tie, to even: zero) and just above that.
    const double smallest = format.widen(1);
    EXPECT_EQ(format.narrow(smallest), 0x0001);
    EXPECT_EQ(format.narrow(smallest / 2), 0x0000);
    EXPECT_EQ(format.narrow(std::nextafter(smallest / 2, 1.0)), 0x0001);
    EXPECT_EQ(format.narrow(smallest * 1.5), 0x0002); // a tie, to even
  }
}

TEST(CompilerRuntimeBuiltins, NaNStaysQuietNaNWithSignAndPayloadTop) {
  for (const Format &format : formats) {
    SCOPED_TRACE(format.name);
    const auto formatInfinity = uint16_t(format.largestFinite + 1);
    const auto quietNaN = uint16_t(formatInfinity | format.quietBit);
    EXPECT_EQ(format.narrow(std::numeric_limits<double>::quiet_NaN()), quietNaN);
    EXPECT_EQ(format.narrow(-std::numeric_limits<double>::quiet_NaN()), quietNaN | 0x8000);
    // A payload only in bits the format drops is still a NaN, never infinity.
    EXPECT_EQ(format.narrow(std::bit_cast<double>(0x7ff0'0000'0000'0001ull)), quietNaN);
    // The payload's top bits are kept: here the bit below the quiet bit.
    EXPECT_EQ(format.narrow(std::bit_cast<double>(0x7ff4'0000'0000'0000ull)),
              quietNaN | (format.quietBit >> 1));
  }
}

// The helpers as LLVM calls them: arguments and results in SSE registers, the 16-bit result
// in the low bits (GCC's _Float16 convention, which LLVM's bfloat shares on x86-64).
template <typename Argument> uint16_t callHelper(const char *name, Argument argument) {
  for (const RuntimeBuiltin &builtin : compilerRuntimeBuiltins())
    if (builtin.name == name) {
      auto helper = reinterpret_cast<_Float16 (*)(Argument)>(const_cast<void *>(builtin.address));
      _Float16 result = helper(argument);
      uint16_t bits;
      std::memcpy(&bits, &result, sizeof bits);
      return bits;
    }
  ADD_FAILURE() << name << " is not offered to the host JIT";
  return 0;
}

TEST(CompilerRuntimeBuiltins, Bfloat16HelpersAreRegistered) {
  EXPECT_EQ(callHelper("__truncsfbf2", 1.0f), 0x3f80);
  EXPECT_EQ(callHelper("__truncsfbf2", -2.0f), 0xc000);
  // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: to even, 1.
  EXPECT_EQ(callHelper("__truncsfbf2", 1.0f + 0x1p-8f), 0x3f80);
  EXPECT_EQ(callHelper("__truncsfbf2", std::nextafter(1.0f + 0x1p-8f, 2.0f)), 0x3f81);
  EXPECT_EQ(callHelper("__truncsfbf2", std::numeric_limits<float>::max()), 0x7f80);
  EXPECT_EQ(callHelper("__truncsfbf2", std::numeric_limits<float>::denorm_min()), 0x0000);
  EXPECT_EQ(callHelper("__truncsfbf2", std::bit_cast<float>(0x7f80'0001u)), 0x7fc0);
  EXPECT_EQ(callHelper("__truncdfbf2", 1.0), 0x3f80);
  // Rounded once from double: through float, 1 + 2^-8 + 2^-30 would become the tie 1 + 2^-8
  // and round down.
  EXPECT_EQ(callHelper("__truncdfbf2", 1.0 + 0x1p-8 + 0x1p-30), 0x3f81);
  EXPECT_EQ(callHelper("__truncdfbf2", 1e300), 0x7f80);
  EXPECT_EQ(callHelper("__truncdfbf2", -1e-300), 0x8000);
  EXPECT_EQ(callHelper("__truncdfhf2", 65520.0), 0x7c00);
  EXPECT_EQ(callHelper("__truncsfhf2", 1.0f), 0x3c00);
}

} // namespace
