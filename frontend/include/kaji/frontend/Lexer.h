// Splits Python source into tokens.
#pragma once

#include "kaji/frontend/Source.h"
#include "kaji/frontend/Token.h"

#include <vector>

namespace kaji::frontend {

// Returns the tokens of `source`, with Newline at the end of every logical line,
// Indent/Dedent for changes of indentation, and a final EndOfFile. Lines are
// joined inside brackets and after a backslash; comments and blank lines vanish.
// Throws ir::CompileError at the first lexical error: bad indentation, an
// unterminated string, an unmatched or unclosed bracket, a malformed or
// out-of-range number, a literal kernels cannot use (complex, bytes, f-string),
// a non-ASCII name, or input that is not UTF-8 text.
std::vector<Token> tokenize(const SourceFile &source);

} // namespace kaji::frontend
