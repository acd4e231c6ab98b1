// PTX's wmma fragments (ir/MatrixFragments.h's types) as both GPU backends spell them: the
// element kind in the instructions' names and the 32-bit registers a thread holds (PTX ISA,
// "Matrix fragments for WMMA").
#pragma once

#include "kaji/ir/Type.h"

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

} // namespace kaji::codegen
