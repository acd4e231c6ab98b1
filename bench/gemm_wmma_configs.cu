// Which cuda.wmma GEMM algorithm to write: bf16 x bf16 -> f32 kernels in CUDA C++ over block
// tiles, warp tiles, k steps and pipeline depths, against cuBLAS (cublasGemmEx) on one n^3
// product. gemm_example is the synchronous staging examples/gemm_tensor_cores.py used first;
// gemm_async<BM, BN, BK, WM, WN, STAGES, PAD> stages k steps of BK by cp.async in a ring of
// STAGES; <128, 128, 64, 64, 64, 3, 8> is bench/kernels/gemm_bf16_tensor_cores.cu's algorithm.
// The inputs are multiples of 1/8 in [-1, 1], so every result is exact and must equal cuBLAS's.
//
//   nvcc -O3 -arch=sm_90 -std=c++17 -o gemm_wmma_configs bench/gemm_wmma_configs.cu -lcublas
//   ./gemm_wmma_configs [n]     (default 8192)
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_pipeline.h>
#include <mma.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cmath>
using namespace nvcuda;
typedef __nv_bfloat16 bf16;

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1);} } while (0)

// The example's algorithm (examples/gemm_tensor_cores.py): 128x128, 8 warps 64x32, BK 32, synchronous staging.
__global__ void __launch_bounds__(256) gemm_example(const bf16* a, const bf16* b, float* c, int n) {
  __shared__ bf16 ta[128][40];
  __shared__ bf16 tb[32][136];
  int t = threadIdx.x, warp = t / 32;
  int row0 = blockIdx.y * 128, col0 = blockIdx.x * 128;
  int wr = (warp / 4) * 64, wc = (warp % 4) * 32;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, bf16, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, bf16, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[4][2];
  for (int i = 0; i < 4; ++i) for (int j = 0; j < 2; ++j) wmma::fill_fragment(acc[i][j], 0.f);
  const unsigned* pa = (const unsigned*)a; const unsigned* pb = (const unsigned*)b;
  for (int k0 = 0; k0 < n; k0 += 32) {
    for (int w = t; w < 128 * 16; w += 256) {
      int r = w / 16, x = w % 16;
      ((unsigned*)&ta[r][0])[x] = pa[(size_t)(row0 + r) * (n / 2) + k0 / 2 + x];
      r = w / 64; x = w % 64;
      ((unsigned*)&tb[r][0])[x] = pb[(size_t)(k0 + r) * (n / 2) + col0 / 2 + x];
    }
    __syncthreads();
    for (int kk = 0; kk < 32; kk += 16)
      for (int j = 0; j < 2; ++j) {
        wmma::load_matrix_sync(fb, &tb[kk][wc + 16 * j], 136);
        for (int i = 0; i < 4; ++i) {
          wmma::load_matrix_sync(fa, &ta[wr + 16 * i][kk], 40);
          wmma::mma_sync(acc[i][j], fa, fb, acc[i][j]);
        }
      }
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i) for (int j = 0; j < 2; ++j)
    wmma::store_matrix_sync(c + (size_t)(row0 + wr + 16 * i) * n + col0 + wc + 16 * j, acc[i][j], n, wmma::mem_row_major);
}

template <int BM, int BN, int BK, int WM, int WN, int STAGES, int PAD>
__global__ void __launch_bounds__((BM / WM) * (BN / WN) * 32) gemm_async(const bf16* a, const bf16* b, float* c, int n) {
  constexpr int WARPS_N = BN / WN, THREADS = (BM / WM) * WARPS_N * 32;
  constexpr int A_LD = BK + PAD, B_LD = BN + PAD, A_STAGE = BM * A_LD, B_STAGE = BK * B_LD;
  constexpr int FM = WM / 16, FN = WN / 16;
  extern __shared__ __align__(128) unsigned char raw[];
  bf16* sa = (bf16*)raw;
  bf16* sb = sa + STAGES * A_STAGE;
  int t = threadIdx.x, warp = t / 32;
  int wr = (warp / WARPS_N) * WM, wc = (warp % WARPS_N) * WN;
  int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[FM][FN];
  for (int i = 0; i < FM; ++i) for (int j = 0; j < FN; ++j) wmma::fill_fragment(acc[i][j], 0.f);
  auto load = [&](int stage, int k0) {
#pragma unroll
    for (int q = t; q < BM * BK / 8; q += THREADS) {
      int r = q / (BK / 8), x = (q % (BK / 8)) * 8;
      __pipeline_memcpy_async(sa + stage * A_STAGE + r * A_LD + x, a + (size_t)(row0 + r) * n + k0 + x, 16);
    }
#pragma unroll
    for (int q = t; q < BK * BN / 8; q += THREADS) {
      int r = q / (BN / 8), x = (q % (BN / 8)) * 8;
      __pipeline_memcpy_async(sb + stage * B_STAGE + r * B_LD + x, b + (size_t)(k0 + r) * n + col0 + x, 16);
    }
  };
  int steps = n / BK;
  for (int s = 0; s < STAGES - 1; ++s) { if (s < steps) load(s, s * BK); __pipeline_commit(); }
  for (int kt = 0; kt < steps; ++kt) {
    __pipeline_wait_prior(STAGES - 2);
    __syncthreads();
    int next = kt + STAGES - 1;
    if (next < steps) load(next % STAGES, next * BK);
    __pipeline_commit();
    const bf16* ta = sa + (kt % STAGES) * A_STAGE;
    const bf16* tb = sb + (kt % STAGES) * B_STAGE;
#pragma unroll
    for (int kk = 0; kk < BK; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, bf16, wmma::row_major> fa[FM];
#pragma unroll
      for (int i = 0; i < FM; ++i) wmma::load_matrix_sync(fa[i], ta + (wr + 16 * i) * A_LD + kk, A_LD);
#pragma unroll
      for (int j = 0; j < FN; ++j) {
        wmma::fragment<wmma::matrix_b, 16, 16, 16, bf16, wmma::row_major> fb;
        wmma::load_matrix_sync(fb, tb + kk * B_LD + wc + 16 * j, B_LD);
#pragma unroll
        for (int i = 0; i < FM; ++i) wmma::mma_sync(acc[i][j], fa[i], fb, acc[i][j]);
      }
    }
  }
  for (int i = 0; i < FM; ++i) for (int j = 0; j < FN; ++j)
    wmma::store_matrix_sync(c + (size_t)(row0 + wr + 16 * i) * n + col0 + wc + 16 * j, acc[i][j], n, wmma::mem_row_major);
}

static float max_err(const std::vector<float>& x, const std::vector<float>& y) {
  float m = 0; for (size_t i = 0; i < x.size(); ++i) m = std::max(m, std::fabs(x[i] - y[i])); return m;
}

template <class F> float time_ms(F f, int reps) {
  cudaEvent_t s, e; cudaEventCreate(&s); cudaEventCreate(&e);
  f(); CK(cudaDeviceSynchronize());
  std::vector<float> v;
  for (int r = 0; r < reps; ++r) { cudaEventRecord(s); f(); cudaEventRecord(e); cudaEventSynchronize(e); float ms; cudaEventElapsedTime(&ms, s, e); v.push_back(ms); }
  CK(cudaGetLastError());
  std::sort(v.begin(), v.end()); return v[v.size() / 2];
}

int n; bf16 *da, *db; float *dc; std::vector<float> ref; cublasHandle_t h;

template <int BM, int BN, int BK, int WM, int WN, int STAGES, int PAD>
void run_async(const char* name, double cublas_ms) {
  constexpr int THREADS = (BM / WM) * (BN / WN) * 32;
  size_t smem = STAGES * ((size_t)BM * (BK + PAD) + (size_t)BK * (BN + PAD)) * 2;
  auto k = gemm_async<BM, BN, BK, WM, WN, STAGES, PAD>;
  CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
  CK(cudaMemset(dc, 0, (size_t)n * n * 4));
  dim3 grid(n / BN, n / BM);
  float ms = time_ms([&] { k<<<grid, THREADS, smem>>>(da, db, dc, n); }, 10);
  std::vector<float> out((size_t)n * n); CK(cudaMemcpy(out.data(), dc, out.size() * 4, cudaMemcpyDeviceToHost));
  cudaFuncAttributes at; cudaFuncGetAttributes(&at, k);
  printf("%-44s regs %3d smem %6zu  %8.3f ms %7.1f TFLOP/s  %5.1f%% cuBLAS  err %.3g\n", name, at.numRegs, smem, ms, 2.0 * n * n * (double)n / ms / 1e9, 100 * cublas_ms / ms, max_err(out, ref));
}

int main(int argc, char** argv) {
  n = argc > 1 ? atoi(argv[1]) : 8192;
  size_t nn = (size_t)n * n;
  std::vector<bf16> ha(nn), hb(nn);
  srand(1);
  for (size_t i = 0; i < nn; ++i) { ha[i] = __float2bfloat16((rand() % 17 - 8) / 8.f); hb[i] = __float2bfloat16((rand() % 17 - 8) / 8.f); }
  CK(cudaMalloc(&da, nn * 2)); CK(cudaMalloc(&db, nn * 2)); CK(cudaMalloc(&dc, nn * 4));
  CK(cudaMemcpy(da, ha.data(), nn * 2, cudaMemcpyHostToDevice)); CK(cudaMemcpy(db, hb.data(), nn * 2, cudaMemcpyHostToDevice));
  cublasCreate(&h);
  float one = 1, zero = 0;
  // row-major C = A B  <=> column-major C^T = B^T A^T
  auto cub = [&] { cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, db, CUDA_R_16BF, n, da, CUDA_R_16BF, n, &zero, dc, CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT); };
  float cms = time_ms(cub, 10);
  ref.resize(nn); CK(cudaMemcpy(ref.data(), dc, nn * 4, cudaMemcpyDeviceToHost));
  printf("n=%d cuBLAS %.3f ms %.1f TFLOP/s\n", n, cms, 2.0 * n * n * (double)n / cms / 1e9);
  {
    CK(cudaMemset(dc, 0, nn * 4));
    float ms = time_ms([&] { gemm_example<<<dim3(n / 128, n / 128), 256>>>(da, db, dc, n); }, 10);
    std::vector<float> out(nn); CK(cudaMemcpy(out.data(), dc, nn * 4, cudaMemcpyDeviceToHost));
    cudaFuncAttributes at; cudaFuncGetAttributes(&at, gemm_example);
    printf("%-44s regs %3d smem %6d  %8.3f ms %7.1f TFLOP/s  %5.1f%% cuBLAS  err %.3g\n", "example (sync, 128x128, 8w 64x32)", at.numRegs, 0, ms, 2.0 * n * n * (double)n / ms / 1e9, 100 * cms / ms, max_err(out, ref));
  }
  run_async<128, 128, 32, 64, 32, 2, 8>("async 128x128x32 w64x32 s2", cms);
  run_async<128, 128, 32, 64, 32, 3, 8>("async 128x128x32 w64x32 s3", cms);
  run_async<128, 128, 32, 64, 32, 4, 8>("async 128x128x32 w64x32 s4", cms);
  run_async<128, 128, 32, 64, 64, 3, 8>("async 128x128x32 w64x64 s3 (4 warps)", cms);
  run_async<128, 128, 32, 64, 64, 4, 8>("async 128x128x32 w64x64 s4 (4 warps)", cms);
  run_async<128, 256, 32, 64, 64, 3, 8>("async 128x256x32 w64x64 s3", cms);
  run_async<128, 256, 32, 64, 64, 4, 8>("async 128x256x32 w64x64 s4", cms);
  run_async<256, 128, 32, 64, 64, 3, 8>("async 256x128x32 w64x64 s3", cms);
  run_async<256, 128, 32, 64, 64, 4, 8>("async 256x128x32 w64x64 s4", cms);
  run_async<128, 256, 64, 64, 64, 3, 8>("async 128x256x64 w64x64 s3", cms);
  run_async<128, 128, 64, 64, 64, 3, 8>("async 128x128x64 w64x64 s3 (4 warps)", cms);
  run_async<128, 128, 64, 64, 32, 3, 8>("async 128x128x64 w64x32 s3", cms);
  run_async<256, 128, 32, 64, 32, 3, 8>("async 256x128x32 w64x32 s3 (16 warps)", cms);
  return 0;
}
