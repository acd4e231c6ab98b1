#include "kaji/codegen/llvm/LibdeviceLowering.h"

#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>

namespace kaji::codegen {
namespace {

using ir::ScalarKind;

// libdevice's types: int16/int32/int64 (signedness is the function's business), float, double.
llvm::Type *libdeviceType(llvm::LLVMContext &context, ScalarKind kind) {
  switch (kind) {
  case ScalarKind::Float32:
    return llvm::Type::getFloatTy(context);
  case ScalarKind::Float64:
    return llvm::Type::getDoubleTy(context);
  default:
    return llvm::Type::getIntNTy(context, ir::bitWidth(kind));
  }
}

// A stack slot in the function's entry block, where SROA turns it back into a register.
llvm::Value *entryAlloca(llvm::IRBuilderBase &builder, llvm::Type *type) {
  llvm::Function *function = builder.GetInsertBlock()->getParent();
  llvm::IRBuilder<> entry(&function->getEntryBlock(), function->getEntryBlock().begin());
  return entry.CreateAlloca(type);
}

// (a op b) >> 1 without overflow, rounding up when `roundUp` (CUDA's hadd/rhadd).
llvm::Value *halvingAdd(llvm::IRBuilderBase &builder, llvm::Value *a, llvm::Value *b, bool isSigned,
                        bool roundUp) {
  llvm::Type *wide = builder.getInt64Ty();
  auto widen = [&](llvm::Value *v) {
    return isSigned ? builder.CreateSExt(v, wide) : builder.CreateZExt(v, wide);
  };
  llvm::Value *sum = builder.CreateAdd(widen(a), widen(b));
  if (roundUp)
    sum = builder.CreateAdd(sum, builder.getInt64(1));
  sum = isSigned ? builder.CreateAShr(sum, 1) : builder.CreateLShr(sum, 1);
  return builder.CreateTrunc(sum, a->getType());
}

// The high half of the double-width product.
llvm::Value *multiplyHigh(llvm::IRBuilderBase &builder, llvm::Value *a, llvm::Value *b,
                          bool isSigned) {
  unsigned bits = a->getType()->getIntegerBitWidth();
  llvm::Type *wide = builder.getIntNTy(2 * bits);
  auto widen = [&](llvm::Value *v) {
    return isSigned ? builder.CreateSExt(v, wide) : builder.CreateZExt(v, wide);
  };
  llvm::Value *product = builder.CreateMul(widen(a), widen(b));
  return builder.CreateTrunc(builder.CreateLShr(product, bits), a->getType());
}

// |a - b| + c, CUDA's sad/usad.
llvm::Value *sumOfAbsoluteDifference(llvm::IRBuilderBase &builder, llvm::Value *a, llvm::Value *b,
                                     llvm::Value *c, bool isSigned) {
  llvm::Value *aBelow = isSigned ? builder.CreateICmpSLT(a, b) : builder.CreateICmpULT(a, b);
  llvm::Value *difference =
      builder.CreateSelect(aBelow, builder.CreateSub(b, a), builder.CreateSub(a, b));
  return builder.CreateAdd(difference, c);
}

// Float to integer with CUDA's rounding suffix (rn: to nearest even, rz: toward zero,
// rd: down, ru: up).
llvm::Value *roundedToInteger(llvm::IRBuilderBase &builder, llvm::Value *x, char mode,
                              llvm::Type *result) {
  llvm::Intrinsic::ID rounding = mode == 'n'   ? llvm::Intrinsic::roundeven
                                 : mode == 'd' ? llvm::Intrinsic::floor
                                 : mode == 'u' ? llvm::Intrinsic::ceil
                                               : llvm::Intrinsic::trunc;
  // fptosi.sat: out of range saturates and NaN gives 0, as the GPU's cvt does.
  llvm::Value *rounded = builder.CreateUnaryIntrinsic(rounding, x);
  return builder.CreateIntrinsic(llvm::Intrinsic::fptosi_sat, {result, x->getType()}, {rounded});
}

} // namespace

llvm::Value *emitLibdeviceCall(llvm::IRBuilderBase &builder, const std::string &symbol,
                               const ir::LibdeviceFunction &function, size_t value,
                               llvm::ArrayRef<llvm::Value *> args) {
  llvm::LLVMContext &context = builder.getContext();
  llvm::Type *pointer = llvm::PointerType::get(context, 0);
  std::vector<llvm::Type *> parameters;
  for (ScalarKind kind : function.parameters)
    parameters.push_back(libdeviceType(context, kind));
  parameters.insert(parameters.end(), function.outputs.size(), pointer);
  llvm::Type *result =
      function.result ? libdeviceType(context, *function.result) : builder.getVoidTy();
  llvm::Module *module = builder.GetInsertBlock()->getModule();
  llvm::FunctionCallee callee =
      module->getOrInsertFunction(symbol, llvm::FunctionType::get(result, parameters, false));
  if (auto *declaration = llvm::dyn_cast<llvm::Function>(callee.getCallee()))
    declaration->setDoesNotThrow();

  std::vector<llvm::Value *> operands(args.begin(), args.end());
  std::vector<llvm::Value *> slots;
  for (ScalarKind kind : function.outputs) {
    slots.push_back(entryAlloca(builder, libdeviceType(context, kind)));
    operands.push_back(slots.back());
  }
  llvm::Value *call = builder.CreateCall(callee, operands);
  if (function.result && value == 0)
    return call;
  size_t output = value - (function.result ? 1 : 0);
  return builder.CreateLoad(libdeviceType(context, function.outputs[output]), slots[output]);
}

llvm::Value *emitOwnLibdevice(llvm::IRBuilderBase &builder, const ir::LibdeviceFunction &function,
                              llvm::ArrayRef<llvm::Value *> args) {
  std::string_view name = function.name;
  llvm::Type *result = libdeviceType(builder.getContext(), *function.result);
  llvm::Value *x = args.front();
  auto intrinsic = [&](llvm::Intrinsic::ID id) {
    return builder.CreateIntrinsic(id, {x->getType()}, args);
  };
  auto toResult = [&](llvm::Value *v) { return builder.CreateZExtOrTrunc(v, result); };
  if (name == "abs" || name == "llabs")
    return builder.CreateBinaryIntrinsic(llvm::Intrinsic::abs, x, builder.getFalse());
  if (name == "min" || name == "llmin")
    return intrinsic(llvm::Intrinsic::smin);
  if (name == "max" || name == "llmax")
    return intrinsic(llvm::Intrinsic::smax);
  if (name == "umin" || name == "ullmin")
    return intrinsic(llvm::Intrinsic::umin);
  if (name == "umax" || name == "ullmax")
    return intrinsic(llvm::Intrinsic::umax);
  if (name == "popc" || name == "popcll")
    return toResult(builder.CreateUnaryIntrinsic(llvm::Intrinsic::ctpop, x));
  if (name == "clz" || name == "clzll")
    return toResult(builder.CreateBinaryIntrinsic(llvm::Intrinsic::ctlz, x, builder.getFalse()));
  if (name == "brev" || name == "brevll")
    return builder.CreateUnaryIntrinsic(llvm::Intrinsic::bitreverse, x);
  if (name == "ffs" || name == "ffsll") {
    llvm::Value *trailing =
        builder.CreateBinaryIntrinsic(llvm::Intrinsic::cttz, x, builder.getFalse());
    llvm::Value *zero = llvm::ConstantInt::get(x->getType(), 0);
    llvm::Value *position = builder.CreateAdd(trailing, llvm::ConstantInt::get(x->getType(), 1));
    return toResult(builder.CreateSelect(builder.CreateICmpEQ(x, zero), zero, position));
  }
  if (name == "mulhi" || name == "mul64hi")
    return multiplyHigh(builder, x, args[1], true);
  if (name == "umulhi" || name == "umul64hi")
    return multiplyHigh(builder, x, args[1], false);
  if (name == "hadd" || name == "rhadd")
    return halvingAdd(builder, x, args[1], true, name == "rhadd");
  if (name == "uhadd" || name == "urhadd")
    return halvingAdd(builder, x, args[1], false, name == "urhadd");
  if (name == "sad" || name == "usad")
    return sumOfAbsoluteDifference(builder, x, args[1], args[2], name == "sad");
  if (name == "rsqrt" || name == "rsqrtf")
    return builder.CreateFDiv(llvm::ConstantFP::get(x->getType(), 1.0),
                              builder.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, x));
  if (name == "saturatef") {
    // maxnum(NaN, 0) is 0: saturate maps NaN to 0 as the GPU does.
    llvm::Value *low = builder.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, x,
                                                     llvm::ConstantFP::get(x->getType(), 0.0));
    return builder.CreateBinaryIntrinsic(llvm::Intrinsic::minnum, low,
                                         llvm::ConstantFP::get(x->getType(), 1.0));
  }
  if (name.find("_as_") != std::string_view::npos)
    return builder.CreateBitCast(x, result);
  if (name == "isnand" || name == "isnanf")
    return toResult(builder.CreateFCmpUNO(x, x));
  auto magnitude = [&] { return builder.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x); };
  llvm::Value *infinity =
      x->getType()->isFloatingPointTy() ? llvm::ConstantFP::getInfinity(x->getType()) : nullptr;
  if (name == "isinfd" || name == "isinff")
    return toResult(builder.CreateFCmpOEQ(magnitude(), infinity));
  if (name == "finitef" || name == "isfinited")
    return toResult(builder.CreateFCmpOLT(magnitude(), infinity));
  if (name == "signbitd" || name == "signbitf") {
    llvm::Type *bits = builder.getIntNTy(x->getType()->getPrimitiveSizeInBits());
    llvm::Value *negative =
        builder.CreateICmpSLT(builder.CreateBitCast(x, bits), llvm::ConstantInt::get(bits, 0));
    return toResult(negative);
  }
  if (name == "fast_fdividef" || name == "fdiv_rn" || name == "ddiv_rn")
    return builder.CreateFDiv(x, args[1]);
  if (name == "fadd_rn" || name == "dadd_rn")
    return builder.CreateFAdd(x, args[1]);
  if (name == "fsub_rn" || name == "dsub_rn")
    return builder.CreateFSub(x, args[1]);
  if (name == "fmul_rn" || name == "dmul_rn")
    return builder.CreateFMul(x, args[1]);
  if (name == "fmaf_rn" || name == "fma_rn")
    return intrinsic(llvm::Intrinsic::fma);
  if (name == "frcp_rn" || name == "drcp_rn")
    return builder.CreateFDiv(llvm::ConstantFP::get(x->getType(), 1.0), x);
  if (name == "fsqrt_rn" || name == "dsqrt_rn")
    return builder.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, x);
  if (name == "double2float_rn")
    return builder.CreateFPTrunc(x, result);
  if (name == "int2float_rn" || name == "int2double_rn" || name == "ll2double_rn" ||
      name == "ll2float_rn")
    return builder.CreateSIToFP(x, result);
  // float2int_rz, double2ll_rn, ...: the rounding mode is the name's last letter.
  return roundedToInteger(builder, x, name.back(), result);
}

} // namespace kaji::codegen
