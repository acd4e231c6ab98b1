// In-process compile latency, source text → PTX, split into the frontend (parse,
// Sema, IRGen, kaji passes), LLVM optimisation and PTX emission, and the same through the
// nvrtc backend (CUDA C++ emission, then NVRTC). Prints the median of N compiles of each
// kernel with each backend.
#include "kaji/codegen/nvrtc/NvrtcCodegen.h"
#include "kaji/driver/Compiler.h"
#include "kaji/frontend/Signature.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using namespace kaji;

struct Kernel {
  const char *name;
  const char *signature;
  const char *source;
};

const Kernel kernels[] = {
    {"saxpy", "void(float32[:], float32, float32[:], float32[:])", R"(import kaji

@kaji.jit
def saxpy(out, a, x, y):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = a * x[i] + y[i]
)"},
    {"stencil2d", "void(float32[:, ::1], float32[:, ::1])", R"(from kaji import cuda

@cuda.jit
def stencil2d(out, u):
    i, j = cuda.grid(2)
    n, m = u.shape
    if 0 < i and i < n - 1 and 0 < j and j < m - 1:
        out[i, j] = 0.25 * (u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1]) - u[i, j]
)"},
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

} // namespace

int main(int argc, char **argv) {
  int runs = argc > 1 ? std::atoi(argv[1]) : 50;
  if (runs < 1) {
    std::fprintf(stderr, "usage: compile_latency [RUNS]  (RUNS >= 1, default 50)\n");
    return 2;
  }
  std::printf("compile latency, source -> PTX (sm_90, O3), median of %d compiles, ms\n", runs);
  std::printf("(nvrtc: 'lower+opt' is emitting the CUDA C++, 'ptx-emit' is NVRTC)\n");
  std::printf("%-10s %-7s %9s %9s %9s %9s\n", "kernel", "backend", "total", "frontend", "lower+opt",
              "ptx-emit");
  for (driver::Backend backend : {driver::Backend::LLVM, driver::Backend::NVRTC})
    for (const Kernel &kernel : kernels) {
      std::vector<double> total, frontend, optimize, emit;
      for (int run = 0; run < runs; ++run) {
        auto start = std::chrono::steady_clock::now();
        frontend::SourceFile source;
        source.name = std::make_shared<const std::string>(std::string(kernel.name) + ".py");
        source.text = kernel.source;
        auto module = driver::parse(source);
        double parseMs = millisecondsSince(start);
        driver::CompileRequest request;
        request.backend = backend;
        auto env = frontend::environmentFromModule(module);
        request.kernels.push_back({driver::findFunction(module, kernel.name, env),
                                   frontend::parseSignature(kernel.signature, {}).params,
                                   {}});
        driver::CompiledModule compiled;
        try {
          compiled = driver::compile(request);
        } catch (const codegen::nvrtc::NvrtcUnavailable &error) {
          std::printf("%-10s %-7s (%s)\n", kernel.name, "nvrtc", error.what());
          break;
        }
        total.push_back(millisecondsSince(start));
        frontend.push_back(parseMs + compiled.timings.frontendMs);
        optimize.push_back(compiled.timings.codegen.lowerMs + compiled.timings.codegen.optimizeMs);
        emit.push_back(compiled.timings.codegen.emitMs);
      }
      if (!total.empty())
        std::printf("%-10s %-7s %9.3f %9.3f %9.3f %9.3f\n", kernel.name,
                    driver::backendName(backend), median(total), median(frontend), median(optimize),
                    median(emit));
    }
  return 0;
}
