// A loop and a copy of it, chosen between by a condition computed before them: the loop
// transformations that only hold under a run-time condition (a counter that fits in 32 bits,
// index checks that pass) change the loop and leave the copy as it was.
#pragma once

#include <llvm/IR/PassManager.h>

namespace llvm {
class DominatorTree;
class Loop;
class LoopInfo;
class Value;
} // namespace llvm

namespace kaji::codegen {

// `loop` is in simplified LCSSA form and `condition` is available at the end of its
// preheader. Afterwards the preheader branches on `condition` to the loop (through a new
// preheader) when it holds, else to a copy of the loop (its blocks named with `suffix`) that
// leaves into the same exit blocks, their phis taking the copy's values from the copy's
// exiting blocks. Keeps `loops` and `dominators` up to date; returns the copy.
llvm::Loop &versionLoop(llvm::Loop &loop, llvm::Value *condition, const char *suffix,
                        llvm::LoopInfo &loops, llvm::DominatorTree &dominators);

// What a function pass keeps that versioned loops (`versioned`) or left the function as it
// was: loop info and dominators, which versionLoop keeps up to date.
llvm::PreservedAnalyses preservedByVersioning(bool versioned);

} // namespace kaji::codegen
