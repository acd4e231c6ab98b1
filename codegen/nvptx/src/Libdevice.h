// NVIDIA's libdevice: the GPU math library, linked into modules that call it.
#pragma once

namespace llvm {
class Module;
}

namespace kaji::codegen {

// Links the libdevice functions `module` calls (and only those) into it and makes them
// internal, so that the optimiser inlines them and drops the rest. Throws
// std::runtime_error naming the paths searched if libdevice cannot be found or read.
void linkLibdevice(llvm::Module &module);

} // namespace kaji::codegen
