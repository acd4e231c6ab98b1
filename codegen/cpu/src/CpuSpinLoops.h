// Loops in which a thread waits for another: on the cpu target the threads of a block take
// turns on one OS thread, so such a loop must let the others run (CpuTarget::addSpinYields).
#pragma once

#include <vector>

namespace llvm {
class BasicBlock;
class Function;
} // namespace llvm

namespace kaji::codegen {

// The headers of the loops of `function` that may exit on what an atomic operation in the loop
// read: `while atomic.cas(lock, 0, 1) != 0`, `while atomic.add(flag, 0, 0) == 0`. Another
// thread's store ends them, so they are where a thread waits for one.
std::vector<llvm::BasicBlock *> spinLoopHeaders(llvm::Function &function);

} // namespace kaji::codegen
