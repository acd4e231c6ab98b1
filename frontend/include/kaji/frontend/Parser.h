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
//
// Choices: `assert`, `del`, `global`, `nonlocal`, `raise`, `with`, `try`, `class`,
// `lambda`, `yield`, `await`, `async`, `match`, `:=`, `...`, comprehensions, dict and
// set displays, star-unpacking and f-strings/bytes are all rejected at their first
// token ("'X' is not supported in kaji kernels"); `assert` is rejected rather than
// skipped so that no kernel silently loses a check. Expressions may nest (and their
// trees grow) at most 200 deep; blocks at most 100 (Python's own limit), and an
// `elif` chain counts as nesting (at most 1000), since it becomes nested IfStmts.
//
// With TopLevelErrors::Collect, an error inside a top-level statement is kept in
// Module::unparsed and parsing goes on with the next one (a whole file's host code
// need not be kernel code); lexical errors that leave no statements to resume at
// (NUL bytes, unterminated strings, bad indentation) still throw.
enum class TopLevelErrors { Throw, Collect };
std::shared_ptr<Module> parseModule(const SourceFile &source,
                                    TopLevelErrors errors = TopLevelErrors::Throw);

// Readable indented dump of the AST with locations, for `kaji-compile --emit ast`.
std::string dumpAST(const Module &module);

} // namespace kaji::frontend
