#include "kaji/ir/Reachability.h"

#include <algorithm>
#include <span>
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

// `starts` and every function they reach through calls, each once, in breadth-first order.
std::vector<const Function *> reachedFrom(const Module &module,
                                          std::vector<const Function *> starts) {
  std::unordered_set<const Function *> seen(starts.begin(), starts.end());
  for (size_t next = 0; next < starts.size(); ++next)
    for (const Function *callee : callees(module, *starts[next]))
      if (seen.insert(callee).second)
        starts.push_back(callee);
  return starts;
}

} // namespace

std::vector<const Function *> recursiveFunctions(const Module &module, const Function &kernel) {
  std::vector<const Function *> recursive;
  std::vector<const Function *> reached = reachedFrom(module, {&kernel});
  for (const Function *function : std::span(reached).subspan(1)) {
    std::vector<const Function *> onward = reachedFrom(module, callees(module, *function));
    if (std::find(onward.begin(), onward.end(), function) != onward.end())
      recursive.push_back(function);
  }
  return recursive;
}

bool reachesOperation(const Module &module, const Function &kernel,
                      const std::function<bool(const Operation &)> &matches) {
  for (const Function *function : reachedFrom(module, {&kernel}))
    for (const auto &block : function->blocks())
      for (const auto &op : block->operations())
        if (matches(*op))
          return true;
  return false;
}

bool usesGridSync(const Module &module, const Function &kernel) {
  const std::vector<std::string> &cooperative = module.cooperativeSymbols();
  return reachesOperation(module, kernel, [&](const Operation &op) {
    if (op.opcode() == Opcode::GridSync)
      return true;
    bool external = op.opcode() == Opcode::ExternCall || op.opcode() == Opcode::ExternCallC;
    return external && std::find(cooperative.begin(), cooperative.end(),
                                 op.attrAs<std::string>()) != cooperative.end();
  });
}

} // namespace kaji::ir
