#include "LineTable.h"

#include <llvm/BinaryFormat/Dwarf.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Module.h>

#include <filesystem>

namespace kaji::codegen {

LineTable::LineTable(llvm::Module &module, bool sections)
    : module_(module), builder_(module),
      // Directives only: the `.loc` lines without DWARF sections, as nvcc -lineinfo emits.
      emission_(sections ? llvm::DICompileUnit::LineTablesOnly
                         : llvm::DICompileUnit::DebugDirectivesOnly) {}

llvm::DIFile *LineTable::file(const ir::Location &location) {
  std::string name = location.fileName();
  auto [entry, added] = files_.try_emplace(name, nullptr);
  if (added) {
    std::filesystem::path path(name);
    entry->second = builder_.createFile(path.filename().string(), path.parent_path().string());
  }
  return entry->second;
}

llvm::DISubprogram *LineTable::describe(llvm::Function &out, const ir::Function &function) {
  llvm::DIFile *source = file(function.location());
  if (!unit_)
    unit_ = builder_.createCompileUnit(llvm::dwarf::DW_LANG_Python, source, "kaji", true, "", 0, "",
                                       emission_);
  llvm::DISubroutineType *type = builder_.createSubroutineType(builder_.getOrCreateTypeArray({}));
  unsigned line = function.location().line;
  llvm::DISubprogram *subprogram =
      builder_.createFunction(source, function.name(), out.getName(), source, line, type, line,
                              llvm::DINode::FlagZero, llvm::DISubprogram::SPFlagDefinition);
  out.setSubprogram(subprogram);
  return subprogram;
}

llvm::DILocation *LineTable::at(const ir::Location &location, llvm::DISubprogram *scope) {
  if (!location.known())
    return llvm::DILocation::get(module_.getContext(), scope->getLine(), 0, scope);
  return llvm::DILocation::get(module_.getContext(), location.line, location.col, scope);
}

void LineTable::finish() {
  builder_.finalize();
  if (!module_.getModuleFlag("Debug Info Version"))
    module_.addModuleFlag(llvm::Module::Warning, "Debug Info Version",
                          llvm::DEBUG_METADATA_VERSION);
}

} // namespace kaji::codegen
