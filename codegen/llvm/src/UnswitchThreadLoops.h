// A loop over threads that holds several loops, chosen between by a condition that does not
// change in it, runs in two copies: one for each way the condition goes.
//
// LLVM's loop passes unswitch a loop inside a thread's body on a test that holds for the
// whole loop (a checked n-body's `index < pos.shape[1]` for the columns it reads): the body then
// holds two copies of that loop, and the loop over threads, which runs one of them or the other
// for every thread alike, is no nest that InterchangeThreadLoops rewrites. Versioned on that
// condition, each copy of the loop over threads holds one of the loops (the other's way is a
// constant branch, removed with the blocks only it reached), and the loop inside runs around
// the loop over threads as in the unchecked kernel.
#pragma once

#include <llvm/IR/PassManager.h>

namespace kaji::codegen {

// Versions each loop marked kThreadLoop that holds more than one loop, at most
// InterchangeThreadLoopsPass::kMaxThreadLoopInstructions instructions, on a conditional
// branch in it (outside the loops it holds) whose condition is defined before it and whose two
// ways lead to different loops; in each copy the branch goes one way.
class UnswitchThreadLoopsPass : public llvm::PassInfoMixin<UnswitchThreadLoopsPass> {
public:
  // A copy is versioned again while an iteration of it still reaches several loops (a chain of
  // tests chose between them), up to this many times: at most 2^kMaxDepth copies.
  static constexpr unsigned kMaxDepth = 4;
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses);
};

} // namespace kaji::codegen
