#include "IssueLoadsEarly.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

namespace kaji::codegen {

namespace {

// Whether a load may not move from after `instruction` to before it.
bool holdsLoadsBack(const llvm::Instruction &instruction) {
  return instruction.mayWriteToMemory() ||
         !llvm::isGuaranteedToTransferExecutionToSuccessor(&instruction) ||
         (llvm::isa<llvm::LoadInst>(instruction) &&
          !llvm::cast<llvm::LoadInst>(instruction).isSimple());
}

// The instruction (not a phi) that defines `operand` in `instruction`'s block, if one does.
llvm::Instruction *definitionInBlock(llvm::Value *operand, const llvm::Instruction &instruction) {
  auto *definition = llvm::dyn_cast<llvm::Instruction>(operand);
  if (!definition || definition->getParent() != instruction.getParent() ||
      llvm::isa<llvm::PHINode>(definition))
    return nullptr;
  return definition;
}

// The instruction of `instruction`'s block that it must stay after: the latest of its
// operands' definitions there and `floor`. Null: none, the block's first insertion point.
llvm::Instruction *latestDefinition(llvm::Instruction &instruction, llvm::Instruction *floor) {
  llvm::Instruction *after = floor;
  for (llvm::Value *operand : instruction.operands())
    if (llvm::Instruction *definition = definitionInBlock(operand, instruction))
      if (!after || after->comesBefore(definition))
        after = definition;
  return after;
}

// Never down: an instruction already above `after` (address arithmetic shared with a load before
// the floor) stays where its uses see it.
void moveUpTo(llvm::Instruction &instruction, llvm::Instruction *after) {
  llvm::BasicBlock &block = *instruction.getParent();
  if (after) {
    if (after->comesBefore(&instruction) && after->getNextNode() != &instruction)
      instruction.moveAfter(after);
  } else if (&*block.getFirstInsertionPt() != &instruction) {
    instruction.moveBefore(&*block.getFirstInsertionPt());
  }
}

// Moves `instruction` (and first, up to `depth` levels, the computations of its operands that
// may run anywhere: address arithmetic) as far up its block as they allow, not above `floor`.
void moveUp(llvm::Instruction &instruction, llvm::Instruction *floor, unsigned depth) {
  if (depth > 0)
    for (llvm::Value *operand : instruction.operands())
      if (llvm::Instruction *definition = definitionInBlock(operand, instruction))
        if (!definition->mayReadOrWriteMemory() && llvm::isSafeToSpeculativelyExecute(definition))
          moveUp(*definition, floor, depth - 1);
  moveUpTo(instruction, latestDefinition(instruction, floor));
}

// How many levels of a load's address computation move up with it: an element's address is
// a few adds and multiplies of the indices and strides.
constexpr unsigned kAddressDepth = 8;

// Blocks up to this many instructions: a move invalidates LLVM's numbering of the block's
// instructions, so each load after one costs a renumbering, quadratic in the block's size.
constexpr size_t kMaxBlockInstructions = 2048;

void issueLoadsEarly(llvm::BasicBlock &block) {
  if (block.size() > kMaxBlockInstructions)
    return;
  // The instruction the next load may go right after; null: the block's first insertion point.
  llvm::Instruction *fence = nullptr;
  for (llvm::Instruction &instruction : llvm::make_early_inc_range(block)) {
    if (llvm::isa<llvm::PHINode>(instruction))
      continue;
    auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction);
    if (load && load->isSimple())
      moveUp(*load, fence, kAddressDepth);
    else if (holdsLoadsBack(instruction))
      fence = &instruction;
  }
}

} // namespace

void issueLoadsEarly(llvm::Module &module) {
  for (llvm::Function &function : module)
    for (llvm::BasicBlock &block : function)
      issueLoadsEarly(block);
}

} // namespace kaji::codegen
