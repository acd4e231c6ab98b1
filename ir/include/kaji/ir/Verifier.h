// Checks the structural and type rules of docs/ir.md ("Verifier rules").
#pragma once

#include "kaji/ir/IR.h"

namespace kaji::ir {

// Throws CompileError at the first offending operation (or function), naming the op and
// the problem.
void verify(const Module &module);

} // namespace kaji::ir
