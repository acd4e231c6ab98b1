#include "kaji/frontend/Lexer.h"

#include "ParseTestSupport.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace kaji::frontend;
using kaji::frontend::test::makeSource;

namespace {

// Tokens as "kind:text" words, e.g. "name:x op:= int:1 nl eof".
std::string lex(const std::string &text) {
  std::string out;
  for (const Token &token : tokenize(makeSource(text))) {
    if (!out.empty())
      out += ' ';
    switch (token.kind) {
    case TokenKind::Name:
      out += "name:" + token.text;
      break;
    case TokenKind::Keyword:
      out += "kw:" + token.text;
      break;
    case TokenKind::Int:
      out += "int:" + std::to_string(token.intValue);
      break;
    case TokenKind::Float:
      out += "float:" + token.text;
      break;
    case TokenKind::String:
      out += "str:" + token.text;
      break;
    case TokenKind::Operator:
      out += "op:" + token.text;
      break;
    case TokenKind::Newline:
      out += "nl";
      break;
    case TokenKind::Indent:
      out += "indent";
      break;
    case TokenKind::Dedent:
      out += "dedent";
      break;
    case TokenKind::EndOfFile:
      out += "eof";
      break;
    case TokenKind::Unsupported:
      out += "unsupported:" + token.text;
      break;
    }
  }
  return out;
}

std::string lexError(const std::string &text) {
  try {
    tokenize(makeSource(text));
  } catch (const kaji::ir::CompileError &error) {
    return std::to_string(error.location().line) + ":" + std::to_string(error.location().col) +
           ": " + error.what();
  }
  return "no error";
}

double floatOf(const std::string &text) { return tokenize(makeSource(text)).front().floatValue; }
uint64_t intOf(const std::string &text) { return tokenize(makeSource(text)).front().intValue; }

TEST(Lexer, NamesKeywordsAndOperators) {
  EXPECT_EQ(lex("x = a_1 if not b else None\n"),
            "name:x op:= name:a_1 kw:if kw:not name:b kw:else kw:None nl eof");
  EXPECT_EQ(lex("a **= b //= c >>= d <<= e -> f := g @ h\n"),
            "name:a op:**= name:b op://= name:c op:>>= name:d op:<<= name:e op:-> name:f op::= "
            "name:g op:@ name:h nl eof");
  EXPECT_EQ(lex("a<=b>=c==d!=e<f>g\n"),
            "name:a op:<= name:b op:>= name:c op:== name:d op:!= name:e op:< name:f op:> name:g "
            "nl eof");
  EXPECT_EQ(lex("x[1:2, ...]; y.z\n"),
            "name:x op:[ int:1 op:: int:2 op:, op:... op:] op:; name:y op:. name:z nl eof");
}

TEST(Lexer, IndentationProducesIndentAndDedent) {
  EXPECT_EQ(lex("if a:\n    b\n    if c:\n        d\ne\n"),
            "kw:if name:a op:: nl indent name:b nl kw:if name:c op:: nl indent name:d nl dedent "
            "dedent name:e nl eof");
  // Dedents at the end of the file, even without a final newline.
  EXPECT_EQ(lex("if a:\n  b"), "kw:if name:a op:: nl indent name:b nl dedent eof");
}

TEST(Lexer, CommentsAndBlankLinesVanish) {
  EXPECT_EQ(lex("# header\n\na = 1  # trailing\n   \n\t\n  # indented comment\nb\n"),
            "name:a op:= int:1 nl name:b nl eof");
  EXPECT_EQ(lex(""), "eof");
  EXPECT_EQ(lex("# only a comment"), "eof");
}

TEST(Lexer, ImplicitAndExplicitLineJoining) {
  EXPECT_EQ(lex("f(a,\n      b)\n"), "name:f op:( name:a op:, name:b op:) nl eof");
  EXPECT_EQ(lex("x = [1,\n# c\n\n 2]\n"), "name:x op:= op:[ int:1 op:, int:2 op:] nl eof");
  EXPECT_EQ(lex("x = 1 + \\\n    2\n"), "name:x op:= int:1 op:+ int:2 nl eof");
}

TEST(Lexer, CarriageReturnsEndLines) {
  EXPECT_EQ(lex("a\r\nb\rc"), "name:a nl name:b nl name:c nl eof");
}

TEST(Lexer, TabsUseStopsOfEight) {
  EXPECT_EQ(lex("if a:\n\tb\n\tc\n"), "kw:if name:a op:: nl indent name:b nl name:c nl dedent eof");
  EXPECT_EQ(lexError("if a:\n        b\n\tc\n"),
            "3:2: inconsistent use of tabs and spaces in indentation");
}

TEST(Lexer, IndentationErrors) {
  EXPECT_EQ(lexError("if a:\n    b\n  c\n"),
            "3:3: unindent does not match any outer indentation level");
  std::string deep;
  for (int i = 0; i < 102; ++i)
    deep += std::string(static_cast<size_t>(i), ' ') + "if a:\n";
  EXPECT_EQ(lexError(deep).substr(lexError(deep).find(": ") + 2), "too many levels of indentation");
}

TEST(Lexer, IntegerLiterals) {
  EXPECT_EQ(intOf("0"), 0u);
  EXPECT_EQ(intOf("00"), 0u);
  EXPECT_EQ(intOf("1_000_000"), 1000000u);
  EXPECT_EQ(intOf("0xff"), 255u);
  EXPECT_EQ(intOf("0X_FF_ff"), 0xffffu);
  EXPECT_EQ(intOf("0o17"), 15u);
  EXPECT_EQ(intOf("0b1010"), 10u);
  EXPECT_EQ(intOf("18446744073709551615"), UINT64_MAX);
  EXPECT_EQ(intOf("0xffffffffffffffff"), UINT64_MAX);
}

TEST(Lexer, IntegerLiteralErrors) {
  EXPECT_EQ(lexError("x = 18446744073709551616"),
            "1:5: integer literal too large (the largest is 18446744073709551615)");
  EXPECT_EQ(lexError("0x1_0000_0000_0000_0000"),
            "1:1: integer literal too large (the largest is 18446744073709551615)");
  EXPECT_EQ(lexError("012"), "1:1: leading zeros in decimal integer literals are not permitted; "
                             "use an 0o prefix for octal integers");
  EXPECT_EQ(lexError("1__0"), "1:1: invalid decimal literal");
  EXPECT_EQ(lexError("1_"), "1:1: invalid decimal literal");
  EXPECT_EQ(lexError("12abc"), "1:1: invalid decimal literal");
  EXPECT_EQ(lexError("0x"), "1:1: invalid hexadecimal literal");
  EXPECT_EQ(lexError("0xfg"), "1:1: invalid hexadecimal literal");
  EXPECT_EQ(lexError("0b102"), "1:5: invalid digit '2' in binary literal");
  EXPECT_EQ(lexError("0o8"), "1:3: invalid digit '8' in octal literal");
}

TEST(Lexer, FloatLiterals) {
  EXPECT_EQ(floatOf("1."), 1.0);
  EXPECT_EQ(floatOf(".5"), 0.5);
  EXPECT_EQ(floatOf("1e-3"), 1e-3);
  EXPECT_EQ(floatOf("1_000.5"), 1000.5);
  EXPECT_EQ(floatOf("1E+10"), 1e10);
  EXPECT_EQ(floatOf("2.5e3"), 2500.0);
  EXPECT_EQ(floatOf("1e400"), HUGE_VAL);
  EXPECT_EQ(floatOf("1e-400"), 0.0);
  EXPECT_EQ(lex("1.5.real"), "float:1.5 op:. name:real nl eof");
}

TEST(Lexer, ImaginaryLiterals) {
  for (auto [text, value] : {std::pair{"1j", 1.0}, {"1.5J", 1.5}, {"2e3j", 2000.0}, {"0j", 0.0}}) {
    Token token = tokenize(makeSource(text)).front();
    EXPECT_EQ(token.kind, TokenKind::Float) << text;
    EXPECT_TRUE(token.imaginary) << text;
    EXPECT_EQ(token.floatValue, value) << text;
  }
  EXPECT_FALSE(tokenize(makeSource("1.5")).front().imaginary);
  EXPECT_EQ(lexError("x = 1jk"), "1:5: invalid decimal literal");
}

TEST(Lexer, FloatLiteralErrors) {
  EXPECT_EQ(lexError("1e"), "1:1: invalid decimal literal");
  EXPECT_EQ(lexError("1._5"), "1:1: invalid decimal literal");
}

TEST(Lexer, StringLiterals) {
  EXPECT_EQ(lex("'a' \"b\""), "str:a str:b nl eof");
  EXPECT_EQ(lex("'''x\ny''' \"\"\"'\"\"\""), "str:x\ny str:' nl eof");
  EXPECT_EQ(lex(R"('\n\t\\\'\x41\101\u00e9\U0001F600\q')"),
            "str:\n\t\\'AA\xC3\xA9\xF0\x9F\x98\x80\\q nl eof");
  EXPECT_EQ(lex(R"(r'\n\'' R"\d")"), R"(str:\n\' str:\d nl eof)");
  EXPECT_EQ(lex("u'x'"), "str:x nl eof");
  EXPECT_EQ(lex("'a\\\nb'"), "str:ab nl eof");
  EXPECT_EQ(lex("'caf\xC3\xA9' # \xE2\x82\xAC"), "str:caf\xC3\xA9 nl eof");
}

TEST(Lexer, StringLiteralErrors) {
  EXPECT_EQ(lexError("x = 'abc\n"), "1:5: unterminated string literal (detected at line 1)");
  EXPECT_EQ(lexError("x = '''abc\n\n"),
            "1:5: unterminated triple-quoted string literal (detected at line 3)");
  EXPECT_EQ(lexError("x = '\\x4'"), "1:6: truncated \\xXX escape");
  EXPECT_EQ(lexError("x = '\\N{DASH}'"), "1:6: \\N{...} escapes are not supported in kernels");
  EXPECT_EQ(lexError("x = '\\U00110000'"), "1:6: illegal Unicode character in \\U escape");
}

// Well-formed host-code literals lex; the parser rejects them only where they are used.
TEST(Lexer, UnsupportedLiteralsBecomeDeferredErrors) {
  EXPECT_EQ(test::describeError("x = f'{a}'"), "1:5: f-strings are not supported in kernels");
  EXPECT_EQ(test::describeError("x = rb'a'"), "1:5: bytes literals are not supported in kernels");
  auto module = parseModule(test::makeSource("def host():\n    print(f'{a}')\n\ny = 1\n"),
                            TopLevelErrors::Collect);
  ASSERT_EQ(module->unparsed.size(), 1u);
  EXPECT_EQ(module->unparsed[0].functionName, "host");
  EXPECT_EQ(module->body.size(), 1u);
}

TEST(Lexer, BracketErrors) {
  EXPECT_EQ(lexError("x = 1)"), "1:6: unmatched ')'");
  EXPECT_EQ(lexError("f(a,\n  [1, 2\n"), "2:3: '[' was never closed");
  EXPECT_EQ(lexError("f(a]"),
            "1:4: closing parenthesis ']' does not match opening parenthesis '('");
  EXPECT_EQ(lexError("f(a,\n b]"),
            "2:3: closing parenthesis ']' does not match opening parenthesis '(' on line 1");
}

TEST(Lexer, ContinuationErrors) {
  EXPECT_EQ(lexError("x = 1 \\ 2"), "1:7: unexpected character after line continuation character");
  EXPECT_EQ(lexError("x = 1 \\\n"),
            "1:7: unexpected end of file after line continuation character");
  EXPECT_EQ(lexError("x = 1 \\"), "1:7: unexpected end of file after line continuation character");
}

TEST(Lexer, CharacterErrors) {
  EXPECT_EQ(lexError("caf\xC3\xA9 = 1"),
            "1:4: invalid character '\xC3\xA9' (U+00E9); names and operators in kaji kernels must "
            "be ASCII");
  EXPECT_EQ(lexError("x = $"), "1:5: invalid character '$' (U+0024)");
  EXPECT_EQ(lexError("x = 1 ? 2"), "1:7: invalid character '?' (U+003F)");
  EXPECT_EQ(lexError(std::string("x = 1\ny\0", 8)), "2:2: source contains a NUL byte");
  EXPECT_EQ(lexError("x = '\xC3'"), "1:6: source is not valid UTF-8 text");
  EXPECT_EQ(lexError("\xED\xA0\x80"), "1:1: source is not valid UTF-8 text");       // surrogate
  EXPECT_EQ(lexError("'\xC0\xAF'"), "1:2: source is not valid UTF-8 text");         // overlong
  EXPECT_EQ(lexError("'\xF4\x90\x80\x80'"), "1:2: source is not valid UTF-8 text"); // > U+10FFFF
}

TEST(Lexer, LocationsHonourFirstLineAndColumnOffset) {
  SourceFile source = makeSource("def f(x):\n    return x\n", "user.py");
  source.firstLine = 10;
  source.columnOffset = 4;
  std::vector<Token> tokens = tokenize(source);
  EXPECT_EQ(*tokens[0].loc.file, "user.py");
  EXPECT_EQ(tokens[0].loc.line, 10u);
  EXPECT_EQ(tokens[0].loc.col, 5u);
  const Token &returnToken = tokens[8];
  ASSERT_EQ(returnToken.text, "return");
  EXPECT_EQ(returnToken.loc.line, 11u);
  EXPECT_EQ(returnToken.loc.col, 9u);
}

TEST(Lexer, ColumnsCountCodePoints) {
  std::vector<Token> tokens = tokenize(makeSource("'\xC3\xA9\xC3\xA9' + x"));
  EXPECT_EQ(tokens[1].loc.col, 6u);
  EXPECT_EQ(tokens[2].loc.col, 8u);
}

TEST(Lexer, ByteOrderMarkIsSkipped) { EXPECT_EQ(lex("\xEF\xBB\xBFx"), "name:x nl eof"); }

} // namespace
