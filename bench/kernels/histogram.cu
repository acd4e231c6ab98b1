#define BINS 256

extern "C" __global__ void histogram(int *counts, const unsigned char *data, int n) {
  __shared__ int block_counts[BINS];
  int tid = threadIdx.x;
  block_counts[tid] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + tid; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&block_counts[data[i]], 1);
  __syncthreads();
  atomicAdd(&counts[tid], block_counts[tid]);
}
