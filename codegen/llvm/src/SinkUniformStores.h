// A value every thread holds alike is stored once, after the loop over the threads.
//
// Between barriers the cpu target keeps a value that every thread of a block holds alike in one
// slot for the block (codegen/cpu's BarrierRegions), which each thread writes and only the entry
// reads, before the next round of the threads. In a loop over threads that store writes the
// same value to the same place in every iteration; a 64-bit one made the vectoriser size its
// vectors for 64-bit lanes (four floats where eight fit: the tiled matmul's tile loads). A store
// marked kUniformStore whose value and address do not change in a loop marked kThreadLoop moves
// to the loop's exits. It may then run where no thread would have stored: the slot is the
// value's own, and the value is the one every thread would have written.
#pragma once

#include <llvm/IR/PassManager.h>

namespace kaji::codegen {

class SinkUniformStoresPass : public llvm::PassInfoMixin<SinkUniformStoresPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses);
};

} // namespace kaji::codegen
