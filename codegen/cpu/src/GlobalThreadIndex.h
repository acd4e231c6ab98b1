// A thread's index along the grid's x, `blockIdx.x * blockDim.x + threadIdx.x` (cuda.grid(1),
// the x of cuda.grid(2), or spelled out in any order), as one value: the implicit parameter's
// global_x (CpuTarget.h). Read that way, an entry may run the threads of consecutive blocks of a
// row as one loop over it (CpuEntry.h), which LLVM vectorises and clamps as a whole instead of
// block by block.
#pragma once

namespace llvm {
class Module;
} // namespace llvm

namespace kaji::codegen {

// Replaces each such sum in the functions of `module` (in 32 or 64 bits, of the coordinates
// as read or extended) by the implicit parameter's global_x, truncated to the sum's width.
void readGlobalThreadIndex(llvm::Module &module);

// Whether the threads of consecutive blocks along x may run as one loop: no function of
// `module` reads threadIdx.x, blockIdx.x or the block's shared memory from its implicit
// parameter, passes the parameter where that cannot be seen, or has a loop (a loop inside the
// threads' loop runs around it, InterchangeThreadLoops.h, which keeps what each thread carries
// across its iterations for a block's threads at most).
bool threadsMayRunAcrossBlocks(const llvm::Module &module);

} // namespace kaji::codegen
