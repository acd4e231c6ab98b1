// Control-flow recovery: the jump graph of the decoder's blocks (BytecodeDecoder.h)
// structured back into the statements the source had: if/while/for, `and`/`or` and
// conditional expressions, with each block's straight-line code run on the symbolic stack
// (SymbolicStack.h). BytecodeTranslation.cpp describes the shapes recognised.
#pragma once

#include "BytecodeDecoder.h"

#include <string>

namespace kaji::frontend::bytecode {

// The statements of the function `graph` holds, from its first block. Throws
// ir::CompileError (untranslatable) for code that does not fit the shapes CPython compiles
// the kernel subset into; `start`, the def's position, for errors about the whole body.
Body recoverStatements(const ControlFlowGraph &graph, const std::string &function,
                       const Location &start);

} // namespace kaji::frontend::bytecode
