extern "C" __global__ void saxpy_python_float(float *out, double a, const float *x, const float *y,
                                              int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = a * x[i] + y[i];
}
