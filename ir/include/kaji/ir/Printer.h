// Text form of kaji IR (see docs/ir.md). parseIR() reads back exactly what this prints.
#pragma once

#include "kaji/ir/IR.h"

#include <string>

namespace kaji::ir {

struct PrintOptions {
  // Append `loc("file":line:col)` to every operation and function with a known location.
  bool locations = false;
};

std::string printModule(const Module &module, const PrintOptions &options = {});
std::string printFunction(const Function &function, const PrintOptions &options = {});

} // namespace kaji::ir
