// ptxas schedules loads early within straight-line code, but not across the subroutines it
// expands IEEE float operations into (sqrt.rn and div.rn call a slow path behind a branch).
// A kernel that computes sqrt(years[i]) before loading price[i] and strike[i], as Black-Scholes
// is written, then waits for two memory round trips where one would do: LLVM keeps the
// source's order, while NVVM (nvcc, NVRTC) issues the three loads first. float32
// Black-Scholes over 2^24 options took 1.116x nvcc's time on an H200 that way, with the same
// SASS instructions in another order (bench/results/kernels_vs_nvcc_h200_2026-11-29_e0c93fe.md).
#pragma once

namespace llvm {
class Module;
}

namespace kaji::codegen {

// Moves each simple (not volatile, not atomic) load of `module` up its block to just after
// the latest of: its operands' definitions there, and the last instruction before it that
// may write memory or may not pass control on (a call that may exit, a barrier, a fence); the
// address arithmetic it needs (instructions that touch no memory and may run anywhere) moves
// up first, no higher than the load goes (moved above a store the load stays behind, it would
// only hold a register across the store). The loads of a block so issue as early as they can, in
// their order where nothing else decides. Blocks of more than 2048 instructions are left as they
// are. Run on the optimised module, just before the backend.
void issueLoadsEarly(llvm::Module &module);

} // namespace kaji::codegen
