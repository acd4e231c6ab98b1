// Name resolution, type inference and IR generation for one function.
#pragma once

#include "kaji/frontend/Environment.h"
#include "kaji/ir/IR.h"

#include <vector>

namespace kaji::frontend {

// Type-checks `fn` for the given argument types and appends it, and every device
// function it calls (each specialised on its own argument types, at most once), to
// `out`. A kernel must return nothing. Returns the new function. Throws
// ir::CompileError pointing at the offending expression on any error: unknown
// name, type mismatch (naming both types and the expression), unsupported
// construct, wrong argument count.
ir::Function *lowerFunction(const FunctionRef &fn, const std::vector<ir::Type> &argTypes,
                            ir::Function::Kind kind, ir::Module &out);

} // namespace kaji::frontend
