// kaji IR's math functions as calls to CUDA's math library (the same libdevice functions
// the LLVM path links).
#pragma once

#include "kaji/ir/MathFunctions.h"

#include <string>
#include <string_view>
#include <vector>

namespace kaji::codegen::nvrtc {

// The CUDA C++ expression computing the math function `function` (ir/MathFunctions.def) on
// `args`, all float32 (`single`) or float64.
std::string mathCall(ir::MathFunctionKind function, bool single,
                     const std::vector<std::string> &args);

// Whether emitted code may call a function of this name (sin, sinf, fabsf, ...), so that no
// local variable may take it.
bool isMathSymbol(std::string_view name);

} // namespace kaji::codegen::nvrtc
