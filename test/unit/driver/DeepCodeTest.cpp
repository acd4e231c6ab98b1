// LLVM's instruction selection recurses once per `if` of a chain that carries one value. The
// codegen entry points run LLVM on a thread with a large stack of its own, so whether a
// kernel compiles does not depend on the stack of the thread that asks: here a thread of
// 128 KiB, which a chain of 2 000 `if`s overflowed (a segfault) when LLVM ran on it.
#include "kaji/driver/Compiler.h"
#include "kaji/frontend/Signature.h"

#include <gtest/gtest.h>

#include <pthread.h>

#include <exception>
#include <functional>
#include <memory>
#include <string>

using namespace kaji;

namespace {

constexpr int kIfs = 2000;
constexpr size_t kCallerStackBytes = 128 * 1024;

std::string chainOfIfs(int count) {
  std::string text = "def kernel(out, a):\n    x = a[0]\n";
  for (int k = 0; k < count; ++k)
    text += "    if a[" + std::to_string(k % 64) + "] > x:\n        x = x + " + std::to_string(k) +
            ".0\n";
  return text + "    out[0] = x\n";
}

driver::CompileRequest requestFor(const frontend::SourceFile &source, driver::Target target) {
  driver::CompileRequest request;
  request.target = target;
  ir::Location where{source.name, 1, 1};
  request.kernels.push_back({driver::findFunction(driver::parse(source), "kernel", nullptr),
                             frontend::parseSignature("void(float32[:], float32[:])", where).params,
                             {}});
  return request;
}

// Runs `work` on a thread with a stack of kCallerStackBytes; what it throws is rethrown.
void onSmallStack(const std::function<void()> &work) {
  struct Call {
    const std::function<void()> &work;
    std::exception_ptr failure;
  } call{work, nullptr};
  pthread_attr_t attributes;
  pthread_attr_init(&attributes);
  pthread_attr_setstacksize(&attributes, kCallerStackBytes);
  pthread_t thread;
  int error = pthread_create(
      &thread, &attributes,
      [](void *pointer) -> void * {
        auto *call = static_cast<Call *>(pointer);
        try {
          call->work();
        } catch (...) {
          call->failure = std::current_exception();
        }
        return nullptr;
      },
      &call);
  pthread_attr_destroy(&attributes);
  ASSERT_EQ(error, 0);
  pthread_join(thread, nullptr);
  if (call.failure)
    std::rethrow_exception(call.failure);
}

} // namespace

TEST(DeepCode, ChainOfIfsCompilesToPTXFromASmallStack) {
  frontend::SourceFile source{std::make_shared<const std::string>("ifs.py"), chainOfIfs(kIfs)};
  driver::CompileRequest request = requestFor(source, driver::Target::CUDA);
  std::string ptx;
  onSmallStack([&] { ptx = driver::compile(request).ptx; });
  EXPECT_NE(ptx.find(".entry kernel"), std::string::npos);
}
