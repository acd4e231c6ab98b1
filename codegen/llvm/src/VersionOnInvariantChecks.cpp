#include "VersionOnInvariantChecks.h"
#include "VersionLoop.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/ProfDataUtils.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/LoopUtils.h>

#include <algorithm>
#include <cstdint>
#include <optional>

namespace kaji::codegen {
namespace {

// A weight this many times the other's marks the way a branch almost always goes: the
// index checks' likely-branch weights are far beyond it, ordinary profile guesses below.
constexpr uint64_t kLikelyRatio = 1000;

struct InvariantCheck {
  llvm::BranchInst *branch;
  bool likely; // the condition's value on the way the branch almost always goes
};

std::optional<bool> likelyWay(const llvm::BranchInst &branch) {
  uint64_t ifTrue = 0, ifFalse = 0;
  if (!llvm::extractBranchWeights(branch, ifTrue, ifFalse))
    return std::nullopt;
  if (ifTrue / std::max<uint64_t>(ifFalse, 1) >= kLikelyRatio)
    return true;
  if (ifFalse / std::max<uint64_t>(ifTrue, 1) >= kLikelyRatio)
    return false;
  return std::nullopt;
}

unsigned instructionCount(const llvm::Loop &loop) {
  unsigned count = 0;
  for (const llvm::BasicBlock *block : loop.blocks())
    count += unsigned(block->size());
  return count;
}

// The loop's conditional branches that almost always go one way on a loop-invariant condition
// (moved before the loop if it is computed inside from invariant values).
llvm::SmallVector<InvariantCheck> invariantChecks(llvm::Loop &loop) {
  llvm::SmallVector<InvariantCheck> checks;
  for (llvm::BasicBlock *block : loop.blocks()) {
    auto *branch = llvm::dyn_cast<llvm::BranchInst>(block->getTerminator());
    if (!branch || !branch->isConditional() || llvm::isa<llvm::Constant>(branch->getCondition()))
      continue;
    std::optional<bool> likely = likelyWay(*branch);
    bool hoisted = false;
    if (likely && loop.makeLoopInvariant(branch->getCondition(), hoisted))
      checks.push_back({branch, *likely});
  }
  return checks;
}

} // namespace

llvm::PreservedAnalyses VersionOnInvariantChecksPass::run(llvm::Function &function,
                                                          llvm::FunctionAnalysisManager &analyses) {
  auto &loops = analyses.getResult<llvm::LoopAnalysis>(function);
  auto &dominators = analyses.getResult<llvm::DominatorTreeAnalysis>(function);
  auto &evolution = analyses.getResult<llvm::ScalarEvolutionAnalysis>(function);
  bool changed = false;
  for (llvm::Loop *loop : loops.getLoopsInPreorder()) {
    if (!loop->isInnermost() || instructionCount(*loop) > kMaxInstructions)
      continue;
    llvm::simplifyLoop(loop, &dominators, &loops, &evolution, nullptr, nullptr, false);
    if (!loop->getLoopPreheader())
      continue;
    llvm::SmallVector<InvariantCheck> checks = invariantChecks(*loop);
    if (checks.empty())
      continue;
    llvm::formLCSSA(*loop, dominators, &loops, &evolution);
    llvm::IRBuilder<> builder(loop->getLoopPreheader()->getTerminator());
    llvm::Value *allLikely = builder.getTrue();
    for (const InvariantCheck &check : checks) {
      llvm::Value *condition = check.branch->getCondition();
      allLikely = builder.CreateAnd(
          allLikely, check.likely ? condition : builder.CreateNot(condition), "checks.likely");
    }
    versionLoop(*loop, allLikely, ".checked", loops, dominators);
    for (const InvariantCheck &check : checks)
      check.branch->setCondition(builder.getInt1(check.likely));
    changed = true;
  }
  return preservedByVersioning(changed);
}

} // namespace kaji::codegen
