// What one kernel's source may hold, the same for source text (the parser) and for code
// objects (BytecodeTranslation.cpp); docs/language.md, "Limits", explains each number.
#pragma once

#include "kaji/ir/Location.h"

#include <cstdint>
#include <string>

namespace kaji::frontend {

// Levels of nesting in one expression: parentheses, operands of unary operators and of `**`,
// right operands, call arguments, subscripts. A left-leaning chain (`a + b - c + ...`) is one
// level however long it is, as every pass walks it in a loop (leftChain in AST.h). The
// passes over expressions recurse once per level; 200 is CPython's own limit on nested
// parentheses and keeps the deepest recursion well inside a thread's stack.
constexpr unsigned kMaxExpressionNesting = 200;

inline constexpr const char *kExpressionNestingError =
    "expression nested too deeply (more than 200 levels of parentheses, operands and calls; a "
    "chain such as a + b + c counts as one level)";

// Elements of one tuple (the leaves of a nested one too), and copies of loop bodies one
// function unrolls (nested loops over tuples multiply). Tuples are compile-time values, one
// SSA value per element, and a loop over one is a copy of its body per element: lowering
// the largest such loop takes about 2 s, where `(1,) * 10**6` took an hour and
// `(1,) * 10**11` exhausted memory. Shapes, small coefficient tables and unrolled loops stay
// far below; larger data belongs in an array.
constexpr uint64_t kMaxTupleElements = 10000;

// The error for a tuple of `elements` elements (over kMaxTupleElements) made at `loc`; `where`
// says what makes it ("'(1,) * 10 ** 6'").
inline ir::CompileError tupleTooLarge(const Location &loc, uint64_t elements,
                                      const std::string &where) {
  return ir::CompileError(loc, "tuple of " + std::to_string(elements) + " elements in " + where +
                                   " is over kaji's limit of " + std::to_string(kMaxTupleElements) +
                                   " (tuples are unrolled at compile time); use an array");
}

} // namespace kaji::frontend
