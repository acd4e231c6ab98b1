// Exceptions raised by kernels on the GPU (debug=True): a thread that raises leaves its
// exception's number in its module's slot (ir/ExceptionTable.h) and exits. A launch of a
// kernel whose module can raise arms the slot; the sync points — synchronize(), a stream's
// synchronize(), copy_to_host() — read every armed slot and raise the first exception found
// (runtime::KernelException, which errors.cpp turns into the Python class), as Numba does.
#pragma once

#include "kaji/driver/CompiledModule.h"
#include "kaji/runtime/CudaDriverTypes.h"

#include <memory>
#include <vector>

namespace kaji::python {

using ExceptionTable = std::shared_ptr<const std::vector<driver::ReportedException>>;

// A loaded module's exception slot and, where its PTX has them, its index-error record
// (abi::kIndexErrorSymbol) and the record of the thread that raised (abi::kRaisingThreadSymbol;
// else 0).
struct ExceptionSlot {
  runtime::CUdeviceptr slot = 0;
  runtime::CUdeviceptr indexErrorRecord = 0;
  runtime::CUdeviceptr raisingThread = 0;
};

// After a launch: `slot` is read at the next sync point.
void armExceptionSlot(const ExceptionSlot &slot, ExceptionTable table);

// Before its module unloads: `slot` is memory no sync point may read any more.
void disarmExceptionSlot(const ExceptionSlot &slot);

// At a sync point, the device work done: throws runtime::KernelException (or, for an index
// out of range, runtime::KernelIndexError) for the first armed slot holding an exception,
// which it clears; every slot is disarmed.
void raiseKernelExceptions();

} // namespace kaji::python
