#include "kaji/frontend/Lexer.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <iterator>

namespace kaji::frontend {
namespace {

using ir::CompileError;
using ir::Location;

// CPython's limit; it also bounds the parser's recursion over nested blocks.
constexpr size_t kMaxIndentLevels = 100;
constexpr unsigned kTabStop = 8;

constexpr std::string_view kKeywords[] = {
    "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
    "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
    "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
    "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield"};

// Longest spellings first, so that the first match is the longest one.
constexpr std::string_view kOperators[] = {
    "**=", "//=", ">>=", "<<=", "...", "**", "//", ">>", "<<", "<=", ">=", "==",
    "!=",  "->",  ":=",  "+=",  "-=",  "*=", "/=", "%=", "&=", "|=", "^=", "@=",
    "+",   "-",   "*",   "/",   "%",   "@",  "&",  "|",  "^",  "~",  "<",  ">",
    "(",   ")",   "[",   "]",   "{",   "}",  ",",  ":",  ".",  ";",  "="};

bool isKeyword(std::string_view word) {
  return std::find(std::begin(kKeywords), std::end(kKeywords), word) != std::end(kKeywords);
}
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isNameStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool isNameChar(char c) { return isNameStart(c) || isDigit(c); }
char toLower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
bool isContinuationByte(unsigned char c) { return (c & 0xC0) == 0x80; }

int digitValue(char c) {
  if (isDigit(c))
    return c - '0';
  if (c >= 'a' && c <= 'z')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'Z')
    return c - 'A' + 10;
  return 99;
}

std::string codePointName(uint32_t cp) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "U+%04X", static_cast<unsigned>(cp));
  return buf;
}

void appendUtf8(std::string &out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// Length of the well-formed UTF-8 sequence at text[pos], or 0 if it is malformed
// (bad lead byte, missing continuation, overlong form, surrogate, above U+10FFFF).
size_t utf8SequenceLength(std::string_view text, size_t pos) {
  auto byte = [&](size_t i) -> unsigned {
    return pos + i < text.size() ? static_cast<unsigned char>(text[pos + i]) : 0u;
  };
  unsigned lead = byte(0);
  if (lead < 0x80)
    return 1;
  size_t length;
  unsigned low = 0x80, high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0)
      low = 0xA0;
    if (lead == 0xED)
      high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0)
      low = 0x90;
    if (lead == 0xF4)
      high = 0x8F;
  } else {
    return 0;
  }
  if (byte(1) < low || byte(1) > high)
    return 0;
  for (size_t i = 2; i < length; ++i)
    if (!isContinuationByte(static_cast<unsigned char>(byte(i))) || pos + i >= text.size())
      return 0;
  return length;
}

uint32_t decodeUtf8(std::string_view text, size_t pos, size_t length) {
  auto byte = [&](size_t i) {
    return static_cast<uint32_t>(static_cast<unsigned char>(text[pos + i]));
  };
  switch (length) {
  case 1:
    return byte(0);
  case 2:
    return ((byte(0) & 0x1F) << 6) | (byte(1) & 0x3F);
  case 3:
    return ((byte(0) & 0x0F) << 12) | ((byte(1) & 0x3F) << 6) | (byte(2) & 0x3F);
  default:
    return ((byte(0) & 0x07) << 18) | ((byte(1) & 0x3F) << 12) | ((byte(2) & 0x3F) << 6) |
           (byte(3) & 0x3F);
  }
}

// "\r\n" and "\r" become "\n"; a leading byte-order mark is dropped. Columns are
// unaffected because a carriage return only ever ends a line.
std::string normaliseLineEnds(std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF")
    text.remove_prefix(3);
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\r') {
      out += text[i];
    } else {
      out += '\n';
      if (i + 1 < text.size() && text[i + 1] == '\n')
        ++i;
    }
  }
  return out;
}

struct IndentLevel {
  unsigned column;    // with tab stops of 8, as Python
  unsigned altColumn; // with tabs counted as 1: differs when tabs and spaces are mixed
};

struct OpenBracket {
  char bracket;
  Location loc;
};

class Lexer {
public:
  explicit Lexer(const SourceFile &source)
      : source_(source), text_(normaliseLineEnds(source.text)) {}

  std::vector<Token> run() {
    checkIsText();
    while (true) {
      if (atLineStart_ && brackets_.empty() && !startLogicalLine())
        break;
      skipSpaces();
      if (atEnd())
        break;
      char c = current();
      if (c == '#')
        skipComment();
      else if (c == '\n')
        endPhysicalLine();
      else if (c == '\\')
        joinLines();
      else if (isDigit(c) || (c == '.' && isDigit(current(1))))
        lexNumber();
      else if (isNameStart(c))
        lexNameOrPrefixedString();
      else if (c == '"' || c == '\'')
        lexString(here(), "");
      else if (static_cast<unsigned char>(c) >= 0x80)
        rejectNonAscii();
      else
        lexOperator();
    }
    finish();
    return std::move(tokens_);
  }

private:
  const SourceFile &source_;
  std::string text_;
  size_t pos_ = 0;
  unsigned line_ = 0; // 0-based index into the text
  unsigned col_ = 1;  // 1-based, counted in code points
  bool atLineStart_ = true;
  std::vector<IndentLevel> indents_{{0, 0}};
  std::vector<OpenBracket> brackets_;
  std::vector<Token> tokens_;
  Location lastTokenEnd_;

  bool atEnd() const { return pos_ >= text_.size(); }
  char current(size_t ahead = 0) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }
  Location here() const {
    return Location{source_.name, source_.firstLine + line_, source_.columnOffset + col_};
  }
  void advance() {
    if (text_[pos_] == '\n') {
      ++line_;
      col_ = 1;
    } else if (!isContinuationByte(static_cast<unsigned char>(text_[pos_]))) {
      ++col_;
    }
    ++pos_;
  }
  [[noreturn]] void fail(const Location &loc, std::string message) const {
    throw CompileError(loc, std::move(message));
  }

  void emit(TokenKind kind, std::string text, Location loc) {
    Token token;
    token.kind = kind;
    token.text = std::move(text);
    token.loc = std::move(loc);
    tokens_.push_back(std::move(token));
    lastTokenEnd_ = here();
  }

  // Rejects NUL bytes and malformed UTF-8 up front, so that the rest of the lexer
  // can treat every byte >= 0x80 as part of a valid character.
  void checkIsText() {
    while (!atEnd()) {
      if (current() == '\0')
        fail(here(), "source contains a NUL byte");
      size_t length = utf8SequenceLength(text_, pos_);
      if (length == 0)
        fail(here(), "source is not valid UTF-8 text");
      for (size_t i = 0; i < length; ++i)
        advance();
    }
    pos_ = 0;
    line_ = 0;
    col_ = 1;
  }

  // Measures the indentation of the next non-blank line and emits Indent/Dedent.
  // Returns false at the end of the text.
  bool startLogicalLine() {
    while (true) {
      unsigned column = 0, altColumn = 0;
      for (; !atEnd(); advance()) {
        char c = current();
        if (c == ' ') {
          ++column;
          ++altColumn;
        } else if (c == '\t') {
          column = (column / kTabStop + 1) * kTabStop;
          ++altColumn;
        } else if (c == '\f') {
          column = altColumn = 0;
        } else {
          break;
        }
      }
      if (atEnd())
        return false;
      if (current() == '#')
        skipComment();
      if (current() == '\n') {
        advance();
        continue;
      }
      if (atEnd())
        return false;
      atLineStart_ = false;
      indent(column, altColumn);
      return true;
    }
  }

  void indent(unsigned column, unsigned altColumn) {
    Location loc = here();
    const char *inconsistent = "inconsistent use of tabs and spaces in indentation";
    if (column > indents_.back().column) {
      if (altColumn <= indents_.back().altColumn)
        fail(loc, inconsistent);
      if (indents_.size() > kMaxIndentLevels)
        fail(loc, "too many levels of indentation");
      indents_.push_back({column, altColumn});
      emit(TokenKind::Indent, "", loc);
      return;
    }
    while (column < indents_.back().column) {
      indents_.pop_back();
      emit(TokenKind::Dedent, "", loc);
    }
    if (column != indents_.back().column)
      fail(loc, "unindent does not match any outer indentation level");
    if (altColumn != indents_.back().altColumn)
      fail(loc, inconsistent);
  }

  void skipSpaces() {
    while (!atEnd() && (current() == ' ' || current() == '\t' || current() == '\f'))
      advance();
  }

  void skipComment() {
    while (!atEnd() && current() != '\n')
      advance();
  }

  void endPhysicalLine() {
    if (brackets_.empty()) {
      Location end = lastTokenEnd_;
      emit(TokenKind::Newline, "", end);
      lastTokenEnd_ = end;
      atLineStart_ = true;
    }
    advance();
  }

  void joinLines() {
    Location backslash = here();
    advance();
    if (atEnd())
      fail(backslash, "unexpected end of file after line continuation character");
    if (current() != '\n')
      fail(backslash, "unexpected character after line continuation character");
    advance();
    if (atEnd())
      fail(backslash, "unexpected end of file after line continuation character");
  }

  void rejectNonAscii() {
    size_t length = utf8SequenceLength(text_, pos_);
    uint32_t cp = decodeUtf8(text_, pos_, length);
    fail(here(), "invalid character '" + text_.substr(pos_, length) + "' (" + codePointName(cp) +
                     "); names and operators in kaji kernels must be ASCII");
  }

  void lexOperator() {
    Location loc = here();
    std::string_view rest = std::string_view(text_).substr(pos_);
    auto op = std::find_if(std::begin(kOperators), std::end(kOperators),
                           [&](std::string_view spelling) { return rest.starts_with(spelling); });
    if (op == std::end(kOperators)) {
      char c = current();
      fail(loc, std::string("invalid character '") + c + "' (" +
                    codePointName(static_cast<unsigned char>(c)) + ")");
    }
    std::string spelling(*op);
    for (size_t i = 0; i < spelling.size(); ++i)
      advance();
    trackBrackets(spelling[0], loc);
    emit(TokenKind::Operator, std::move(spelling), loc);
  }

  void trackBrackets(char c, const Location &loc) {
    if (c == '(' || c == '[' || c == '{') {
      brackets_.push_back({c, loc});
      return;
    }
    if (c != ')' && c != ']' && c != '}')
      return;
    if (brackets_.empty())
      fail(loc, std::string("unmatched '") + c + "'");
    char open = brackets_.back().bracket;
    char expected = open == '(' ? ')' : open == '[' ? ']' : '}';
    if (c != expected) {
      std::string message = std::string("closing parenthesis '") + c +
                            "' does not match opening parenthesis '" + open + "'";
      if (brackets_.back().loc.line != loc.line)
        message += " on line " + std::to_string(brackets_.back().loc.line);
      fail(loc, message);
    }
    brackets_.pop_back();
  }

  void lexNameOrPrefixedString() {
    Location loc = here();
    size_t begin = pos_;
    while (isNameChar(current()))
      advance();
    std::string word = text_.substr(begin, pos_ - begin);
    if ((current() == '"' || current() == '\'') && isStringPrefix(word)) {
      lexString(loc, word);
      return;
    }
    if (static_cast<unsigned char>(current()) >= 0x80)
      rejectNonAscii();
    TokenKind kind = isKeyword(word) ? TokenKind::Keyword : TokenKind::Name;
    emit(kind, std::move(word), loc);
  }

  static std::string lowered(std::string_view word) {
    std::string out(word);
    std::transform(out.begin(), out.end(), out.begin(), toLower);
    return out;
  }

  static bool isStringPrefix(std::string_view word) {
    static constexpr std::string_view prefixes[] = {"r", "u", "b", "f", "br", "rb", "fr", "rf"};
    std::string lower = lowered(word);
    return std::find(std::begin(prefixes), std::end(prefixes), lower) != std::end(prefixes);
  }

  void lexString(const Location &start, std::string_view prefix) {
    std::string flags = lowered(prefix);
    bool raw = flags.find('r') != std::string::npos;
    char quote = current();
    bool triple = current(1) == quote && current(2) == quote;
    for (int i = 0; i < (triple ? 3 : 1); ++i)
      advance();
    std::string value;
    while (true) {
      if (atEnd() || (!triple && current() == '\n')) {
        std::string what =
            triple ? "unterminated triple-quoted string literal" : "unterminated string literal";
        fail(start, what + " (detected at line " + std::to_string(here().line) + ")");
      }
      char c = current();
      if (c == quote && (!triple || (current(1) == quote && current(2) == quote))) {
        for (int i = 0; i < (triple ? 3 : 1); ++i)
          advance();
        break;
      }
      if (c != '\\') {
        value += c;
        advance();
        continue;
      }
      if (raw) {
        // A backslash keeps the next character (even a quote) in a raw string.
        value += c;
        advance();
        if (!atEnd()) {
          value += current();
          advance();
        }
        continue;
      }
      decodeEscape(value);
    }
    if (flags.find('f') != std::string::npos)
      emit(TokenKind::Unsupported, "f-strings are not supported in kernels", start);
    else if (flags.find('b') != std::string::npos)
      emit(TokenKind::Unsupported, "bytes literals are not supported in kernels", start);
    else
      emit(TokenKind::String, std::move(value), start);
  }

  void decodeEscape(std::string &value) {
    Location loc = here();
    advance(); // the backslash
    if (atEnd())
      return;
    char c = current();
    advance();
    switch (c) {
    case '\n':
      return; // an escaped newline joins the lines
    case '\\':
    case '\'':
    case '"':
      value += c;
      return;
    case 'a':
      value += '\a';
      return;
    case 'b':
      value += '\b';
      return;
    case 'f':
      value += '\f';
      return;
    case 'n':
      value += '\n';
      return;
    case 'r':
      value += '\r';
      return;
    case 't':
      value += '\t';
      return;
    case 'v':
      value += '\v';
      return;
    case 'x':
      appendUtf8(value, readHexEscape(2, loc, "truncated \\xXX escape"));
      return;
    case 'u':
      appendUtf8(value, readHexEscape(4, loc, "truncated \\uXXXX escape"));
      return;
    case 'U': {
      uint32_t cp = readHexEscape(8, loc, "truncated \\UXXXXXXXX escape");
      if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        fail(loc, "illegal Unicode character in \\U escape");
      appendUtf8(value, cp);
      return;
    }
    case 'N':
      fail(loc, "\\N{...} escapes are not supported in kernels");
    default:
      break;
    }
    if (c >= '0' && c <= '7') {
      uint32_t code = static_cast<uint32_t>(c - '0');
      for (int i = 0; i < 2 && current() >= '0' && current() <= '7'; ++i) {
        code = code * 8 + static_cast<uint32_t>(current() - '0');
        advance();
      }
      appendUtf8(value, code);
      return;
    }
    // Python keeps unknown escapes as written. Step back so that a multi-byte
    // character after the backslash is copied whole by the main loop.
    value += '\\';
    --pos_;
    --col_;
  }

  uint32_t readHexEscape(int digits, const Location &loc, const char *message) {
    uint32_t code = 0;
    for (int i = 0; i < digits; ++i) {
      int digit = digitValue(current());
      if (digit >= 16)
        fail(loc, message);
      code = code * 16 + static_cast<uint32_t>(digit);
      advance();
    }
    return code;
  }

  // digit (('_')? digit)*, returning the digits without separators.
  std::string readDigits(int base, const Location &start, const std::string &kind) {
    std::string digits;
    while (true) {
      if (current() == '_') {
        advance();
        if (digitValue(current()) >= base)
          fail(start, "invalid " + kind + " literal");
      }
      if (digitValue(current()) >= base)
        break;
      digits += current();
      advance();
    }
    return digits;
  }

  void lexNumber() {
    Location start = here();
    size_t begin = pos_;
    char second = toLower(current(1));
    if (current() == '0' && (second == 'x' || second == 'o' || second == 'b')) {
      int base = second == 'x' ? 16 : second == 'o' ? 8 : 2;
      std::string kind = base == 16 ? "hexadecimal" : base == 8 ? "octal" : "binary";
      advance();
      advance();
      if (current() == '_')
        advance();
      std::string digits = readDigits(base, start, kind);
      if (isNameChar(current())) {
        if (isDigit(current()))
          fail(here(), std::string("invalid digit '") + current() + "' in " + kind + " literal");
        fail(start, "invalid " + kind + " literal");
      }
      if (digits.empty())
        fail(start, "invalid " + kind + " literal");
      emitInteger(start, text_.substr(begin, pos_ - begin), digits, base);
      return;
    }

    std::string number = readDigits(10, start, "decimal");
    bool isFloat = false;
    if (current() == '.') {
      isFloat = true;
      number += '.';
      advance();
      if (isDigit(current()))
        number += readDigits(10, start, "decimal");
    }
    char exponentSign = current(1) == '+' || current(1) == '-' ? current(1) : '\0';
    if ((current() == 'e' || current() == 'E') &&
        (isDigit(current(1)) || (exponentSign && isDigit(current(2))))) {
      isFloat = true;
      number += 'e';
      advance();
      if (exponentSign) {
        number += exponentSign;
        advance();
      }
      number += readDigits(10, start, "decimal");
    }
    bool imaginary = current() == 'j' || current() == 'J';
    if (imaginary) {
      isFloat = true; // `2j` is imaginary two, whatever the digits' form
      advance();
    }
    if (isNameChar(current()))
      fail(start, "invalid decimal literal");
    std::string spelling = text_.substr(begin, pos_ - begin);
    if (!isFloat) {
      if (number.size() > 1 && number[0] == '0' &&
          number.find_first_not_of('0') != std::string::npos)
        fail(start, "leading zeros in decimal integer literals are not permitted; use an 0o "
                    "prefix for octal integers");
      emitInteger(start, std::move(spelling), number, 10);
      return;
    }
    double value = 0;
    auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), value);
    if (error == std::errc::result_out_of_range)
      // Python rounds overflow to inf and underflow to 0; from_chars leaves value untouched.
      value = number.find("e-") != std::string::npos ? 0.0 : HUGE_VAL;
    else if (error != std::errc() || end != number.data() + number.size())
      fail(start, "invalid decimal literal");
    emit(TokenKind::Float, std::move(spelling), start);
    tokens_.back().floatValue = value;
    tokens_.back().imaginary = imaginary;
  }

  void emitInteger(const Location &start, std::string spelling, const std::string &digits,
                   int base) {
    uint64_t value = 0;
    for (char c : digits) {
      uint64_t digit = static_cast<uint64_t>(digitValue(c));
      if (value > (UINT64_MAX - digit) / static_cast<uint64_t>(base))
        fail(start, "integer literal too large (the largest is 18446744073709551615)");
      value = value * static_cast<uint64_t>(base) + digit;
    }
    emit(TokenKind::Int, std::move(spelling), start);
    tokens_.back().intValue = value;
  }

  void finish() {
    if (!brackets_.empty())
      fail(brackets_.back().loc,
           std::string("'") + brackets_.back().bracket + "' was never closed");
    if (!tokens_.empty() && tokens_.back().kind != TokenKind::Newline) {
      Location end = lastTokenEnd_;
      emit(TokenKind::Newline, "", end);
      lastTokenEnd_ = end;
    }
    Location end = tokens_.empty() ? here() : lastTokenEnd_;
    for (size_t i = 1; i < indents_.size(); ++i)
      emit(TokenKind::Dedent, "", end);
    emit(TokenKind::EndOfFile, "", end);
  }
};

} // namespace

std::vector<Token> tokenize(const SourceFile &source) { return Lexer(source).run(); }

} // namespace kaji::frontend
