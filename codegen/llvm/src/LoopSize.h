// A loop's size in instructions: what kaji's loop passes bound the loops they copy by.
#pragma once

#include <llvm/Analysis/LoopInfo.h>

namespace kaji::codegen {

inline unsigned instructionCount(const llvm::Loop &loop) {
  unsigned count = 0;
  for (const llvm::BasicBlock *block : loop.blocks())
    count += unsigned(block->size());
  return count;
}

} // namespace kaji::codegen
