// The CUDA C++ backend's integer arithmetic (kaji_prelude.cuh, compiled here for the host)
// against Python's rules computed in 128-bit integers: exhaustively on 8-bit operands, on
// edge values and a pseudo-random sample for the wider types.
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#define __device__
#define __forceinline__ inline
#include "kaji_prelude.cuh"
#undef __device__
#undef __forceinline__

#include <gtest/gtest.h>

namespace {

using Wide = __int128;

// Products of two 64-bit operands can pass the signed 128-bit range (uint64 max squared):
// multiplying unsigned keeps the low bits, which are all wrap() looks at.
Wide wrappingMul(Wide a, Wide b) {
  return Wide(static_cast<unsigned __int128>(a) * static_cast<unsigned __int128>(b));
}

template <class T> T wrap(Wide value) {
  using U = typename kaji::same_unsigned<T>::type;
  return T(U(static_cast<unsigned __int128>(value)));
}

Wide floorDiv(Wide a, Wide b) {
  Wide q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

template <class T> T referenceDiv(T a, T b) { return b == 0 ? T(0) : wrap<T>(Wide(a) / Wide(b)); }
template <class T> T referenceFloorDiv(T a, T b) {
  return b == 0 ? T(0) : wrap<T>(floorDiv(Wide(a), Wide(b)));
}
template <class T> T referenceMod(T a, T b) {
  return b == 0 ? T(0) : wrap<T>(Wide(a) - Wide(b) * floorDiv(Wide(a), Wide(b)));
}
template <class T> T referenceShl(T a, T amount) {
  using U = typename kaji::same_unsigned<T>::type;
  unsigned width = sizeof(T) * 8;
  return U(amount) >= width ? T(0) : wrap<T>(wrappingMul(Wide(a), Wide(1) << U(amount)));
}
template <class T> T referenceShr(T a, T amount) {
  using U = typename kaji::same_unsigned<T>::type;
  unsigned width = sizeof(T) * 8;
  if (U(amount) >= width)
    return a < T(0) ? T(-1) : T(0);
  return wrap<T>(floorDiv(Wide(a), Wide(1) << U(amount)));
}
template <class T> T referencePow(T base, T exponent) {
  if (exponent < T(0))
    return base == T(1) ? T(1) : base == T(-1) ? ((exponent & T(1)) ? T(-1) : T(1)) : T(0);
  T result = 1; // the exponents checked are below 300
  for (uint64_t i = 0; i < uint64_t(exponent); ++i)
    result = wrap<T>(wrappingMul(Wide(result), Wide(base)));
  return result;
}

template <class T> std::vector<T> samples() {
  std::vector<T> values;
  using L = std::numeric_limits<T>;
  for (T v : {T(0), T(1), T(2), T(3), T(7), L::max(), T(L::max() - 1), L::min(), T(L::min() + 1)})
    values.push_back(v);
  if (kaji::is_signed<T>::value)
    for (T v : {T(-1), T(-2), T(-3), T(-7)})
      values.push_back(v);
  std::mt19937_64 random(12345);
  for (int i = 0; i < 200; ++i)
    values.push_back(T(random()));
  for (int i = 0; i < 40; ++i)
    values.push_back(T(int64_t(random() % 200) - 100));
  return values;
}

template <class T> void checkPairs(const std::vector<T> &lhs, const std::vector<T> &rhs) {
  for (T a : lhs)
    for (T b : rhs) {
      SCOPED_TRACE(testing::Message() << "a=" << int64_t(a) << " b=" << int64_t(b));
      ASSERT_EQ(kaji::add(a, b), wrap<T>(Wide(a) + Wide(b)));
      ASSERT_EQ(kaji::sub(a, b), wrap<T>(Wide(a) - Wide(b)));
      ASSERT_EQ(kaji::mul(a, b), wrap<T>(wrappingMul(Wide(a), Wide(b))));
      ASSERT_EQ(kaji::div(a, b), referenceDiv(a, b));
      ASSERT_EQ(kaji::floordiv(a, b), referenceFloorDiv(a, b));
      ASSERT_EQ(kaji::mod(a, b), referenceMod(a, b));
      ASSERT_EQ(kaji::shl(a, b), referenceShl(a, b));
      ASSERT_EQ(kaji::shr(a, b), referenceShr(a, b));
      if (uint64_t(b) < 300 || b < T(0)) {
        ASSERT_EQ(kaji::pow(a, b), referencePow(a, b));
      }
    }
}

template <class T> void checkExhaustive() {
  std::vector<T> all;
  for (int v = std::numeric_limits<T>::min(); v <= std::numeric_limits<T>::max(); ++v)
    all.push_back(T(v));
  checkPairs(all, all);
  for (T a : all) {
    ASSERT_EQ(kaji::neg(a), wrap<T>(-Wide(a)));
    ASSERT_EQ(kaji::abs(a), wrap<T>(a < 0 ? -Wide(a) : Wide(a)));
  }
}

template <class T> void checkSampled() {
  std::vector<T> values = samples<T>();
  checkPairs(values, values);
}

// float → int: truncation toward zero, saturation, NaN → 0.
template <class T, class F> void checkToInt() {
  using L = std::numeric_limits<T>;
  std::vector<F> values{F(0),
                        F(-0.0),
                        F(0.5),
                        F(-0.5),
                        F(1.75),
                        F(-1.75),
                        F(126.9),
                        F(-128.9),
                        F(1e30),
                        F(-1e30),
                        F(L::max()),
                        F(L::min()),
                        std::numeric_limits<F>::infinity(),
                        -std::numeric_limits<F>::infinity()};
  for (F x : values) {
    SCOPED_TRACE(testing::Message() << "x=" << double(x));
    long double truncated = std::trunc((long double)x);
    T expected = truncated <= (long double)L::min()   ? L::min()
                 : truncated >= (long double)L::max() ? L::max()
                                                      : T(truncated);
    ASSERT_EQ((kaji::to_int<T, F>(x)), expected);
  }
  ASSERT_EQ((kaji::to_int<T, F>(std::numeric_limits<F>::quiet_NaN())), T(0));
}

} // namespace

TEST(CudaPreludeArithmetic, Int8Exhaustive) { checkExhaustive<int8_t>(); }
TEST(CudaPreludeArithmetic, UInt8Exhaustive) { checkExhaustive<uint8_t>(); }
TEST(CudaPreludeArithmetic, Int16Sampled) { checkSampled<int16_t>(); }
TEST(CudaPreludeArithmetic, UInt16Sampled) { checkSampled<uint16_t>(); }
TEST(CudaPreludeArithmetic, Int32Sampled) { checkSampled<int32_t>(); }
TEST(CudaPreludeArithmetic, UInt32Sampled) { checkSampled<uint32_t>(); }
TEST(CudaPreludeArithmetic, Int64Sampled) { checkSampled<int64_t>(); }
TEST(CudaPreludeArithmetic, UInt64Sampled) { checkSampled<uint64_t>(); }

TEST(CudaPreludeArithmetic, FloatToIntSaturates) {
  checkToInt<int8_t, float>();
  checkToInt<uint8_t, float>();
  checkToInt<int32_t, float>();
  checkToInt<uint32_t, double>();
  checkToInt<int64_t, double>();
  checkToInt<uint64_t, float>();
  checkToInt<int64_t, float>();
}

TEST(CudaPreludeArithmetic, FloatDivmodFollowsPython) {
  // Python: -7.0 // 2.0 == -4.0, -7.0 % 2.0 == 1.0, 7.0 % -2.0 == -1.0, 0.0 % -3.0 == -0.0.
  for (double a : {-7.0, 7.0, 0.0, -0.0, 5.5, -5.5, 1e300})
    for (double b : {2.0, -2.0, 3.0, -3.0, 0.1, -0.1}) {
      SCOPED_TRACE(testing::Message() << "a=" << a << " b=" << b);
      double q = kaji::float_floordiv(a, b), r = kaji::float_mod(a, b);
      EXPECT_EQ(q, std::floor(q));
      EXPECT_TRUE(r == 0 ? std::signbit(r) == std::signbit(b) : (r < 0) == (b < 0));
      EXPECT_LT(std::fabs(r), std::fabs(b));
      EXPECT_NEAR(q * b + r, a, std::fabs(a) * 1e-15 + 1e-15);
    }
}
