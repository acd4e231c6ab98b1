#include "FunctionLowering.h"

namespace kaji::codegen::lowering {

void FunctionLowering::lowerReturn(const ir::Operation &op) {
  ir::Type returnType = function_.returnType();
  if (op.numOperands() == 0) {
    if (!returnType.isVoid())
      throw CompileError(op.location(),
                         "function '" + function_.name() + "' must return a " + returnType.str());
    builder_.CreateRetVoid();
    return;
  }
  if (op.operand(0)->type() != returnType)
    throw CompileError(op.location(), "function '" + function_.name() + "' returns " +
                                          returnType.str() + ", not " +
                                          op.operand(0)->type().str());
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
  const ir::Block &target = *successor.block;
  if (successor.args.size() != target.arguments().size())
    throw CompileError(op.location(), "branch passes " + std::to_string(successor.args.size()) +
                                          " argument(s) to a block that takes " +
                                          std::to_string(target.arguments().size()));
  std::vector<std::vector<llvm::Value *>> arguments;
  for (size_t i = 0; i < successor.args.size(); ++i) {
    if (successor.args[i]->type() != target.argument(i)->type())
      throw CompileError(op.location(), "branch passes a " + successor.args[i]->type().str() +
                                            " to a block argument of type " +
                                            target.argument(i)->type().str());
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
    if (successors.size() != 1)
      throw CompileError(op.location(), "'br' needs one successor");
    addIncoming(*successors[0].block, successorArguments(successors[0], op), op);
    builder_.CreateBr(blocks_.at(successors[0].block));
    return;
  }
  if (successors.size() != 2 || op.numOperands() != 1 || !op.operand(0)->type().isBool())
    throw CompileError(op.location(), "'cond_br' needs a bool condition and two successors");
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
