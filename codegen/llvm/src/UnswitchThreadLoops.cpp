#include "UnswitchThreadLoops.h"
#include "InterchangeThreadLoops.h"
#include "LoopSize.h"
#include "VersionLoop.h"
#include "kaji/codegen/llvm/OptimizationPipeline.h"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/LCSSA.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/LoopUtils.h>

#include <utility>
#include <vector>

namespace kaji::codegen {
namespace {

// The ways out of `block` a thread may take: one for a branch on a constant.
llvm::SmallVector<llvm::BasicBlock *, 2> waysOut(llvm::BasicBlock *block) {
  auto *branch = llvm::dyn_cast<llvm::BranchInst>(block->getTerminator());
  if (branch && branch->isConditional())
    if (auto *decided = llvm::dyn_cast<llvm::ConstantInt>(branch->getCondition()))
      return {branch->getSuccessor(decided->isOne() ? 0 : 1)};
  return {llvm::succ_begin(block), llvm::succ_end(block)};
}

// The loops inside `loop` that an iteration reaches from `start`, and the blocks on the way.
struct Reach {
  llvm::SmallPtrSet<const llvm::Loop *, 4> loops;
  llvm::SmallPtrSet<llvm::BasicBlock *, 32> blocks;
};

Reach reachFrom(const llvm::Loop &loop, llvm::BasicBlock *start) {
  Reach reach;
  std::vector<llvm::BasicBlock *> work{start};
  while (!work.empty()) {
    llvm::BasicBlock *block = work.back();
    work.pop_back();
    if (!loop.contains(block) || !reach.blocks.insert(block).second)
      continue;
    for (const llvm::Loop *inner : loop.getSubLoops())
      if (inner->contains(block))
        reach.loops.insert(inner);
    for (llvm::BasicBlock *next : waysOut(block))
      if (next != loop.getHeader())
        work.push_back(next);
  }
  return reach;
}

// The condition, defined before `loop`, of a branch an iteration reaches outside the loops
// inside it, whose two ways reach loops inside it and none in common; null when there is none.
llvm::Value *invariantChoice(const llvm::Loop &loop, const Reach &iteration) {
  for (llvm::BasicBlock *block : loop.blocks()) {
    auto *branch = llvm::dyn_cast<llvm::BranchInst>(block->getTerminator());
    if (!iteration.blocks.contains(block) || !branch || !branch->isConditional() ||
        llvm::isa<llvm::Constant>(branch->getCondition()) ||
        !loop.isLoopInvariant(branch->getCondition()) ||
        llvm::any_of(loop.getSubLoops(),
                     [&](const llvm::Loop *inner) { return inner->contains(block); }))
      continue;
    Reach ifTrue = reachFrom(loop, branch->getSuccessor(0));
    Reach ifFalse = reachFrom(loop, branch->getSuccessor(1));
    if (!ifTrue.loops.empty() && !ifFalse.loops.empty() &&
        llvm::none_of(ifTrue.loops,
                      [&](const llvm::Loop *inner) { return ifFalse.loops.contains(inner); }))
      return branch->getCondition();
  }
  return nullptr;
}

// Whether every use of `pointer` (an alloca, or an address computed from one outside the loop)
// that is not an address computation is in `loop`.
bool onlyUsedIn(const llvm::Value *pointer, const llvm::Loop &loop) {
  return llvm::all_of(pointer->users(), [&](const llvm::User *user) {
    const auto *instruction = llvm::cast<llvm::Instruction>(user);
    if (loop.contains(instruction))
      return true;
    return llvm::isa<llvm::GetElementPtrInst, llvm::CastInst>(instruction) &&
           onlyUsedIn(instruction, loop);
  });
}

// The function's allocas that only `loop` uses (a thread's index-error record, its local
// arrays), perhaps through addresses computed before it.
std::vector<llvm::AllocaInst *> ownAllocas(const llvm::Loop &loop) {
  std::vector<llvm::AllocaInst *> own;
  llvm::Function &function = *loop.getHeader()->getParent();
  for (llvm::Instruction &instruction : function.getEntryBlock())
    if (auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&instruction))
      if (!alloca->use_empty() && onlyUsedIn(alloca, loop))
        own.push_back(alloca);
  return own;
}

// Makes `copy` use `replacement` where it used `pointer`, through copies of the addresses
// computed from `pointer` outside it.
void redirect(llvm::Instruction *pointer, llvm::Instruction *replacement, const llvm::Loop &copy) {
  std::vector<llvm::Instruction *> derived;
  for (llvm::User *user : pointer->users()) {
    auto *instruction = llvm::cast<llvm::Instruction>(user);
    if (!copy.contains(instruction))
      derived.push_back(instruction);
  }
  pointer->replaceUsesWithIf(replacement, [&](llvm::Use &use) {
    return copy.contains(llvm::cast<llvm::Instruction>(use.getUser()));
  });
  for (llvm::Instruction *address : derived) {
    if (llvm::none_of(address->users(), [&](const llvm::User *user) {
          return copy.contains(llvm::cast<llvm::Instruction>(user)) ||
                 llvm::isa<llvm::GetElementPtrInst, llvm::CastInst>(user);
        }))
      continue;
    llvm::Instruction *copied = address->clone();
    copied->replaceUsesOfWith(pointer, replacement);
    copied->insertAfter(address);
    redirect(address, copied, copy);
  }
}

// Makes every conditional branch on `condition` in `loop` go the way `holds` says.
void decide(const llvm::Loop &loop, llvm::Value *condition, bool holds) {
  for (llvm::BasicBlock *block : loop.blocks())
    if (auto *branch = llvm::dyn_cast<llvm::BranchInst>(block->getTerminator()))
      if (branch->isConditional() && branch->getCondition() == condition)
        branch->setCondition(llvm::ConstantInt::getBool(condition->getContext(), holds));
}

} // namespace

llvm::PreservedAnalyses UnswitchThreadLoopsPass::run(llvm::Function &function,
                                                     llvm::FunctionAnalysisManager &analyses) {
  auto &loops = analyses.getResult<llvm::LoopAnalysis>(function);
  auto &dominators = analyses.getResult<llvm::DominatorTreeAnalysis>(function);
  std::vector<std::pair<llvm::Loop *, unsigned>> work; // a loop, and its versions' depth
  for (llvm::Loop *loop : loops.getLoopsInPreorder())
    if (llvm::findStringMetadataForLoop(loop, kThreadLoop) && loop->getSubLoops().size() > 1 &&
        loop->isLoopSimplifyForm() && loop->isLCSSAForm(dominators) &&
        instructionCount(*loop) <= InterchangeThreadLoopsPass::kMaxThreadLoopInstructions)
      work.emplace_back(loop, 0);
  bool versioned = false;
  while (!work.empty()) {
    auto [loop, depth] = work.back();
    work.pop_back();
    Reach iteration = reachFrom(*loop, loop->getHeader());
    if (iteration.loops.size() < 2 || depth == kMaxDepth)
      continue;
    llvm::Value *condition = invariantChoice(*loop, iteration);
    if (!condition)
      continue;
    std::vector<llvm::AllocaInst *> own = ownAllocas(*loop);
    llvm::Loop &copy = versionLoop(*loop, condition, ".unswitched", loops, dominators);
    decide(*loop, condition, true);
    decide(copy, condition, false);
    for (llvm::AllocaInst *alloca : own) {
      llvm::Instruction *copied = alloca->clone();
      copied->insertAfter(alloca);
      redirect(alloca, copied, copy);
    }
    versioned = true;
    for (llvm::Loop *version : {loop, &copy}) {
      llvm::simplifyLoop(version, &dominators, &loops, nullptr, nullptr, nullptr, false);
      llvm::formLCSSA(*version, dominators, &loops, nullptr);
      work.emplace_back(version, depth + 1);
    }
  }
  if (!versioned)
    return llvm::PreservedAnalyses::all();
  // The ways not taken, and the loops only they reached, go: in every copy, the later copies'
  // decided branches cloned from the earlier ones too.
  for (llvm::BasicBlock &block : function)
    llvm::ConstantFoldTerminator(&block, true);
  llvm::removeUnreachableBlocks(function);
  return llvm::PreservedAnalyses::none();
}

} // namespace kaji::codegen
