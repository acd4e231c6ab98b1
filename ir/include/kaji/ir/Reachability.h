// What a kernel does through the device functions it calls: the backends and the runtime
// launch a kernel differently when it, or any function it reaches, has certain operations
// (barriers on the cpu target, grid_sync everywhere).
#pragma once

#include "kaji/ir/IR.h"

#include <functional>
#include <vector>

namespace kaji::ir {

// True if `kernel` or a function of `module` it calls, directly or not, has an operation that
// `matches`.
bool reachesOperation(const Module &module, const Function &kernel,
                      const std::function<bool(const Operation &)> &matches);

// True if `kernel` reaches a grid_sync or a call of one of the module's cooperativeSymbols(): it
// must be launched cooperatively.
bool usesGridSync(const Module &module, const Function &kernel);

// The functions `kernel` reaches that may call themselves, directly or through others, in the
// order first reached: their depth of recursion is bounded only by the stack.
std::vector<const Function *> recursiveFunctions(const Module &module, const Function &kernel);

} // namespace kaji::ir
