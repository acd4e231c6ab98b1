// Name resolution, type inference and IR generation for one function.
#pragma once

#include "kaji/frontend/Environment.h"
#include "kaji/frontend/Signature.h"
#include "kaji/ir/IR.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kaji::frontend {

// What the code is compiled for, as far as the frontend checks it.
struct LoweringOptions {
  // The GPU architecture ("sm_70") whose builtins the code may use, each checked against
  // its minimum; empty for the CPU target, which has them all.
  std::string gpuArch;
  // Whether `raise` and `assert` report their exception to the launch (the cpu target always,
  // the cuda target with debug=True). Without, as Numba without debug: a failing assert is
  // not checked and a raise ends its thread silently.
  bool reportExceptions = true;
  // Python's error model for the division operators (Numba's debug=True without fastmath):
  // `/`, `//` and `%` by zero raise ZeroDivisionError, reported as reportExceptions says.
  // Without, they give IEEE's inf and nan (and 0 for integers, docs/ir.md).
  bool divisionByZeroRaises = false;
};

// Type-checks `fn` for the given argument types (flattened: `structure` groups them into the
// parameters, tuples included; none means one type per parameter) and appends it, and every device
// function it calls (each specialised on its own argument types, at most once), to
// `out`, adding the files of the CUDA C++ functions it calls to out.linkFiles(). A kernel must
// return nothing. Returns the new function. Throws ir::CompileError pointing at the offending
// expression on any error: unknown name, type mismatch (naming both types and the expression),
// unsupported construct, wrong argument count, a builtin that options.gpuArch lacks.
ir::Function *lowerFunction(const FunctionRef &fn, const std::vector<ir::Type> &argTypes,
                            ir::Function::Kind kind, ir::Module &out,
                            const LoweringOptions &options = {},
                            const std::vector<ParameterStructure> &structure = {});

// The types of `fn`'s variables, its parameters among them, by name, when it is lowered as
// lowerFunction lowers it: each spelled as Numba spells a type ("int64", "float32[:, ::1]",
// "UniTuple(int64 x 2)"), which kaji.types.from_text reads. Throws as lowerFunction.
std::vector<std::pair<std::string, std::string>>
localVariableTypes(const FunctionRef &fn, const std::vector<ir::Type> &argTypes,
                   ir::Function::Kind kind, const LoweringOptions &options = {},
                   const std::vector<ParameterStructure> &structure = {});

// A device function compiled on its own (cuda.compile(device=True)): lowers `fn` for
// `argTypes` (numbers and vectors) as lowerFunction does, and adds the exported function
// `symbol` (ir::Function::Export `abi`) that calls it and returns its result converted to
// `result`, a signature's return type (none: what `fn` returns). Returns the exported function.
// Throws ir::CompileError at fn's definition when it takes an array, returns a tuple, returns
// what does not convert to `result`, or `symbol` names one of the functions lowered.
ir::Function *exportDeviceFunction(const FunctionRef &fn, const std::vector<ir::Type> &argTypes,
                                   std::optional<ir::Type> result, const std::string &symbol,
                                   ir::Function::Export abi, ir::Module &out,
                                   const LoweringOptions &options = {});

} // namespace kaji::frontend
