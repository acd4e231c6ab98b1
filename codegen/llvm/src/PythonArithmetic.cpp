#include "PythonArithmetic.h"

#include "MathLowering.h"

#include <llvm/IR/Function.h>

namespace kaji::codegen {
namespace {

llvm::Value *constant(llvm::Value *like, int64_t value) {
  return llvm::ConstantInt::get(like->getType(), value, /*IsSigned=*/true);
}

// A divisor that never traps: 1 where `rhs` is 0, and (signed) where it is -1, so that
// INT_MIN / -1 never reaches sdiv; callers patch those lanes afterwards.
struct SafeDivisor {
  llvm::Value *divisor;
  llvm::Value *isZero;
  llvm::Value *isMinusOne; // null for unsigned
};

SafeDivisor makeSafeDivisor(llvm::IRBuilderBase &b, llvm::Value *rhs, bool isSigned) {
  SafeDivisor safe{nullptr, b.CreateICmpEQ(rhs, constant(rhs, 0), "div.zero"), nullptr};
  llvm::Value *replace = safe.isZero;
  if (isSigned && rhs->getType()->getIntegerBitWidth() > 1) {
    safe.isMinusOne = b.CreateICmpEQ(rhs, constant(rhs, -1), "div.minus_one");
    replace = b.CreateOr(replace, safe.isMinusOne);
  }
  safe.divisor = b.CreateSelect(replace, constant(rhs, 1), rhs, "div.safe");
  return safe;
}

llvm::Value *negateWhereMinusOne(llvm::IRBuilderBase &b, const SafeDivisor &safe,
                                 llvm::Value *quotient, llvm::Value *lhs) {
  if (!safe.isMinusOne)
    return quotient;
  return b.CreateSelect(safe.isMinusOne, b.CreateNeg(lhs), quotient);
}

// True where a nonzero remainder and the divisor have opposite signs: the truncated
// quotient is then one above the floored one.
llvm::Value *remainderNeedsFloorFix(llvm::IRBuilderBase &b, llvm::Value *remainder,
                                    llvm::Value *divisor) {
  llvm::Value *nonzero = b.CreateICmpNE(remainder, constant(remainder, 0));
  llvm::Value *signsDiffer = b.CreateICmpSLT(b.CreateXor(remainder, divisor), constant(divisor, 0));
  return b.CreateAnd(nonzero, signsDiffer, "floor.fix");
}

} // namespace

llvm::Value *emitIntDiv(llvm::IRBuilderBase &b, llvm::Value *lhs, llvm::Value *rhs, bool isSigned) {
  SafeDivisor safe = makeSafeDivisor(b, rhs, isSigned);
  llvm::Value *quotient =
      isSigned ? b.CreateSDiv(lhs, safe.divisor) : b.CreateUDiv(lhs, safe.divisor);
  quotient = negateWhereMinusOne(b, safe, quotient, lhs);
  return b.CreateSelect(safe.isZero, constant(lhs, 0), quotient, "div");
}

llvm::Value *emitIntFloorDiv(llvm::IRBuilderBase &b, llvm::Value *lhs, llvm::Value *rhs,
                             bool isSigned) {
  if (!isSigned)
    return emitIntDiv(b, lhs, rhs, false);
  SafeDivisor safe = makeSafeDivisor(b, rhs, true);
  llvm::Value *quotient = b.CreateSDiv(lhs, safe.divisor);
  llvm::Value *remainder = b.CreateSRem(lhs, safe.divisor);
  llvm::Value *fix = remainderNeedsFloorFix(b, remainder, safe.divisor);
  quotient = b.CreateSub(quotient, b.CreateZExt(fix, quotient->getType()));
  quotient = negateWhereMinusOne(b, safe, quotient, lhs);
  return b.CreateSelect(safe.isZero, constant(lhs, 0), quotient, "floordiv");
}

llvm::Value *emitIntMod(llvm::IRBuilderBase &b, llvm::Value *lhs, llvm::Value *rhs, bool isSigned) {
  // x % -1 == 0 and x % 1 == 0, so the safe divisor's substitution of 1 is already exact.
  SafeDivisor safe = makeSafeDivisor(b, rhs, isSigned);
  if (!isSigned) {
    llvm::Value *remainder = b.CreateURem(lhs, safe.divisor);
    return b.CreateSelect(safe.isZero, constant(lhs, 0), remainder, "mod");
  }
  llvm::Value *remainder = b.CreateSRem(lhs, safe.divisor);
  llvm::Value *fix = remainderNeedsFloorFix(b, remainder, safe.divisor);
  remainder = b.CreateSelect(fix, b.CreateAdd(remainder, safe.divisor), remainder);
  return b.CreateSelect(safe.isZero, constant(lhs, 0), remainder, "mod");
}

namespace {

struct FloatDivMod {
  llvm::Value *quotient;
  llvm::Value *remainder;
};

// CPython's float_divmod: the remainder takes the divisor's sign, the quotient is the
// exactly-rounded floor of the true quotient.
FloatDivMod emitFloatDivMod(llvm::IRBuilderBase &b, const Target &target, llvm::Value *vx,
                            llvm::Value *wx) {
  llvm::Type *type = vx->getType();
  llvm::Value *zero = llvm::ConstantFP::get(type, 0.0);
  llvm::Value *one = llvm::ConstantFP::get(type, 1.0);
  llvm::Value *half = llvm::ConstantFP::get(type, 0.5);

  llvm::Value *mod = emitMath(b, target, ir::MathFunctionKind::FMod, {vx, wx});
  llvm::Value *div = b.CreateFDiv(b.CreateFSub(vx, mod), wx);
  llvm::Value *modNonzero = b.CreateFCmpUNE(mod, zero);
  llvm::Value *signsDiffer = b.CreateICmpNE(b.CreateFCmpOLT(wx, zero), b.CreateFCmpOLT(mod, zero));
  llvm::Value *adjust = b.CreateAnd(modNonzero, signsDiffer);
  llvm::Value *adjustedMod = b.CreateSelect(adjust, b.CreateFAdd(mod, wx), mod);
  llvm::Value *adjustedDiv = b.CreateSelect(adjust, b.CreateFSub(div, one), div);
  llvm::Value *signedZeroMod = emitMath(b, target, ir::MathFunctionKind::CopySign, {zero, wx});
  llvm::Value *remainder = b.CreateSelect(modNonzero, adjustedMod, signedZeroMod, "fmod.py");

  llvm::Value *floored = emitMath(b, target, ir::MathFunctionKind::Floor, {adjustedDiv});
  llvm::Value *roundUp = b.CreateFCmpOGT(b.CreateFSub(adjustedDiv, floored), half);
  floored = b.CreateSelect(roundUp, b.CreateFAdd(floored, one), floored);
  llvm::Value *signedZeroDiv =
      emitMath(b, target, ir::MathFunctionKind::CopySign, {zero, b.CreateFDiv(vx, wx)});
  llvm::Value *divNonzero = b.CreateFCmpUNE(adjustedDiv, zero);
  llvm::Value *quotient = b.CreateSelect(divNonzero, floored, signedZeroDiv, "floordiv.py");
  return {quotient, remainder};
}

// float16 as numpy computes it (npy_half_divmod), and bfloat16 as ml_dtypes does: float_divmod
// in float32, each result rounded to the narrow type once. Rounding at every step instead can
// carry the quotient past the true one.
FloatDivMod emitDivModOfKind(llvm::IRBuilderBase &b, const Target &target, llvm::Value *vx,
                             llvm::Value *wx) {
  llvm::Type *type = vx->getType();
  if (!type->is16bitFPTy())
    return emitFloatDivMod(b, target, vx, wx);
  llvm::Type *wide = b.getFloatTy();
  FloatDivMod result = emitFloatDivMod(b, target, b.CreateFPExt(vx, wide), b.CreateFPExt(wx, wide));
  return {b.CreateFPTrunc(result.quotient, type), b.CreateFPTrunc(result.remainder, type)};
}

} // namespace

llvm::Value *emitFloatFloorDiv(llvm::IRBuilderBase &b, const Target &target, llvm::Value *lhs,
                               llvm::Value *rhs) {
  return emitDivModOfKind(b, target, lhs, rhs).quotient;
}

llvm::Value *emitFloatMod(llvm::IRBuilderBase &b, const Target &target, llvm::Value *lhs,
                          llvm::Value *rhs) {
  return emitDivModOfKind(b, target, lhs, rhs).remainder;
}

llvm::Value *emitShl(llvm::IRBuilderBase &b, llvm::Value *lhs, llvm::Value *rhs) {
  unsigned width = lhs->getType()->getIntegerBitWidth();
  llvm::Value *tooFar = b.CreateICmpUGE(rhs, constant(rhs, width), "shift.too_far");
  llvm::Value *amount = b.CreateSelect(tooFar, constant(rhs, 0), rhs);
  return b.CreateSelect(tooFar, constant(lhs, 0), b.CreateShl(lhs, amount), "shl");
}

llvm::Value *emitShr(llvm::IRBuilderBase &b, llvm::Value *lhs, llvm::Value *rhs, bool isSigned) {
  unsigned width = lhs->getType()->getIntegerBitWidth();
  llvm::Value *tooFar = b.CreateICmpUGE(rhs, constant(rhs, width), "shift.too_far");
  if (isSigned) {
    // Shifting by width - 1 already gives the saturated 0 or -1.
    llvm::Value *amount = b.CreateSelect(tooFar, constant(rhs, width - 1), rhs);
    return b.CreateAShr(lhs, amount, "shr");
  }
  llvm::Value *amount = b.CreateSelect(tooFar, constant(rhs, 0), rhs);
  return b.CreateSelect(tooFar, constant(lhs, 0), b.CreateLShr(lhs, amount), "shr");
}

llvm::Value *emitIntPow(llvm::IRBuilderBase &b, llvm::Value *base, llvm::Value *exponent,
                        bool isSigned) {
  llvm::Value *one = constant(base, 1);
  llvm::Value *zero = constant(base, 0);
  llvm::Value *negativeExponent = isSigned ? b.CreateICmpSLT(exponent, zero) : b.getFalse();
  llvm::Value *loopExponent = b.CreateSelect(negativeExponent, zero, exponent);

  llvm::BasicBlock *entry = b.GetInsertBlock();
  llvm::Function *function = entry->getParent();
  llvm::LLVMContext &context = function->getContext();
  llvm::BasicBlock *header = llvm::BasicBlock::Create(context, "pow.header", function);
  llvm::BasicBlock *body = llvm::BasicBlock::Create(context, "pow.body", function);
  llvm::BasicBlock *exit = llvm::BasicBlock::Create(context, "pow.exit", function);
  b.CreateBr(header);

  b.SetInsertPoint(header);
  llvm::PHINode *result = b.CreatePHI(base->getType(), 2, "pow.result");
  llvm::PHINode *square = b.CreatePHI(base->getType(), 2, "pow.square");
  llvm::PHINode *remaining = b.CreatePHI(base->getType(), 2, "pow.remaining");
  b.CreateCondBr(b.CreateICmpNE(remaining, zero), body, exit);

  b.SetInsertPoint(body);
  llvm::Value *bitSet = b.CreateICmpNE(b.CreateAnd(remaining, one), zero);
  llvm::Value *nextResult = b.CreateSelect(bitSet, b.CreateMul(result, square), result);
  llvm::Value *nextSquare = b.CreateMul(square, square);
  llvm::Value *nextRemaining = b.CreateLShr(remaining, one);
  b.CreateBr(header);

  result->addIncoming(one, entry);
  result->addIncoming(nextResult, body);
  square->addIncoming(base, entry);
  square->addIncoming(nextSquare, body);
  remaining->addIncoming(loopExponent, entry);
  remaining->addIncoming(nextRemaining, body);

  b.SetInsertPoint(exit);
  if (!isSigned)
    return result;
  // base ** -n: 1 for base 1, ±1 for base -1 by the parity of n, else 0 (kaji IR's rule).
  llvm::Value *oddExponent = b.CreateICmpNE(b.CreateAnd(exponent, one), zero);
  llvm::Value *minusOnePower = b.CreateSelect(oddExponent, constant(base, -1), one);
  llvm::Value *negativeResult =
      b.CreateSelect(b.CreateICmpEQ(base, one), one,
                     b.CreateSelect(b.CreateICmpEQ(base, constant(base, -1)), minusOnePower, zero));
  return b.CreateSelect(negativeExponent, negativeResult, result, "pow");
}

} // namespace kaji::codegen
