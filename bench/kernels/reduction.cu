#define THREADS 256

extern "C" __global__ void reduction(float *out, const float *x, int n) {
  __shared__ float partial[THREADS];
  int tid = threadIdx.x;
  float acc = 0.0f;
  for (int i = blockIdx.x * blockDim.x + tid; i < n; i += gridDim.x * blockDim.x)
    acc += x[i];
  partial[tid] = acc;
  __syncthreads();
  for (int step = THREADS / 2; step > 0; step /= 2) {
    if (tid < step)
      partial[tid] += partial[tid + step];
    __syncthreads();
  }
  if (tid == 0)
    atomicAdd(out, partial[0]);
}
