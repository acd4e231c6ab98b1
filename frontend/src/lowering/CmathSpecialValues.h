// What CPython's cmath functions return when a part of the argument is infinite or nan: C99
// Annex G's values, as CPython's special-value tables hold them (including the cases where
// CPython raises ValueError, whose table value a kernel returns instead). ComplexArithmetic
// looks an entry up in kaji IR (specialValue); the tables are data only.
#pragma once

#include <array>
#include <cstdint>

namespace kaji::frontend::cmath_special {

// A part's class, the row (real part) and column (imaginary part) of a table, in CPython's
// order.
enum PartClass : uint8_t {
  kNegativeInfinity,
  kNegative, // finite, nonzero
  kNegativeZero,
  kPositiveZero,
  kPositive, // finite, nonzero
  kPositiveInfinity,
  kNaN,
  kPartClasses
};

// A part of a table entry: one of eight magnitudes (low three bits) and a sign (bit 3).
enum Magnitude : uint8_t {
  kZero,
  kQuarterPi,
  kHalfPi,
  kThreeQuarterPi,
  kPi,
  kInf,
  kNaNValue,
  kOne
};
constexpr uint8_t kNegativeSign = 8;
constexpr unsigned kPartBits = 4;

struct Entry {
  uint8_t real, imag;
};

// How entries whose real part is infinite and imaginary part finite and nonzero are finished:
// for the functions whose imaginary part is an angle (exp, cosh, sinh, tanh, rect) each part of
// the table's entry takes the sign of a trigonometric function of it, as CPython computes.
enum class AngleSigns : uint8_t {
  None,
  CosSin,    // real part times the sign of cos(y), imaginary part of sin(y)
  OneSinCos, // real part as it is, imaginary part times the sign of sin(y) cos(y)
};

// A function's 7x7 table packed one row per word: entry c of a row in bits [8c, 8c + 8), its
// real part in the low four bits.
struct Table {
  std::array<uint64_t, kPartClasses> rows;
  AngleSigns angleSigns;
};

namespace entries {
constexpr uint8_t Z = kZero, NZ = kZero | kNegativeSign;
constexpr uint8_t Q = kQuarterPi, NQ = kQuarterPi | kNegativeSign;
constexpr uint8_t H = kHalfPi, NH = kHalfPi | kNegativeSign;
constexpr uint8_t T = kThreeQuarterPi, NT = kThreeQuarterPi | kNegativeSign;
constexpr uint8_t P = kPi, NP = kPi | kNegativeSign;
constexpr uint8_t I = kInf, NI = kInf | kNegativeSign;
constexpr uint8_t N = kNaNValue;
constexpr uint8_t O = kOne, NO = kOne | kNegativeSign;
// Both parts finite: never looked up (the function's formula computes it).
constexpr Entry U{N, N};
} // namespace entries

constexpr Table pack(const Entry (&rows)[kPartClasses][kPartClasses],
                     AngleSigns angleSigns = AngleSigns::None) {
  Table table{{}, angleSigns};
  for (unsigned row = 0; row < kPartClasses; ++row)
    for (unsigned column = 0; column < kPartClasses; ++column)
      table.rows[row] |= uint64_t(rows[row][column].real | rows[row][column].imag << kPartBits)
                         << (2 * kPartBits * column);
  return table;
}

// Rows: the real part's class; columns: the imaginary part's, both in PartClass order
// (-inf, -x, -0, +0, +x, +inf, nan). Values as CPython 3.11-3.13 (CPython 3.14 changed
// acosh(+-0+nanj) to nan+pi/2j and tanh(+-0+infj), tanh(+-0+nanj) to +-0+nanj).
using namespace entries;

constexpr Table kSqrt = pack({
    {{I, NI}, {Z, NI}, {Z, NI}, {Z, I}, {Z, I}, {I, I}, {N, I}},
    {{I, NI}, U, U, U, U, {I, I}, {N, N}},
    {{I, NI}, U, {Z, NZ}, {Z, Z}, U, {I, I}, {N, N}},
    {{I, NI}, U, {Z, NZ}, {Z, Z}, U, {I, I}, {N, N}},
    {{I, NI}, U, U, U, U, {I, I}, {N, N}},
    {{I, NI}, {I, NZ}, {I, NZ}, {I, Z}, {I, Z}, {I, I}, {I, N}},
    {{I, NI}, {N, N}, {N, N}, {N, N}, {N, N}, {I, I}, {N, N}},
});

// Entries in rows +-inf, columns -x and +x are finished by AngleSigns.
constexpr Table kExp = pack(
    {
        {{Z, Z}, {Z, Z}, {Z, NZ}, {Z, Z}, {Z, Z}, {Z, Z}, {Z, Z}},
        {{N, N}, U, U, U, U, {N, N}, {N, N}},
        {{N, N}, U, {O, NZ}, {O, Z}, U, {N, N}, {N, N}},
        {{N, N}, U, {O, NZ}, {O, Z}, U, {N, N}, {N, N}},
        {{N, N}, U, U, U, U, {N, N}, {N, N}},
        {{I, N}, {I, I}, {I, NZ}, {I, Z}, {I, I}, {I, N}, {I, N}},
        {{N, N}, {N, N}, {N, NZ}, {N, Z}, {N, N}, {N, N}, {N, N}},
    },
    AngleSigns::CosSin);

constexpr Table kLog = pack({
    {{I, NT}, {I, NP}, {I, NP}, {I, P}, {I, P}, {I, T}, {I, N}},
    {{I, NH}, U, U, U, U, {I, H}, {N, N}},
    {{I, NH}, U, {NI, NP}, {NI, P}, U, {I, H}, {N, N}},
    {{I, NH}, U, {NI, NZ}, {NI, Z}, U, {I, H}, {N, N}},
    {{I, NH}, U, U, U, U, {I, H}, {N, N}},
    {{I, NQ}, {I, NZ}, {I, NZ}, {I, Z}, {I, Z}, {I, Q}, {I, N}},
    {{I, N}, {N, N}, {N, N}, {N, N}, {N, N}, {I, N}, {N, N}},
});

constexpr Table kCosh = pack(
    {
        {{I, N}, {I, NI}, {I, Z}, {I, NZ}, {I, NI}, {I, N}, {I, N}},
        {{N, N}, U, U, U, U, {N, N}, {N, N}},
        {{N, Z}, U, {O, Z}, {O, NZ}, U, {N, Z}, {N, Z}},
        {{N, Z}, U, {O, NZ}, {O, Z}, U, {N, Z}, {N, Z}},
        {{N, N}, U, U, U, U, {N, N}, {N, N}},
        {{I, N}, {I, I}, {I, NZ}, {I, Z}, {I, I}, {I, N}, {I, N}},
        {{N, N}, {N, N}, {N, Z}, {N, Z}, {N, N}, {N, N}, {N, N}},
    },
    AngleSigns::CosSin);

constexpr Table kSinh = pack(
    {
        {{I, N}, {NI, I}, {NI, NZ}, {NI, Z}, {NI, I}, {I, N}, {I, N}},
        {{N, N}, U, U, U, U, {N, N}, {N, N}},
        {{Z, N}, U, {NZ, NZ}, {NZ, Z}, U, {Z, N}, {Z, N}},
        {{Z, N}, U, {Z, NZ}, {Z, Z}, U, {Z, N}, {Z, N}},
        {{N, N}, U, U, U, U, {N, N}, {N, N}},
        {{I, N}, {I, I}, {I, NZ}, {I, Z}, {I, I}, {I, N}, {I, N}},
        {{N, N}, {N, N}, {N, NZ}, {N, Z}, {N, N}, {N, N}, {N, N}},
    },
    AngleSigns::CosSin);

constexpr Table kTanh = pack(
    {
        {{NO, Z}, {NO, Z}, {NO, NZ}, {NO, Z}, {NO, Z}, {NO, Z}, {NO, Z}},
        {{N, N}, U, U, U, U, {N, N}, {N, N}},
        {{N, N}, U, {NZ, NZ}, {NZ, Z}, U, {N, N}, {N, N}},
        {{N, N}, U, {Z, NZ}, {Z, Z}, U, {N, N}, {N, N}},
        {{N, N}, U, U, U, U, {N, N}, {N, N}},
        {{O, Z}, {O, Z}, {O, NZ}, {O, Z}, {O, Z}, {O, Z}, {O, Z}},
        {{N, N}, {N, N}, {N, NZ}, {N, Z}, {N, N}, {N, N}, {N, N}},
    },
    AngleSigns::OneSinCos);

constexpr Table kAsinh = pack({
    {{NI, NQ}, {NI, NZ}, {NI, NZ}, {NI, Z}, {NI, Z}, {NI, Q}, {NI, N}},
    {{NI, NH}, U, U, U, U, {NI, H}, {N, N}},
    {{NI, NH}, U, {NZ, NZ}, {NZ, Z}, U, {NI, H}, {N, N}},
    {{I, NH}, U, {Z, NZ}, {Z, Z}, U, {I, H}, {N, N}},
    {{I, NH}, U, U, U, U, {I, H}, {N, N}},
    {{I, NQ}, {I, NZ}, {I, NZ}, {I, Z}, {I, Z}, {I, Q}, {I, N}},
    {{I, N}, {N, N}, {N, NZ}, {N, Z}, {N, N}, {I, N}, {N, N}},
});

constexpr Table kAcos = pack({
    {{T, I}, {P, I}, {P, I}, {P, NI}, {P, NI}, {T, NI}, {N, I}},
    {{H, I}, U, U, U, U, {H, NI}, {N, N}},
    {{H, I}, U, {H, Z}, {H, NZ}, U, {H, NI}, {H, N}},
    {{H, I}, U, {H, Z}, {H, NZ}, U, {H, NI}, {H, N}},
    {{H, I}, U, U, U, U, {H, NI}, {N, N}},
    {{Q, I}, {Z, I}, {Z, I}, {Z, NI}, {Z, NI}, {Q, NI}, {N, I}},
    {{N, I}, {N, N}, {N, N}, {N, N}, {N, N}, {N, NI}, {N, N}},
});

constexpr Table kAcosh = pack({
    {{I, NT}, {I, NP}, {I, NP}, {I, P}, {I, P}, {I, T}, {I, N}},
    {{I, NH}, U, U, U, U, {I, H}, {N, N}},
    {{I, NH}, U, {Z, NH}, {Z, H}, U, {I, H}, {N, N}},
    {{I, NH}, U, {Z, NH}, {Z, H}, U, {I, H}, {N, N}},
    {{I, NH}, U, U, U, U, {I, H}, {N, N}},
    {{I, NQ}, {I, NZ}, {I, NZ}, {I, Z}, {I, Z}, {I, Q}, {I, N}},
    {{I, N}, {N, N}, {N, N}, {N, N}, {N, N}, {I, N}, {N, N}},
});

constexpr Table kAtanh = pack({
    {{NZ, NH}, {NZ, NH}, {NZ, NH}, {NZ, H}, {NZ, H}, {NZ, H}, {NZ, N}},
    {{NZ, NH}, U, U, U, U, {NZ, H}, {N, N}},
    {{NZ, NH}, U, {NZ, NZ}, {NZ, Z}, U, {NZ, H}, {NZ, N}},
    {{Z, NH}, U, {Z, NZ}, {Z, Z}, U, {Z, H}, {Z, N}},
    {{Z, NH}, U, U, U, U, {Z, H}, {N, N}},
    {{Z, NH}, {Z, NH}, {Z, NH}, {Z, H}, {Z, H}, {Z, H}, {Z, N}},
    {{Z, NH}, {N, N}, {N, N}, {N, N}, {N, N}, {Z, H}, {N, N}},
});

// rect(r, phi): rows r's class, columns phi's.
constexpr Table kRect = pack(
    {
        {{I, N}, {NI, NI}, {NI, Z}, {NI, NZ}, {NI, NI}, {I, N}, {I, N}},
        {{N, N}, U, U, U, U, {N, N}, {N, N}},
        {{Z, Z}, U, {NZ, Z}, {NZ, NZ}, U, {Z, Z}, {Z, Z}},
        {{Z, Z}, U, {Z, NZ}, {Z, Z}, U, {Z, Z}, {Z, Z}},
        {{N, N}, U, U, U, U, {N, N}, {N, N}},
        {{I, N}, {I, I}, {I, NZ}, {I, Z}, {I, I}, {I, N}, {I, N}},
        {{N, N}, {N, N}, {N, Z}, {N, Z}, {N, N}, {N, N}, {N, N}},
    },
    AngleSigns::CosSin);

} // namespace kaji::frontend::cmath_special
