// LLVM's code generation recurses as deep as the code is long in places (SelectionDAG's
// instruction selection walks a chain of 64 000 `if`s one frame per node), which overflows
// the 8 MiB stack of a main thread, or the smaller one of a Python worker thread, with a
// segfault. The codegen entry points therefore run LLVM on a thread of their own with a large
// stack: it is reserved address space, and only the pages the recursion reaches are touched.
#pragma once

#include <llvm/Support/thread.h>

#include <exception>
#include <optional>
#include <type_traits>
#include <utility>

namespace kaji::codegen {

inline constexpr unsigned kLLVMStackBytes = 1024u << 20;

// `work()` run on a thread with a kLLVMStackBytes stack; what it throws is rethrown here.
template <class Work> std::invoke_result_t<Work &> onLargeStack(Work &&work) {
  std::optional<std::invoke_result_t<Work &>> result;
  std::exception_ptr failure;
  llvm::thread worker(std::optional<unsigned>(kLLVMStackBytes), [&] {
    try {
      result.emplace(work());
    } catch (...) {
      failure = std::current_exception();
    }
  });
  worker.join();
  if (failure)
    std::rethrow_exception(failure);
  return std::move(*result);
}

} // namespace kaji::codegen
