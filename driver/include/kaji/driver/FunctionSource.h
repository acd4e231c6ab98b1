// The source of one function as the Python decorator captured it: dedented text, the file it
// came from, where it starts and how far it was indented; or, for a function without source
// text, its code object. Parsed (translated) once, on first compile.
#pragma once

#include "kaji/frontend/AST.h"
#include "kaji/frontend/Bytecode.h"
#include "kaji/frontend/Source.h"

#include <memory>
#include <optional>
#include <string>

namespace kaji::driver {

class FunctionSource {
public:
  FunctionSource(std::string text, std::string fileName, unsigned firstLine, unsigned columnOffset,
                 std::string functionName);
  explicit FunctionSource(frontend::CodeObject code);

  const std::string &functionName() const { return functionName_; }
  const frontend::SourceFile &source() const { return source_; }
  // The parsed module holding the function; throws ir::CompileError on a syntax error.
  std::shared_ptr<const frontend::Module> module() const;
  // A translated code object's AST as text, named for no file diagnostics point into, for
  // the disk cache to key on; null for source text. Valid after module().
  const frontend::SourceFile *translation() const { return code_ ? &translation_ : nullptr; }

private:
  frontend::SourceFile source_;
  std::string functionName_;
  std::optional<frontend::CodeObject> code_;
  mutable frontend::SourceFile translation_; // the translated AST, dumped
  mutable std::shared_ptr<const frontend::Module> module_;
};

} // namespace kaji::driver
