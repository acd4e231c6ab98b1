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
// Whether `shape` is a warpgroup's (m = 64: cuda.wgmma), not a warp's.
bool isWarpgroupShape(MatrixShape shape);
// Whether a function of `module` has a warpgroup_mma: its GPU code is then sm_90a's, and its
// shared arrays start on 1024-byte boundaries (the operands' swizzle repeats every 1024 bytes).
bool usesWarpgroupMma(const Module &module);
// The alignment of a shared array in a module that usesWarpgroupMma.
inline constexpr uint64_t kWarpgroupSharedAlignment = 1024;

// A warpgroup accumulator's elements as every target spreads them, the wgmma instructions'
// (PTX ISA, "Register fragment of the accumulator D"): each of the 128 threads holds
// m x n / 128 of them; lane l of warp w (the thread's linear index / 32 % 4) holds element i at
// row 16 w + l / 4 + warpgroupRowOffset(i), column 2 (l % 4) + warpgroupColumnOffset(i).
inline constexpr unsigned kWarpgroupThreads = 128;
unsigned warpgroupElements(MatrixShape shape);
constexpr unsigned warpgroupRowOffset(unsigned i) { return 8 * (i / 2 % 2); }
constexpr unsigned warpgroupColumnOffset(unsigned i) { return 8 * (i / 4) + i % 2; }
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
