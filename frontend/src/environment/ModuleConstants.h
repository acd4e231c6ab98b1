// The values of module-level constants as the CLI sees a file: `N = 256`,
// `TAPS = 2 * RADIUS + 1`, `EPS = np.float32(1e-2)`, `SHAPE = (N, 4)`. The Python binding
// takes constants from the running module instead; the CLI has only the text, so it evaluates
// what Python would without running anything: literals, names bound before, arithmetic on
// them with Python's rules, and numpy scalar constructors of them.
#pragma once

#include "kaji/frontend/AST.h"
#include "kaji/frontend/Environment.h"

#include <optional>

namespace kaji::frontend {

// The constant `value` evaluates to in `env` (the names bound by earlier statements), or
// none when it is anything else: kernels then see the name as unbound.
std::optional<GlobalValue> evaluateModuleConstant(const Expr &value, const Environment &env);

// The module member `expr` names in `env` ("numpy.float32" for `np.float32`, or for
// `float32` imported from numpy), or empty.
std::string memberNamed(const Expr &expr, const Environment &env);
// The numpy or kaji scalar type `expr` names: `np.float32`, `numpy.int8`, `float32`
// imported from numpy or kaji.
std::optional<ir::ScalarKind> scalarTypeNamed(const Expr &expr, const Environment &env);

// `np.dtype([("x", np.float32), ("v", np.float32, 3), ...], align=True)` laid out as numpy
// lays it out (ModuleRecordDtypes.cpp): a RecordType, or none for any other form.
std::optional<GlobalValue> evaluateRecordDtype(const CallExpr &call, const Environment &env);

} // namespace kaji::frontend
