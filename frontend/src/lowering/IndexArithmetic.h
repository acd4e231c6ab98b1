// i64 arithmetic on extents, strides and offsets for array views, folded where the operands
// are constants: a view of a local array with constant bounds keeps constant extents, so it
// can be copied into a local array (whose shape must be constant).
#pragma once

#include "kaji/ir/Builder.h"

namespace kaji::frontend {

class IndexArithmetic {
public:
  explicit IndexArithmetic(ir::Builder &builder) : builder_(builder) {}

  ir::Value *constant(int64_t value);
  ir::Value *add(ir::Value *a, ir::Value *b);
  ir::Value *sub(ir::Value *a, ir::Value *b);
  ir::Value *mul(ir::Value *a, ir::Value *b);
  ir::Value *div(ir::Value *a, ir::Value *b); // truncating; x / 0 == 0, as the IR's div
  ir::Value *min(ir::Value *a, ir::Value *b);
  ir::Value *max(ir::Value *a, ir::Value *b);
  ir::Value *less(ir::Value *a, ir::Value *b); // bool
  ir::Value *select(ir::Value *condition, ir::Value *ifTrue, ir::Value *ifFalse);

private:
  ir::Value *binary(ir::Opcode opcode, ir::Value *a, ir::Value *b);
  ir::Builder &builder_;
};

} // namespace kaji::frontend
