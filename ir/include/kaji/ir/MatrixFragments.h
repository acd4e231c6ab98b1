// Matrix fragments (docs/ir.md, "Matrix fragments"): the shapes and element kinds of the
// warp-level matrix multiply-accumulate, from MatrixFragments.def.
#pragma once

#include "kaji/ir/Type.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace kaji::ir {

class Module;

// The order of an accumulator's matrix in memory, which its fragment_load and fragment_store
// take as their attribute (an A or B fragment's type has its own).
enum class MatrixLayout : uint8_t { Row, Col };

std::string_view attributeName(MatrixLayout layout); // "row", "col"
std::optional<MatrixLayout> findMatrixLayout(std::string_view name);

struct MatrixShapeExtents {
  unsigned m, n, k;
};

MatrixShapeExtents extentsOf(MatrixShape shape);
// The PTX instruction that multiplies at a shape (MatrixFragments.def).
enum class MatrixInstruction : uint8_t { Wmma, Mma, Wgmma };
MatrixInstruction instructionOf(MatrixShape shape);
// Whether `shape` is a warpgroup's (cuda.wgmma), not a warp's.
inline bool isWarpgroupShape(MatrixShape shape) {
  return instructionOf(shape) == MatrixInstruction::Wgmma;
}
// Whether a function of `module` has a warpgroup_mma: its GPU code is then sm_90a's, and its
// shared arrays start on 1024-byte boundaries (the operands' swizzle repeats every 1024 bytes).
bool usesWarpgroupMma(const Module &module);
// The alignment of a shared array in a module that usesWarpgroupMma.
inline constexpr uint64_t kWarpgroupSharedAlignment = 1024;
inline constexpr unsigned kWarpgroupThreads = 128;

// The fragments of mma.sync and wgmma shapes hold each thread's elements where PTX places
// them (PTX ISA, "Matrix fragments for mma.m16n8k16", "... for wgmma"), on every target for
// wgmma's and on the GPU for mma.sync's: with g = lane / 4, t = lane % 4 and w the warp's index
// in its warpgroup (thread / 32 % 4), element i lies at row
// row.group g + row.thread t + row.warp w + row.offset, and at the column likewise.
struct LanePlacement {
  unsigned group, thread, warp, offset;
};
struct ElementPlacement {
  LanePlacement row, column;
};
ElementPlacement elementPlacement(const Type &fragment, unsigned i);
// How many elements a thread holds of a fragment so placed (64 n / 128 of a warpgroup's).
unsigned placedElements(const Type &fragment);

// "m16n16k16", ... and back.
std::string_view matrixShapeName(MatrixShape shape);
std::optional<MatrixShape> matrixShapeFromName(std::string_view name);
// "a", "b", "acc" and back.
std::string_view matrixUseName(MatrixUse use);
std::optional<MatrixUse> matrixUseFromName(std::string_view name);

// The rows and columns of the matrix a fragment holds: A m x k, B k x n, the accumulator m x n.
std::pair<unsigned, unsigned> fragmentMatrixExtents(const Type &fragment);

// The oldest GPU architecture (10 x major + minor) with a multiply-accumulate of `input`
// fragments into `accumulator` ones at `shape`; nothing where CUDA has none.
std::optional<unsigned> mmaArchitecture(MatrixShape shape, ScalarKind input,
                                        ScalarKind accumulator);

// The oldest GPU architecture with a multiply-accumulate that takes `fragment` (of its shape and
// element kind); 0 where none does.
unsigned fragmentArchitecture(const Type &fragment);

// Why no fragment of `type` exists (an A or B fragment's elements are an input kind of its
// shape and it is row or column major; an accumulator's are an accumulator kind and it has no
// layout; a warpgroup's shape has accumulators only), or an empty string when it does.
std::string fragmentProblem(const Type &type);

} // namespace kaji::ir
