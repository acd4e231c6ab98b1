// examples/gemm_tensor_cores.py in CUDA C++: c = a @ b, bf16 inputs, f32 result, on the tensor
// cores through nvcuda::wmma; a block of 4 warps computes a 128 x 128 tile of c (each warp
// 64 x 64 as 4 x 4 fragments), along k in steps of 64 staged by cp.async (the pipeline
// primitives) in a ring of three stages in dynamic shared memory.
#include <cuda_bf16.h>
#include <cuda_pipeline.h>
#include <mma.h>

using namespace nvcuda;
typedef __nv_bfloat16 bf16;

#define TILE 128
#define STEP 64
#define STAGES 3
#define THREADS 128
#define PAD 8
#define A_ROW (STEP + PAD)
#define B_ROW (TILE + PAD)
#define A_STAGE (TILE * A_ROW)
#define B_STAGE (STEP * B_ROW)
#define B_START (STAGES * A_STAGE)
#define CHUNK 8

__device__ __forceinline__ void copy_step(bf16 *shared, const bf16 *a, const bf16 *b, int stage,
                                          int k0, int row0, int column0, int n) {
  for (int chunk = threadIdx.x; chunk < TILE * STEP / CHUNK; chunk += THREADS) {
    int r = chunk / (STEP / CHUNK), x = chunk % (STEP / CHUNK) * CHUNK;
    __pipeline_memcpy_async(shared + stage * A_STAGE + r * A_ROW + x,
                            a + (size_t)(row0 + r) * n + k0 + x, 16);
  }
  for (int chunk = threadIdx.x; chunk < STEP * TILE / CHUNK; chunk += THREADS) {
    int r = chunk / (TILE / CHUNK), x = chunk % (TILE / CHUNK) * CHUNK;
    __pipeline_memcpy_async(shared + B_START + stage * B_STAGE + r * B_ROW + x,
                            b + (size_t)(k0 + r) * n + column0 + x, 16);
  }
}

extern "C" __global__ void __launch_bounds__(THREADS)
    gemm_bf16_tensor_cores(const bf16 *a, const bf16 *b, float *c, int n) {
  extern __shared__ __align__(128) unsigned char raw[];
  bf16 *shared = (bf16 *)raw;
  int warp = threadIdx.x / 32;
  int row0 = blockIdx.y * TILE, column0 = blockIdx.x * TILE;
  int warp_row = (warp / 2) * 64, warp_column = (warp % 2) * 64;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, bf16, wmma::row_major> fa[4];
  wmma::fragment<wmma::matrix_b, 16, 16, 16, bf16, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      wmma::fill_fragment(acc[i][j], 0.0f);
  int steps = n / STEP;
  for (int stage = 0; stage < STAGES - 1; ++stage) {
    if (stage < steps)
      copy_step(shared, a, b, stage, stage * STEP, row0, column0, n);
    __pipeline_commit();
  }
  for (int step = 0; step < steps; ++step) {
    __pipeline_wait_prior(STAGES - 2);
    __syncthreads();
    int ahead = step + STAGES - 1;
    if (ahead < steps)
      copy_step(shared, a, b, ahead % STAGES, ahead * STEP, row0, column0, n);
    __pipeline_commit();
    const bf16 *tile_a = shared + (step % STAGES) * A_STAGE + warp_row * A_ROW;
    const bf16 *tile_b = shared + B_START + (step % STAGES) * B_STAGE + warp_column;
    for (int kk = 0; kk < STEP; kk += 16) {
      for (int i = 0; i < 4; ++i)
        wmma::load_matrix_sync(fa[i], tile_a + 16 * i * A_ROW + kk, A_ROW);
      for (int j = 0; j < 4; ++j) {
        wmma::load_matrix_sync(fb, tile_b + kk * B_ROW + 16 * j, B_ROW);
        for (int i = 0; i < 4; ++i)
          wmma::mma_sync(acc[i][j], fa[i], fb, acc[i][j]);
      }
    }
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      wmma::store_matrix_sync(c + (size_t)(row0 + warp_row + 16 * i) * n + column0 + warp_column +
                                  16 * j,
                              acc[i][j], n, wmma::mem_row_major);
}
