// A Print operation as a C printf call, shared by the backends (the host's printf, CUDA's
// vprintf and the printf of CUDA C++), which all print through a format string.
#pragma once

#include "kaji/ir/IR.h"

#include <string>
#include <vector>

namespace kaji::ir {

// One argument after the format: a Print operand with its conversion, or a NUL character.
struct PrintfArgument {
  enum class Kind {
    Bool,     // "%s" of the string "True" or "False"
    Signed,   // "%lld" of the operand widened to int64
    Unsigned, // "%llu" of the operand widened to uint64
    Float,    // "%f" of the operand as float64 (Numba's format for floats)
    Nul,      // "%c" of an int 0: a C format string ends at its first NUL byte
  };
  Kind kind;
  unsigned operand = 0; // the Print operand, but for Nul
};

struct PrintfFormat {
  std::string format; // holds no NUL byte
  std::vector<PrintfArgument> arguments;
};

// CUDA's printf takes at most this many arguments after the format, and ignores the rest (its
// 33rd printed as whatever lay in memory there: an H200, driver 580.159.04).
inline constexpr size_t kMaxPrintfArguments = 32;

// The printf calls, in order, that print what Python prints for the verified Print `print`:
// its template with each "{}" a conversion by its operand's type, "{{" and "}}" braces, "%"
// as "%%" and each NUL byte as "%c" of 0; a new call begins where one would take more than
// kMaxPrintfArguments arguments.
std::vector<PrintfFormat> printfFormats(const Operation &print);

} // namespace kaji::ir
