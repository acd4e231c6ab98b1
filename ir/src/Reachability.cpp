#include "kaji/ir/Reachability.h"

#include <unordered_set>
#include <vector>

namespace kaji::ir {

namespace {

// The functions `function` calls directly, each once, in the order of their calls.
std::vector<const Function *> callees(const Module &module, const Function &function) {
  std::vector<const Function *> called;
  std::unordered_set<const Function *> seen;
  for (const auto &block : function.blocks())
    for (const auto &op : block->operations())
      if (op->opcode() == Opcode::Call)
        if (const Function *callee = module.lookup(op->attrAs<std::string>());
            callee && seen.insert(callee).second)
          called.push_back(callee);
  return called;
}

// Every function `from` reaches through calls, `from` itself only when a call leads back.
std::unordered_set<const Function *> reachedFrom(const Module &module, const Function &from) {
  std::unordered_set<const Function *> reached;
  std::vector<const Function *> pending = callees(module, from);
  while (!pending.empty()) {
    const Function *function = pending.back();
    pending.pop_back();
    if (!reached.insert(function).second)
      continue;
    for (const Function *callee : callees(module, *function))
      pending.push_back(callee);
  }
  return reached;
}

} // namespace

std::vector<const Function *> recursiveFunctions(const Module &module, const Function &kernel) {
  std::vector<const Function *> recursive;
  std::unordered_set<const Function *> seen{&kernel};
  std::vector<const Function *> pending{&kernel};
  for (size_t next = 0; next < pending.size(); ++next)
    for (const Function *callee : callees(module, *pending[next]))
      if (seen.insert(callee).second) {
        pending.push_back(callee);
        if (reachedFrom(module, *callee).contains(callee))
          recursive.push_back(callee);
      }
  return recursive;
}

bool reachesOperation(const Module &module, const Function &kernel, bool (*matches)(Opcode)) {
  std::unordered_set<const Function *> seen{&kernel};
  std::vector<const Function *> pending{&kernel};
  while (!pending.empty()) {
    const Function *function = pending.back();
    pending.pop_back();
    for (const auto &block : function->blocks())
      for (const auto &op : block->operations()) {
        if (matches(op->opcode()))
          return true;
        if (op->opcode() != Opcode::Call)
          continue;
        const Function *callee = module.lookup(op->attrAs<std::string>());
        if (callee && seen.insert(callee).second)
          pending.push_back(callee);
      }
  }
  return false;
}

bool usesGridSync(const Module &module, const Function &kernel) {
  return reachesOperation(module, kernel, [](Opcode opcode) { return opcode == Opcode::GridSync; });
}

} // namespace kaji::ir
