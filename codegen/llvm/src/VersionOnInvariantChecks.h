// Loops whose checks do not depend on the iteration decide them once, before the loop.
//
// A checked kernel tests every array index; in a loop, an index that does not change (the
// row of a stencil's taps in the loop over a block's threads) is tested in every iteration,
// and the branch to its report, with the report's call, keeps the loop from vectorising.
// LLVM unswitches one such test at a time, and gives up once a copy per test would be too
// many. Here all the loop-invariant tests of a loop that are marked as almost always going
// one way (the branch weights index checks carry) are decided together before it: the loop
// runs with each test replaced by the way it almost always goes when all of them go that way,
// else an unchanged copy of the loop runs.
#pragma once

#include <llvm/IR/PassManager.h>

namespace kaji::codegen {

// On each innermost loop of at most kMaxInstructions instructions with such tests: the loop
// is put in simplified LCSSA form and versioned (VersionLoop.h) on the conjunction of them.
class VersionOnInvariantChecksPass : public llvm::PassInfoMixin<VersionOnInvariantChecksPass> {
public:
  static constexpr unsigned kMaxInstructions = 4000;
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses);
};

} // namespace kaji::codegen
