// Lexes and parses Python source into an AST.
#pragma once

#include "kaji/frontend/AST.h"
#include "kaji/frontend/Source.h"

#include <memory>

namespace kaji::frontend {

// Throws ir::CompileError for syntax and indentation errors, for constructs outside
// the kernel subset that the grammar can already reject (e.g. `class`, `lambda`,
// `async`), and for inputs that are not text. Never crashes or hangs on any input;
// nesting deeper than a fixed limit is an error, not a stack overflow.
std::shared_ptr<Module> parseModule(const SourceFile &source);

// Readable indented dump of the AST with locations, for `kaji-compile --emit ast`.
std::string dumpAST(const Module &module);

} // namespace kaji::frontend
