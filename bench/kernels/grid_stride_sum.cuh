// The kernel of grid_stride_sum.cu and grid_stride_sum_while.cu, as CUDA C++ has one spelling
// of a grid-stride loop: each thread sums every gridsize-th element of x into its partial.
#define GRID_STRIDE_SUM(NAME)                                                                  \
  extern "C" __global__ void NAME(float *partials, const float *x, int n) {                     \
    int start = blockIdx.x * blockDim.x + threadIdx.x;                                          \
    float acc = 0.0f;                                                                           \
    for (int i = start; i < n; i += gridDim.x * blockDim.x)                                     \
      acc += x[i];                                                                              \
    partials[start] = acc;                                                                      \
  }
