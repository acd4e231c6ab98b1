#include "PassUtils.h"
#include "kaji/ir/Dominance.h"
#include "kaji/ir/Passes.h"

#include <bit>
#include <functional>
#include <unordered_map>

namespace kaji::ir {

namespace {

// Pure: same operands give the same result, and nothing else observes the operation.
// Loads and fragment_gets read memory that may change in between; each shared_array,
// local_array and fragment is a distinct allocation (dynamic_shared_arrays alias, but each keeps
// the alignment it asked for).
bool isPure(const Operation &op) {
  return op.result() && !hasSideEffects(op.opcode()) && op.opcode() != Opcode::Load &&
         op.opcode() != Opcode::SharedArray && op.opcode() != Opcode::LocalArray &&
         op.opcode() != Opcode::DynamicSharedArray && op.opcode() != Opcode::Fragment &&
         op.opcode() != Opcode::FragmentGet;
}

// Doubles compare by bits so that 0.0 and -0.0 stay distinct and NaN constants merge.
bool sameAttr(const Attr &a, const Attr &b) {
  if (std::holds_alternative<double>(a) && std::holds_alternative<double>(b))
    return std::bit_cast<uint64_t>(std::get<double>(a)) ==
           std::bit_cast<uint64_t>(std::get<double>(b));
  return a == b;
}

size_t hashAttr(const Attr &attr) {
  return std::visit(
      [](const auto &value) -> size_t {
        using T = std::decay_t<decltype(value)>;
        if constexpr (std::is_same_v<T, std::monostate>)
          return 0;
        else if constexpr (std::is_same_v<T, double>)
          return std::hash<uint64_t>()(std::bit_cast<uint64_t>(value));
        else if constexpr (std::is_same_v<T, CmpPredicate>)
          return size_t(value);
        else if constexpr (std::is_same_v<T, SpecialReg>)
          return size_t(value.kind) * 4 + value.dim;
        else if constexpr (std::is_same_v<T, ArrayAllocation>)
          return value.shape.size();
        else if constexpr (std::is_same_v<T, ConstantData>)
          return std::hash<std::string>()(value.bytes);
        else
          return std::hash<T>()(value);
      },
      attr);
}

struct OpKey {
  const Operation *op;
  bool operator==(const OpKey &other) const {
    const Operation &a = *op, &b = *other.op;
    return a.opcode() == b.opcode() && a.resultType() == b.resultType() &&
           a.operands() == b.operands() && sameAttr(a.attr(), b.attr());
  }
};

struct OpKeyHash {
  size_t operator()(const OpKey &key) const {
    size_t h = size_t(key.op->opcode()) * 31 + hashAttr(key.op->attr());
    for (const Value *operand : key.op->operands())
      h = h * 1000003 ^ std::hash<const Value *>()(operand);
    return h;
  }
};

class CSE {
public:
  explicit CSE(Function &function) : function_(function), dominance_(function) {}

  bool run() {
    if (!dominance_.reversePostOrder().empty())
      visit(dominance_.reversePostOrder().front());
    // Successor arguments and unreachable blocks were not rewritten during the walk.
    forwarding_.rewrite(function_);
    return !forwarding_.empty();
  }

private:
  // Walks the dominator tree; the table holds the ops of the current block's dominators.
  void visit(Block *root) {
    std::vector<std::vector<OpKey>> added;
    detail::walkDominatorTree(
        dominance_, root, [&](Block *block, Block *) { added.push_back(processBlock(*block)); },
        [&](Block *) {
          for (const OpKey &key : added.back())
            available_.erase(key);
          added.pop_back();
        });
  }

  std::vector<OpKey> processBlock(Block &block) {
    std::vector<OpKey> added;
    auto &ops = block.operations();
    bool removed = false;
    for (auto &slot : ops) {
      Operation &op = *slot;
      for (Value *&operand : op.operands())
        operand = forwarding_.resolve(operand);
      if (!isPure(op))
        continue;
      auto [it, inserted] = available_.emplace(OpKey{&op}, op.result());
      if (inserted) {
        added.push_back(OpKey{&op});
        continue;
      }
      // Operands in the dominator subtree are rewritten as they are reached, so that
      // operations using the removed value match those using the surviving one.
      forwarding_.forward(op.result(), it->second);
      removedOps_.push_back(std::move(slot));
      removed = true;
    }
    if (removed)
      std::erase(ops, nullptr);
    return added;
  }

  Function &function_;
  DominatorTree dominance_;
  std::unordered_map<OpKey, Value *, OpKeyHash> available_;
  detail::ValueForwarding forwarding_;
  // Kept until the rewrite so that no new value can reuse a key of `forwarding_`.
  std::vector<std::unique_ptr<Operation>> removedOps_;
};

} // namespace

bool eliminateCommonSubexpressions(Module &module) {
  bool changed = false;
  for (auto &function : module.functions())
    changed |= CSE(*function).run();
  return changed;
}

} // namespace kaji::ir
