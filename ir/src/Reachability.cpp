#include "kaji/ir/Reachability.h"

#include <unordered_set>
#include <vector>

namespace kaji::ir {

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
