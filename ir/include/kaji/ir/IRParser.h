// Reads the text form written by Printer.h. Errors are CompileErrors located in `text`.
#pragma once

#include "kaji/ir/IR.h"

#include <memory>
#include <string_view>

namespace kaji::ir {

// Operations without a `loc(...)` suffix get their position in `text` as location.
std::unique_ptr<Module> parseIR(std::string_view text, std::shared_ptr<const std::string> fileName);

} // namespace kaji::ir
