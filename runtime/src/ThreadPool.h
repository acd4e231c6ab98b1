// A fixed set of OS threads that run one job at a time, all of them on it at once.
#pragma once

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace kaji::runtime {

class ThreadPool {
public:
  explicit ThreadPool(unsigned threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool &) = delete;
  ThreadPool &operator=(const ThreadPool &) = delete;

  unsigned size() const { return unsigned(threads_.size()); }

  // Calls job(worker) on every worker, worker in [0, size()), and returns when all have
  // returned. `job` must not throw. One job at a time: callers serialise.
  void runOnAll(const std::function<void(unsigned worker)> &job);

private:
  void work(unsigned worker);

  std::vector<std::thread> threads_;
  std::mutex lock_;
  std::condition_variable wake_;
  std::condition_variable done_;
  const std::function<void(unsigned)> *job_ = nullptr;
  unsigned long generation_ = 0;
  unsigned busy_ = 0;
  bool stopping_ = false;
};

} // namespace kaji::runtime
