#define A1 0.31938153
#define A2 -0.356563782
#define A3 1.781477937
#define A4 -1.821255978
#define A5 1.330274429
#define RSQRT2PI 0.39894228040143267794

__device__ double normal_cdf(double d) {
  double k = 1.0 / (1.0 + 0.2316419 * fabs(d));
  double value =
      RSQRT2PI * exp(-0.5 * d * d) * (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))));
  if (d > 0)
    value = 1.0 - value;
  return value;
}

extern "C" __global__ void blackscholes(double *call, double *put, const double *price,
                                        const double *strike, const double *years, double r,
                                        double v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    double sqrt_t = sqrt(years[i]);
    double d1 = (log(price[i] / strike[i]) + (r + 0.5 * v * v) * years[i]) / (v * sqrt_t);
    double d2 = d1 - v * sqrt_t;
    double cdf1 = normal_cdf(d1);
    double cdf2 = normal_cdf(d2);
    double discount = exp(-r * years[i]);
    call[i] = price[i] * cdf1 - strike[i] * discount * cdf2;
    put[i] = strike[i] * discount * (1.0 - cdf2) - price[i] * (1.0 - cdf1);
  }
}
