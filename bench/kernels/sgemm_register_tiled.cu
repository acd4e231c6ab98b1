#define BLOCK_TILE 64
#define DEPTH 8
#define THREAD_TILE 4
#define SIDE (BLOCK_TILE / THREAD_TILE)
#define THREADS (SIDE * SIDE)

extern "C" __global__ void sgemm_register_tiled(float *c, const float *a, const float *b, int n) {
  __shared__ float tile_a[DEPTH][BLOCK_TILE];
  __shared__ float tile_b[DEPTH][BLOCK_TILE];
  float acc[THREAD_TILE][THREAD_TILE] = {};
  float a_column[THREAD_TILE], b_row[THREAD_TILE];
  int tx = threadIdx.x, ty = threadIdx.y, thread = ty * SIDE + tx;
  int row0 = blockIdx.y * BLOCK_TILE, col0 = blockIdx.x * BLOCK_TILE;
  for (int k0 = 0; k0 < n; k0 += DEPTH) {
    for (int load = 0; load < BLOCK_TILE * DEPTH / THREADS; ++load) {
      int element = thread + load * THREADS;
      tile_a[element % DEPTH][element / DEPTH] = a[(row0 + element / DEPTH) * n + k0 + element % DEPTH];
      tile_b[element / BLOCK_TILE][element % BLOCK_TILE] =
          b[(k0 + element / BLOCK_TILE) * n + col0 + element % BLOCK_TILE];
    }
    __syncthreads();
    for (int k = 0; k < DEPTH; ++k) {
      for (int i = 0; i < THREAD_TILE; ++i)
        a_column[i] = tile_a[k][ty + i * SIDE];
      for (int j = 0; j < THREAD_TILE; ++j)
        b_row[j] = tile_b[k][tx + j * SIDE];
      for (int i = 0; i < THREAD_TILE; ++i)
        for (int j = 0; j < THREAD_TILE; ++j)
          acc[i][j] += a_column[i] * b_row[j];
    }
    __syncthreads();
  }
  for (int i = 0; i < THREAD_TILE; ++i)
    for (int j = 0; j < THREAD_TILE; ++j)
      c[(row0 + ty + i * SIDE) * n + col0 + tx + j * SIDE] = acc[i][j];
}
