// Control flow in the emitted CUDA C++: the blocks a function reaches, branches as block
// argument assignments and gotos, returns, and raises.
#include "CudaEmitter.h"
#include "kaji/abi/KernelABI.h"
#include "kaji/ir/Dominance.h"

#include <cassert>
#include <unordered_set>

namespace kaji::codegen::nvrtc::emitter {

// In the function's own order, which keeps the C++ in the order of the source.
std::vector<const ir::Block *> FunctionEmitter::reachableBlocks() const {
  std::vector<ir::Block *> reachable = ir::reversePostOrder(function_);
  std::unordered_set<const ir::Block *> reached(reachable.begin(), reachable.end());
  std::vector<const ir::Block *> ordered;
  for (const auto &block : function_.blocks())
    if (reached.count(block.get()))
      ordered.push_back(block.get());
  return ordered;
}

// The assignments of a branch's arguments to its target's block arguments, then the goto.
// Where an argument reads one of the target's own arguments (a loop passing `x, y = y, x`),
// the values go through temporaries first, so no assignment reads one already overwritten.
std::string FunctionEmitter::jump(const ir::Successor &successor, const ir::Operation &op) {
  const ir::Block &target = *successor.block;
  assert(successor.args.size() == target.arguments().size() &&
         "verified: a branch passes one argument per block argument");
  bool readsTarget = false;
  for (size_t i = 0; i < successor.args.size(); ++i) {
    assert(successor.args[i]->type() == target.argument(unsigned(i))->type() &&
           "verified: a branch argument has its block argument's type");
    readsTarget |= successor.args[i]->ownerBlock() == &target && successor.args.size() > 1;
  }
  std::string text;
  for (size_t i = 0; i < successor.args.size(); ++i) {
    std::string value = name(successor.args[i], op);
    if (readsTarget) {
      text += "const " + typeName(successor.args[i]->type()) + " kaji_t" + std::to_string(i) +
              " = " + value + "; ";
    } else if (value != name(target.argument(unsigned(i)), op)) {
      text += name(target.argument(unsigned(i)), op) + " = " + value + "; ";
    }
  }
  if (readsTarget)
    for (size_t i = 0; i < successor.args.size(); ++i)
      text += name(target.argument(unsigned(i)), op) + " = kaji_t" + std::to_string(i) + "; ";
  text += "goto " + labels_.at(&target) + ";";
  return readsTarget ? "{ " + text + " }" : text; // the temporaries' scope ends here
}

void FunctionEmitter::emitBranch(const ir::Operation &op) {
  const auto &successors = op.successors();
  if (op.opcode() == Opcode::Br) {
    assert(successors.size() == 1 && "verified: 'br' has one successor");
    return statement(op, jump(successors[0], op));
  }
  assert(successors.size() == 2 && op.numOperands() == 1 && op.operand(0)->type().isBool() &&
         "verified: 'cond_br' has a bool condition and two successors");
  statement(op, "if (" + name(op.operand(0), op) + ") { " + jump(successors[0], op) + " } else { " +
                    jump(successors[1], op) + " }");
}

// As the LLVM backend (NVPTXTarget::emitRaise): the first raise's number in the slot, its
// thread in the record beside it, then the thread exits.
void FunctionEmitter::emitRaise(const ir::Operation &op) {
  if (std::holds_alternative<std::string>(op.attr()))
    statement(op, reportException(op, module_.exceptionNumber(op)));
  statement(op, "asm volatile(\"exit;\" ::: \"memory\");");
}

std::string FunctionEmitter::reportException(const ir::Operation &op, uint32_t number) {
  return "if (atomicCAS(&" + module_.exceptionSlot(op.location()) + ", 0u, " +
         std::to_string(number) + "u) == 0u) kaji::record_raising_thread(" +
         abi::kRaisingThreadSymbol + ");";
}

void FunctionEmitter::emitReturn(const ir::Operation &op) {
  if (op.numOperands() == 0) {
    assert(function_.returnType().isVoid() &&
           "verified: 'ret' of a non-void function returns a value");
    return statement(op, "return;");
  }
  assert(op.operand(0)->type() == function_.returnType() &&
         "verified: 'ret' returns the function's type");
  statement(op, "return " + name(op.operand(0), op) + ";");
}

} // namespace kaji::codegen::nvrtc::emitter
