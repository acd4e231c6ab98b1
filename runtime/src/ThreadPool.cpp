#include "ThreadPool.h"

namespace kaji::runtime {

ThreadPool::ThreadPool(unsigned threads) {
  for (unsigned i = 0; i < threads; ++i)
    threads_.emplace_back([this, i] { work(i); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> guard(lock_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread &thread : threads_)
    thread.join();
}

void ThreadPool::runOnAll(const std::function<void(unsigned)> &job) {
  std::unique_lock<std::mutex> guard(lock_);
  job_ = &job;
  busy_ = size();
  ++generation_;
  wake_.notify_all();
  done_.wait(guard, [this] { return busy_ == 0; });
  job_ = nullptr;
}

void ThreadPool::work(unsigned worker) {
  unsigned long seen = 0;
  std::unique_lock<std::mutex> guard(lock_);
  while (true) {
    wake_.wait(guard, [&] { return stopping_ || generation_ != seen; });
    if (stopping_)
      return;
    seen = generation_;
    const auto &job = *job_;
    guard.unlock();
    job(worker);
    guard.lock();
    if (--busy_ == 0)
      done_.notify_one();
  }
}

} // namespace kaji::runtime
