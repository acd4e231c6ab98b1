// Loops whose index checks hold throughout decide them once, before the loop.
//
// A checked kernel tests every array index. In the loops over a block's threads (and in the
// kernel's own loops) the tests, and the branches to their reports with the reports' calls,
// keep LLVM from vectorising. IRCE removes tests of the innermost induction variable from a
// middle part of the loop, and LLVM unswitches one loop-invariant test at a time; neither
// decides a row index of a 2-D stencil together with its column index, nor a test of a
// loop's whole range at once.
//
// Here a loop's tests that are marked as almost always going one way (the branch weights
// index checks carry) and whose outcome over the whole loop can be computed before it are
// decided together: a test whose condition does not change in the loop, or `index u< extent`
// with the extent loop-invariant and the index an affine function of the loop's induction
// variables (and those of loops inside it) whose least and greatest values over the loop
// are computable before it. The loop then runs with each such test replaced by the way it
// almost always goes when all of them go that way for every iteration, else an unchanged
// copy of the loop runs. For the threads of a block this checks the block's range of indices
// once: only blocks at the edges of an array run the checked copy.
//
// Loops inside the loop are decided the same way, on their own: a loop whose back edge no
// iteration of the outer loop takes (its latch goes on while `next s< bound`, and the value
// after its first iteration is at least `bound` for every iteration of the outer loop) runs
// without that back edge, in a second version of the kept copy, else the copy that iterates
// runs. A grid-stride loop launched with a thread per element is one: the loop over the
// block's threads then has no loop inside, and vectorises.
#pragma once

#include <llvm/IR/PassManager.h>

namespace kaji::codegen {

// Loops are visited from the outermost in; a loop of at most kMaxInstructions instructions
// with such tests or loops is put in simplified LCSSA form and versioned (VersionLoop.h) on
// them, and the loops inside its kept copy are then visited for the tests it could not decide.
class VersionOnLoopChecksPass : public llvm::PassInfoMixin<VersionOnLoopChecksPass> {
public:
  static constexpr unsigned kMaxInstructions = 4000;
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses);
};

} // namespace kaji::codegen
