// Canonical constant values. An integer constant's int64_t attribute holds the value
// wrapped to its type: sign-extended for signed types, zero-extended for unsigned ones,
// 0 or 1 for bool. A float constant's double attribute is exactly representable in its type.
#pragma once

#include "kaji/ir/IR.h"

#include <optional>

namespace kaji::ir {

// Wraps `value` to the width of integer kind `k` (bool: nonzero -> 1).
int64_t wrapToType(ScalarKind k, int64_t value);
// Rounds `value` to the nearest value of float kind `k` (f16 and f32 round, f64 is exact;
// bf16 rounds to float32 first, as ml_dtypes does).
double roundToType(ScalarKind k, double value);

// The operation's constant attribute if `v` is produced by a `const` op.
const Operation *constantOp(const Value *v);
std::optional<int64_t> intConstant(const Value *v); // integer and bool constants
std::optional<double> floatConstant(const Value *v);

// Whether `a p b` holds for two numbers of one C++ type (a float NaN is unequal to all).
template <class T> bool comparisonHolds(CmpPredicate p, T a, T b) {
  switch (p) {
  case CmpPredicate::Eq:
    return a == b;
  case CmpPredicate::Ne:
    return a != b;
  case CmpPredicate::Lt:
    return a < b;
  case CmpPredicate::Le:
    return a <= b;
  case CmpPredicate::Gt:
    return a > b;
  case CmpPredicate::Ge:
    return a >= b;
  }
  return false;
}

} // namespace kaji::ir
