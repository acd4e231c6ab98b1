// Lowering of the libdevice op: a call to a function with libdevice's signature, its outputs
// (pointer parameters) read back from stack slots; and the host's own implementations of the
// libdevice functions the C library lacks.
#pragma once

#include "kaji/ir/Libdevice.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/IR/IRBuilder.h>

#include <string>

namespace kaji::codegen {

// Calls `symbol`, declared with `function`'s signature (one pointer parameter per output),
// on `args` and returns the function's value number `value` (LibdeviceFunction::valueKind).
llvm::Value *emitLibdeviceCall(llvm::IRBuilderBase &builder, const std::string &symbol,
                               const ir::LibdeviceFunction &function, size_t value,
                               llvm::ArrayRef<llvm::Value *> args);

// `function` (whose host is LibdeviceHost::Own) computed inline with libdevice's semantics.
llvm::Value *emitOwnLibdevice(llvm::IRBuilderBase &builder, const ir::LibdeviceFunction &function,
                              llvm::ArrayRef<llvm::Value *> args);

} // namespace kaji::codegen
