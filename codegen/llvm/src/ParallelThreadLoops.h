// The loops over a block's threads carry no dependence through memory between iterations.
//
// Between barriers the threads of a block run in no defined order, and two of them that touch
// the same location without an atomic, one of them writing, race: CUDA gives such a program
// no meaning. So no iteration of a loop over threads (marked kThreadLoop) depends through
// memory on another, and the loop may say so to LLVM: its accesses join an access group that
// its `llvm.loop.parallel_accesses` names. The vectoriser then widens it without testing at
// run time whether the arrays it reads overlap the ones it writes (a stencil's block tested
// `out` against `u` for every row of 32 threads), and without proving shared memory and the
// threads' storage apart. A loop with an atomic or volatile access keeps no such claim (threads
// that communicate through atomics do depend on each other), and accesses to the function's
// allocas stay out of the group: a thread's local arrays are one alloca that each thread of
// the loop reuses in turn.
#pragma once

#include <llvm/IR/PassManager.h>

namespace kaji::codegen {

class ParallelThreadLoopsPass : public llvm::PassInfoMixin<ParallelThreadLoopsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses);
};

} // namespace kaji::codegen
