#define THREADS 1024
#define WARPS (THREADS / 32)
#define ALL_LANES 0xFFFFFFFFu

__device__ float warp_inclusive_scan(float value, int lane) {
  for (int offset = 1; offset < 32; offset *= 2) {
    float below = __shfl_up_sync(ALL_LANES, value, offset);
    if (lane >= offset)
      value += below;
  }
  return value;
}

extern "C" __global__ void warp_scan(float *out, const float *x) {
  __shared__ float warp_totals[WARPS];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float value = warp_inclusive_scan(x[i], lane);
  if (lane == 31)
    warp_totals[warp] = value;
  __syncthreads();
  if (warp == 0)
    warp_totals[lane] = warp_inclusive_scan(warp_totals[lane], lane);
  __syncthreads();
  if (warp > 0)
    value += warp_totals[warp - 1];
  out[i] = value;
}
