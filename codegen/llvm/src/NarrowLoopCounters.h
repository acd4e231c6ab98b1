// 32-bit loop counters on the GPU where the trip count allows, as nvcc's int counters are.
//
// A Python int is an int64 in a kernel (as in Numba), so `while n < max_iter` with max_iter a
// Python int counts in 64 bits: each increment and compare is two instructions on the GPU,
// where CUDA C++'s `int n` takes one (Mandelbrot with its limit a Python int ran at 1.26×
// nvcc's time, with an np.int32 limit at 1.04×). The counter's values are known only at run
// time, so the loop is versioned: before it, one check tells whether every value the counter
// can take, and every loop-invariant value it is compared with, fits in 31 bits; if so the
// loop runs with an i32 counter (the wide values it feeds elsewhere are its zero extension),
// else as it was.
#pragma once

#include <llvm/IR/PassManager.h>

namespace kaji::codegen {

// On each innermost loop in simplified form (put in LCSSA form once chosen) with an i64 counter
// {start, +, 1} that the loop compares with a loop-invariant value and whose latch exit has a trip
// count scalar evolution computes: a copy of the loop, run unless start and the trip count keep the
// counter in [0, 2^31) and the values compared with it are there too, and the loop itself with the
// counter narrowed.
class NarrowLoopCountersPass : public llvm::PassInfoMixin<NarrowLoopCountersPass> {
public:
  llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses);
};

} // namespace kaji::codegen
