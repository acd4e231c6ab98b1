// The warp-level matrix multiply-accumulate on the host (ir/MatrixFragments.h). A thread's
// fragment holds the whole matrix, row major: every thread of a warp loads, multiplies and
// stores the same matrices, so no thread waits for another and element-wise code (x[i]) sees
// each element once per thread. The helpers are host functions the JIT resolves
// (compilerRuntimeBuiltins); CpuTarget emits their calls.
#pragma once

#include <cstdint>

namespace kaji::codegen {

inline constexpr const char *kFragmentLoadHelper = "kaji_fragment_load";
inline constexpr const char *kFragmentStoreHelper = "kaji_fragment_store";
inline constexpr const char *kFragmentMmaHelper = "kaji_fragment_mma";
inline constexpr const char *kWarpgroupMmaHelper = "kaji_warpgroup_mma";

extern "C" {
// The rows x columns matrix at `matrix`, elements of `elementBytes`, `ldm` elements from one row
// (row major) or column (column major) to the next, into / from `storage`, row major.
void kaji_fragment_load(void *storage, const void *matrix, int64_t ldm, uint32_t rows,
                        uint32_t columns, uint32_t elementBytes, uint32_t columnMajor);
void kaji_fragment_store(void *matrix, const void *storage, int64_t ldm, uint32_t rows,
                         uint32_t columns, uint32_t elementBytes, uint32_t columnMajor);
// d = a x b + c: a is m x k, b k x n, c and d m x n, all row major. `input` and `accumulator`
// are ir::ScalarKind values (MatrixFragments.def's pairs). Each element of d is the exact
// result rounded once to the accumulator's kind (wrapping to 32 bits for integers); float32
// inputs are tf32, their 13 low fraction bits dropped as the tensor cores drop them.
void kaji_fragment_mma(void *d, const void *a, const void *b, const void *c, uint32_t m, uint32_t n,
                       uint32_t k, uint32_t input, uint32_t accumulator);
// A warpgroup's d += a x b^T (cuda.wgmma.mma_async) for the thread `thread` (its linear index in
// the block): its elements of the 64 x n f32 accumulator `d` of ir::MatrixShape `shape`, placed
// as ir::elementPlacement places them, a (64 x k) and b (n x k) of `input` elements (f16 or
// bf16) read as the GPU reads them: element [r, c] at `matrix` + 128 r + c x 2 with the
// address's bits 4-6 xor its bits 7-9. Each element is the exact sum rounded once to f32.
void kaji_warpgroup_mma(float *d, const char *a, const char *b, uint32_t shape, uint32_t input,
                        uint64_t thread);
}

} // namespace kaji::codegen
