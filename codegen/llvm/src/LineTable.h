// Source line tables for lowered functions: PTX `.file`/`.loc` directives (what nvcc's
// -lineinfo gives), with which profilers and sanitizers name the Python line of an
// instruction, and, for a debugger, the same lines as DWARF sections (nvcc -G's line tables).
#pragma once

#include "kaji/ir/IR.h"

#include <llvm/IR/DIBuilder.h>

#include <map>
#include <string>

namespace kaji::codegen {

class LineTable {
public:
  // `sections`: DWARF line tables as well as the directives.
  LineTable(llvm::Module &module, bool sections);

  // Gives `out` (the lowering of `function`) its subprogram; returns it.
  llvm::DISubprogram *describe(llvm::Function &out, const ir::Function &function);
  // `location` in `scope`; the scope's own line where the location is unknown.
  llvm::DILocation *at(const ir::Location &location, llvm::DISubprogram *scope);
  // Completes the debug metadata; call once, after every function is lowered.
  void finish();

private:
  llvm::DIFile *file(const ir::Location &location);

  llvm::Module &module_;
  llvm::DIBuilder builder_;
  llvm::DICompileUnit::DebugEmissionKind emission_;
  llvm::DICompileUnit *unit_ = nullptr;
  std::map<std::string, llvm::DIFile *> files_;
};

} // namespace kaji::codegen
