// Exceptions raised by kernels on the GPU (debug=True): a thread that raises leaves its
// exception's number in its module's slot (ir/ExceptionTable.h) and exits. A launch of a
// kernel whose module can raise arms the slot; the sync points — synchronize(), a stream's
// synchronize(), copy_to_host() — read every armed slot and raise the first exception found
// (runtime::KernelException, which errors.cpp turns into the Python class), as Numba does.
#pragma once

#include "kaji/driver/KernelExceptions.h"
#include "kaji/runtime/DriverTypes.h"

#include <memory>
#include <vector>

namespace kaji::python {

using ExceptionTable = std::shared_ptr<const std::vector<driver::ReportedException>>;

// After a launch: `slot` (the module's exception slot) is read at the next sync point.
void armExceptionSlot(runtime::CUdeviceptr slot, ExceptionTable table);

// At a sync point, the device work done: throws runtime::KernelException for the first armed
// slot holding an exception, which it clears; every slot is disarmed.
void raiseKernelExceptions();

} // namespace kaji::python
