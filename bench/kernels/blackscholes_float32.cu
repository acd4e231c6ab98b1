__device__ float normal_cdf(float d) { return 0.5f * (1.0f + erff(d * 0.70710678118654752440f)); }

extern "C" __global__ void blackscholes_float32(float *call, float *put, const float *price,
                                                const float *strike, const float *years, float r,
                                                float v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float sqrt_t = sqrtf(years[i]);
    float d1 = (logf(price[i] / strike[i]) + (r + 0.5f * v * v) * years[i]) / (v * sqrt_t);
    float d2 = d1 - v * sqrt_t;
    float discount = expf(-r * years[i]);
    call[i] = price[i] * normal_cdf(d1) - strike[i] * discount * normal_cdf(d2);
    put[i] = strike[i] * discount * normal_cdf(-d2) - price[i] * normal_cdf(-d1);
  }
}
