#include "MathLowering.h"

#include "kaji/ir/MathFunctions.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>

#include <string>

namespace kaji::codegen {
namespace {

// The LLVM intrinsic of a math function that every kaji target selects to instructions, or
// not_intrinsic where the target's math library computes it.
llvm::Intrinsic::ID intrinsicOf(ir::MathFunctionKind function) {
  static constexpr llvm::Intrinsic::ID kIntrinsics[] = {
#define KAJI_MATH_FUNCTION(kind, name, arity, result, half, llvmIntrinsic)                         \
  llvm::Intrinsic::llvmIntrinsic,
#include "kaji/ir/MathFunctions.def"
#undef KAJI_MATH_FUNCTION
  };
  return kIntrinsics[size_t(function)];
}

llvm::Value *emitPredicate(llvm::IRBuilderBase &builder, ir::MathFunctionKind function,
                           llvm::Value *x) {
  if (function == ir::MathFunctionKind::IsNan)
    return builder.CreateFCmpUNO(x, x, "isnan");
  llvm::Value *magnitude = builder.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x);
  llvm::Value *infinity = llvm::ConstantFP::getInfinity(x->getType());
  if (function == ir::MathFunctionKind::IsInf)
    return builder.CreateFCmpOEQ(magnitude, infinity, "isinf");
  return builder.CreateFCmpOLT(magnitude, infinity, "isfinite");
}

llvm::Value *emitLibraryCall(llvm::IRBuilderBase &builder, const Target &target,
                             std::string_view name, llvm::ArrayRef<llvm::Value *> args) {
  llvm::Type *type = args.front()->getType();
  ir::ScalarKind kind = type->isDoubleTy() ? ir::ScalarKind::Float64 : ir::ScalarKind::Float32;
  // Fast math lowers with the approximate-functions flag set on every instruction.
  std::string symbol =
      target.mathFunctionSymbol(name, kind, builder.getFastMathFlags().approxFunc());
  llvm::Module *module = builder.GetInsertBlock()->getModule();
  llvm::FunctionType *signature =
      llvm::FunctionType::get(type, llvm::SmallVector<llvm::Type *, 3>(args.size(), type), false);
  llvm::FunctionCallee callee = module->getOrInsertFunction(symbol, signature);
  if (auto *declaration = llvm::dyn_cast<llvm::Function>(callee.getCallee()))
    declaration->setDoesNotThrow();
  return builder.CreateCall(callee, args, std::string(name));
}

// pow(x, e) for a constant e of 0, 1, 2 or -1: 1, x, x * x or 1 / x, each exactly the
// correctly rounded pow (NaN, infinities and signed zeros included), or null for any other
// exponent. The math libraries' pow is not correctly rounded (libdevice's is up to 2 ulp off:
// 3.0 ** 1.0 gave 2.9999999999999996 on an H100), and these exponents are the common ones.
llvm::Value *emitExactPower(llvm::IRBuilderBase &builder, llvm::Value *x, llvm::Value *exponent) {
  auto *constant = llvm::dyn_cast<llvm::ConstantFP>(exponent);
  if (!constant)
    return nullptr;
  const llvm::APFloat &e = constant->getValueAPF();
  llvm::Type *type = x->getType();
  if (e.isZero())
    return llvm::ConstantFP::get(type, 1.0);
  if (e.isExactlyValue(1.0))
    return x;
  if (e.isExactlyValue(2.0))
    return builder.CreateFMul(x, x, "square");
  if (e.isExactlyValue(-1.0))
    return builder.CreateFDiv(llvm::ConstantFP::get(type, 1.0), x, "reciprocal");
  return nullptr;
}

} // namespace

llvm::Value *emitBitFunction(llvm::IRBuilderBase &builder, ir::BitFunction function,
                             llvm::Value *x) {
  if (function == ir::BitFunction::Popc)
    return builder.CreateUnaryIntrinsic(llvm::Intrinsic::ctpop, x);
  if (function == ir::BitFunction::Brev)
    return builder.CreateUnaryIntrinsic(llvm::Intrinsic::bitreverse, x);
  llvm::Value *zeroIsPoison = builder.getInt1(false);
  if (function == ir::BitFunction::Clz)
    return builder.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, x, zeroIsPoison);
  llvm::Value *trailing = builder.CreateBinaryIntrinsic(llvm::Intrinsic::cttz, x, zeroIsPoison);
  llvm::Value *zero = llvm::ConstantInt::get(x->getType(), 0);
  return builder.CreateSelect(builder.CreateICmpEQ(x, zero), zero,
                              builder.CreateAdd(trailing, llvm::ConstantInt::get(x->getType(), 1)),
                              "ffs");
}

llvm::Value *emitMath(llvm::IRBuilderBase &builder, const Target &target,
                      ir::MathFunctionKind function, llvm::ArrayRef<llvm::Value *> args) {
  const ir::MathFunction &row = ir::mathFunction(function);
  if (row.result == ir::MathResult::Bool)
    return emitPredicate(builder, function, args.front());

  llvm::Type *type = args.front()->getType();
  if (type->is16bitFPTy()) {
    llvm::SmallVector<llvm::Value *, 3> widened;
    for (llvm::Value *arg : args)
      widened.push_back(builder.CreateFPExt(arg, builder.getFloatTy()));
    return builder.CreateFPTrunc(emitMath(builder, target, function, widened), type);
  }
  if (llvm::Intrinsic::ID intrinsic = intrinsicOf(function);
      intrinsic != llvm::Intrinsic::not_intrinsic)
    return builder.CreateIntrinsic(intrinsic, {type}, args, nullptr, std::string(row.name));
  return emitLibraryCall(builder, target, row.name, args);
}

llvm::Value *emitFloatPower(llvm::IRBuilderBase &builder, const Target &target, llvm::Value *x,
                            llvm::Value *exponent) {
  llvm::Type *type = x->getType();
  if (type->is16bitFPTy())
    return builder.CreateFPTrunc(
        emitFloatPower(builder, target, builder.CreateFPExt(x, builder.getFloatTy()),
                       builder.CreateFPExt(exponent, builder.getFloatTy())),
        type);
  if (llvm::Value *exact = emitExactPower(builder, x, exponent))
    return exact;
  return emitLibraryCall(builder, target, "pow", {x, exponent});
}

} // namespace kaji::codegen
