extern "C" __global__ void gather_scatter(float *gathered, float *scattered, const float *x,
                                          const float *y, const long long *index, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    long long j = index[i];
    gathered[i] = x[j];
    scattered[j] = y[i];
  }
}
