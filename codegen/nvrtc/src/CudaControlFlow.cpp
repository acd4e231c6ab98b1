// Control flow in the emitted CUDA C++: the blocks a function reaches, branches as block
// argument assignments and gotos, returns, and raises.
#include "CudaEmitter.h"
#include "kaji/ir/Dominance.h"

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
  if (successor.args.size() != target.arguments().size())
    throw CompileError(op.location(), "branch passes " + std::to_string(successor.args.size()) +
                                          " argument(s) to a block that takes " +
                                          std::to_string(target.arguments().size()));
  bool readsTarget = false;
  for (size_t i = 0; i < successor.args.size(); ++i) {
    if (successor.args[i]->type() != target.argument(unsigned(i))->type())
      throw CompileError(op.location(), "branch passes a " + successor.args[i]->type().str() +
                                            " to a block argument of type " +
                                            target.argument(unsigned(i))->type().str());
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
    if (successors.size() != 1)
      throw CompileError(op.location(), "'br' needs one successor");
    return statement(op, jump(successors[0], op));
  }
  if (successors.size() != 2 || op.numOperands() != 1 || !op.operand(0)->type().isBool())
    throw CompileError(op.location(), "'cond_br' needs a bool condition and two successors");
  statement(op, "if (" + name(op.operand(0), op) + ") { " + jump(successors[0], op) + " } else { " +
                    jump(successors[1], op) + " }");
}

// As the LLVM backend (NVPTXTarget::emitRaise): the first raise's number in the slot, then
// the thread exits.
void FunctionEmitter::emitRaise(const ir::Operation &op) {
  if (std::holds_alternative<std::string>(op.attr()))
    statement(op, "atomicCAS(&" + module_.exceptionSlot(op.location()) + ", 0u, " +
                      std::to_string(module_.exceptionNumber(op)) + "u);");
  statement(op, "asm volatile(\"exit;\" ::: \"memory\");");
}

void FunctionEmitter::emitReturn(const ir::Operation &op) {
  ir::Type returnType = function_.returnType();
  if (op.numOperands() == 0) {
    if (!returnType.isVoid())
      throw CompileError(op.location(),
                         "function '" + function_.name() + "' must return a " + returnType.str());
    return statement(op, "return;");
  }
  if (op.operand(0)->type() != returnType)
    throw CompileError(op.location(), "function '" + function_.name() + "' returns " +
                                          returnType.str() + ", not " +
                                          op.operand(0)->type().str());
  statement(op, "return " + name(op.operand(0), op) + ";");
}

} // namespace kaji::codegen::nvrtc::emitter
