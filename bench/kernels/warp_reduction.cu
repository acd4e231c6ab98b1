extern "C" __global__ void warp_reduction(float *out, const float *x, int n) {
  float acc = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    acc += x[i];
  for (int offset = 16; offset > 0; offset /= 2)
    acc += __shfl_down_sync(0xFFFFFFFFu, acc, offset);
  if (threadIdx.x % 32 == 0)
    atomicAdd(out, acc);
}
