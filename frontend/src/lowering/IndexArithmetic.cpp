#include "IndexArithmetic.h"

#include "kaji/ir/Constants.h"

#include <algorithm>

namespace kaji::frontend {
namespace {

const ir::Type kI64 = ir::Type::scalar(ir::ScalarKind::Int64);

// `a op b` on constants as the IR computes it: wrapping, truncating division, x / 0 == 0.
std::optional<int64_t> fold(ir::Opcode opcode, int64_t a, int64_t b) {
  auto wrap = [](uint64_t v) { return int64_t(v); };
  switch (opcode) {
  case ir::Opcode::Add:
    return wrap(uint64_t(a) + uint64_t(b));
  case ir::Opcode::Sub:
    return wrap(uint64_t(a) - uint64_t(b));
  case ir::Opcode::Mul:
    return wrap(uint64_t(a) * uint64_t(b));
  case ir::Opcode::Div:
    if (b == 0)
      return 0;
    if (b == -1)
      return wrap(0 - uint64_t(a));
    return a / b;
  case ir::Opcode::Min:
    return std::min(a, b);
  case ir::Opcode::Max:
    return std::max(a, b);
  default:
    return std::nullopt;
  }
}

} // namespace

ir::Value *IndexArithmetic::constant(int64_t value) { return builder_.intConstant(kI64, value); }

ir::Value *IndexArithmetic::binary(ir::Opcode opcode, ir::Value *a, ir::Value *b) {
  std::optional<int64_t> x = ir::intConstant(a), y = ir::intConstant(b);
  if (x && y)
    return constant(*fold(opcode, *x, *y));
  bool identityRight =
      y && ((*y == 0 && (opcode == ir::Opcode::Add || opcode == ir::Opcode::Sub)) ||
            (*y == 1 && (opcode == ir::Opcode::Mul || opcode == ir::Opcode::Div)));
  if (identityRight)
    return a;
  if (x && *x == 0 && opcode == ir::Opcode::Add)
    return b;
  if (x && *x == 1 && opcode == ir::Opcode::Mul)
    return b;
  return builder_.binary(opcode, a, b);
}

ir::Value *IndexArithmetic::add(ir::Value *a, ir::Value *b) {
  return binary(ir::Opcode::Add, a, b);
}
ir::Value *IndexArithmetic::sub(ir::Value *a, ir::Value *b) {
  return binary(ir::Opcode::Sub, a, b);
}
ir::Value *IndexArithmetic::mul(ir::Value *a, ir::Value *b) {
  return binary(ir::Opcode::Mul, a, b);
}
ir::Value *IndexArithmetic::div(ir::Value *a, ir::Value *b) {
  return binary(ir::Opcode::Div, a, b);
}
ir::Value *IndexArithmetic::min(ir::Value *a, ir::Value *b) {
  return binary(ir::Opcode::Min, a, b);
}
ir::Value *IndexArithmetic::max(ir::Value *a, ir::Value *b) {
  return binary(ir::Opcode::Max, a, b);
}

ir::Value *IndexArithmetic::less(ir::Value *a, ir::Value *b) {
  std::optional<int64_t> x = ir::intConstant(a), y = ir::intConstant(b);
  if (x && y)
    return builder_.boolConstant(*x < *y);
  return builder_.cmp(ir::CmpPredicate::Lt, a, b);
}

ir::Value *IndexArithmetic::select(ir::Value *condition, ir::Value *ifTrue, ir::Value *ifFalse) {
  if (std::optional<int64_t> c = ir::intConstant(condition))
    return *c ? ifTrue : ifFalse;
  if (ifTrue == ifFalse)
    return ifTrue;
  return builder_.select(condition, ifTrue, ifFalse);
}

} // namespace kaji::frontend
