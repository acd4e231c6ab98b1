// A Python function's code object as plain data for the bytecode translation
// (frontend/Bytecode.h), from the tuple kaji._bytecode builds with `dis`.
#pragma once

#include "kaji/frontend/Bytecode.h"

#include <pybind11/pybind11.h>

namespace kaji::python {

namespace py = pybind11;

// `description` is (python_minor, name, filename, firstlineno, argcount, varnames, cellvars,
// consts, instructions, has_exception_table, defaults); each instruction (offset, opname, arg,
// argtext, jump_target or -1, line or 0, column or 0). TypeError when it is malformed.
frontend::CodeObject codeObject(const py::tuple &description);

} // namespace kaji::python
