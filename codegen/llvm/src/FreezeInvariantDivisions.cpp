#include "FreezeInvariantDivisions.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>

#include <vector>

namespace kaji::codegen {
namespace {

// A division by a value known only at run time: the one a loop would pay for again.
bool isDivision(const llvm::Instruction &instruction) {
  switch (instruction.getOpcode()) {
  case llvm::Instruction::UDiv:
  case llvm::Instruction::SDiv:
  case llvm::Instruction::URem:
  case llvm::Instruction::SRem:
    return !llvm::isa<llvm::Constant>(instruction.getOperand(1));
  default:
    return false;
  }
}

} // namespace

llvm::PreservedAnalyses FreezeInvariantDivisionsPass::run(llvm::Function &function,
                                                          llvm::FunctionAnalysisManager &analyses) {
  if (analyses.getResult<llvm::LoopAnalysis>(function).empty())
    return llvm::PreservedAnalyses::all();
  std::vector<llvm::Instruction *> divisions;
  for (llvm::BasicBlock &block : function)
    for (llvm::Instruction &instruction : block)
      if (isDivision(instruction))
        divisions.push_back(&instruction);
  const llvm::DataLayout &layout = function.getDataLayout();
  for (llvm::Instruction *division : divisions) {
    unsigned knownBits = llvm::computeKnownBits(division, layout).countMaxActiveBits();
    auto *frozen = new llvm::FreezeInst(division, division->getName() + ".frozen");
    frozen->insertAfter(division);
    llvm::Value *value = frozen;
    if (knownBits > 0 && knownBits < division->getType()->getIntegerBitWidth()) {
      llvm::IRBuilder<> builder(frozen->getNextNode());
      value = builder.CreateZExt(builder.CreateTrunc(frozen, builder.getIntNTy(knownBits)),
                                 division->getType());
    }
    division->replaceUsesWithIf(value, [&](llvm::Use &use) { return use.getUser() != frozen; });
  }
  if (divisions.empty())
    return llvm::PreservedAnalyses::all();
  llvm::PreservedAnalyses preserved;
  preserved.preserveSet<llvm::CFGAnalyses>();
  return preserved;
}

} // namespace kaji::codegen
