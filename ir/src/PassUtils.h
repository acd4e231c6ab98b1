// Helpers shared by the passes in this directory (not part of the public API).
#pragma once

#include "kaji/ir/IR.h"

#include <unordered_map>

namespace kaji::ir::detail {

// Number of operand and successor-argument references to each value.
std::unordered_map<const Value *, unsigned> countUses(const Function &function);
// Deletes the blocks not reachable from the entry; true if there were any.
bool removeUnreachableBlocks(Function &function);

} // namespace kaji::ir::detail
