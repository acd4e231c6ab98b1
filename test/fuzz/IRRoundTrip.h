// The printer/parser contract of docs/ir.md, checked on any module a fuzz target has:
// printed IR parses back and prints to the same text, with and without locations.
#pragma once

#include "FuzzFinding.h"

#include "kaji/ir/IRParser.h"
#include "kaji/ir/Printer.h"

namespace kaji::fuzz {

inline void checkRoundTrip(const ir::Module &module, const ir::PrintOptions &options) {
  static const auto fileName = std::make_shared<const std::string>("<printed.kir>");
  std::string printed = ir::printModule(module, options);
  try {
    std::string reprinted = ir::printModule(*ir::parseIR(printed, fileName), options);
    if (reprinted != printed)
      reportFinding("printed IR reads back as other IR",
                    "printed:\n" + printed + "\nreprinted:\n" + reprinted);
  } catch (const ir::CompileError &error) {
    reportFinding("printed IR does not parse", printed + "\n" + describe(error));
  }
}

inline void checkRoundTrips(const ir::Module &module) {
  checkRoundTrip(module, {.locations = false});
  checkRoundTrip(module, {.locations = true});
}

} // namespace kaji::fuzz
