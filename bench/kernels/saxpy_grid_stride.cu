extern "C" __global__ void saxpy_grid_stride(float *out, float a, const float *x, const float *y,
                                             int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = a * x[i] + y[i];
}
