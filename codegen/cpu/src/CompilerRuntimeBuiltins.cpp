#include "CompilerRuntimeBuiltins.h"

#include "CpuMatrixFragments.h"

#include <bit>
#include <cmath>
#include <cstring>

// libgcc's, linked statically into libkaji.
extern "C" {
__int128 __divti3(__int128, __int128);
__int128 __modti3(__int128, __int128);
unsigned __int128 __udivti3(unsigned __int128, unsigned __int128);
unsigned __int128 __umodti3(unsigned __int128, unsigned __int128);
float __powisf2(float, int);
double __powidf2(double, int);
}

namespace kaji::codegen {

namespace {

// A binary floating-point format of 16 bits: a sign, `exponentBits` and `fractionBits`.
struct NarrowFormat {
  int exponentBits;
  int fractionBits;
};

constexpr NarrowFormat binary16{5, 10};
constexpr NarrowFormat bfloat16{8, 7};

// `value` rounded to nearest even in `format`; a NaN stays a NaN, quiet, with the top of its
// payload.
uint16_t narrowFromDouble(double value, NarrowFormat format) {
  const int fraction = format.fractionBits;
  const int bias = (1 << (format.exponentBits - 1)) - 1;
  const int minNormalExponent = 1 - bias;
  const uint64_t infinity = uint64_t((1 << format.exponentBits) - 1) << fraction;
  const uint64_t bits = std::bit_cast<uint64_t>(value);
  const auto sign = uint16_t((bits >> 48) & 0x8000);
  const uint64_t magnitude = bits & 0x7fff'ffff'ffff'ffffull;
  constexpr uint64_t doubleInfinity = 0x7ff0'0000'0000'0000ull;
  const int droppedFractionBits = 52 - fraction;
  if (magnitude >= doubleInfinity) {
    if (magnitude == doubleInfinity)
      return sign | uint16_t(infinity);
    const uint64_t quietBit = 1ull << (fraction - 1);
    const uint64_t payload = (magnitude >> droppedFractionBits) & ((1ull << fraction) - 1);
    return sign | uint16_t(infinity | quietBit | payload);
  }
  const int exponent = int(magnitude >> 52) - 1023;
  if (exponent < minNormalExponent - fraction - 1)
    return sign; // below half the smallest subnormal: rounds to zero
  if (exponent > bias)
    return sign | uint16_t(infinity);
  const uint64_t significand = (magnitude & ((1ull << 52) - 1)) | (1ull << 52);
  // Keep fraction + 1 significant bits for normal results and fewer for subnormal ones; a
  // carry out of the kept bits moves into the exponent field, which is exactly what the
  // encoding wants.
  const int scale = exponent < minNormalExponent ? minNormalExponent : exponent;
  const int dropped = droppedFractionBits + (scale - exponent);
  uint64_t kept = significand >> dropped;
  const uint64_t remainder = significand & ((1ull << dropped) - 1);
  const uint64_t halfway = 1ull << (dropped - 1);
  if (remainder > halfway || (remainder == halfway && (kept & 1)))
    ++kept;
  const uint64_t encoded = (uint64_t(scale - minNormalExponent) << fraction) + kept;
  return sign | uint16_t(encoded >= infinity ? infinity : encoded);
}

} // namespace

uint16_t halfFromDouble(double value) { return narrowFromDouble(value, binary16); }

uint16_t bfloat16FromDouble(double value) { return narrowFromDouble(value, bfloat16); }

double doubleFromHalf(uint16_t half) {
  const bool negative = half & 0x8000;
  const unsigned exponent = (half >> 10) & 0x1f;
  const unsigned fraction = half & 0x3ff;
  if (exponent == 0x1f) {
    const uint64_t bits =
        (uint64_t(negative) << 63) | 0x7ff0'0000'0000'0000ull | (uint64_t(fraction) << 42);
    return std::bit_cast<double>(bits);
  }
  const double magnitude = exponent == 0 ? std::ldexp(double(fraction), -24)
                                         : std::ldexp(double(fraction | 0x400), int(exponent) - 25);
  return negative ? -magnitude : magnitude;
}

namespace {

// LLVM passes and returns `half` and `bfloat` in SSE registers, as GCC does _Float16; moving
// the bits in and out with memcpy keeps the compiler from calling the very helpers defined
// here. GCC 12 has no __bf16, so _Float16 carries bfloat16's bits too: the same register,
// the same 16 bits.
_Float16 asFloat16(uint16_t bits) {
  _Float16 half;
  std::memcpy(&half, &bits, sizeof half);
  return half;
}

uint16_t bitsOf(_Float16 half) {
  uint16_t bits;
  std::memcpy(&bits, &half, sizeof bits);
  return bits;
}

_Float16 truncateDoubleToHalf(double value) { return asFloat16(halfFromDouble(value)); }
_Float16 truncateFloatToHalf(float value) { return asFloat16(halfFromDouble(value)); }
float extendHalfToFloat(_Float16 half) { return float(doubleFromHalf(bitsOf(half))); }
double extendHalfToDouble(_Float16 half) { return doubleFromHalf(bitsOf(half)); }
// LLVM widens bfloat16 by a shift; only narrowing is a call.
_Float16 truncateDoubleToBfloat16(double value) { return asFloat16(bfloat16FromDouble(value)); }
_Float16 truncateFloatToBfloat16(float value) { return asFloat16(bfloat16FromDouble(value)); }

} // namespace

const std::vector<RuntimeBuiltin> &compilerRuntimeBuiltins() {
  static const std::vector<RuntimeBuiltin> builtins = {
      {"__truncdfhf2", reinterpret_cast<const void *>(&truncateDoubleToHalf)},
      {"__truncsfhf2", reinterpret_cast<const void *>(&truncateFloatToHalf)},
      {"__extendhfsf2", reinterpret_cast<const void *>(&extendHalfToFloat)},
      {"__extendhfdf2", reinterpret_cast<const void *>(&extendHalfToDouble)},
      {"__truncdfbf2", reinterpret_cast<const void *>(&truncateDoubleToBfloat16)},
      {"__truncsfbf2", reinterpret_cast<const void *>(&truncateFloatToBfloat16)},
      {"__divti3", reinterpret_cast<const void *>(&__divti3)},
      {"__modti3", reinterpret_cast<const void *>(&__modti3)},
      {"__udivti3", reinterpret_cast<const void *>(&__udivti3)},
      {"__umodti3", reinterpret_cast<const void *>(&__umodti3)},
      {"__powisf2", reinterpret_cast<const void *>(&__powisf2)},
      {"__powidf2", reinterpret_cast<const void *>(&__powidf2)},
      {kFragmentLoadHelper, reinterpret_cast<const void *>(&kaji_fragment_load)},
      {kFragmentStoreHelper, reinterpret_cast<const void *>(&kaji_fragment_store)},
      {kFragmentMmaHelper, reinterpret_cast<const void *>(&kaji_fragment_mma)},
      {kWarpgroupMmaHelper, reinterpret_cast<const void *>(&kaji_warpgroup_mma)},
  };
  return builtins;
}

} // namespace kaji::codegen
