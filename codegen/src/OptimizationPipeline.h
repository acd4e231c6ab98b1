// LLVM's standard optimisation pipeline, run with the target's own passes registered.
#pragma once

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace kaji::codegen {

// Runs LLVM's per-module default pipeline at optLevel (0..3) on `module`. The
// TargetMachine contributes its passes (NVVMReflect, address-space inference, ...) and
// its cost model.
void optimizeModule(llvm::Module &module, llvm::TargetMachine &machine, unsigned optLevel);

} // namespace kaji::codegen
