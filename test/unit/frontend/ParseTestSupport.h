// Helpers shared by the lexer, parser and diagnostics tests.
#pragma once

#include "kaji/frontend/Parser.h"
#include "kaji/ir/Location.h"

#include <gtest/gtest.h>

#include <string>

namespace kaji::frontend::test {

inline SourceFile makeSource(std::string text, std::string name = "k.py") {
  SourceFile source;
  source.name = std::make_shared<const std::string>(std::move(name));
  source.text = std::move(text);
  return source;
}

inline std::string dump(const std::string &text) { return dumpAST(*parseModule(makeSource(text))); }

// The error parsing `text` throws; fails the test when it parses.
inline ir::CompileError parseError(const std::string &text) {
  try {
    parseModule(makeSource(text));
  } catch (const ir::CompileError &error) {
    return error;
  }
  ADD_FAILURE() << "expected a CompileError for:\n" << text;
  return ir::CompileError({}, "<no error>");
}

// "line:col: message", compact for EXPECT_EQ.
inline std::string describeError(const std::string &text) {
  ir::CompileError error = parseError(text);
  return std::to_string(error.location().line) + ":" + std::to_string(error.location().col) + ": " +
         error.what();
}

} // namespace kaji::frontend::test
