// Bytecode → AST. The instructions are first put in one form for CPython 3.11 to 3.13
// (decode), cut into basic blocks (BytecodeDecoder.h), then walked with a symbolic stack
// (SymbolicStack.h): straight-line code becomes statements, and control flow is recovered
// from the jump graph the way CPython lays it out (ControlFlowRecovery.h; see
// docs/python.md): a conditional jump either joins into a larger condition (and/or), or
// merges back with one more value (a conditional expression, a value `and`/`or`), or is an
// `if` whose branches meet at the first block both reach; a block jumped back to is a loop.
// Whatever does not fit these shapes is an error naming the construct, never a guess.
#include "kaji/frontend/Bytecode.h"

#include "BytecodeDecoder.h"
#include "BytecodeValues.h"
#include "ControlFlowRecovery.h"

#include <algorithm>

namespace kaji::frontend {

std::shared_ptr<Module> translateBytecode(const CodeObject &code) {
  auto file = std::make_shared<const std::string>(code.fileName);
  Location start{file, code.firstLine, 1};
  if (code.pythonMinor < 11 || code.pythonMinor > 13)
    throw ir::CompileError(start, "kaji translates the bytecode of CPython 3.11 to 3.13, "
                                  "not 3." +
                                      std::to_string(code.pythonMinor) + "; define '" + code.name +
                                      "' in a file");
  if (code.hasExceptionTable)
    bytecode::untranslatable(start, code.name, "'try' or 'with'");
  if (!code.cellVars.empty())
    bytecode::untranslatable(start, code.name, "a nested function that captures a local");
  bytecode::ControlFlowGraph graph = bytecode::decodeBlocks(code, file);

  auto def = std::make_unique<FunctionDefStmt>(start);
  def->name = code.name;
  size_t firstDefault = code.argCount - std::min<size_t>(code.argCount, code.defaults.size());
  for (unsigned i = 0; i < code.argCount && i < code.varNames.size(); ++i)
    def->params.push_back(
        Parameter{start, code.varNames[i], nullptr,
                  i < firstDefault
                      ? nullptr
                      : bytecode::constantExpr(code.defaults[i - firstDefault], start, code.name)});
  def->body = bytecode::recoverStatements(graph, code.name, start);
  if (def->body.empty())
    def->body.push_back(std::make_unique<PassStmt>(start));
  auto module = std::make_shared<Module>();
  module->file = file;
  module->body.push_back(std::move(def));
  return module;
}

} // namespace kaji::frontend
