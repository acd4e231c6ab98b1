#include "kernel_exceptions.h"

#include "kaji/runtime/Error.h"
#include "kaji/runtime/HostExecutor.h"
#include "kaji/runtime/Memory.h"

#include <algorithm>
#include <cstdint>
#include <optional>

namespace kaji::python {
namespace {

struct ArmedSlot {
  runtime::CUdeviceptr slot;
  ExceptionTable table;
};

// Launches and sync points hold the GIL, which guards this.
std::vector<ArmedSlot> armedSlots;

} // namespace

void armExceptionSlot(runtime::CUdeviceptr slot, ExceptionTable table) {
  if (std::none_of(armedSlots.begin(), armedSlots.end(),
                   [slot](const ArmedSlot &armed) { return armed.slot == slot; }))
    armedSlots.push_back({slot, std::move(table)});
}

void raiseKernelExceptions() {
  std::vector<ArmedSlot> armed = std::move(armedSlots);
  armedSlots.clear();
  std::optional<runtime::KernelException> first;
  for (const ArmedSlot &entry : armed) {
    uint32_t number = 0;
    runtime::copyDeviceToHost(&number, entry.slot, sizeof number);
    if (number == 0)
      continue;
    const uint32_t cleared = 0;
    runtime::copyHostToDevice(entry.slot, &cleared, sizeof cleared);
    if (!first && number <= entry.table->size()) {
      const driver::ReportedException &reported = (*entry.table)[number - 1];
      first.emplace(reported.site, reported.exception);
    }
  }
  if (first)
    throw *first;
}

} // namespace kaji::python
