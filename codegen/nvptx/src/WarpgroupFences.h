// wgmma.fence orders a thread's accesses to its accumulator registers before a warpgroup
// multiply-accumulate that reads them. NVPTXTarget puts one before every wgmma.mma_async; where
// multiplies of one shape follow one another — nothing between the previous one and the fence
// but register naming and integer arithmetic (the next matrices' descriptors) — the tensor
// cores order those accesses themselves (PTX ISA, wgmma.fence: "except when these are
// accumulator register accesses across multiple wgmma.mma_async instructions of the same
// shape") and the fence would only hold the warpgroup back. Run after optimization, once
// unrolling has put a step's multiplies side by side.
#pragma once

namespace llvm {
class Module;
}

namespace kaji::codegen {

inline constexpr const char *kWarpgroupFence = "wgmma.fence.sync.aligned;";

void elideWarpgroupFences(llvm::Module &module);

} // namespace kaji::codegen
