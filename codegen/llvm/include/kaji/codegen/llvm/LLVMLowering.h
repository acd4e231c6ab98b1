// kaji IR → LLVM IR, op by op, for any Target.
#pragma once

#include "kaji/codegen/llvm/Target.h"

#include "kaji/ir/IR.h"

namespace llvm {
class Module;
}

namespace kaji::codegen {

struct LoweringOptions {
  // Lets LLVM reassociate, contract and use approximate functions and reciprocals
  // (not assume away NaNs or infinities: isnan/isinf stay exact).
  bool fastMath = false;
  // Checks every array index against its extent (after Python's negative-index wraparound,
  // which only checked code applies): an index out of range is reported through
  // Target::emitIndexError and the access goes to scratch memory instead.
  bool boundsCheck = false;
  // Attaches each instruction's Python line (`.loc` directives in PTX).
  bool lineInfo = false;
  // The lines as DWARF line tables (sections) too, not only as directives.
  bool debugInfo = false;
};

// Adds every function of `module`, which ir::verify accepted (what it checks is asserted,
// not checked again), to `out` (whose triple and data layout the caller has set): kernels as
// target entry points with flattened parameters (see Codegen.h), device functions as internal
// functions. Throws ir::CompileError at an operation `target` cannot compile.
void lowerModule(const ir::Module &module, const Target &target, const LoweringOptions &options,
                 llvm::Module &out);

// Throws std::runtime_error naming a compiler bug when `module` is not valid LLVM IR, which
// LLVM's code generator would crash on or miscompile; `stage` (" after optimisation") says when.
void throwIfInvalid(const llvm::Module &module, const char *stage);

} // namespace kaji::codegen
