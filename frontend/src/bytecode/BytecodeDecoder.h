// The decoder: a code object's instructions, in one form for CPython 3.11 to 3.13 (the
// rewrites that undo what one of them does and the other does not), cut into basic blocks.
// The symbolic stack (SymbolicStack.h) runs the blocks' instructions; control-flow recovery
// (ControlFlowRecovery.h) follows the jumps between them.
#pragma once

#include "kaji/frontend/AST.h"
#include "kaji/frontend/Bytecode.h"

#include <memory>
#include <set>
#include <string>
#include <vector>

namespace kaji::frontend::bytecode {

enum class Op : uint8_t {
  Nop,
  PopTop,
  Copy,
  Swap,
  PushNull,
  LoadConst,
  LoadName, // flag: push NULL first (LOAD_GLOBAL before 3.13)
  LoadAttr, // flag: method form, NULL first (before 3.13)
  StoreAttr,
  StoreName,
  BinarySubscr,
  StoreSubscr,
  BinarySlice,
  StoreSlice,
  BuildSlice,
  BuildTuple,
  BuildList,
  ListExtend,
  UnpackSequence,
  BinaryOp,
  UnaryOp,
  Compare,
  KwNames,
  Call, // flag: the NULL is above the callable (3.13), not below it
  GetIter,
  ForIter,
  Jump,
  JumpIfFalse,
  JumpIfTrue,
  JumpIfNone,
  JumpIfNotNone,
  Return,
};

struct Instruction {
  Op op = Op::Nop;
  int64_t arg = 0;
  bool flag = false;
  std::string text;
  BinaryOperator binary = BinaryOperator::Add;
  UnaryOperator unary = UnaryOperator::Minus;
  CompareOperator compare = CompareOperator::Eq;
  int target = -1; // instruction index
  Location loc;
};

bool isConditional(Op op);
bool endsBlock(Op op);

struct Block {
  int begin = 0, end = 0; // instruction indices
};

// The decoded function: its instructions, cut into blocks, and the jumps between them.
struct ControlFlowGraph {
  std::vector<BytecodeConstant> constants; // co_consts, complex ones with their parts
  std::vector<Instruction> instructions;
  std::vector<Block> blocks;
  std::vector<int> blockOf; // per instruction: its block; -1 one past the last
  std::vector<std::set<int>> predecessors;
  std::vector<int> latch; // per block: the last block that jumps back to it, or -1
  // The last line an instruction recorded (0: none), at column 1: where code that runs past
  // its end is reported.
  Location pastEnd;

  const Instruction &last(int block) const;
  int blockAfter(int block) const;
  std::vector<int> successors(int block) const;
};

// Throws ir::CompileError (untranslatable) for an instruction outside the kernel subset and
// for a jump into an instruction.
ControlFlowGraph decodeBlocks(const CodeObject &code,
                              const std::shared_ptr<const std::string> &file);

} // namespace kaji::frontend::bytecode
