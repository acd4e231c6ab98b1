// A fixed set of workers that run one job at a time, all of them on it at once: the calling
// thread is worker 0, the pool's own threads the others.
//
// Between jobs a thread spins for a while (kSpinTime) before it sleeps, so that back-to-back
// jobs - a loop of launches - find the workers awake instead of waking each through the
// operating system, next to a launch of a memory-bound kernel over all of a machine's cores
// that takes about a millisecond.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace kaji::runtime {

class ThreadPool {
public:
  static constexpr std::chrono::microseconds kSpinTime{100};
  // The name of the pool's threads, as debuggers, `top -H` and /proc/<pid>/task/*/comm show it.
  static constexpr const char *kThreadName = "kaji-cpu";

  // `workers` (at least 1) counts the calling thread: workers - 1 threads are started.
  explicit ThreadPool(unsigned workers);
  ~ThreadPool();
  ThreadPool(const ThreadPool &) = delete;
  ThreadPool &operator=(const ThreadPool &) = delete;

  unsigned size() const { return unsigned(threads_.size()) + 1; }

  // Calls job(worker) on every worker, worker in [0, size()), job(0) on the calling thread,
  // and returns when all have returned. `job` must not throw. One job at a time: callers
  // serialise.
  void runOnAll(const std::function<void(unsigned worker)> &job);

private:
  void work(unsigned worker);
  // Returns once ready() holds: spins for kSpinTime, then sleeps until `signal` is notified.
  template <typename Ready> void await(std::condition_variable &signal, Ready ready);
  // Wakes the threads sleeping on `signal` after a change ready() tests.
  void notify(std::condition_variable &signal);

  std::vector<std::thread> threads_;
  std::mutex lock_;
  std::condition_variable wake_;
  std::condition_variable done_;
  std::atomic<const std::function<void(unsigned)> *> job_{nullptr};
  std::atomic<uint64_t> generation_{0};
  std::atomic<unsigned> busy_{0};
  std::atomic<bool> stopping_{false};
};

} // namespace kaji::runtime
