#include "PythonIntegers.h"

#include "TypeRules.h"

#include "kaji/ir/Constants.h"

#include <algorithm>

namespace kaji::frontend {
namespace {

using ir::ScalarKind;

ExactResult value(PythonInt v) { return {ExactResult::Kind::Value, v}; }
constexpr ExactResult kOverflow{ExactResult::Kind::Overflow};
constexpr ExactResult kUndefined{ExactResult::Kind::Undefined};

template <class Operation> ExactResult checked(Operation operation, PythonInt a, PythonInt b) {
  PythonInt result = 0;
  return operation(a, b, &result) ? kOverflow : value(result);
}

bool add(PythonInt a, PythonInt b, PythonInt *r) { return __builtin_add_overflow(a, b, r); }
bool subtract(PythonInt a, PythonInt b, PythonInt *r) { return __builtin_sub_overflow(a, b, r); }
bool multiply(PythonInt a, PythonInt b, PythonInt *r) { return __builtin_mul_overflow(a, b, r); }

ExactResult power(PythonInt base, PythonInt exponent) {
  if (exponent < 0)
    return kUndefined; // a float in Python
  PythonInt result = 1;
  while (exponent != 0) {
    if ((exponent & 1) && __builtin_mul_overflow(result, base, &result))
      return kOverflow;
    exponent >>= 1;
    // Once |base| >= 2, a square that overflows is a factor still to come.
    if (exponent != 0 && __builtin_mul_overflow(base, base, &base))
      return kOverflow;
  }
  return value(result);
}

ExactResult shiftLeft(PythonInt a, PythonInt amount) {
  if (amount < 0)
    return kUndefined; // ValueError in Python
  if (a == 0)
    return value(0);
  if (amount >= 127)
    return kOverflow;
  return checked(multiply, a, PythonInt(1) << int(amount));
}

} // namespace

std::optional<PythonInt> weakIntegerValue(const Operand &operand) {
  if (operand.wideInteger)
    return operand.wideInteger;
  if (!operand.isScalar() || !operand.weak || !operand.type().isInteger())
    return std::nullopt;
  std::optional<int64_t> bits = ir::intConstant(operand.value);
  if (!bits)
    return std::nullopt;
  if (operand.type().isSignedInteger())
    return PythonInt(*bits);
  return PythonInt(uint64_t(*bits));
}

std::optional<bool> decidedComparison(ir::CmpPredicate predicate, const Operand &lhs,
                                      const Operand &rhs) {
  std::optional<PythonInt> lhsInt = weakIntegerValue(lhs), rhsInt = weakIntegerValue(rhs);
  if (lhsInt && rhsInt)
    return ir::comparisonHolds(predicate, *lhsInt, *rhsInt);
  std::optional<PythonInt> literal = lhsInt ? lhsInt : rhsInt;
  if (!literal || !lhs.isScalar() || !rhs.isScalar())
    return std::nullopt;
  ScalarType type = promote(lhs.scalarType(), rhs.scalarType());
  if (type.weak || !ir::isInteger(type.kind) || fitsIn(*literal, type.kind))
    return std::nullopt;
  // Beyond every value of the type, the literal is on the same side of all of them, so each
  // gives the result 0 gives (0 is in every integer type).
  return lhsInt ? ir::comparisonHolds(predicate, *literal, PythonInt(0))
                : ir::comparisonHolds(predicate, PythonInt(0), *literal);
}

bool fitsIn(PythonInt value, ScalarKind kind) {
  unsigned bits = ir::bitWidth(kind);
  if (ir::isSigned(kind))
    return value >= -(PythonInt(1) << (bits - 1)) && value < (PythonInt(1) << (bits - 1));
  return value >= 0 && value < (PythonInt(1) << bits);
}

std::optional<ScalarKind> weakIntegerKind(PythonInt value) {
  if (fitsIn(value, ScalarKind::Int64))
    return ScalarKind::Int64;
  if (fitsIn(value, ScalarKind::UInt64))
    return ScalarKind::UInt64;
  return std::nullopt;
}

ExactResult exactBinary(BinaryOperator op, PythonInt a, PythonInt b) {
  switch (op) {
  case BinaryOperator::Add:
    return checked(add, a, b);
  case BinaryOperator::Sub:
    return checked(subtract, a, b);
  case BinaryOperator::Mul:
    return checked(multiply, a, b);
  case BinaryOperator::FloorDiv:
  case BinaryOperator::Mod: {
    if (b == 0)
      return kUndefined; // ZeroDivisionError in Python
    // Both operands are 64-bit values: no quotient overflows 128 bits.
    PythonInt quotient = a / b, remainder = a % b;
    if (remainder != 0 && ((remainder < 0) != (b < 0))) {
      quotient -= 1;
      remainder += b;
    }
    return value(op == BinaryOperator::FloorDiv ? quotient : remainder);
  }
  case BinaryOperator::Pow:
    return power(a, b);
  case BinaryOperator::LShift:
    return shiftLeft(a, b);
  case BinaryOperator::RShift:
    if (b < 0)
      return kUndefined;
    return value(a >> int(std::min<PythonInt>(b, 127))); // floor division by 2**b
  case BinaryOperator::BitAnd:
    return value(a & b);
  case BinaryOperator::BitOr:
    return value(a | b);
  case BinaryOperator::BitXor:
    return value(a ^ b);
  case BinaryOperator::Div:
  case BinaryOperator::MatMul:
    break;
  }
  return kUndefined;
}

std::string toString(PythonInt value) {
  bool negative = value < 0;
  std::string digits;
  do {
    int digit = int(value % 10);
    digits += char('0' + (negative ? -digit : digit));
    value /= 10;
  } while (value != 0);
  if (negative)
    digits += '-';
  return {digits.rbegin(), digits.rend()};
}

} // namespace kaji::frontend
