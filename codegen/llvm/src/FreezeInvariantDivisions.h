// A division computed before a loop is not computed again inside it.
//
// Passes that compute a value from its scalar evolution expand the divisions it was made of
// again where they need it: the block coordinates that the cpu entry divides out of a block's
// linear index came back in each row of threads (the tests VersionOnLoopChecks decides), and in
// each iteration of a vectorised loop over threads once the interval of threads it runs over
// depended on them (ClampThreadLoops.h; the code generator's loop strength reduction rewrote
// the loop's exit test). A freeze of the quotient is opaque to scalar evolution, so those
// passes can only use it, and costs nothing: the quotient of defined operands is never poison.
// What is known of the quotient's leading zeros stays known to scalar evolution (a remainder by
// a 32-bit extent is below 2^32): the frozen value is used narrowed to its other bits and
// extended back, without which an index computed from a block coordinate could wrap for all
// scalar evolution knew, and ClampThreadLoops could not decide the signed tests of a loop over
// a row of blocks' threads.
// It runs before the loop passes of the vectoriser's stage, once the earlier passes have drawn
// what they could from the divisions (their ranges, the flags of the arithmetic on them).
#pragma once

#include <llvm/IR/PassManager.h>

namespace kaji::codegen {

// Freezes each integer division or remainder by a value not known at compile time, in a
// function with loops.
class FreezeInvariantDivisionsPass : public llvm::PassInfoMixin<FreezeInvariantDivisionsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses);
};

} // namespace kaji::codegen
