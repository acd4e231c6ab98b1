#include "CpuSpinLoops.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>

namespace kaji::codegen {
namespace {

// Whether `value` is computed in `loop` from an atomic read-modify-write's result there,
// through the instructions' operands (loads of other memory do not count: they are not
// another thread's signal unless atomic).
bool dependsOnAtomic(llvm::Value *value, const llvm::Loop &loop) {
  llvm::SmallVector<llvm::Value *, 16> pending{value};
  llvm::SmallPtrSet<llvm::Value *, 32> seen;
  while (!pending.empty()) {
    auto *instruction = llvm::dyn_cast<llvm::Instruction>(pending.pop_back_val());
    if (!instruction || !loop.contains(instruction) || !seen.insert(instruction).second)
      continue;
    if (llvm::isa<llvm::AtomicRMWInst, llvm::AtomicCmpXchgInst>(instruction))
      return true;
    if (auto *load = llvm::dyn_cast<llvm::LoadInst>(instruction); load && load->isAtomic())
      return true;
    for (llvm::Value *operand : instruction->operands())
      pending.push_back(operand);
  }
  return false;
}

bool exitsOnAtomic(const llvm::Loop &loop) {
  llvm::SmallVector<llvm::BasicBlock *, 4> exiting;
  loop.getExitingBlocks(exiting);
  for (llvm::BasicBlock *block : exiting)
    if (auto *branch = llvm::dyn_cast<llvm::BranchInst>(block->getTerminator());
        branch && branch->isConditional() && dependsOnAtomic(branch->getCondition(), loop))
      return true;
  return false;
}

void collect(llvm::Loop &loop, std::vector<llvm::BasicBlock *> &headers) {
  if (exitsOnAtomic(loop))
    headers.push_back(loop.getHeader());
  for (llvm::Loop *inner : loop)
    collect(*inner, headers);
}

} // namespace

std::vector<llvm::BasicBlock *> spinLoopHeaders(llvm::Function &function) {
  std::vector<llvm::BasicBlock *> headers;
  if (function.isDeclaration())
    return headers;
  llvm::DominatorTree dominators(function);
  llvm::LoopInfo loops(dominators);
  for (llvm::Loop *loop : loops)
    collect(*loop, headers);
  return headers;
}

} // namespace kaji::codegen
