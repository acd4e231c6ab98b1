// The driver's floor for bench/launch_overhead.py: the same saxpy launched with cuLaunchKernel
// from C++, back to back, configured as the Python forms are (1024 blocks of 256 threads, five
// parameters). Two clocks, medians of 15 runs: LAUNCHES launches then a synchronization (what
// the Python benchmark times), and the CPU time of enqueuing 300 launches alone.
//
//     nvcc -O2 -arch=sm_90 -o /tmp/launch_floor bench/launch_floor.cu -lcuda && /tmp/launch_floor
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

extern "C" __global__ void saxpy(float *out, float a, const float *x, const float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = a * x[i] + y[i];
}

namespace {

void check(cudaError_t result, const char *call) {
  if (result != cudaSuccess) {
    std::fprintf(stderr, "%s failed: %s\n", call, cudaGetErrorString(result));
    std::exit(1);
  }
}

double median(std::vector<double> samples) {
  std::sort(samples.begin(), samples.end());
  return samples[samples.size() / 2];
}

} // namespace

int main() {
  constexpr int kLaunches = 5000, kEnqueued = 300, kRuns = 15, kBlocks = 1024, kThreads = 256;
  int n = kBlocks * kThreads;
  float a = 2, *out, *x, *y;
  check(cudaMalloc(&out, n * sizeof(float)), "cudaMalloc");
  check(cudaMalloc(&x, n * sizeof(float)), "cudaMalloc");
  check(cudaMalloc(&y, n * sizeof(float)), "cudaMalloc");
  cudaFunction_t function;
  check(cudaGetFuncBySymbol(&function, reinterpret_cast<const void *>(saxpy)),
        "cudaGetFuncBySymbol");
  void *params[] = {&out, &a, &x, &y, &n};
  auto launch = [&] {
    CUresult result = cuLaunchKernel(reinterpret_cast<CUfunction>(function), kBlocks, 1, 1,
                                     kThreads, 1, 1, 0, nullptr, params, nullptr);
    if (result != CUDA_SUCCESS) {
      std::fprintf(stderr, "cuLaunchKernel failed: error %d\n", int(result));
      std::exit(1);
    }
  };
  using Clock = std::chrono::steady_clock;
  auto microseconds = [](Clock::duration time, int count) {
    return std::chrono::duration<double, std::micro>(time).count() / count;
  };
  std::vector<double> synchronized, enqueued;
  for (int run = 0; run < kRuns; ++run) {
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    Clock::time_point start = Clock::now();
    for (int i = 0; i < kLaunches; ++i)
      launch();
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    synchronized.push_back(microseconds(Clock::now() - start, kLaunches));
    start = Clock::now();
    for (int i = 0; i < kEnqueued; ++i)
      launch();
    enqueued.push_back(microseconds(Clock::now() - start, kEnqueued));
  }
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  std::printf("cuLaunchKernel saxpy[%d, %d](5 args) from C++: %.2f us/launch "
              "(%d launches, then synchronize); enqueue alone %.2f us\n",
              kBlocks, kThreads, median(synchronized), kLaunches, median(enqueued));
  return 0;
}
