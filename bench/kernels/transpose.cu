#define TILE 32
#define ROWS 8

extern "C" __global__ void transpose(float *out, const float *a, int n) {
  __shared__ float tile[TILE][TILE + 1];
  int tx = threadIdx.x, ty = threadIdx.y;
  int col = blockIdx.x * TILE + tx;
  int row = blockIdx.y * TILE + ty;
  for (int k = 0; k < TILE; k += ROWS)
    tile[ty + k][tx] = a[(row + k) * n + col];
  __syncthreads();
  col = blockIdx.y * TILE + tx;
  row = blockIdx.x * TILE + ty;
  for (int k = 0; k < TILE; k += ROWS)
    out[(row + k) * n + col] = tile[tx][ty + k];
}
