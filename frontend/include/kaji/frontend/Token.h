// The tokens of Python source that the lexer hands to the parser.
#pragma once

#include "kaji/ir/Location.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace kaji::frontend {

enum class TokenKind : uint8_t {
  Name,
  Keyword,  // a reserved word: `def`, `if`, `not`, `True`, ...
  Int,      // value in intValue
  Float,    // value in floatValue
  String,   // decoded value in text (escapes applied)
  Operator, // operators and delimiters, spelled in text: `+`, `**=`, `(`, `->`
  // Well-formed Python outside the kernel language (f-strings, bytes, complex literals):
  // text holds the error the parser reports if a statement that uses it is needed.
  Unsupported,
  Newline, // end of a logical line
  Indent,
  Dedent,
  EndOfFile,
};

struct Token {
  TokenKind kind = TokenKind::EndOfFile;
  std::string text; // spelling for names, keywords, operators and numbers; value for strings
  ir::Location loc; // first character of the token
  uint64_t intValue = 0;
  double floatValue = 0;
  bool imaginary = false; // Float: a literal ending in j, the value times 1j

  bool is(TokenKind k, std::string_view spelling) const { return kind == k && text == spelling; }
};

} // namespace kaji::frontend
