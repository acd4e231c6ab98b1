#include "FunctionLowering.h"

#include "kaji/abi/KernelABI.h"

#include <cassert>

namespace kaji::codegen {

void storeRaisingThread(llvm::IRBuilderBase &builder, const Target &target, llvm::Value *record) {
  auto *fields = llvm::ArrayType::get(builder.getInt32Ty(), abi::kRaisingThreadFields);
  for (unsigned field = 0; field < abi::kRaisingThreadFields; ++field) {
    ir::SpecialReg reg{field < 3 ? ir::SpecialReg::ThreadIdx : ir::SpecialReg::BlockIdx,
                       uint8_t(field % 3)};
    builder.CreateStore(target.emitSpecialReg(builder, reg),
                        builder.CreateConstInBoundsGEP2_32(fields, record, 0, field));
  }
}

} // namespace kaji::codegen

namespace kaji::codegen::lowering {

void FunctionLowering::lowerReturn(const ir::Operation &op) {
  if (op.numOperands() == 0) {
    assert(function_.returnType().isVoid() &&
           "verified: 'ret' of a non-void function returns a value");
    builder_.CreateRetVoid();
    return;
  }
  assert(op.operand(0)->type() == function_.returnType() &&
         "verified: 'ret' returns the function's type");
  builder_.CreateRet(scalar(op.operand(0), op));
}

void FunctionLowering::lowerRaise(const ir::Operation &op) {
  const auto *exception = std::get_if<std::string>(&op.attr());
  target_.emitRaise(builder_, op.location(), function_.name(), exception ? *exception : "",
                    exception ? moduleLowering_.exceptionNumber(op) : 0);
}

std::vector<std::vector<llvm::Value *>>
FunctionLowering::successorArguments(const ir::Successor &successor,
                                     const ir::Operation &op) const {
  assert(successor.args.size() == successor.block->arguments().size() &&
         "verified: a branch passes one argument per block argument");
  std::vector<std::vector<llvm::Value *>> arguments;
  for (size_t i = 0; i < successor.args.size(); ++i) {
    assert(successor.args[i]->type() == successor.block->argument(i)->type() &&
           "verified: a branch argument has its block argument's type");
    arguments.push_back(parts(successor.args[i], op));
  }
  return arguments;
}

void FunctionLowering::addIncoming(const ir::Block &target,
                                   const std::vector<std::vector<llvm::Value *>> &arguments,
                                   const ir::Operation &op) {
  llvm::BasicBlock *from = builder_.GetInsertBlock();
  for (size_t i = 0; i < arguments.size(); ++i) {
    std::vector<llvm::Value *> phis = parts(target.argument(i), op);
    for (size_t p = 0; p < phis.size(); ++p)
      llvm::cast<llvm::PHINode>(phis[p])->addIncoming(arguments[i][p], from);
  }
}

void FunctionLowering::lowerBranch(const ir::Operation &op) {
  const auto &successors = op.successors();
  if (op.opcode() == Opcode::Br) {
    assert(successors.size() == 1 && "verified: 'br' has one successor");
    addIncoming(*successors[0].block, successorArguments(successors[0], op), op);
    builder_.CreateBr(blocks_.at(successors[0].block));
    return;
  }
  assert(successors.size() == 2 && op.numOperands() == 1 && op.operand(0)->type().isBool() &&
         "verified: 'cond_br' has a bool condition and two successors");
  llvm::Value *condition = scalar(op.operand(0), op);
  auto ifTrue = successorArguments(successors[0], op);
  auto ifFalse = successorArguments(successors[1], op);
  if (successors[0].block == successors[1].block) {
    // One LLVM edge cannot carry two sets of phi inputs: choose the arguments first.
    for (size_t i = 0; i < ifTrue.size(); ++i)
      for (size_t p = 0; p < ifTrue[i].size(); ++p)
        ifTrue[i][p] = builder_.CreateSelect(condition, ifTrue[i][p], ifFalse[i][p]);
    addIncoming(*successors[0].block, ifTrue, op);
    builder_.CreateBr(blocks_.at(successors[0].block));
    return;
  }
  addIncoming(*successors[0].block, ifTrue, op);
  addIncoming(*successors[1].block, ifFalse, op);
  builder_.CreateCondBr(condition, blocks_.at(successors[0].block),
                        blocks_.at(successors[1].block));
}

} // namespace kaji::codegen::lowering
