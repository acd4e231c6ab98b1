#include "kernel_exceptions.h"

#include "kaji/abi/KernelABI.h"
#include "kaji/runtime/CpuExecutor.h"
#include "kaji/runtime/Error.h"
#include "kaji/runtime/Memory.h"

#include <algorithm>
#include <cstdint>
#include <exception>
#include <optional>

namespace kaji::python {
namespace {

struct ArmedSlot {
  ExceptionSlot slot;
  ExceptionTable table;
};

// Launches and sync points hold the GIL, which guards this.
std::vector<ArmedSlot> armedSlots;

// The thread the module's record names, where it has one.
std::optional<runtime::RaisingThread> raisingThread(runtime::CUdeviceptr record) {
  if (!record)
    return std::nullopt;
  uint32_t fields[abi::kRaisingThreadFields];
  runtime::copyDeviceToHost(fields, record, sizeof fields);
  return runtime::RaisingThread{{fields[0], fields[1], fields[2]},
                                {fields[3], fields[4], fields[5]}};
}

// The exception `reported` names, raised by the thread the slot's record names; an index
// error's message from the thread's record.
std::exception_ptr kernelException(const driver::ReportedException &reported,
                                   const ExceptionSlot &slot) {
  std::optional<runtime::RaisingThread> thread = raisingThread(slot.raisingThread);
  if (!reported.indexError || !slot.indexErrorRecord)
    return std::make_exception_ptr(
        runtime::KernelException(reported.site, thread, reported.exception));
  int64_t record[abi::kIndexErrorFields];
  runtime::copyDeviceToHost(record, slot.indexErrorRecord, sizeof record);
  return std::make_exception_ptr(runtime::KernelIndexError(
      reported.site, thread, record[abi::kIndexErrorAxis], record[abi::kIndexErrorIndex],
      record[abi::kIndexErrorExtent], record[abi::kIndexErrorUnsigned] != 0));
}

} // namespace

void armExceptionSlot(const ExceptionSlot &slot, ExceptionTable table) {
  if (std::none_of(armedSlots.begin(), armedSlots.end(),
                   [&slot](const ArmedSlot &armed) { return armed.slot.slot == slot.slot; }))
    armedSlots.push_back({slot, std::move(table)});
}

void disarmExceptionSlot(const ExceptionSlot &slot) {
  std::erase_if(armedSlots,
                [&slot](const ArmedSlot &armed) { return armed.slot.slot == slot.slot; });
}

void raiseKernelExceptions() {
  std::vector<ArmedSlot> armed = std::move(armedSlots);
  armedSlots.clear();
  std::exception_ptr first;
  for (const ArmedSlot &entry : armed) {
    uint32_t number = 0;
    runtime::copyDeviceToHost(&number, entry.slot.slot, sizeof number);
    if (number == 0)
      continue;
    const uint32_t cleared = 0;
    runtime::copyHostToDevice(entry.slot.slot, &cleared, sizeof cleared);
    if (!first && number <= entry.table->size())
      first = kernelException((*entry.table)[number - 1], entry.slot);
  }
  if (first)
    std::rethrow_exception(first);
}

} // namespace kaji::python
