// Appends operations at the end of a block, stamping each with the current location.
#pragma once

#include "kaji/ir/IR.h"

namespace kaji::ir {

class Builder {
public:
  explicit Builder(Block *block = nullptr) : block_(block) {}

  void setBlock(Block *block) { block_ = block; }
  Block *block() const { return block_; }
  void setLocation(Location loc) { loc_ = std::move(loc); }
  const Location &location() const { return loc_; }

  Operation *create(Opcode op, Type resultType, std::vector<Value *> operands = {}, Attr attr = {});

  Value *intConstant(Type type, int64_t value);
  Value *floatConstant(Type type, double value);
  Value *boolConstant(bool value);
  // Zero (false) of a real scalar type, or the vector of zero lanes.
  Value *zero(Type type);
  Value *makeVector(Type type, std::vector<Value *> lanes);
  Value *extractLane(Value *vector, unsigned lane);
  Value *binary(Opcode op, Value *lhs, Value *rhs);      // result has lhs's type
  Value *unary(Opcode op, Value *operand);               // result has operand's type
  Value *cmp(CmpPredicate pred, Value *lhs, Value *rhs); // result bool
  Value *select(Value *cond, Value *ifTrue, Value *ifFalse);
  Value *cast(Value *v, Type to); // returns v itself when already of type `to`
  // v's bits as `to`, a scalar of v's width; returns v itself when already of type `to`.
  Value *bitcast(Value *v, Type to);
  Value *math(MathFunctionKind function, Type resultType, std::vector<Value *> args);
  Value *specialReg(SpecialReg::Kind kind, unsigned dim);

  void br(Block *dest, std::vector<Value *> args = {});
  void condBr(Value *cond, Block *ifTrue, std::vector<Value *> trueArgs, Block *ifFalse,
              std::vector<Value *> falseArgs);
  void ret(Value *value = nullptr);

private:
  Block *block_;
  Location loc_;
};

} // namespace kaji::ir
