#include "kaji/frontend/Diagnostics.h"

#include "ParseTestSupport.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

using namespace kaji::frontend;
using kaji::frontend::test::makeSource;
using kaji::frontend::test::parseError;
using kaji::ir::CompileError;
using kaji::ir::Location;

namespace {

Location at(const std::string &file, unsigned line, unsigned col) {
  return Location{std::make_shared<const std::string>(file), line, col};
}

std::string renderParseError(const SourceFile &source) {
  try {
    parseModule(source);
  } catch (const CompileError &error) {
    return renderDiagnostic(error, {&source});
  }
  return "no error";
}

TEST(Diagnostics, RendersLineAndCaretFromSource) {
  SourceFile source = makeSource("def f(x):\n    y = x +\n");
  EXPECT_EQ(renderParseError(source), "k.py:2:12: error: invalid syntax\n"
                                      "    y = x +\n"
                                      "           ^\n");
}

TEST(Diagnostics, HonoursFirstLineAndColumnOffset) {
  // The function's dedented text, found at line 20, indented by 4, in user.py.
  SourceFile source = makeSource("def f(x):\n    return x $ 1\n", "user.py");
  source.firstLine = 20;
  source.columnOffset = 4;
  EXPECT_EQ(renderParseError(source), "user.py:21:18: error: invalid character '$' (U+0024)\n"
                                      "        return x $ 1\n"
                                      "                 ^\n");
}

TEST(Diagnostics, PicksTheSourceContainingTheLine) {
  SourceFile first = makeSource("a = 1\n", "m.py");
  SourceFile second = makeSource("def g():\n    b = 2\n", "m.py");
  second.firstLine = 5;
  SourceFile other = makeSource("zzz\nzzz\nzzz\nzzz\nzzz\nzzz\n", "other.py");
  CompileError error(at("m.py", 6, 9), "cannot add");
  EXPECT_EQ(renderDiagnostic(error, {&other, &first, &second}), "m.py:6:9: error: cannot add\n"
                                                                "    b = 2\n"
                                                                "        ^\n");
}

TEST(Diagnostics, CopiesTabsIntoTheCaretLine) {
  SourceFile source = makeSource("if a:\n\tx = \t1 +\n");
  EXPECT_EQ(renderParseError(source), "k.py:2:10: error: invalid syntax\n"
                                      "\tx = \t1 +\n"
                                      "\t    \t   ^\n");
}

TEST(Diagnostics, CountsColumnsInCodePoints) {
  SourceFile source = makeSource("x = '\xC3\xA9\xC3\xA9' $\n");
  EXPECT_EQ(renderParseError(source), "k.py:1:10: error: invalid character '$' (U+0024)\n"
                                      "x = '\xC3\xA9\xC3\xA9' $\n"
                                      "         ^\n");
}

TEST(Diagnostics, ReadsTheLineFromDiskWhenNoSourceMatches) {
  std::string path = ::testing::TempDir() + "kaji_diagnostics_test.py";
  {
    std::ofstream file(path, std::ios::binary);
    file << "line one\r\nline two\r\n";
  }
  CompileError error(at(path, 2, 6), "boom");
  EXPECT_EQ(renderDiagnostic(error, {}), path + ":2:6: error: boom\nline two\n     ^\n");
  CompileError pastEnd(at(path, 9, 1), "late");
  EXPECT_EQ(renderDiagnostic(pastEnd, {}), path + ":9:1: error: late\n");
  std::remove(path.c_str());
}

TEST(Diagnostics, OmitsTheSourceLineWhenUnavailable) {
  CompileError missing(at("/nonexistent/dir/x.py", 3, 2), "gone");
  EXPECT_EQ(renderDiagnostic(missing, {}), "/nonexistent/dir/x.py:3:2: error: gone\n");
  CompileError unknown(Location{}, "no location");
  EXPECT_EQ(renderDiagnostic(unknown, {}), "<unknown>: error: no location\n");
  CompileError lineOnly(at("k.py", 1, 0), "whole line");
  SourceFile source = makeSource("abc\n");
  EXPECT_EQ(renderDiagnostic(lineOnly, {&source}), "k.py:1: error: whole line\nabc\n");
}

TEST(Diagnostics, CaretPastTheEndOfTheLine) {
  SourceFile source = makeSource("if x\n");
  EXPECT_EQ(renderParseError(source), "k.py:1:5: error: expected ':'\n"
                                      "if x\n"
                                      "    ^\n");
}

TEST(Diagnostics, ErrorAtEndOfFilePointsAtTheLastLine) {
  SourceFile source = makeSource("def f():\n    if a:\n");
  EXPECT_EQ(renderParseError(source),
            "k.py:2:10: error: expected an indented block after 'if' statement on line 2\n"
            "    if a:\n"
            "         ^\n");
}

TEST(Diagnostics, ParseErrorsCarryTheSourceName) {
  CompileError error = parseError("x = (\n");
  ASSERT_TRUE(error.location().file);
  EXPECT_EQ(*error.location().file, "k.py");
}

} // namespace
