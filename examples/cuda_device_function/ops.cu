// CUDA C++ device functions for kaji kernels, by Numba's declare_device ABI: the result is
// stored through the first pointer, and the returned status is ignored.

extern "C" __device__ int hypotenuse(float *result, float a, float b) {
  *result = hypotf(a, b);
  return 0;
}

extern "C" __device__ int clamp_index(long long *result, long long i, long long n) {
  *result = i < 0 ? 0 : (i >= n ? n - 1 : i);
  return 0;
}
