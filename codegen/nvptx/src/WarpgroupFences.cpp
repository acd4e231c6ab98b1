#include "WarpgroupFences.h"

#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <string_view>
#include <vector>

namespace kaji::codegen {

namespace {

std::string_view asmText(const llvm::Instruction &instruction) {
  const auto *call = llvm::dyn_cast<llvm::CallInst>(&instruction);
  const auto *inlineAsm =
      call ? llvm::dyn_cast<llvm::InlineAsm>(call->getCalledOperand()) : nullptr;
  return inlineAsm ? std::string_view(inlineAsm->getAsmString()) : std::string_view();
}

// "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16" where `text` runs one, else empty.
std::string_view multiplyOf(std::string_view text) {
  size_t start = text.find("wgmma.mma_async");
  if (start == std::string_view::npos)
    return {};
  return text.substr(start, text.find(' ', start) - start);
}

bool touchesNoAccumulator(const llvm::Instruction &instruction) {
  if (llvm::isa<llvm::ExtractValueInst>(instruction) ||
      llvm::isa<llvm::InsertElementInst>(instruction) ||
      llvm::isa<llvm::ExtractElementInst>(instruction))
    return true;
  llvm::Type *type = instruction.getType();
  return (type->isIntegerTy() || type->isPointerTy()) && !llvm::isa<llvm::CallBase>(instruction) &&
         !instruction.mayReadOrWriteMemory();
}

// Whether the fence `fence`, before a multiply of `multiply`, follows one of the same shape with
// nothing between that touches an accumulator.
bool follows(const llvm::Instruction &fence, std::string_view multiply) {
  for (const llvm::Instruction *earlier = fence.getPrevNode(); earlier;
       earlier = earlier->getPrevNode()) {
    if (std::string_view previous = multiplyOf(asmText(*earlier)); !previous.empty())
      return previous == multiply;
    if (!touchesNoAccumulator(*earlier))
      return false;
  }
  return false;
}

} // namespace

void elideWarpgroupFences(llvm::Module &module) {
  std::vector<llvm::Instruction *> redundant;
  for (llvm::Function &function : module)
    for (llvm::BasicBlock &block : function)
      for (llvm::Instruction &instruction : block) {
        if (asmText(instruction) != kWarpgroupFence)
          continue;
        std::string_view guarded;
        for (const llvm::Instruction *later = instruction.getNextNode(); later && guarded.empty();
             later = later->getNextNode())
          guarded = multiplyOf(asmText(*later));
        if (!guarded.empty() && follows(instruction, guarded))
          redundant.push_back(&instruction);
      }
  for (llvm::Instruction *fence : redundant)
    fence->eraseFromParent();
}

} // namespace kaji::codegen
