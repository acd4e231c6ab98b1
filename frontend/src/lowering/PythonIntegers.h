// Python's integers, exactly, for the weak integer constants of kernel code (NEP 50's Python
// ints). They are carried as int64, or uint64 above 2**63 - 1, so 2**63, -2**63 and a uint8
// compared with 300 need the exact value, not the 64-bit pattern: 128 bits hold every value
// of both kinds and the result of any one operation on two of them.
#pragma once

#include "Operand.h"

#include "kaji/frontend/AST.h"

#include <optional>
#include <string>

namespace kaji::frontend {

// The exact value of `operand` when it is a weak integer constant (bools excluded).
std::optional<PythonInt> weakIntegerValue(const Operand &operand);

// Whether `value` is a value of integer kind `kind`.
bool fitsIn(PythonInt value, ir::ScalarKind kind);

// The kind a weak constant of `value` is carried in: int64, else uint64; none when neither
// holds it.
std::optional<ir::ScalarKind> weakIntegerKind(PythonInt value);

struct ExactResult {
  enum class Kind : uint8_t {
    Value,
    Overflow,  // beyond 128 bits: certainly beyond 64
    Undefined, // Python raises or gives a float (x // 0, x ** -1, x << -1): not folded here
  };
  Kind kind;
  PythonInt value = 0;
};

// Whether `lhs predicate rhs` is decided by what the operands are, as Python and NumPy 2
// compare: two Python ints exactly, and a Python int outside the other operand's integer type
// as the number it is (it lies beyond every value of the type). Nothing where the values
// have to be compared at run time.
std::optional<bool> decidedComparison(ir::CmpPredicate predicate, const Operand &lhs,
                                      const Operand &rhs);

// `a op b` as Python computes it on ints.
ExactResult exactBinary(BinaryOperator op, PythonInt a, PythonInt b);

std::string toString(PythonInt value);

} // namespace kaji::frontend
