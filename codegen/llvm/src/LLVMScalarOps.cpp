#include "FunctionLowering.h"

#include "MathLowering.h"
#include "PythonArithmetic.h"

#include <llvm/IR/Intrinsics.h>
#include <llvm/Support/ErrorHandling.h>

#include <cassert>

namespace kaji::codegen::lowering {

llvm::Value *FunctionLowering::lowerConstant(const ir::Operation &op) {
  ir::Type type = op.resultType();
  assert(type.isScalar() && "verified: a constant is a scalar");
  llvm::Type *llvmType = registerType(context_, type.scalarKind());
  const ir::Attr &attr = op.attr();
  if (type.isFloat()) {
    if (auto *value = std::get_if<double>(&attr))
      return llvm::ConstantFP::get(llvmType, *value);
    if (auto *value = std::get_if<int64_t>(&attr))
      return llvm::ConstantFP::get(llvmType, double(*value));
  } else if (auto *value = std::get_if<int64_t>(&attr)) {
    return llvm::ConstantInt::get(llvmType, uint64_t(*value), ir::isSigned(type.scalarKind()));
  }
  llvm_unreachable("verified: a float constant holds a double, an integer or bool one an int64");
}

llvm::Value *FunctionLowering::lowerBinary(const ir::Operation &op) {
  ir::Type type = op.resultType();
  assert(type.isScalar() && op.numOperands() == 2 &&
         "verified: binary arithmetic takes two scalars of its result type");
  llvm::Value *lhs = scalar(op.operand(0), op);
  llvm::Value *rhs = scalar(op.operand(1), op);
  bool isFloat = type.isFloat();
  bool isSigned = ir::isSigned(type.scalarKind());
  auto requireInteger = [&] {
    assert(!isFloat && "verified: bitwise operations and shifts are not defined on floats");
  };
  switch (op.opcode()) {
  case Opcode::Add:
    return isFloat ? builder_.CreateFAdd(lhs, rhs) : builder_.CreateAdd(lhs, rhs);
  case Opcode::Sub:
    return isFloat ? builder_.CreateFSub(lhs, rhs) : builder_.CreateSub(lhs, rhs);
  case Opcode::Mul:
    return isFloat ? builder_.CreateFMul(lhs, rhs) : builder_.CreateMul(lhs, rhs);
  case Opcode::Div:
    return isFloat ? builder_.CreateFDiv(lhs, rhs) : emitIntDiv(builder_, lhs, rhs, isSigned);
  case Opcode::FloorDiv:
    return isFloat ? emitFloatFloorDiv(builder_, target_, lhs, rhs)
                   : emitIntFloorDiv(builder_, lhs, rhs, isSigned);
  case Opcode::Mod:
    return isFloat ? emitFloatMod(builder_, target_, lhs, rhs)
                   : emitIntMod(builder_, lhs, rhs, isSigned);
  case Opcode::Pow:
    return isFloat ? emitFloatPower(builder_, target_, lhs, rhs)
                   : emitIntPow(builder_, lhs, rhs, isSigned);
  case Opcode::Min:
  case Opcode::Max: {
    bool isMin = op.opcode() == Opcode::Min;
    llvm::Value *takeRhs;
    if (isFloat)
      takeRhs = isMin ? builder_.CreateFCmpOLT(rhs, lhs) : builder_.CreateFCmpOGT(rhs, lhs);
    else if (isSigned)
      takeRhs = isMin ? builder_.CreateICmpSLT(rhs, lhs) : builder_.CreateICmpSGT(rhs, lhs);
    else
      takeRhs = isMin ? builder_.CreateICmpULT(rhs, lhs) : builder_.CreateICmpUGT(rhs, lhs);
    return isFloat ? target_.emitFloatChoice(builder_, takeRhs, rhs, lhs)
                   : builder_.CreateSelect(takeRhs, rhs, lhs, isMin ? "min" : "max");
  }
  case Opcode::And:
    requireInteger();
    return builder_.CreateAnd(lhs, rhs);
  case Opcode::Or:
    requireInteger();
    return builder_.CreateOr(lhs, rhs);
  case Opcode::Xor:
    requireInteger();
    return builder_.CreateXor(lhs, rhs);
  case Opcode::Shl:
    requireInteger();
    return emitShl(builder_, lhs, rhs);
  case Opcode::Shr:
    requireInteger();
    return emitShr(builder_, lhs, rhs, isSigned);
  default:
    break;
  }
  llvm_unreachable("lowerBinary of an operation that is not binary arithmetic");
}

llvm::Value *FunctionLowering::lowerUnary(const ir::Operation &op) {
  ir::Type type = op.resultType();
  assert(type.isScalar() && op.numOperands() == 1 &&
         "verified: unary arithmetic takes one scalar of its result type");
  llvm::Value *operand = scalar(op.operand(0), op);
  bool isFloat = type.isFloat();
  switch (op.opcode()) {
  case Opcode::Neg:
    return isFloat ? builder_.CreateFNeg(operand) : builder_.CreateNeg(operand);
  case Opcode::Not:
    assert(!isFloat && "verified: 'not' is not defined on floats");
    return builder_.CreateNot(operand);
  case Opcode::Abs:
    if (isFloat)
      return builder_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, operand);
    if (!ir::isSigned(type.scalarKind()))
      return operand;
    // INT_MIN wraps to itself (is_int_min_poison false).
    return builder_.CreateBinaryIntrinsic(llvm::Intrinsic::abs, operand, builder_.getFalse());
  default:
    break;
  }
  llvm_unreachable("lowerUnary of an operation that is not unary arithmetic");
}

llvm::Value *FunctionLowering::lowerCmp(const ir::Operation &op) {
  assert(op.numOperands() == 2 && op.operand(0)->type().isScalar() &&
         op.operand(0)->type() == op.operand(1)->type() &&
         "verified: 'cmp' takes two scalars of one type");
  ScalarKind kind = op.operand(0)->type().scalarKind();
  llvm::Value *lhs = scalar(op.operand(0), op);
  llvm::Value *rhs = scalar(op.operand(1), op);
  using P = llvm::CmpInst::Predicate;
  bool isSigned = ir::isSigned(kind);
  P predicate = P::BAD_ICMP_PREDICATE;
  switch (op.attrAs<ir::CmpPredicate>()) {
  case ir::CmpPredicate::Eq:
    predicate = ir::isFloat(kind) ? P::FCMP_OEQ : P::ICMP_EQ;
    break;
  case ir::CmpPredicate::Ne:
    predicate = ir::isFloat(kind) ? P::FCMP_UNE : P::ICMP_NE;
    break;
  case ir::CmpPredicate::Lt:
    predicate = ir::isFloat(kind) ? P::FCMP_OLT : isSigned ? P::ICMP_SLT : P::ICMP_ULT;
    break;
  case ir::CmpPredicate::Le:
    predicate = ir::isFloat(kind) ? P::FCMP_OLE : isSigned ? P::ICMP_SLE : P::ICMP_ULE;
    break;
  case ir::CmpPredicate::Gt:
    predicate = ir::isFloat(kind) ? P::FCMP_OGT : isSigned ? P::ICMP_SGT : P::ICMP_UGT;
    break;
  case ir::CmpPredicate::Ge:
    predicate = ir::isFloat(kind) ? P::FCMP_OGE : isSigned ? P::ICMP_SGE : P::ICMP_UGE;
    break;
  }
  return builder_.CreateCmp(predicate, lhs, rhs);
}

llvm::Value *FunctionLowering::lowerMath(const ir::Operation &op) {
  // Verified: one float type for every operand, the result of that type or a bool.
  std::vector<llvm::Value *> args;
  for (const ir::Value *operand : op.operands())
    args.push_back(scalar(operand, op));
  return emitMath(builder_, target_, op.attrAs<ir::MathFunctionKind>(), args);
}

llvm::Value *FunctionLowering::makeComplex(llvm::Value *real, llvm::Value *imag, ScalarKind kind) {
  llvm::Value *value = llvm::PoisonValue::get(registerType(context_, kind));
  value = builder_.CreateInsertValue(value, real, {0u});
  return builder_.CreateInsertValue(value, imag, {1u});
}

void FunctionLowering::lowerSelect(const ir::Operation &op) {
  assert(op.numOperands() == 3 && op.operand(0)->type().isBool() &&
         op.operand(1)->type() == op.operand(2)->type() &&
         "verified: 'select' takes a bool and two values of one type");
  llvm::Value *condition = scalar(op.operand(0), op);
  std::vector<llvm::Value *> ifTrue = parts(op.operand(1), op);
  std::vector<llvm::Value *> ifFalse = parts(op.operand(2), op);
  std::vector<llvm::Value *> selected;
  for (size_t i = 0; i < ifTrue.size(); ++i)
    selected.push_back(builder_.CreateSelect(condition, ifTrue[i], ifFalse[i]));
  bind(op.result(), selected);
}

llvm::Value *FunctionLowering::castScalar(llvm::Value *value, ScalarKind from, ScalarKind to) {
  if (from == to)
    return value;
  llvm::Type *toType = registerType(context_, to);
  if (to == ScalarKind::Bool) {
    if (ir::isFloat(from)) // NaN is truthy, as bool(nan) in Python
      return builder_.CreateFCmpUNE(value, llvm::ConstantFP::get(value->getType(), 0.0));
    return builder_.CreateICmpNE(value, llvm::ConstantInt::get(value->getType(), 0));
  }
  // bfloat16 is reached through float32 from any other type, as ml_dtypes converts: a float64
  // or an integer rounds twice, and float16 <-> bfloat16 has no direct instruction.
  if (to == ScalarKind::BFloat16 && from != ScalarKind::Float32)
    return castScalar(castScalar(value, from, ScalarKind::Float32), ScalarKind::Float32, to);
  if (from == ScalarKind::BFloat16 && to != ScalarKind::Float32 && to != ScalarKind::Float64)
    return castScalar(castScalar(value, from, ScalarKind::Float32), ScalarKind::Float32, to);
  if (ir::isFloat(from) && ir::isFloat(to))
    return ir::bitWidth(to) > ir::bitWidth(from) ? builder_.CreateFPExt(value, toType)
                                                 : builder_.CreateFPTrunc(value, toType);
  if (ir::isFloat(from)) {
    // Saturating conversions: an out-of-range float gives the nearest bound, NaN gives 0,
    // never poison.
    if (from == ScalarKind::Float16)
      value = builder_.CreateFPExt(value, builder_.getFloatTy());
    return target_.emitFloatToInteger(builder_, value, toType, ir::isSigned(to));
  }
  bool fromSigned = ir::isSigned(from);
  if (ir::isFloat(to)) {
    if (to == ScalarKind::Float16)
      value = clampToFloat16Range(value, from);
    return fromSigned ? builder_.CreateSIToFP(value, toType) : builder_.CreateUIToFP(value, toType);
  }
  return builder_.CreateIntCast(value, toType, fromSigned);
}

// Every integer of magnitude 65520 or more rounds to an infinite float16, so clamping to
// ±65520 first changes no result. It keeps LLVM 19's InstCombine from a miscompile: it folds
// `fpext (sitofp x to half)` into `sitofp x to double` when x has at most 11 significant bits
// by its known bits, which ignores float16's exponent range (`float16(2**31 >> b)` became
// 2**31 instead of inf). After the clamp, x's known bits never allow that fold, and a value
// of the int8 range or int16's signed range cannot overflow, so those are left alone.
llvm::Value *FunctionLowering::clampToFloat16Range(llvm::Value *value, ScalarKind from) {
  constexpr int64_t firstInfinite = 65520;
  bool fromSigned = ir::isSigned(from);
  unsigned width = ir::bitWidth(from);
  if (width <= 8 || (width == 16 && fromSigned))
    return value;
  llvm::Type *type = value->getType();
  auto *upper = llvm::ConstantInt::get(type, firstInfinite);
  if (!fromSigned)
    return builder_.CreateBinaryIntrinsic(llvm::Intrinsic::umin, value, upper);
  llvm::Value *below = builder_.CreateBinaryIntrinsic(llvm::Intrinsic::smin, value, upper);
  return builder_.CreateBinaryIntrinsic(llvm::Intrinsic::smax, below,
                                        llvm::ConstantInt::getSigned(type, -firstInfinite));
}

} // namespace kaji::codegen::lowering
