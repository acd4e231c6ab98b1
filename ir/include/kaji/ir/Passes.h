// Transformations over kaji IR. Each keeps verified IR verified and returns true if it
// changed anything. See docs/ir.md ("Passes").
#pragma once

#include "kaji/ir/IR.h"

#include <optional>
#include <string_view>

namespace kaji::ir {

// The constant `op` evaluates to when all its operands are constants, following the IR
// semantics exactly; nullopt if an operand is not constant or the result is not defined
// at compile time (out-of-range float->int casts, libm functions that may differ on device).
std::optional<Attr> foldOperation(const Operation &op);

// fold: replaces operations of constant operands by constants; select of a constant condition.
bool foldConstants(Module &module);
// dce: removes unreachable blocks and unused operations without side effects.
bool eliminateDeadCode(Module &module);
// cse: replaces a pure operation by an identical one that dominates it.
bool eliminateCommonSubexpressions(Module &module);
// simplify-cfg: cond_br on a constant, unreachable blocks, merging a block into its only
// predecessor, block arguments that are unused or receive the same value on every edge.
bool simplifyCFG(Module &module);

// ranges: integer comparisons that the intervals of their operands decide (from constants,
// launch limits, array extents and the comparisons of dominating branches) become constants.
bool foldComparisonsByRanges(Module &module);

// Runs a comma-separated list of the pass names above, e.g. "fold,dce".
// Throws std::invalid_argument for an unknown name.
void runPipeline(Module &module, std::string_view names);
// The pipeline the compiler runs before code generation.
std::string_view defaultPipeline();

} // namespace kaji::ir
