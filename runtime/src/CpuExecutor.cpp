#include "kaji/runtime/CpuExecutor.h"
#include "kaji/runtime/CpuWorkers.h"

#include "Fiber.h"
#include "ThreadPool.h"
#include "WarpExchange.h"
#include "kaji/abi/KernelABI.h"

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <barrier>
#include <csetjmp>
#include <cstdlib>
#include <exception>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace kaji::runtime {
namespace {

struct FreeDeleter {
  void operator()(void *memory) const { std::free(memory); }
};

void checkExtents(const char *what, Dim3 dims, Dim3 limits) {
  const unsigned values[] = {dims.x, dims.y, dims.z};
  const unsigned maxima[] = {limits.x, limits.y, limits.z};
  for (int d = 0; d < 3; ++d)
    if (values[d] == 0 || values[d] > maxima[d])
      throw std::invalid_argument(std::string(what) + "." + char('x' + d) + " is " +
                                  std::to_string(values[d]) + "; it must be in 1.." +
                                  std::to_string(maxima[d]));
}

void validateLaunch(Dim3 grid, Dim3 block) {
  checkExtents("grid", grid,
               Dim3{abi::kMaxGridExtent[0], abi::kMaxGridExtent[1], abi::kMaxGridExtent[2]});
  checkExtents("block", block,
               Dim3{abi::kMaxBlockExtent[0], abi::kMaxBlockExtent[1], abi::kMaxBlockExtent[2]});
  uint64_t threads = uint64_t(block.x) * block.y * block.z;
  if (threads > abi::kMaxBlockThreads)
    throw std::invalid_argument("a block of " + std::to_string(block.x) + " x " +
                                std::to_string(block.y) + " x " + std::to_string(block.z) + " = " +
                                std::to_string(threads) + " threads exceeds the limit of " +
                                std::to_string(abi::kMaxBlockThreads));
}

void unflatten(uint64_t linear, Dim3 extent, uint32_t out[3]) {
  out[0] = uint32_t(linear % extent.x);
  linear /= extent.x;
  out[1] = uint32_t(linear % extent.y);
  out[2] = uint32_t(linear / extent.y);
}

// Runs a kernel's entry: JIT-compiled code, without the type signature that clang's
// -fsanitize=function reads from the 8 bytes before a function called through a pointer. An
// entry that began a mapping of its own made that read fault (the instrumented build).
#if defined(__clang__)
__attribute__((no_sanitize("function")))
#endif
void runEntry(abi::CpuKernelEntry entry, void *const *params,
              const abi::CpuLaunchContext *context) {
  entry(params, context);
}

// "Class: message" → message; "Class" alone → empty.
std::string_view exceptionMessage(std::string_view exception) {
  size_t colon = exception.find(": ");
  return colon == std::string_view::npos ? std::string_view() : exception.substr(colon + 2);
}

std::string_view exceptionClassOf(std::string_view exception) {
  return exception.substr(0, exception.find(": "));
}

// Counts fork()s: a child process inherits the thread pool's objects but none of its threads.
std::atomic<uint64_t> forkGeneration{0};

void countForks() {
  static const int registered =
      pthread_atfork(nullptr, nullptr, [] { forkGeneration.fetch_add(1); });
  (void)registered;
}

} // namespace

LaunchInterrupted::LaunchInterrupted()
    : std::runtime_error("the launch was interrupted before every block had run") {}

namespace {
// Kernels reach these through their address; interruptRequested is also polled between blocks.
abi::CpuRuntimeHooks runtimeHooks;
} // namespace

void CpuExecutor::requestInterrupt() {
  runtimeHooks.interruptRequested.store(1, std::memory_order_relaxed);
}

void CpuExecutor::withdrawInterrupt() {
  runtimeHooks.interruptRequested.store(0, std::memory_order_relaxed);
}

const abi::CpuRuntimeHooks *CpuExecutor::hooks() { return &runtimeHooks; }

namespace {

// "site, tid=[3, 0, 0] ctaid=[1, 0, 0]" (Numba's words for the thread), or the site alone.
std::string raisedAt(const std::string &site, const std::optional<RaisingThread> &thread) {
  if (!thread)
    return site;
  // std::string("["), not "[": GCC 12 warns falsely (-Wrestrict, bug 105329) about a literal
  // plus a returned std::string.
  auto coordinates = [](const Dim3 &d) {
    return std::string("[") + std::to_string(d.x) + ", " + std::to_string(d.y) + ", " +
           std::to_string(d.z) + "]";
  };
  return site + ", tid=" + coordinates(thread->thread) + " ctaid=" + coordinates(thread->block);
}

} // namespace

KernelException::KernelException(const std::string &site, std::optional<RaisingThread> thread,
                                 std::string_view exception)
    : std::runtime_error(exceptionMessage(exception).empty()
                             ? raisedAt(site, thread)
                             : raisedAt(site, thread) + ": " +
                                   std::string(exceptionMessage(exception))),
      exceptionClass_(exceptionClassOf(exception)) {}

KernelIndexError::KernelIndexError(const std::string &site, std::optional<RaisingThread> thread,
                                   int64_t axis, int64_t index, int64_t extent,
                                   bool indexIsUnsigned)
    : std::out_of_range(
          raisedAt(site, thread) + ": index " +
          (indexIsUnsigned ? std::to_string(uint64_t(index)) : std::to_string(index)) +
          " is out of bounds for axis " + std::to_string(axis) + " with size " +
          std::to_string(extent)) {}

// One launch, as every worker sees it.
struct LaunchState {
  abi::CpuKernelEntry entry = nullptr;
  CpuThreads threads = CpuThreads::LoopInEntry;
  Dim3 grid;
  Dim3 block;
  void *const *params = nullptr;
  uint64_t frameBytes = 0;
  bool recursive = false;
  uint64_t threadStorageBytes = 0;
  uint64_t blockCount = 0;
  // Workers take blocks in chunks: one shared counter bumped per block costs more than a
  // small block's work once two cores contend for its cache line.
  uint64_t blocksPerClaim = 1;
  std::atomic<uint64_t> nextBlock{0};
  // A cooperative launch's: every block arrives once per grid sync, and drops out when done.
  std::barrier<> *gridBarrier = nullptr;
  // The first failure; launch() throws it once every worker is done.
  std::atomic<bool> failed{false};
  std::mutex errorLock;
  std::exception_ptr error;

  void recordIndexError(const char *site, const RaisingThread &thread, int64_t axis, int64_t index,
                        int64_t extent, bool indexIsUnsigned) {
    std::lock_guard<std::mutex> guard(errorLock);
    if (failed.exchange(true))
      return;
    error = std::make_exception_ptr(
        KernelIndexError(site, thread, axis, index, extent, indexIsUnsigned));
  }

  void recordException(const char *site, const RaisingThread &thread, const char *exception) {
    std::lock_guard<std::mutex> guard(errorLock);
    if (!failed.exchange(true))
      error = std::make_exception_ptr(KernelException(site, thread, exception));
  }

  void recordFailure(std::exception_ptr failure) {
    std::lock_guard<std::mutex> guard(errorLock);
    if (!failed.exchange(true))
      error = std::move(failure);
  }
};

// A fiber's stack beyond the kernel's own frames: the executor's frames below the kernel and
// the library functions the kernel calls (libm, printf) above it.
constexpr uint64_t kFiberReserveBytes = 64 * 1024;

// The CpuExecutor::Worker whose kernel code runs on this OS thread, for the runtime hooks.
thread_local void *runningWorker = nullptr;

// What a worker OS thread keeps between launches: its fibers' stacks, their exchange slots
// and its block's shared memory, and the `executor` the kernel's callbacks receive.
struct CpuExecutor::Worker {
  FiberGroup fibers;
  WarpExchange exchange{fibers};
  std::unique_ptr<void, FreeDeleter> shared;
  uint64_t sharedCapacity = 0;
  std::unique_ptr<void, FreeDeleter> threadStorage;
  uint64_t threadStorageCapacity = 0;
  LaunchState *launch = nullptr;
  abi::CpuLaunchContext context{};
  // The fiber barrier epoch of the block's last grid sync (FiberGroup::barrierEpoch).
  uint64_t gridEpoch = ~uint64_t(0);
  // Where escape() goes from kernel code that runs on this thread's own stack.
  std::jmp_buf escapeTarget;
  uint64_t cooperativeBlock = 0;

  // `buffer` holding at least `bytes`, kSharedMemoryAlignment aligned, grown as needed.
  static void *atLeast(std::unique_ptr<void, FreeDeleter> &buffer, uint64_t &capacity,
                       uint64_t bytes) {
    constexpr uint64_t kAlignment = abi::kSharedMemoryAlignment;
    bytes = std::max<uint64_t>((bytes + kAlignment - 1) / kAlignment * kAlignment, kAlignment);
    if (bytes > capacity) {
      buffer.reset(std::aligned_alloc(kAlignment, bytes));
      if (!buffer)
        throw std::bad_alloc();
      capacity = bytes;
    }
    return buffer.get();
  }

  static void barrier(void *executor) { static_cast<Worker *>(executor)->fibers.barrier(); }

  RaisingThread raisingThread(const abi::CpuRaisingThread &thread) const {
    uint32_t threadsX = context.blockDim[0];
    return {{uint32_t(thread.globalX % threadsX), thread.threadYZ[0], thread.threadYZ[1]},
            {uint32_t(thread.globalX / threadsX), thread.blockYZ[0], thread.blockYZ[1]}};
  }

  static void indexError(void *executor, const char *site, const abi::CpuRaisingThread *thread,
                         int64_t axis, int64_t index, int64_t extent, uint32_t indexIsUnsigned) {
    auto &worker = *static_cast<Worker *>(executor);
    worker.launch->recordIndexError(site, worker.raisingThread(*thread), axis, index, extent,
                                    indexIsUnsigned != 0);
  }

  static void raiseException(void *executor, const char *site, const abi::CpuRaisingThread *thread,
                             const char *exception) {
    auto &worker = *static_cast<Worker *>(executor);
    worker.launch->recordException(site, worker.raisingThread(*thread), exception);
  }

  // The first of the block's threads through its barrier arrives for the whole block.
  static void gridBarrier(void *executor) {
    auto &worker = *static_cast<Worker *>(executor);
    if (!worker.launch->gridBarrier) {
      worker.launch->recordFailure(std::make_exception_ptr(std::logic_error(
          "a kernel with a grid sync was launched without CpuThreads::Cooperative")));
      return;
    }
    worker.fibers.barrier();
    uint64_t epoch = worker.fibers.barrierEpoch();
    if (worker.gridEpoch != epoch) {
      worker.gridEpoch = epoch;
      worker.launch->gridBarrier->arrive_and_wait();
    }
    worker.fibers.barrier();
  }

  // Ends the kernel code running now (no frame of it needs destroying) with `failure`, which
  // the launch throws: the fibers of its block are abandoned, or the thread jumps back to
  // runEscapably.
  [[noreturn]] void escape(std::exception_ptr failure) {
    launch->recordFailure(std::move(failure));
    if (fibers.inFiber())
      fibers.abandon();
    std::longjmp(escapeTarget, 1);
  }

  // Hooks are called only from kernel code that a worker runs.
  static Worker &running() {
    if (!runningWorker)
      std::abort();
    return *static_cast<Worker *>(runningWorker);
  }

  static void stackOverflow(const char *function) {
    std::exception_ptr failure = std::make_exception_ptr(
        KernelException(std::string("in function '") + function + "'", std::nullopt,
                        "RecursionError: the recursion went deeper than the " +
                            std::to_string(abi::kRecursionStackBytes >> 20) +
                            " MiB of stack a thread has on the cpu target"));
    running().escape(std::move(failure));
  }

  static void interrupted() {
    std::exception_ptr failure = std::make_exception_ptr(LaunchInterrupted());
    running().escape(std::move(failure));
  }

  // Runs (this->*body)() so that escape() ends it. ThreadPool jobs must not throw: what it
  // throws is recorded in the launch.
  void runEscapably(void (Worker::*body)()) {
    runningWorker = this;
    if (setjmp(escapeTarget) == 0) {
      try {
        (this->*body)();
      } catch (...) {
        launch->recordFailure(std::current_exception());
      }
    }
    runningWorker = nullptr;
  }

  static void yield(void *executor) { static_cast<Worker *>(executor)->fibers.yield(); }

  static void warpBarrier(void *executor, uint32_t mask) {
    static_cast<Worker *>(executor)->fibers.warpBarrier(mask);
  }

  // An operation the enums do not name means the codegen was built against another
  // CpuKernelABI.h: the launch fails rather than compute garbage.
  void unknownOperation(const char *callback, uint32_t op) {
    launch->recordFailure(std::make_exception_ptr(std::logic_error(
        std::string("host kernel passed unknown operation ") + std::to_string(op) + " to " +
        callback + "; the kernel was compiled against another CpuKernelABI.h")));
  }

  static uint64_t warpCollective(void *executor, uint32_t op, uint32_t mask, uint64_t value,
                                 uint32_t operand) {
    auto &worker = *static_cast<Worker *>(executor);
    if (op > uint32_t(abi::kLastWarpOp)) {
      worker.unknownOperation("warpCollective", op);
      return value;
    }
    return worker.exchange.collective(abi::WarpOp(op), mask, value, operand);
  }

  static uint32_t blockReduce(void *executor, uint32_t op, uint32_t predicate) {
    auto &worker = *static_cast<Worker *>(executor);
    if (op > uint32_t(abi::BlockReduceOp::Or)) {
      worker.unknownOperation("blockReduce", op);
      return predicate;
    }
    return worker.exchange.blockReduce(abi::BlockReduceOp(op), predicate);
  }

  static void runThread(void *executor, unsigned index) {
    auto &worker = *static_cast<Worker *>(executor);
    abi::CpuLaunchContext context = worker.context;
    unflatten(index, worker.launch->block, context.threadIdx);
    runEntry(worker.launch->entry, worker.launch->params, &context);
  }

  // A block of a barrier-free kernel, on a fiber for the stack a recursive kernel needs.
  static void runBlockOnFiber(void *executor, unsigned) {
    auto &worker = *static_cast<Worker *>(executor);
    runEntry(worker.launch->entry, worker.launch->params, &worker.context);
  }

  void runBlocks() { runEscapably(&Worker::claimBlocks); }

  void claimBlocks() {
    LaunchState &state = *launch;
    unsigned threadsPerBlock = state.block.x * state.block.y * state.block.z;
    while (!state.failed.load(std::memory_order_relaxed)) {
      uint64_t first = state.nextBlock.fetch_add(state.blocksPerClaim, std::memory_order_relaxed);
      if (first >= state.blockCount)
        return;
      uint64_t end = std::min(first + state.blocksPerClaim, state.blockCount);
      // A barrier-free kernel's entry runs the claimed blocks itself (CpuLaunchContext).
      if (state.threads == CpuThreads::LoopInEntry && !state.recursive) {
        if (runtimeHooks.interruptRequested.load(std::memory_order_relaxed)) {
          launch->recordFailure(std::make_exception_ptr(LaunchInterrupted()));
          return;
        }
        unflatten(first, state.grid, context.blockIdx);
        context.blockCount = end - first;
        runEntry(state.entry, state.params, &context);
        continue;
      }
      for (uint64_t linear = first; linear < end && !state.failed.load(std::memory_order_relaxed);
           ++linear) {
        if (runtimeHooks.interruptRequested.load(std::memory_order_relaxed)) {
          launch->recordFailure(std::make_exception_ptr(LaunchInterrupted()));
          return;
        }
        unflatten(linear, state.grid, context.blockIdx);
        if (state.threads != CpuThreads::LoopInEntry)
          runFibers(threadsPerBlock);
        else
          fibers.run(1, &Worker::runBlockOnFiber, this);
      }
    }
  }

  // A cooperative launch's block `linear`, then out of the grid barrier.
  void runCooperativeBlock(uint64_t linear) {
    cooperativeBlock = linear;
    runEscapably(&Worker::runCooperativeFibers);
    launch->gridBarrier->arrive_and_drop();
  }

  void runCooperativeFibers() {
    unflatten(cooperativeBlock, launch->grid, context.blockIdx);
    runFibers(launch->block.x * launch->block.y * launch->block.z);
  }

  void runFibers(unsigned threadsPerBlock) {
    try {
      fibers.run(threadsPerBlock, &Worker::runThread, this);
    } catch (const std::runtime_error &deadlock) {
      // Which threads deadlock usually depends on the block (a partial last block).
      throw std::runtime_error("block (" + std::to_string(context.blockIdx[0]) + ", " +
                               std::to_string(context.blockIdx[1]) + ", " +
                               std::to_string(context.blockIdx[2]) + "): " + deadlock.what());
    }
  }
};

CpuExecutor::CpuExecutor(unsigned workers) {
  if (workers == 0)
    workers = defaultCpuWorkers();
  for (unsigned i = 0; i < workers; ++i)
    workers_.push_back(std::make_unique<Worker>());
  countForks();
  runtimeHooks.interrupted = &Worker::interrupted;
  runtimeHooks.stackOverflow = &Worker::stackOverflow;
  poolForkGeneration_ = forkGeneration.load();
  pool_ = std::make_unique<ThreadPool>(workers);
}

CpuExecutor::~CpuExecutor() = default;

CpuExecutor &CpuExecutor::shared() {
  static CpuExecutor executor;
  return executor;
}

unsigned CpuExecutor::workerCount() const { return unsigned(workers_.size()); }

void CpuExecutor::launch(abi::CpuKernelEntry entry, CpuThreads threads, Dim3 grid, Dim3 block,
                         uint64_t sharedBytes, void *const *params, uint64_t frameBytes,
                         bool recursive, uint64_t threadStorageBytes) {
  if (!entry)
    throw std::invalid_argument("host kernel launch without a kernel entry");
  validateLaunch(grid, block);
  if (frameBytes > kMaxFrameBytes)
    throw std::invalid_argument(
        "the kernel needs " + std::to_string(frameBytes) +
        " bytes of stack per thread (its local arrays and the frames of its device "
        "functions), over the " +
        std::to_string(kMaxFrameBytes) + " bytes of local memory a CUDA thread may have");
  std::lock_guard<std::mutex> guard(launchLock_);
  LaunchState state;
  state.entry = entry;
  state.threads = threads;
  state.grid = grid;
  state.block = block;
  state.params = params;
  state.frameBytes = frameBytes;
  state.recursive = recursive;
  state.threadStorageBytes = threadStorageBytes;
  state.blockCount = uint64_t(grid.x) * grid.y * grid.z;
  // About 16 claims per worker keeps the load balanced when blocks take unequal time.
  state.blocksPerClaim = std::max<uint64_t>(1, state.blockCount / (16 * workers_.size()));
  if (threads == CpuThreads::Cooperative)
    launchCooperative(state, sharedBytes);
  else
    launchBlocks(state, sharedBytes);
  // A request that came after the last poll is for this launch, which is over.
  runtimeHooks.interruptRequested.store(0, std::memory_order_relaxed);
  if (state.failed)
    std::rethrow_exception(state.error);
}

void CpuExecutor::launchBlocks(LaunchState &state, uint64_t sharedBytes) {
  for (auto &worker : workers_)
    prepare(*worker, state, sharedBytes);
  // A single block has nobody to share it with: waking the pool would cost more than it.
  if (state.blockCount == 1) {
    workers_.front()->runBlocks();
    return;
  }
  if (uint64_t generation = forkGeneration.load(); generation != poolForkGeneration_) {
    // In a child of fork(): the pool's threads are the parent's. Its object stays allocated,
    // since destroying it would join threads that do not exist here.
    (void)pool_.release();
    pool_ = std::make_unique<ThreadPool>(unsigned(workers_.size()));
    poolForkGeneration_ = generation;
  }
  pool_->runOnAll([this](unsigned worker) { workers_[worker]->runBlocks(); });
}

void CpuExecutor::prepare(Worker &worker, LaunchState &state, uint64_t sharedBytes) {
  worker.launch = &state;
  worker.context = abi::CpuLaunchContext{};
  worker.context.blockDim[0] = state.block.x;
  worker.context.blockDim[1] = state.block.y;
  worker.context.blockDim[2] = state.block.z;
  worker.context.gridDim[0] = state.grid.x;
  worker.context.gridDim[1] = state.grid.y;
  worker.context.gridDim[2] = state.grid.z;
  worker.context.sharedMemory = Worker::atLeast(worker.shared, worker.sharedCapacity, sharedBytes);
  if (state.threadStorageBytes)
    worker.context.threadStorage =
        Worker::atLeast(worker.threadStorage, worker.threadStorageCapacity,
                        state.threadStorageBytes * state.block.x * state.block.y * state.block.z);
  worker.context.sharedBytes = sharedBytes;
  worker.context.executor = &worker;
  worker.context.barrier = &Worker::barrier;
  worker.context.indexError = &Worker::indexError;
  worker.context.raiseException = &Worker::raiseException;
  worker.context.warpBarrier = &Worker::warpBarrier;
  worker.context.warpCollective = &Worker::warpCollective;
  worker.context.blockReduce = &Worker::blockReduce;
  worker.context.gridBarrier = &Worker::gridBarrier;
  worker.context.yield = &Worker::yield;
  worker.context.blockCount = 1;
  worker.context.launchFailed = &state.failed;
  if (state.threads != CpuThreads::LoopInEntry)
    worker.exchange.reserve(state.block.x * state.block.y * state.block.z);
  if (state.recursive)
    worker.fibers.useAlignedStacks(abi::kRecursionStackBytes);
  else if (state.threads != CpuThreads::LoopInEntry)
    worker.fibers.growStacks(kFiberReserveBytes + state.frameBytes);
}

void CpuExecutor::launchCooperative(LaunchState &state, uint64_t sharedBytes) {
  if (state.blockCount > kMaxCooperativeBlocks)
    throw std::invalid_argument(
        "a cooperative launch (a kernel with a grid sync) runs every block at once; the cpu "
        "target runs at most " +
        std::to_string(kMaxCooperativeBlocks) + " blocks so, and this grid has " +
        std::to_string(state.blockCount));
  while (cooperativeWorkers_.size() < state.blockCount)
    cooperativeWorkers_.push_back(std::make_unique<Worker>());
  std::barrier<> grid(std::ptrdiff_t(state.blockCount));
  state.gridBarrier = &grid;
  for (uint64_t b = 0; b < state.blockCount; ++b)
    prepare(*cooperativeWorkers_[b], state, sharedBytes);
  std::vector<std::thread> blocks;
  uint64_t started = 1;
  try {
    for (; started < state.blockCount; ++started)
      blocks.emplace_back(
          [this, started] { cooperativeWorkers_[started]->runCooperativeBlock(started); });
  } catch (const std::system_error &) {
    // Blocks without a thread never arrive: the launch fails, and the rest are not held up.
    state.recordFailure(std::current_exception());
    for (uint64_t b = started; b < state.blockCount; ++b)
      grid.arrive_and_drop();
  }
  cooperativeWorkers_[0]->runCooperativeBlock(0);
  for (std::thread &block : blocks)
    block.join();
}

} // namespace kaji::runtime
