#include "kaji/ir/Builder.h"
#include "kaji/ir/Passes.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace kaji::ir;

namespace {

class Fold : public ::testing::Test {
protected:
  Function function{"f", Function::Kind::Device, {}, Type(), Location{}};
  Builder b{function.entry()};

  Value *constant(ScalarKind k, double v) {
    Type t = Type::scalar(k);
    return t.isFloat() ? b.floatConstant(t, v) : b.intConstant(t, int64_t(v));
  }

  std::optional<Attr> binary(Opcode op, ScalarKind k, int64_t x, int64_t y) {
    Type t = Type::scalar(k);
    return foldOperation(*b.binary(op, b.intConstant(t, x), b.intConstant(t, y))->definingOp());
  }

  std::optional<int64_t> ints(Opcode op, ScalarKind k, int64_t x, int64_t y) {
    auto r = binary(op, k, x, y);
    return r ? std::optional(std::get<int64_t>(*r)) : std::nullopt;
  }

  std::optional<double> floats(Opcode op, ScalarKind k, double x, double y) {
    Type t = Type::scalar(k);
    auto r =
        foldOperation(*b.binary(op, b.floatConstant(t, x), b.floatConstant(t, y))->definingOp());
    return r ? std::optional(std::get<double>(*r)) : std::nullopt;
  }

  std::optional<Attr> cast(ScalarKind from, double v, ScalarKind to) {
    return foldOperation(*b.cast(constant(from, v), Type::scalar(to))->definingOp());
  }

  std::optional<Attr> unary(Opcode op, ScalarKind k, int64_t v) {
    return foldOperation(*b.unary(op, b.intConstant(Type::scalar(k), v))->definingOp());
  }
};

constexpr int64_t kI64Min = std::numeric_limits<int64_t>::min();

} // namespace

TEST_F(Fold, IntegerArithmeticWrapsAtTheTypeWidth) {
  EXPECT_EQ(ints(Opcode::Add, ScalarKind::Int8, 127, 1), -128);
  EXPECT_EQ(ints(Opcode::Sub, ScalarKind::UInt8, 0, 1), 255);
  EXPECT_EQ(ints(Opcode::Mul, ScalarKind::Int32, 65536, 65536), 0);
  EXPECT_EQ(ints(Opcode::Add, ScalarKind::Int64, std::numeric_limits<int64_t>::max(), 1), kI64Min);
  EXPECT_EQ(ints(Opcode::Mul, ScalarKind::UInt64, -1, 2), -2); // 2^64-2, as int64 bits
}

TEST_F(Fold, DivisionTruncatesAndDivisionByZeroIsZero) {
  EXPECT_EQ(ints(Opcode::Div, ScalarKind::Int32, -7, 2), -3);
  EXPECT_EQ(ints(Opcode::Div, ScalarKind::Int32, 7, 0), 0);
  EXPECT_EQ(ints(Opcode::Div, ScalarKind::Int64, kI64Min, -1), kI64Min);
  EXPECT_EQ(ints(Opcode::Div, ScalarKind::Int8, -128, -1), -128);
  EXPECT_EQ(ints(Opcode::Div, ScalarKind::UInt8, 250, 7), 35);
}

TEST_F(Fold, FloorDivisionAndModuloFollowPython) {
  EXPECT_EQ(ints(Opcode::FloorDiv, ScalarKind::Int32, -7, 2), -4);
  EXPECT_EQ(ints(Opcode::FloorDiv, ScalarKind::Int32, 7, -2), -4);
  EXPECT_EQ(ints(Opcode::FloorDiv, ScalarKind::Int32, -7, -2), 3);
  EXPECT_EQ(ints(Opcode::FloorDiv, ScalarKind::Int32, 7, 0), 0);
  EXPECT_EQ(ints(Opcode::FloorDiv, ScalarKind::Int64, kI64Min, -1), kI64Min);
  EXPECT_EQ(ints(Opcode::Mod, ScalarKind::Int32, -7, 2), 1);
  EXPECT_EQ(ints(Opcode::Mod, ScalarKind::Int32, 7, -2), -1);
  EXPECT_EQ(ints(Opcode::Mod, ScalarKind::Int32, -7, -2), -1);
  EXPECT_EQ(ints(Opcode::Mod, ScalarKind::Int32, 7, 0), 0);
  EXPECT_EQ(ints(Opcode::Mod, ScalarKind::Int64, kI64Min, -1), 0);
  EXPECT_EQ(ints(Opcode::Mod, ScalarKind::UInt32, -1, 10), 5); // 4294967295 % 10
  EXPECT_EQ(floats(Opcode::FloorDiv, ScalarKind::Float64, -7.0, 2.0), -4.0);
  EXPECT_EQ(floats(Opcode::Mod, ScalarKind::Float64, -7.0, 2.0), 1.0);
  EXPECT_EQ(floats(Opcode::Mod, ScalarKind::Float32, 7.5, -2.0), -0.5);
  EXPECT_TRUE(std::signbit(*floats(Opcode::Mod, ScalarKind::Float64, 4.0, -2.0)));
  EXPECT_EQ(floats(Opcode::FloorDiv, ScalarKind::Float64, 1.0, 0.0), std::nullopt);
}

TEST_F(Fold, IntegerPower) {
  EXPECT_EQ(ints(Opcode::Pow, ScalarKind::Int32, 3, 4), 81);
  EXPECT_EQ(ints(Opcode::Pow, ScalarKind::Int32, 2, 31), std::numeric_limits<int32_t>::min());
  EXPECT_EQ(ints(Opcode::Pow, ScalarKind::Int32, 2, -1), 0);
  EXPECT_EQ(ints(Opcode::Pow, ScalarKind::Int32, 1, -5), 1);
  EXPECT_EQ(ints(Opcode::Pow, ScalarKind::Int32, -1, -3), -1);
  EXPECT_EQ(ints(Opcode::Pow, ScalarKind::Int32, -1, -2), 1);
  EXPECT_EQ(ints(Opcode::Pow, ScalarKind::Int32, 0, 0), 1);
  EXPECT_EQ(floats(Opcode::Pow, ScalarKind::Float32, 2.0, 0.5), std::nullopt);
}

TEST_F(Fold, ShiftsFollowPython) {
  EXPECT_EQ(ints(Opcode::Shl, ScalarKind::Int32, 1, 31), std::numeric_limits<int32_t>::min());
  EXPECT_EQ(ints(Opcode::Shl, ScalarKind::Int32, 1, 32), 0);
  EXPECT_EQ(ints(Opcode::Shl, ScalarKind::Int32, 1, -1), 0);
  EXPECT_EQ(ints(Opcode::Shl, ScalarKind::UInt8, 255, 4), 240);
  EXPECT_EQ(ints(Opcode::Shr, ScalarKind::Int32, -8, 1), -4);
  EXPECT_EQ(ints(Opcode::Shr, ScalarKind::Int32, -8, 40), -1);
  EXPECT_EQ(ints(Opcode::Shr, ScalarKind::Int32, 8, 40), 0);
  EXPECT_EQ(ints(Opcode::Shr, ScalarKind::UInt32, -8, 1), 2147483644);
  EXPECT_EQ(ints(Opcode::Shr, ScalarKind::UInt64, -1, 64), 0);
}

TEST_F(Fold, BitwiseMinMaxAndUnary) {
  EXPECT_EQ(ints(Opcode::And, ScalarKind::Int32, 12, 10), 8);
  EXPECT_EQ(ints(Opcode::Or, ScalarKind::Int32, 12, 10), 14);
  EXPECT_EQ(ints(Opcode::Xor, ScalarKind::Bool, 1, 1), 0);
  EXPECT_EQ(ints(Opcode::Min, ScalarKind::UInt32, -1, 3), 3);
  EXPECT_EQ(ints(Opcode::Max, ScalarKind::Int32, -1, 3), 3);
  EXPECT_EQ(std::get<int64_t>(*unary(Opcode::Neg, ScalarKind::Int8, -128)), -128);
  EXPECT_EQ(std::get<int64_t>(*unary(Opcode::Neg, ScalarKind::UInt8, 1)), 255);
  EXPECT_EQ(std::get<int64_t>(*unary(Opcode::Not, ScalarKind::UInt8, 0)), 255);
  EXPECT_EQ(std::get<int64_t>(*unary(Opcode::Not, ScalarKind::Bool, 1)), 0);
  EXPECT_EQ(std::get<int64_t>(*unary(Opcode::Abs, ScalarKind::Int32, -5)), 5);
  EXPECT_EQ(std::get<int64_t>(*unary(Opcode::Abs, ScalarKind::Int8, -128)), -128);
  double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(floats(Opcode::Min, ScalarKind::Float64, 1.0, nan), 1.0);
  EXPECT_TRUE(std::isnan(*floats(Opcode::Min, ScalarKind::Float64, nan, 1.0)));
}

TEST_F(Fold, FloatArithmeticRoundsToTheType) {
  EXPECT_EQ(floats(Opcode::Add, ScalarKind::Float32, 16777216.0, 1.0), 16777216.0);
  EXPECT_EQ(floats(Opcode::Add, ScalarKind::Float64, 16777216.0, 1.0), 16777217.0);
  EXPECT_EQ(floats(Opcode::Div, ScalarKind::Float32, 1.0, 3.0), double(1.0f / 3.0f));
  EXPECT_EQ(floats(Opcode::Div, ScalarKind::Float64, 1.0, 0.0),
            std::numeric_limits<double>::infinity());
  EXPECT_EQ(floats(Opcode::Add, ScalarKind::Float16, 2048.0, 1.0), 2048.0);
  EXPECT_EQ(floats(Opcode::Add, ScalarKind::BFloat16, 256.0, 1.0), 256.0);
  EXPECT_EQ(floats(Opcode::Add, ScalarKind::BFloat16, 256.0, 3.0), 260.0);
  // A bfloat16 subnormal product stays subnormal (2**-126 * 2**-3), never flushed.
  EXPECT_EQ(floats(Opcode::Mul, ScalarKind::BFloat16, 0x1p-126, 0.125), 0x1p-129);
  EXPECT_EQ(floats(Opcode::Mul, ScalarKind::BFloat16, 0x1p-127, 0x1.8p-7), 0x1p-133);
  EXPECT_EQ(floats(Opcode::Mul, ScalarKind::BFloat16, 0x1p-127, 0x1p-7), 0.0); // a tie, to even
}

// Conversions to bfloat16 round to float32 first, as ml_dtypes converts.
TEST_F(Fold, BFloat16CastsGoThroughFloat32) {
  EXPECT_EQ(
      std::get<double>(*cast(ScalarKind::Float64, 1 + 0x1p-8 + 0x1p-30, ScalarKind::BFloat16)),
      1.0);
  EXPECT_EQ(
      std::get<double>(*cast(ScalarKind::Float64, 1 + 0x1p-8 + 0x1p-20, ScalarKind::BFloat16)),
      1 + 0x1p-7);
  EXPECT_EQ(
      std::get<double>(*cast(ScalarKind::Int64, (1 << 24) + (1 << 16) + 1, ScalarKind::BFloat16)),
      double(1 << 24));
  EXPECT_EQ(std::get<double>(*cast(ScalarKind::Float64, 3.4e38, ScalarKind::BFloat16)),
            std::numeric_limits<double>::infinity());
  EXPECT_EQ(std::get<double>(*cast(ScalarKind::Float64, 0x1p-133, ScalarKind::BFloat16)), 0x1p-133);
  EXPECT_TRUE(
      std::isnan(std::get<double>(*cast(ScalarKind::Float64, std::nan(""), ScalarKind::BFloat16))));
}

TEST_F(Fold, Comparisons) {
  Type i32 = Type::scalar(ScalarKind::Int32), u32 = Type::scalar(ScalarKind::UInt32);
  Type f64 = Type::scalar(ScalarKind::Float64);
  auto cmp = [&](CmpPredicate p, Value *x, Value *y) {
    return std::get<int64_t>(*foldOperation(*b.cmp(p, x, y)->definingOp()));
  };
  EXPECT_EQ(cmp(CmpPredicate::Lt, b.intConstant(i32, -1), b.intConstant(i32, 1)), 1);
  EXPECT_EQ(cmp(CmpPredicate::Lt, b.intConstant(u32, -1), b.intConstant(u32, 1)), 0);
  EXPECT_EQ(cmp(CmpPredicate::Ge, b.intConstant(i32, 2), b.intConstant(i32, 2)), 1);
  Value *nan = b.floatConstant(f64, std::numeric_limits<double>::quiet_NaN());
  EXPECT_EQ(cmp(CmpPredicate::Eq, nan, nan), 0);
  EXPECT_EQ(cmp(CmpPredicate::Ne, nan, nan), 1);
  EXPECT_EQ(cmp(CmpPredicate::Le, nan, b.floatConstant(f64, 1.0)), 0);
}

TEST_F(Fold, Casts) {
  EXPECT_EQ(std::get<int64_t>(*cast(ScalarKind::Int32, -1, ScalarKind::UInt8)), 255);
  EXPECT_EQ(std::get<int64_t>(*cast(ScalarKind::UInt8, 255, ScalarKind::Int8)), -1);
  EXPECT_EQ(std::get<int64_t>(*cast(ScalarKind::Int8, -1, ScalarKind::UInt64)), -1);
  EXPECT_EQ(std::get<int64_t>(*cast(ScalarKind::Int32, 7, ScalarKind::Bool)), 1);
  EXPECT_EQ(std::get<int64_t>(*cast(ScalarKind::Float64, -0.0, ScalarKind::Bool)), 0);
  EXPECT_EQ(std::get<int64_t>(*cast(ScalarKind::Float64, -2.9, ScalarKind::Int32)), -2);
  EXPECT_EQ(std::get<int64_t>(*cast(ScalarKind::Float64, 255.9, ScalarKind::UInt8)), 255);
  EXPECT_EQ(cast(ScalarKind::Float64, 256.0, ScalarKind::UInt8), std::nullopt);
  EXPECT_EQ(cast(ScalarKind::Float64, -1.0, ScalarKind::UInt32), std::nullopt);
  EXPECT_EQ(cast(ScalarKind::Float64, std::nan(""), ScalarKind::Int32), std::nullopt);
  EXPECT_EQ(std::get<double>(*cast(ScalarKind::Float64, 0.1, ScalarKind::Float32)), double(0.1f));
  EXPECT_EQ(std::get<double>(*cast(ScalarKind::Int64, 16777217, ScalarKind::Float32)), 16777216.0);
  EXPECT_EQ(std::get<double>(*cast(ScalarKind::UInt32, -1, ScalarKind::Float64)), 4294967295.0);
  EXPECT_EQ(std::get<double>(*cast(ScalarKind::Bool, 1, ScalarKind::Float32)), 1.0);
}

TEST_F(Fold, MathFoldsOnlyExactFunctions) {
  Type f32 = Type::scalar(ScalarKind::Float32);
  auto math = [&](std::string_view name, double v, Type result) {
    return foldOperation(
        *b.math(findMathFunction(name)->kind, result, {b.floatConstant(f32, v)})->definingOp());
  };
  EXPECT_EQ(std::get<double>(*math("sqrt", 2.0, f32)), double(std::sqrt(2.0f)));
  EXPECT_EQ(std::get<double>(*math("floor", -1.5, f32)), -2.0);
  EXPECT_EQ(std::get<int64_t>(*math("isinf", INFINITY, Type::scalar(ScalarKind::Bool))), 1);
  EXPECT_EQ(math("sin", 1.0, f32), std::nullopt);
}

TEST_F(Fold, PassReplacesOperationsAndSelects) {
  Module module;
  auto *f = module.addFunction(std::make_unique<Function>(
      "f", Function::Kind::Device, std::vector<Type>{Type::scalar(ScalarKind::Int32)},
      Type::scalar(ScalarKind::Int32), Location{}));
  Builder fb(f->entry());
  Type i32 = Type::scalar(ScalarKind::Int32);
  Value *sum = fb.binary(Opcode::Add, fb.intConstant(i32, 2), fb.intConstant(i32, 3));
  Value *cond = fb.cmp(CmpPredicate::Gt, sum, fb.intConstant(i32, 4));
  fb.ret(fb.select(cond, f->entry()->argument(0), sum));
  EXPECT_TRUE(foldConstants(module));
  const Operation *ret = f->entry()->terminator();
  EXPECT_EQ(ret->operand(0), f->entry()->argument(0));
  EXPECT_FALSE(foldConstants(module));
}
