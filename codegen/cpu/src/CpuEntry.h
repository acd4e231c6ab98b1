// The function the CPU executor calls, `void @<kernel>.host_entry(ptr params, ptr context)`
// (abi::CpuKernelEntry), around a lowered kernel: it loads the flattened parameters and the
// launch coordinates, then runs the kernel's threads in one of three ways.
#pragma once

#include <string>

namespace llvm {
class Function;
} // namespace llvm

namespace kaji::codegen {

struct BarrierRegions;

// A barrier-free kernel: once per thread in a z/y/x loop, for each of the context's
// blockCount blocks; with `acrossBlocks`, for each run of them along a row of the grid, the x
// loop over the run's threads as one (for a kernel that tells its threads apart along x by
// their global index alone, GlobalThreadIndex.h).
std::string buildThreadLoopEntry(llvm::Function &kernel, bool acrossBlocks);

// A kernel run one fiber per thread: once, for the thread context->threadIdx names.
std::string buildOneThreadEntry(llvm::Function &kernel);

// A kernel cut at its barriers: for each of the context's blocks, rounds of loops over the
// threads, each thread resuming where the last round left it (BarrierRegions.h). A round in
// which every thread starts at the same region runs that region's code alone, which LLVM
// can vectorise; otherwise each thread resumes through a call.
std::string buildRegionLoopEntry(const BarrierRegions &regions);

} // namespace kaji::codegen
