#define RADIUS 8
#define TAPS (2 * RADIUS + 1)

extern "C" __global__ void convolution(float *out, const float *x, const float *weights,
                                       int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float acc = 0.0f;
    for (int k = 0; k < TAPS; ++k) {
      int j = i + k - RADIUS;
      if (j >= 0 && j < n)
        acc += weights[k] * x[j];
    }
    out[i] = acc;
  }
}
