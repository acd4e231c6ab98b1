#include "kaji/ir/Builder.h"

#include "kaji/ir/Constants.h"

#include <stdexcept>

namespace kaji::ir {

Operation *Builder::create(Opcode op, Type resultType, std::vector<Value *> operands, Attr attr) {
  if (!block_)
    throw std::logic_error("kaji::ir::Builder used without an insertion block");
  return block_->append(
      std::make_unique<Operation>(op, resultType, std::move(operands), std::move(attr), loc_));
}

Value *Builder::intConstant(Type type, int64_t value) {
  return create(Opcode::Constant, type, {}, wrapToType(type.scalarKind(), value))->result();
}

Value *Builder::floatConstant(Type type, double value) {
  return create(Opcode::Constant, type, {}, roundToType(type.scalarKind(), value))->result();
}

Value *Builder::boolConstant(bool value) {
  return create(Opcode::Constant, Type::scalar(ScalarKind::Bool), {}, int64_t(value))->result();
}

Value *Builder::zero(Type type) {
  if (type.isVector())
    return makeVector(type,
                      std::vector<Value *>(type.lanes(), zero(Type::scalar(type.scalarKind()))));
  if (type.isFloat())
    return floatConstant(type, 0.0);
  return intConstant(type, 0);
}

Value *Builder::makeVector(Type type, std::vector<Value *> lanes) {
  return create(Opcode::MakeVector, type, std::move(lanes))->result();
}

Value *Builder::extractLane(Value *vector, unsigned lane) {
  return create(Opcode::ExtractLane, Type::scalar(vector->type().scalarKind()), {vector},
                int64_t(lane))
      ->result();
}

Value *Builder::binary(Opcode op, Value *lhs, Value *rhs) {
  return create(op, lhs->type(), {lhs, rhs})->result();
}

Value *Builder::unary(Opcode op, Value *operand) {
  return create(op, operand->type(), {operand})->result();
}

Value *Builder::cmp(CmpPredicate pred, Value *lhs, Value *rhs) {
  return create(Opcode::Cmp, Type::scalar(ScalarKind::Bool), {lhs, rhs}, pred)->result();
}

Value *Builder::select(Value *cond, Value *ifTrue, Value *ifFalse) {
  return create(Opcode::Select, ifTrue->type(), {cond, ifTrue, ifFalse})->result();
}

Value *Builder::cast(Value *v, Type to) {
  if (v->type() == to)
    return v;
  return create(Opcode::Cast, to, {v})->result();
}

Value *Builder::bitcast(Value *v, Type to) {
  if (v->type() == to)
    return v;
  return create(Opcode::Bitcast, to, {v})->result();
}

Value *Builder::math(MathFunctionKind function, Type resultType, std::vector<Value *> args) {
  return create(Opcode::Math, resultType, std::move(args), function)->result();
}

Value *Builder::specialReg(SpecialReg::Kind kind, unsigned dim) {
  return create(Opcode::SpecialReg, Type::scalar(ScalarKind::Int32), {},
                SpecialReg{kind, static_cast<uint8_t>(dim)})
      ->result();
}

void Builder::br(Block *dest, std::vector<Value *> args) {
  create(Opcode::Br, Type())->successors().push_back({dest, std::move(args)});
}

void Builder::condBr(Value *cond, Block *ifTrue, std::vector<Value *> trueArgs, Block *ifFalse,
                     std::vector<Value *> falseArgs) {
  Operation *op = create(Opcode::CondBr, Type(), {cond});
  op->successors().push_back({ifTrue, std::move(trueArgs)});
  op->successors().push_back({ifFalse, std::move(falseArgs)});
}

void Builder::ret(Value *value) {
  create(Opcode::Return, Type(), value ? std::vector<Value *>{value} : std::vector<Value *>{});
}

} // namespace kaji::ir
