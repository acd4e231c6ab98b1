// Kernels compiled for the host and run by the CPU executor: results checked on host buffers.
#include "CpuTestSupport.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>

using namespace kaji;
using namespace kaji::codegen;
using namespace kaji::codegen::test;

namespace {

constexpr std::string_view kSaxpy =
    R"(kernel @saxpy(%out: array<f32, 1, C>, %a: f32, %x: array<f32, 1, C>, %y: array<f32, 1, C>) {
^bb0:
  %0 = sreg tid.x : i32
  %1 = sreg ctaid.x : i32
  %2 = sreg ntid.x : i32
  %3 = cast %0 : i32 to i64
  %4 = cast %1 : i32 to i64
  %5 = cast %2 : i32 to i64
  %6 = mul %4, %5 : i64
  %i = add %6, %3 : i64
  %n = array_dim %x, 0 : i64
  %7 = cmp lt %i, %n : i64
  cond_br %7, ^body, ^exit
^body:
  %8 = load %x[%i] : f32
  %9 = mul %a, %8 : f32
  %10 = load %y[%i] : f32
  %11 = add %9, %10 : f32
  store %11, %out[%i]
  br ^exit
^exit:
  ret
}
)";

void runSaxpy(const CpuKernel &kernel, int64_t n, unsigned blockSize) {
  std::vector<float> x(n), y(n), out(n, -1.0f);
  for (int64_t i = 0; i < n; ++i) {
    x[i] = float(i);
    y[i] = float(2 * i + 1);
  }
  CpuParams params;
  params.array(out.data(), {n}).scalar(3.0f).array(x.data(), {n}).array(y.data(), {n});
  unsigned blocks = unsigned((n + blockSize - 1) / blockSize);
  launchCpu(kernel, {blocks, 1, 1}, {blockSize, 1, 1}, params);
  for (int64_t i = 0; i < n; ++i)
    ASSERT_EQ(out[i], 3.0f * float(i) + float(2 * i + 1)) << "n=" << n << " i=" << i;
}

TEST(CpuKernel, SaxpyOverSizesNotAMultipleOfTheBlock) {
  CpuKernel kernel = compileCpuText(kSaxpy, "saxpy");
  EXPECT_FALSE(kernel.usesBarrier);
  EXPECT_EQ(kernel.parameterCount, 10u);
  for (int64_t n : {1, 255, 256, 1000, 4097})
    runSaxpy(kernel, n, 256);
  runSaxpy(kernel, 1000, 1);
}

TEST(CpuKernel, SaxpyWithoutBoundsChecks) {
  CpuOptions options;
  options.boundsCheck = false;
  runSaxpy(compileCpuText(kSaxpy, "saxpy", options), 4097, 128);
}

TEST(CpuKernel, UncheckedSaxpyVectorisesOverThreads) {
  CpuOptions options;
  options.boundsCheck = false;
  std::unique_ptr<ir::Module> module = ir::parseIR(kSaxpy, nullptr);
  std::string llvmIR = emitCpuLLVMIR(*module, "saxpy", options);
  EXPECT_NE(llvmIR.find("x float>"), std::string::npos) << llvmIR;
  EXPECT_NE(llvmIR.find("define void @saxpy.host_entry(ptr"), std::string::npos);
}

TEST(CpuKernel, CheckedSaxpyVectorisesAndKeepsItsChecks) {
  std::unique_ptr<ir::Module> module =
      ir::parseIR(kSaxpy, std::make_shared<const std::string>("saxpy.kir"));
  std::string llvmIR = emitCpuLLVMIR(*module, "saxpy", CpuOptions{});
  EXPECT_NE(llvmIR.find("x float>"), std::string::npos) << llvmIR;
  // The iterations outside the vectorised main loop still check and report, for each access
  // of y and out. The kernel's `i < x.size` already decides x[i]'s check (i is non-negative,
  // and so is the extent, from its parameter's range), which leaves no report for it.
  for (const char *site : {"saxpy.kir:17:3: in 'saxpy'", "saxpy.kir:19:3: in 'saxpy'"})
    EXPECT_NE(llvmIR.find(site), std::string::npos) << site << "\n" << llvmIR;
  EXPECT_EQ(llvmIR.find("saxpy.kir:15:3: in 'saxpy'"), std::string::npos) << llvmIR;
}

constexpr std::string_view kGrid2D = R"(kernel @coords(%out: array<i32, 2, C>) {
^bb0:
  %tx = sreg tid.x : i32
  %ty = sreg tid.y : i32
  %bx = sreg ctaid.x : i32
  %by = sreg ctaid.y : i32
  %dx = sreg ntid.x : i32
  %dy = sreg ntid.y : i32
  %gx = sreg nctaid.x : i32
  %0 = mul %bx, %dx : i32
  %x32 = add %0, %tx : i32
  %1 = mul %by, %dy : i32
  %y32 = add %1, %ty : i32
  %x = cast %x32 : i32 to i64
  %y = cast %y32 : i32 to i64
  %k = const 1000 : i32
  %2 = mul %y32, %k : i32
  %3 = add %2, %x32 : i32
  %4 = add %3, %gx : i32
  store %4, %out[%y, %x]
  ret
}
)";

TEST(CpuKernel, TwoDimensionalGrid) {
  CpuKernel kernel = compileCpuText(kGrid2D, "coords");
  const int64_t rows = 6 * 4, cols = 5 * 8;
  std::vector<int32_t> out(rows * cols, -1);
  CpuParams params;
  params.array(out.data(), {rows, cols});
  launchCpu(kernel, {5, 6, 1}, {8, 4, 1}, params);
  for (int64_t y = 0; y < rows; ++y)
    for (int64_t x = 0; x < cols; ++x)
      ASSERT_EQ(out[y * cols + x], int32_t(y * 1000 + x + 5)) << y << "," << x;
}

constexpr std::string_view kGrid3D = R"(kernel @linear(%out: array<i64, 3, C>) {
^bb0:
  %tx = sreg tid.x : i32
  %ty = sreg tid.y : i32
  %tz = sreg tid.z : i32
  %bx = sreg ctaid.x : i32
  %by = sreg ctaid.y : i32
  %bz = sreg ctaid.z : i32
  %dx = sreg ntid.x : i32
  %dy = sreg ntid.y : i32
  %dz = sreg ntid.z : i32
  %gz = sreg nctaid.z : i32
  %0 = mul %bx, %dx : i32
  %1 = add %0, %tx : i32
  %2 = mul %by, %dy : i32
  %3 = add %2, %ty : i32
  %4 = mul %bz, %dz : i32
  %5 = add %4, %tz : i32
  %x = cast %1 : i32 to i64
  %y = cast %3 : i32 to i64
  %z = cast %5 : i32 to i64
  %w = array_dim %out, 2 : i64
  %h = array_dim %out, 1 : i64
  %6 = mul %z, %h : i64
  %7 = add %6, %y : i64
  %8 = mul %7, %w : i64
  %9 = add %8, %x : i64
  %g = cast %gz : i32 to i64
  %10 = mul %9, %g : i64
  store %10, %out[%z, %y, %x]
  ret
}
)";

TEST(CpuKernel, ThreeDimensionalGrid) {
  CpuKernel kernel = compileCpuText(kGrid3D, "linear");
  const int64_t depth = 3 * 2, rows = 2 * 3, cols = 4 * 4;
  std::vector<int64_t> out(depth * rows * cols, -1);
  CpuParams params;
  params.array(out.data(), {depth, rows, cols});
  launchCpu(kernel, {4, 2, 3}, {4, 3, 2}, params);
  for (int64_t i = 0; i < int64_t(out.size()); ++i)
    ASSERT_EQ(out[i], i * 3) << i;
}

// Each block sums its 256 elements in shared memory by halving, with a barrier per step;
// thread 0 adds the block's sum to out[0].
constexpr std::string_view kBlockSum =
    R"(kernel @block_sum(%out: array<i64, 1, C>, %x: array<i64, 1, C>) {
^bb0:
  %tid32 = sreg tid.x : i32
  %tid = cast %tid32 : i32 to i64
  %bid32 = sreg ctaid.x : i32
  %bid = cast %bid32 : i32 to i64
  %dim32 = sreg ntid.x : i32
  %dim = cast %dim32 : i32 to i64
  %base = mul %bid, %dim : i64
  %i = add %base, %tid : i64
  %s = shared_array [256] : array<i64, 1, C, shared>
  %n = array_dim %x, 0 : i64
  %zero = const 0 : i64
  %inside = cmp lt %i, %n : i64
  cond_br %inside, ^load, ^fill(%zero : i64)
^load:
  %v = load %x[%i] : i64
  br ^fill(%v : i64)
^fill(%value: i64):
  store %value, %s[%tid]
  barrier
  %half = const 128 : i64
  br ^loop(%half : i64)
^loop(%stride: i64):
  %active = cmp lt %tid, %stride : i64
  cond_br %active, ^add, ^sync
^add:
  %j = add %tid, %stride : i64
  %a = load %s[%tid] : i64
  %b = load %s[%j] : i64
  %c = add %a, %b : i64
  store %c, %s[%tid]
  br ^sync
^sync:
  barrier
  %two = const 2 : i64
  %next = floordiv %stride, %two : i64
  %more = cmp gt %next, %zero : i64
  cond_br %more, ^loop(%next : i64), ^done
^done:
  %first = cmp eq %tid, %zero : i64
  cond_br %first, ^publish, ^exit
^publish:
  %total = load %s[%zero] : i64
  %old = atomic add %out[%zero], %total : i64
  br ^exit
^exit:
  ret
}
)";

// The same kernel as loops over the threads between barriers and as fibers.
TEST(CpuKernel, SharedMemoryTreeReductionWithBarriers) {
  for (bool threadLoops : {true, false}) {
    CpuOptions options;
    options.threadLoopsAtBarriers = threadLoops;
    CpuKernel kernel = compileCpuText(kBlockSum, "block_sum", options);
    EXPECT_EQ(kernel.usesBarrier, !threadLoops);
    // At least the next region and the loop's stride, which lives across a barrier.
    EXPECT_EQ(kernel.threadStorageBytes >= 16, threadLoops);
    EXPECT_EQ(kernel.staticSharedBytes, 256u * 8);
    for (int64_t n : {int64_t(1), int64_t(256), int64_t(100000)}) {
      std::vector<int64_t> x(n);
      std::iota(x.begin(), x.end(), 1);
      int64_t sum = 0;
      CpuParams params;
      params.array(&sum, {1}).array(x.data(), {n});
      launchCpu(kernel, {unsigned((n + 255) / 256), 1, 1}, {256, 1, 1}, params);
      EXPECT_EQ(sum, n * (n + 1) / 2) << "n=" << n << " threadLoops=" << threadLoops;
    }
  }
}

constexpr std::string_view kCount =
    R"(kernel @count(%counter: array<i64, 1, C>, %total: array<f64, 1, C>) {
^bb0:
  %zero = const 0 : i64
  %one = const 1 : i64
  %half = const 0.5 : f64
  %0 = atomic add %counter[%zero], %one : i64
  %1 = atomic add %total[%zero], %half : f64
  ret
}
)";

TEST(CpuKernel, AtomicAddFromManyBlocks) {
  CpuKernel kernel = compileCpuText(kCount, "count");
  int64_t counter = 0;
  double total = 0;
  CpuParams params;
  params.array(&counter, {1}).array(&total, {1});
  launchCpu(kernel, {1000, 1, 1}, {256, 1, 1}, params);
  EXPECT_EQ(counter, 256000);
  EXPECT_EQ(total, 128000.0);
}

// Writes out[i] for every thread of the grid, with no `i < n` guard.
constexpr std::string_view kUnguarded = R"(kernel @fill(%out: array<f32, 1, C>) {
^bb0:
  %0 = sreg tid.x : i32
  %1 = sreg ctaid.x : i32
  %2 = sreg ntid.x : i32
  %3 = mul %1, %2 : i32
  %4 = add %3, %0 : i32
  %i = cast %4 : i32 to i64
  %one = const 1.0 : f32
  store %one, %out[%i]
  ret
}
)";

TEST(CpuKernel, IndexOutOfRangeNamesTheKernelLocationIndexAndExtent) {
  CpuKernel kernel = compileCpuText(kUnguarded, "fill");
  // The array is the first 1000 floats of the buffer; the rest must stay untouched.
  std::vector<float> buffer(1100, 0.0f);
  CpuParams params;
  params.array(buffer.data(), {1000});
  try {
    launchCpu(kernel, {5, 1, 1}, {256, 1, 1}, params);
    FAIL() << "expected KernelIndexError";
  } catch (const runtime::KernelIndexError &error) {
    std::string message = error.what();
    EXPECT_NE(message.find("host_test.kir:10:3: in 'fill', tid=["), std::string::npos) << message;
    EXPECT_NE(message.find("]: index "), std::string::npos) << message;
    EXPECT_NE(message.find(" is out of bounds for axis 0 with size 1000"), std::string::npos)
        << message;
  }
  for (size_t i = 1000; i < buffer.size(); ++i)
    ASSERT_EQ(buffer[i], 0.0f) << "wrote past the array at " << i;
}

constexpr std::string_view kLast =
    R"(kernel @last(%out: array<i32, 1, C>, %x: array<i32, 2, C>, %i: i64, %j: i64) {
^bb0:
  %zero = const 0 : i64
  %0 = load %x[%i, %j] : i32
  store %0, %out[%zero]
  ret
}
)";

TEST(CpuKernel, NegativeIndicesCountFromTheEndWhenChecked) {
  CpuKernel kernel = compileCpuText(kLast, "last");
  std::vector<int32_t> x = {1, 2, 3, 4, 5, 6};
  int32_t out = 0;
  CpuParams params;
  params.array(&out, {1}).array(x.data(), {2, 3}).scalar(int64_t(-1)).scalar(int64_t(-3));
  launchCpu(kernel, {1, 1, 1}, {1, 1, 1}, params);
  EXPECT_EQ(out, 4);

  CpuParams outOfRange;
  outOfRange.array(&out, {1}).array(x.data(), {2, 3}).scalar(int64_t(0)).scalar(int64_t(-4));
  EXPECT_THROW(launchCpu(kernel, {1, 1, 1}, {1, 1, 1}, outOfRange), runtime::KernelIndexError);
}

// Python's wraparound as the frontend writes it, before the checked load wraps again.
constexpr std::string_view kWrappedByFrontend =
    R"(kernel @wrapped(%out: array<i32, 1, C>, %x: array<i32, 1, C>, %i: i64) {
^bb0:
  %zero = const 0 : i64
  %n = array_dim %x, 0 : i64
  %0 = add %i, %n : i64
  %1 = cmp lt %i, %zero : i64
  %2 = select %1, %0, %i : i64
  %3 = load %x[%2] : i32
  store %3, %out[%zero]
  ret
}
)";

TEST(CpuKernel, AnIndexWrappedByTheFrontendIsNotWrappedTwice) {
  CpuKernel kernel = compileCpuText(kWrappedByFrontend, "wrapped");
  std::vector<int32_t> x = {10, 20, 30};
  for (auto [index, expected] : {std::pair{int64_t(-1), 30}, {int64_t(-3), 10}, {int64_t(2), 30}}) {
    int32_t out = 0;
    CpuParams params;
    params.array(&out, {1}).array(x.data(), {3}).scalar(index);
    launchCpu(kernel, {1, 1, 1}, {1, 1, 1}, params);
    EXPECT_EQ(out, expected) << "index " << index;
  }
  // -5 wraps once to -2, out of range; wrapping that again would read x[1].
  int32_t out = 0;
  CpuParams params;
  params.array(&out, {1}).array(x.data(), {3}).scalar(int64_t(-5));
  try {
    launchCpu(kernel, {1, 1, 1}, {1, 1, 1}, params);
    FAIL() << "expected KernelIndexError, read " << out;
  } catch (const runtime::KernelIndexError &error) {
    EXPECT_NE(std::string(error.what()).find("index -5 is out of bounds for axis 0 with size 3"),
              std::string::npos)
        << error.what();
  }
}

// Divisors and dividends come from parameters, so nothing folds at compile time: the
// divisions run on the CPU.
constexpr std::string_view kDivide = R"(kernel @divide(%out: array<i64, 1, C>, %a: i64, %b: i64) {
^bb0:
  %c0 = const 0 : i64
  %c1 = const 1 : i64
  %c2 = const 2 : i64
  %0 = div %a, %b : i64
  %1 = floordiv %a, %b : i64
  %2 = mod %a, %b : i64
  store %0, %out[%c0]
  store %1, %out[%c1]
  store %2, %out[%c2]
  ret
}
)";

TEST(CpuKernel, IntegerDivisionEdgeCasesDoNotTrap) {
  CpuKernel kernel = compileCpuText(kDivide, "divide");
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  struct Case {
    int64_t a, b, div, floorDiv, mod;
  };
  const Case cases[] = {{7, 0, 0, 0, 0},    {kMin, 0, 0, 0, 0},  {kMin, -1, kMin, kMin, 0},
                        {-7, 2, -3, -4, 1}, {7, -2, -3, -4, -1}, {-7, -1, 7, 7, 0}};
  for (const Case &c : cases) {
    int64_t out[3] = {-99, -99, -99};
    CpuParams params;
    params.array(out, {3}).scalar(c.a).scalar(c.b);
    launchCpu(kernel, {1, 1, 1}, {1, 1, 1}, params);
    EXPECT_EQ(out[0], c.div) << c.a << " / " << c.b;
    EXPECT_EQ(out[1], c.floorDiv) << c.a << " // " << c.b;
    EXPECT_EQ(out[2], c.mod) << c.a << " % " << c.b;
  }
}

constexpr std::string_view kMath = R"(kernel @math(%out: array<f32, 1, C>, %x: f32) {
^bb0:
  %c0 = const 0 : i64
  %c1 = const 1 : i64
  %0 = math sin(%x) : f32
  %1 = math rsqrt(%x) : f32
  %2 = call @twice(%0) : f32
  store %2, %out[%c0]
  store %1, %out[%c1]
  ret
}

device @twice(%v: f32) -> f32 {
^bb0:
  %0 = add %v, %v : f32
  ret %0 : f32
}
)";

TEST(CpuKernel, MathFromLibmAndDeviceFunctions) {
  CpuKernel kernel = compileCpuText(kMath, "math");
  float out[2] = {};
  CpuParams params;
  params.array(out, {2}).scalar(0.25f);
  launchCpu(kernel, {1, 1, 1}, {1, 1, 1}, params);
  EXPECT_FLOAT_EQ(out[0], 2.0f * std::sin(0.25f));
  EXPECT_FLOAT_EQ(out[1], 2.0f);
}

TEST(CpuKernel, UnknownKernelIsRejected) {
  std::unique_ptr<ir::Module> module = ir::parseIR(kSaxpy, nullptr);
  EXPECT_THROW(compileCpuKernel(*module, "nope"), std::invalid_argument);
}

TEST(CpuKernel, SaxpyTimingOn16MFloats) {
  const int64_t n = int64_t(1) << 24;
  std::vector<float> x(n, 1.0f), y(n, 2.0f), out(n);
  for (bool check : {true, false}) {
    CpuOptions options;
    options.boundsCheck = check;
    CodegenTimings timings;
    std::unique_ptr<ir::Module> module = ir::parseIR(kSaxpy, nullptr);
    CpuKernel kernel = compileCpuKernel(*module, "saxpy", options, &timings);
    CpuParams params;
    params.array(out.data(), {n}).scalar(2.0f).array(x.data(), {n}).array(y.data(), {n});
    launchCpu(kernel, {unsigned(n / 256), 1, 1}, {256, 1, 1}, params); // warm-up
    auto start = std::chrono::steady_clock::now();
    launchCpu(kernel, {unsigned(n / 256), 1, 1}, {256, 1, 1}, params);
    double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    ASSERT_EQ(out[n - 1], 4.0f);
    std::printf("[ timing ] saxpy 2^24 f32, bounds check %s: %.2f ms, %.1f GB/s "
                "(compile: lower %.2f ms, O3 %.2f ms, JIT %.2f ms; %u workers)\n",
                check ? "on " : "off", ms, 3.0 * 4 * double(n) / ms / 1e6, timings.lowerMs,
                timings.optimizeMs, timings.emitMs, runtime::CpuExecutor::shared().workerCount());
  }
}

} // namespace
