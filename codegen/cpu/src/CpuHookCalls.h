// Calls from optimised host code into the executor's abi::CpuRuntimeHooks: interrupt
// polls, so that a launch can be stopped (Ctrl-C) even inside a loop that never ends, and
// stack checks, so that recursion too deep for the thread's stack is an error, not a fault.
#pragma once

#include "kaji/abi/CpuKernelABI.h"

namespace llvm {
class Module;
} // namespace llvm

namespace kaji::codegen {

// Whether a function of `module` may call itself, directly or through others.
bool hasRecursion(llvm::Module &module);

// Inserts an interrupt poll at the header of every loop, and a stack check and a poll at the
// entry of every function that may call itself. After optimisation: a poll's atomic load inside
// a loop would keep LLVM from vectorising it (after vectorisation it costs a load and a branch
// per vector iteration), and functions must keep no parameter only to reach the hooks.
void insertHookCalls(llvm::Module &module, const abi::CpuRuntimeHooks &hooks);

} // namespace kaji::codegen
