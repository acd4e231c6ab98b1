#define THREADS 1024

extern "C" __global__ void scan(int *out, const int *x) {
  __shared__ int buffer[THREADS];
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + tid;
  buffer[tid] = x[i];
  __syncthreads();
  for (int offset = 1; offset < THREADS; offset *= 2) {
    int addend = 0;
    if (tid >= offset)
      addend = buffer[tid - offset];
    __syncthreads();
    buffer[tid] += addend;
    __syncthreads();
  }
  out[i] = buffer[tid];
}
