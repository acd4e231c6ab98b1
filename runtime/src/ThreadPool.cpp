#include "ThreadPool.h"

#include <pthread.h>

namespace kaji::runtime {
namespace {

// Tells the core this is a spin loop (it yields to its sibling hyperthread, saves power).
inline void spinPause() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

} // namespace

ThreadPool::ThreadPool(unsigned workers) {
  for (unsigned i = 1; i < workers; ++i)
    threads_.emplace_back([this, i] {
      pthread_setname_np(pthread_self(), kThreadName);
      work(i);
    });
}

ThreadPool::~ThreadPool() {
  stopping_ = true;
  notify(wake_);
  for (std::thread &thread : threads_)
    thread.join();
}

template <typename Ready> void ThreadPool::await(std::condition_variable &signal, Ready ready) {
  auto start = std::chrono::steady_clock::now();
  for (unsigned spins = 1; !ready(); ++spins) {
    if (spins % 64 == 0 && std::chrono::steady_clock::now() - start > kSpinTime) {
      std::unique_lock<std::mutex> guard(lock_);
      signal.wait(guard, ready);
      return;
    }
    spinPause();
  }
}

// A sleeper tests ready() holding the lock, so taking it here orders the change before that
// test or the sleeper already waits: no wake-up is lost.
void ThreadPool::notify(std::condition_variable &signal) {
  { std::lock_guard<std::mutex> guard(lock_); }
  signal.notify_all();
}

void ThreadPool::runOnAll(const std::function<void(unsigned)> &job) {
  job_ = &job;
  busy_ = unsigned(threads_.size());
  ++generation_;
  if (!threads_.empty())
    notify(wake_);
  job(0);
  await(done_, [this] { return busy_ == 0; });
}

void ThreadPool::work(unsigned worker) {
  uint64_t seen = 0;
  while (true) {
    await(wake_, [&] { return stopping_ || generation_ != seen; });
    if (stopping_)
      return;
    seen = generation_;
    (*job_.load())(worker);
    if (--busy_ == 0)
      notify(done_);
  }
}

} // namespace kaji::runtime
