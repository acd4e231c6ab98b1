#define THREADS 256

extern "C" __global__ void softmax(float *out, const float *x, int cols) {
  __shared__ float partial[THREADS];
  const float *in_row = x + (size_t)blockIdx.x * cols;
  float *out_row = out + (size_t)blockIdx.x * cols;
  int tid = threadIdx.x;
  float largest = in_row[tid];
  for (int j = tid + THREADS; j < cols; j += THREADS)
    largest = fmaxf(largest, in_row[j]);
  partial[tid] = largest;
  __syncthreads();
  for (int step = THREADS / 2; step > 0; step /= 2) {
    if (tid < step)
      partial[tid] = fmaxf(partial[tid], partial[tid + step]);
    __syncthreads();
  }
  largest = partial[0];
  __syncthreads();
  float total = 0.0f;
  for (int j = tid; j < cols; j += THREADS) {
    float e = expf(in_row[j] - largest);
    out_row[j] = e;
    total += e;
  }
  partial[tid] = total;
  __syncthreads();
  for (int step = THREADS / 2; step > 0; step /= 2) {
    if (tid < step)
      partial[tid] += partial[tid + step];
    __syncthreads();
  }
  float scale = 1.0f / partial[0];
  for (int j = tid; j < cols; j += THREADS)
    out_row[j] *= scale;
}
