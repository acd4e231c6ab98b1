// Python lets one name hold values of different types at different points of a function
// (`arr = arr.reshape(6)` where arr was 2-d, a loop counter later bound to an array); kaji
// types each variable once. A variable's webs are its assignments grouped by the reads they
// reach together: no read sees two webs, so each web may have its own type, as Numba types
// each SSA version of a variable on its own.
#pragma once

#include "kaji/frontend/AST.h"

#include <string>
#include <string_view>
#include <unordered_map>

namespace kaji::frontend {

// The variable each read and assignment of `function` lowers as, for the names whose
// variable is not the source's own: of a variable with several webs, the web of its first
// assignment (its parameter, where it is one) keeps the name, and the others are "name.1",
// "name.2", ... in the order of their first assignments, as Numba spells a variable's
// versions. A variable with an annotation stays one web.
using VariableWebs = std::unordered_map<const NameExpr *, std::string>;
VariableWebs findVariableWebs(const FunctionDefStmt &function);

// The name the source gives a variable that may be one web of it: "x.1" -> "x".
std::string_view sourceVariableName(std::string_view variable);

} // namespace kaji::frontend
