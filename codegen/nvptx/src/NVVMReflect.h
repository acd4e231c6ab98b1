// Answers to libdevice's __nvvm_reflect queries given before LLVM's NVVMReflect pass runs,
// where kaji's answer differs from that pass's or is needed earlier.
#pragma once

#include <llvm/ADT/StringRef.h>

namespace llvm {
class Module;
}

namespace kaji::codegen {

// Replaces each __nvvm_reflect(`query`) call of `module` with `answer`.
void answerReflect(llvm::Module &module, llvm::StringRef query, int answer);

} // namespace kaji::codegen
