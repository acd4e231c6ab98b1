#include "FunctionLowering.h"

#include "kaji/ir/PrintfFormat.h"

#include <llvm/IR/Module.h>

#include <cassert>

namespace kaji::codegen::lowering {

// printf with Numba's conversions (ir/PrintfFormat.h): integers as %lld / %llu, floats as
// %f, bools as True / False, and NUL bytes as %c of 0; as many calls as CUDA's printf needs.
void FunctionLowering::lowerPrint(const ir::Operation &op) {
  for (const ir::PrintfFormat &printf : ir::printfFormats(op))
    lowerPrintf(op, printf);
}

void FunctionLowering::lowerPrintf(const ir::Operation &op, const ir::PrintfFormat &printf) {
  std::vector<llvm::Value *> args;
  for (const ir::PrintfArgument &argument : printf.arguments) {
    using Kind = ir::PrintfArgument::Kind;
    if (argument.kind == Kind::Nul) {
      args.push_back(builder_.getInt32(0)); // %c takes an int
      continue;
    }
    const ir::Value *operand = op.operand(argument.operand);
    ScalarKind kind = operand->type().scalarKind();
    llvm::Value *value = scalar(operand, op);
    if (argument.kind == Kind::Bool)
      args.push_back(builder_.CreateSelect(value, target_.emitCString(builder_, "True"),
                                           target_.emitCString(builder_, "False")));
    else
      args.push_back(castScalar(value, kind,
                                argument.kind == Kind::Float    ? ScalarKind::Float64
                                : argument.kind == Kind::Signed ? ScalarKind::Int64
                                                                : ScalarKind::UInt64));
  }
  target_.emitPrintf(builder_, target_.emitCString(builder_, printf.format), args);
}

void FunctionLowering::lowerCall(const ir::Operation &op) {
  const std::string &name = op.attrAs<std::string>();
  const ir::Function *callee = moduleLowering_.module().lookup(name);
  assert(callee && !callee->isKernel() && "verified: 'call' names a device function");
  assert(callee->paramTypes().size() == op.numOperands() &&
         "verified: 'call' passes one argument per parameter");
  std::vector<llvm::Value *> args;
  for (unsigned i = 0; i < op.numOperands(); ++i) {
    assert(op.operand(i)->type() == callee->entry()->argument(i)->type() &&
           "verified: 'call' passes arguments of its callee's parameter types");
    for (llvm::Value *part : parts(op.operand(i), op))
      args.push_back(part);
  }
  if (target_.implicitParameterType(context_))
    args.push_back(out_.getArg(out_.arg_size() - 1));
  llvm::Value *result = builder_.CreateCall(moduleLowering_.lowered(callee), args);
  if (op.result()) {
    assert(op.resultType() == callee->returnType() && "verified: 'call' has its callee's result");
    scalars_[op.result()] = result;
  }
}

// Numba's ABI for cuda.declare_device: `extern "C" __device__ int f(T *result, args...)`, the
// result stored through the pointer and the returned status ignored, as Numba does; the C ABI
// (extern_call_c): `T f(args...)`. The symbol stays undefined in the PTX; the driver's linker
// resolves it (docs/codegen.md).
void FunctionLowering::lowerExternCall(const ir::Operation &op) {
  const std::string &symbol = op.attrAs<std::string>();
  if (!target_.linksCudaDeviceCode())
    throw CompileError(op.location(), "'" + symbol +
                                          "' is a CUDA C++ device function (cuda.declare_device); "
                                          "only the cuda target can link it, not this one");
  bool numbaAbi = op.opcode() == ir::Opcode::ExternCall;
  std::vector<llvm::Type *> paramTypes;
  if (numbaAbi)
    paramTypes.push_back(llvm::PointerType::get(context_, 0));
  std::vector<llvm::Value *> args;
  for (ir::Value *operand : op.operands()) {
    args.push_back(scalar(operand, op));
    paramTypes.push_back(args.back()->getType());
  }
  llvm::Type *resultType =
      op.result() ? registerType(context_, op.resultType().scalarKind()) : builder_.getVoidTy();
  auto *type =
      llvm::FunctionType::get(numbaAbi ? builder_.getInt32Ty() : resultType, paramTypes, false);
  llvm::Module &module = *out_.getParent();
  llvm::Function *declared = module.getFunction(symbol);
  if (declared && declared->getFunctionType() != type)
    throw CompileError(op.location(),
                       "'" + symbol + "' is called with two different signatures in one kernel");
  if (!declared)
    declared = llvm::Function::Create(type, llvm::Function::ExternalLinkage, symbol, module);
  if (!numbaAbi) {
    llvm::CallInst *call = builder_.CreateCall(declared, args);
    if (op.result())
      scalars_[op.result()] = call;
    return;
  }
  // A function returning void still takes the pointer, to a byte no one reads.
  llvm::Type *slotType = op.result() ? resultType : builder_.getInt8Ty();
  llvm::IRBuilder<> entry(&out_.getEntryBlock(), out_.getEntryBlock().begin());
  llvm::AllocaInst *slot = entry.CreateAlloca(slotType, nullptr, symbol + ".result");
  llvm::Value *pointer = builder_.CreateAddrSpaceCast(slot, paramTypes[0]);
  args.insert(args.begin(), pointer);
  builder_.CreateCall(declared, args);
  if (op.result())
    scalars_[op.result()] = builder_.CreateLoad(resultType, slot);
}

} // namespace kaji::codegen::lowering
