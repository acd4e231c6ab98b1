// Launches kernels.py's saxpy and 2-D stencil, compiled ahead of time by kaji-compile, through
// the launchers it wrote (kaji/kernels.h), and checks their results against the same arithmetic
// on the host. Exits 0 when both match.
#include "kernels.h"

#include <cmath>
#include <cstdio>
#include <vector>

namespace {

bool check(CUresult result, const char *what) {
  if (result == CUDA_SUCCESS)
    return true;
  const char *name = nullptr;
  cuGetErrorName(result, &name);
  std::fprintf(stderr, "%s failed: %s %s\n", what, name ? name : "", kernels_error());
  return false;
}

// A float32 device array of `shape`, C-contiguous.
template <typename Array, size_t N> struct DeviceArray {
  CUdeviceptr pointer = 0;
  Array array{};
  bool allocate(const int64_t (&shape)[N]) {
    int64_t elements = 1, stride = sizeof(float);
    for (size_t d = N; d-- > 0;) {
      array.shape[d] = shape[d];
      array.strides[d] = stride;
      stride *= shape[d];
      elements *= shape[d];
    }
    if (!check(cuMemAlloc(&pointer, elements * sizeof(float)), "cuMemAlloc"))
      return false;
    array.data = reinterpret_cast<float *>(pointer);
    return true;
  }
  ~DeviceArray() {
    if (pointer)
      cuMemFree(pointer);
  }
};

bool saxpy() {
  const int64_t n = (1 << 20) + 7;
  const float a = 2.5f;
  std::vector<float> x(n), y(n), out(n);
  for (int64_t i = 0; i < n; ++i) {
    x[i] = float(i % 1000) * 0.001f;
    y[i] = float(i % 7);
  }
  DeviceArray<kaji_array_float32_1d, 1> dx, dy, dout;
  if (!dx.allocate({n}) || !dy.allocate({n}) || !dout.allocate({n}) ||
      !check(cuMemcpyHtoD(dx.pointer, x.data(), n * sizeof(float)), "cuMemcpyHtoD") ||
      !check(cuMemcpyHtoD(dy.pointer, y.data(), n * sizeof(float)), "cuMemcpyHtoD"))
    return false;
  kaji_launch launch = {{unsigned((n + 255) / 256), 1, 1}, {256, 1, 1}, 0, nullptr};
  if (!check(kernels_saxpy(launch, dout.array, a, dx.array, dy.array), "kernels_saxpy") ||
      !check(cuCtxSynchronize(), "cuCtxSynchronize") ||
      !check(cuMemcpyDtoH(out.data(), dout.pointer, n * sizeof(float)), "cuMemcpyDtoH"))
    return false;
  for (int64_t i = 0; i < n; ++i)
    if (std::fabs(out[i] - (a * x[i] + y[i])) > 1e-6f * (1 + std::fabs(out[i]))) {
      std::fprintf(stderr, "saxpy: out[%lld] = %g, expected %g\n", (long long)i, out[i],
                   a * x[i] + y[i]);
      return false;
    }
  std::printf("saxpy: %lld elements match\n", (long long)n);
  return true;
}

bool stencil() {
  const int64_t rows = 513, cols = 769;
  std::vector<float> u(rows * cols), out(rows * cols, 0.0f);
  for (int64_t i = 0; i < rows * cols; ++i)
    u[i] = float((i * 37) % 101) / 101.0f;
  DeviceArray<kaji_array_float32_2d, 2> du, dout;
  if (!du.allocate({rows, cols}) || !dout.allocate({rows, cols}) ||
      !check(cuMemcpyHtoD(du.pointer, u.data(), u.size() * sizeof(float)), "cuMemcpyHtoD") ||
      !check(cuMemsetD32(dout.pointer, 0, out.size()), "cuMemsetD32"))
    return false;
  kaji_launch launch = {
      {unsigned((cols + 31) / 32), unsigned((rows + 7) / 8), 1}, {32, 8, 1}, 0, nullptr};
  if (!check(kernels_stencil(launch, dout.array, du.array), "kernels_stencil") ||
      !check(cuCtxSynchronize(), "cuCtxSynchronize") ||
      !check(cuMemcpyDtoH(out.data(), dout.pointer, out.size() * sizeof(float)), "cuMemcpyDtoH"))
    return false;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      float expected = 0.0f;
      if (r > 0 && r < rows - 1 && c > 0 && c < cols - 1)
        expected = 0.25f * (u[(r - 1) * cols + c] + u[(r + 1) * cols + c] + u[r * cols + c - 1] +
                            u[r * cols + c + 1]);
      if (std::fabs(out[r * cols + c] - expected) > 1e-6f) {
        std::fprintf(stderr, "stencil: out[%lld, %lld] = %g, expected %g\n", (long long)r,
                     (long long)c, out[r * cols + c], expected);
        return false;
      }
    }
  std::printf("stencil: %lld x %lld elements match\n", (long long)rows, (long long)cols);
  return true;
}

} // namespace

int main() {
  CUdevice device;
  CUcontext context;
  if (!check(cuInit(0), "cuInit") || !check(cuDeviceGet(&device, 0), "cuDeviceGet") ||
      !check(cuDevicePrimaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain") ||
      !check(cuCtxSetCurrent(context), "cuCtxSetCurrent"))
    return 1;
  char name[256] = {};
  cuDeviceGetName(name, sizeof name, device);
  std::printf("device: %s\n", name);
  bool ok = saxpy() && stencil();
  const char *raised = nullptr;
  ok = ok && check(kernels_exception(&raised), "kernels_exception") && raised == nullptr;
  cuDevicePrimaryCtxRelease(device);
  std::printf("%s\n", ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
