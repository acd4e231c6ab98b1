#include "MathLowering.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>

#include <string>
#include <utility>

namespace kaji::codegen {
namespace {

struct MathFunction {
  std::string_view name;
  unsigned arity;
  // The LLVM intrinsic every kaji target selects to an instruction, or not_intrinsic when
  // the function comes from the target's math library.
  llvm::Intrinsic::ID intrinsic;
};

constexpr MathFunction kMathFunctions[] = {
    {"sqrt", 1, llvm::Intrinsic::sqrt},
    {"fabs", 1, llvm::Intrinsic::fabs},
    {"floor", 1, llvm::Intrinsic::floor},
    {"ceil", 1, llvm::Intrinsic::ceil},
    {"trunc", 1, llvm::Intrinsic::trunc},
    {"round", 1, llvm::Intrinsic::round},
    {"roundeven", 1, llvm::Intrinsic::roundeven},
    {"copysign", 2, llvm::Intrinsic::copysign},
    {"fma", 3, llvm::Intrinsic::fma},
    // numpy's minimum/maximum propagate NaN; fmin/fmax return the other operand.
    {"minimum", 2, llvm::Intrinsic::minimum},
    {"maximum", 2, llvm::Intrinsic::maximum},
    {"fmin", 2, llvm::Intrinsic::minnum},
    {"fmax", 2, llvm::Intrinsic::maxnum},
    {"rsqrt", 1, llvm::Intrinsic::not_intrinsic},
    {"exp", 1, llvm::Intrinsic::not_intrinsic},
    {"exp2", 1, llvm::Intrinsic::not_intrinsic},
    {"expm1", 1, llvm::Intrinsic::not_intrinsic},
    {"log", 1, llvm::Intrinsic::not_intrinsic},
    {"log2", 1, llvm::Intrinsic::not_intrinsic},
    {"log10", 1, llvm::Intrinsic::not_intrinsic},
    {"log1p", 1, llvm::Intrinsic::not_intrinsic},
    {"sin", 1, llvm::Intrinsic::not_intrinsic},
    {"cos", 1, llvm::Intrinsic::not_intrinsic},
    {"tan", 1, llvm::Intrinsic::not_intrinsic},
    {"asin", 1, llvm::Intrinsic::not_intrinsic},
    {"acos", 1, llvm::Intrinsic::not_intrinsic},
    {"atan", 1, llvm::Intrinsic::not_intrinsic},
    {"atan2", 2, llvm::Intrinsic::not_intrinsic},
    {"sinh", 1, llvm::Intrinsic::not_intrinsic},
    {"cosh", 1, llvm::Intrinsic::not_intrinsic},
    {"tanh", 1, llvm::Intrinsic::not_intrinsic},
    {"asinh", 1, llvm::Intrinsic::not_intrinsic},
    {"acosh", 1, llvm::Intrinsic::not_intrinsic},
    {"atanh", 1, llvm::Intrinsic::not_intrinsic},
    {"pow", 2, llvm::Intrinsic::not_intrinsic},
    {"hypot", 2, llvm::Intrinsic::not_intrinsic},
    {"fmod", 2, llvm::Intrinsic::not_intrinsic},
    {"cbrt", 1, llvm::Intrinsic::not_intrinsic},
    {"erf", 1, llvm::Intrinsic::not_intrinsic},
    {"erfc", 1, llvm::Intrinsic::not_intrinsic},
    {"lgamma", 1, llvm::Intrinsic::not_intrinsic},
    {"tgamma", 1, llvm::Intrinsic::not_intrinsic},
    {"isnan", 1, llvm::Intrinsic::not_intrinsic},
    {"isinf", 1, llvm::Intrinsic::not_intrinsic},
    {"isfinite", 1, llvm::Intrinsic::not_intrinsic},
};

const MathFunction *findMathFunction(std::string_view name) {
  for (const MathFunction &f : kMathFunctions)
    if (f.name == name)
      return &f;
  return nullptr;
}

llvm::Value *emitPredicate(llvm::IRBuilderBase &builder, std::string_view name, llvm::Value *x) {
  if (name == "isnan")
    return builder.CreateFCmpUNO(x, x, "isnan");
  llvm::Value *magnitude = builder.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x);
  llvm::Value *infinity = llvm::ConstantFP::getInfinity(x->getType());
  if (name == "isinf")
    return builder.CreateFCmpOEQ(magnitude, infinity, "isinf");
  return builder.CreateFCmpOLT(magnitude, infinity, "isfinite");
}

llvm::Value *emitLibraryCall(llvm::IRBuilderBase &builder, const Target &target,
                             std::string_view name, llvm::ArrayRef<llvm::Value *> args) {
  llvm::Type *type = args.front()->getType();
  ir::ScalarKind kind = type->isDoubleTy() ? ir::ScalarKind::Float64 : ir::ScalarKind::Float32;
  std::string symbol = target.mathFunctionSymbol(name, kind);
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

llvm::Value *emitBitFunction(llvm::IRBuilderBase &builder, std::string_view name, llvm::Value *x) {
  if (name == "popc")
    return builder.CreateUnaryIntrinsic(llvm::Intrinsic::ctpop, x);
  if (name == "brev")
    return builder.CreateUnaryIntrinsic(llvm::Intrinsic::bitreverse, x);
  llvm::Value *zeroIsPoison = builder.getInt1(false);
  if (name == "clz")
    return builder.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, x, zeroIsPoison);
  llvm::Value *trailing = builder.CreateBinaryIntrinsic(llvm::Intrinsic::cttz, x, zeroIsPoison);
  llvm::Value *zero = llvm::ConstantInt::get(x->getType(), 0);
  return builder.CreateSelect(builder.CreateICmpEQ(x, zero), zero,
                              builder.CreateAdd(trailing, llvm::ConstantInt::get(x->getType(), 1)),
                              "ffs");
}

std::optional<unsigned> mathArity(std::string_view name) {
  if (const MathFunction *f = findMathFunction(name))
    return f->arity;
  return std::nullopt;
}

bool isMathPredicate(std::string_view name) {
  return name == "isnan" || name == "isinf" || name == "isfinite";
}

llvm::Value *emitMath(llvm::IRBuilderBase &builder, const Target &target, std::string_view name,
                      llvm::ArrayRef<llvm::Value *> args) {
  const MathFunction *function = findMathFunction(name);
  if (isMathPredicate(name))
    return emitPredicate(builder, name, args.front());

  llvm::Type *type = args.front()->getType();
  if (type->is16bitFPTy()) {
    llvm::SmallVector<llvm::Value *, 3> widened;
    for (llvm::Value *arg : args)
      widened.push_back(builder.CreateFPExt(arg, builder.getFloatTy()));
    return builder.CreateFPTrunc(emitMath(builder, target, name, widened), type);
  }
  if (function->intrinsic != llvm::Intrinsic::not_intrinsic)
    return builder.CreateIntrinsic(function->intrinsic, {type}, args, nullptr, std::string(name));
  if (name == "pow")
    if (llvm::Value *exact = emitExactPower(builder, args[0], args[1]))
      return exact;
  return emitLibraryCall(builder, target, name, args);
}

} // namespace kaji::codegen
