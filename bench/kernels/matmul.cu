#define TILE 16

extern "C" __global__ void matmul(float *c, const float *a, const float *b, int n) {
  __shared__ float tile_a[TILE][TILE];
  __shared__ float tile_b[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int col = blockIdx.x * TILE + tx;
  int row = blockIdx.y * TILE + ty;
  float acc = 0.0f;
  for (int t = 0; t < n / TILE; ++t) {
    tile_a[ty][tx] = a[row * n + t * TILE + tx];
    tile_b[ty][tx] = b[(t * TILE + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += tile_a[ty][k] * tile_b[k][tx];
    __syncthreads();
  }
  c[row * n + col] = acc;
}
