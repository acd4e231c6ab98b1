// Compiling kaji IR text for the host and launching it on host buffers, for the CPU backend
// tests.
#pragma once

#include "kaji/codegen/cpu/CpuCodegen.h"
#include "kaji/ir/IRParser.h"
#include "kaji/ir/Verifier.h"
#include "kaji/runtime/CpuExecutor.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <deque>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace kaji::codegen::test {

inline const char *kCpuTestFile = "host_test.kir";

inline CpuKernel compileCpuText(std::string_view text, std::string_view kernel,
                                CpuOptions options = {}) {
  std::unique_ptr<ir::Module> module =
      ir::parseIR(text, std::make_shared<const std::string>(kCpuTestFile));
  ir::verify(*module);
  return compileCpuKernel(*module, kernel, options);
}

// The flattened kernel parameters, as CpuKernelABI.h lays them out: one pointer per part,
// each to a value kept alive here.
class CpuParams {
public:
  template <class T> CpuParams &scalar(T value) {
    static_assert(sizeof(T) <= 8);
    std::memcpy(slots_.emplace_back().data(), &value, sizeof(T));
    pointers_.push_back(slots_.back().data());
    return *this;
  }
  // A C-contiguous array of `shape` over `data`.
  template <class T> CpuParams &array(T *data, std::vector<int64_t> shape) {
    scalar(static_cast<void *>(data));
    std::vector<int64_t> strides(shape.size());
    int64_t stride = sizeof(T);
    for (size_t d = shape.size(); d-- > 0;) {
      strides[d] = stride;
      stride *= shape[d];
    }
    for (int64_t extent : shape)
      scalar(extent);
    for (int64_t s : strides)
      scalar(s);
    return *this;
  }
  void *const *data() const { return pointers_.data(); }
  size_t size() const { return pointers_.size(); }

private:
  std::deque<std::array<unsigned char, 8>> slots_;
  std::vector<void *> pointers_;
};

inline void launchCpu(const CpuKernel &kernel, runtime::Dim3 grid, runtime::Dim3 block,
                      const CpuParams &params) {
  if (params.size() != kernel.parameterCount)
    throw std::logic_error("kernel '" + kernel.name + "' takes " +
                           std::to_string(kernel.parameterCount) + " parameters, got " +
                           std::to_string(params.size()));
  runtime::CpuExecutor::shared().launch(
      kernel.entry,
      kernel.usesBarrier ? runtime::CpuThreads::Fibers : runtime::CpuThreads::LoopInEntry, grid,
      block, kernel.staticSharedBytes, params.data(), kernel.frameBytes, kernel.recursive,
      kernel.threadStorageBytes);
}

} // namespace kaji::codegen::test
