// PTX's wmma fragments (ir/MatrixFragments.h's types) as both GPU backends spell them: the
// element kind in the instructions' names and the 32-bit registers a thread holds (PTX ISA,
// "Matrix fragments for WMMA").
#pragma once

#include "kaji/ir/IR.h"
#include "kaji/ir/Type.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace kaji::codegen {

// "f16", "bf16", "tf32", "s8" or "u8" for A and B fragments; "f16", "f32" or "s32" for
// accumulators.
std::string_view ptxFragmentKind(const ir::Type &fragment);

// The 32-bit registers a thread holds: an accumulator's 8 elements (f16 two to a register);
// A and B of f16 8 registers of two elements in every shape; other A and B fragments the
// thread's share of the matrix, bf16 two and 8-bit four to a register, tf32 one.
unsigned ptxFragmentRegisters(const ir::Type &fragment);

// The elements a thread holds, its registers' elements in order: a fragment's length.
unsigned ptxFragmentElements(const ir::Type &fragment);

// wgmma is sm_90a's (an architecture-specific feature): a module with warpgroup_mma ops compiled
// for sm_90 is compiled for sm_90a, whose code runs on sm_90 GPUs only, as kaji's compile for
// the GPU at hand does. `arch` otherwise.
std::string warpgroupArchitecture(const ir::Module &module, const std::string &arch);

// "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16": the warpgroup multiply-accumulate
// into `accumulator` of `input` matrices.
std::string ptxWarpgroupMma(const ir::Type &accumulator, ir::ScalarKind input);

// A shared-memory matrix descriptor of wgmma is (address & 0x3FFFF) >> 4 with these bits: the
// 128-byte swizzle, groups of 8 rows 1024 bytes apart (PTX ISA, "Matrix Descriptor Format"; the
// leading byte offset, unused by a swizzled K-major matrix, is 1 as CUTLASS sets it).
inline constexpr uint64_t kWarpgroupDescriptorBits =
    (uint64_t(1) << 16) | (uint64_t(1024 >> 4) << 32) | (uint64_t(1) << 62);

} // namespace kaji::codegen
