// Shared helpers for the IR unit tests: parse text, expect errors.
#pragma once

#include "kaji/ir/IRParser.h"
#include "kaji/ir/Printer.h"
#include "kaji/ir/Verifier.h"

#include <gtest/gtest.h>

namespace kaji::ir::test {

inline std::unique_ptr<Module> parse(std::string_view text) {
  return parseIR(text, std::make_shared<const std::string>("test.kir"));
}

// The CompileError message `fn` throws, or "" if it throws none.
template <class F> std::string errorOf(F fn) {
  try {
    fn();
  } catch (const CompileError &e) {
    return std::to_string(e.location().line) + ":" + std::to_string(e.location().col) + ": " +
           e.what();
  }
  return "";
}

inline std::string verifyError(std::string_view text) {
  auto module = parse(text);
  return errorOf([&] { verify(*module); });
}

} // namespace kaji::ir::test
