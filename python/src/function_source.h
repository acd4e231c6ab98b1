// The source of one @jit function as the decorator captured it: dedented text, the file it
// came from, where it starts and how far it was indented. Parsed once, on first compile.
#pragma once

#include "kaji/frontend/AST.h"
#include "kaji/frontend/Source.h"

#include <memory>
#include <string>

namespace kaji::python {

class FunctionSource {
public:
  FunctionSource(std::string text, std::string fileName, unsigned firstLine, unsigned columnOffset,
                 std::string functionName);

  const std::string &functionName() const { return functionName_; }
  const frontend::SourceFile &source() const { return source_; }
  // The parsed module holding the function; throws ir::CompileError on a syntax error.
  std::shared_ptr<const frontend::Module> module() const;

private:
  frontend::SourceFile source_;
  std::string functionName_;
  mutable std::shared_ptr<const frontend::Module> module_;
};

} // namespace kaji::python
