#include "BytecodeDecoder.h"

#include "BytecodeValues.h"

#include <algorithm>
#include <charconv>
#include <map>

namespace kaji::frontend::bytecode {

bool isConditional(Op op) {
  return op == Op::JumpIfFalse || op == Op::JumpIfTrue || op == Op::JumpIfNone ||
         op == Op::JumpIfNotNone;
}

bool endsBlock(Op op) {
  return op == Op::Jump || op == Op::Return || op == Op::ForIter || isConditional(op);
}

const Instruction &ControlFlowGraph::last(int block) const {
  return instructions[blocks[block].end - 1];
}

int ControlFlowGraph::blockAfter(int block) const {
  return block + 1 < int(blocks.size()) ? block + 1 : -1;
}

std::vector<int> ControlFlowGraph::successors(int block) const {
  const Instruction &in = last(block);
  std::vector<int> result;
  if (in.op == Op::Return)
    return result;
  if (in.target >= 0)
    result.push_back(blockOf[in.target]);
  if (in.op != Op::Jump && blockAfter(block) >= 0)
    result.push_back(blockAfter(block));
  return result;
}

namespace {

const std::map<std::string, BinaryOperator, std::less<>> &binaryOperators() {
  static const std::map<std::string, BinaryOperator, std::less<>> operators = {
      {"+", BinaryOperator::Add},       {"-", BinaryOperator::Sub},
      {"*", BinaryOperator::Mul},       {"/", BinaryOperator::Div},
      {"//", BinaryOperator::FloorDiv}, {"%", BinaryOperator::Mod},
      {"**", BinaryOperator::Pow},      {"@", BinaryOperator::MatMul},
      {"<<", BinaryOperator::LShift},   {">>", BinaryOperator::RShift},
      {"&", BinaryOperator::BitAnd},    {"|", BinaryOperator::BitOr},
      {"^", BinaryOperator::BitXor}};
  return operators;
}

const std::map<std::string, CompareOperator, std::less<>> &compareOperators() {
  static const std::map<std::string, CompareOperator, std::less<>> operators = {
      {"<", CompareOperator::Lt},     {"<=", CompareOperator::LtE}, {"==", CompareOperator::Eq},
      {"!=", CompareOperator::NotEq}, {">", CompareOperator::Gt},   {">=", CompareOperator::GtE}};
  return operators;
}

// What the user wrote, for instructions outside the kernel subset.
std::string constructOf(const std::string &opname) {
  static const std::map<std::string, std::string, std::less<>> constructs = {
      {"MAKE_FUNCTION", "a lambda, nested function or comprehension"},
      {"LOAD_CLOSURE", "a nested function"},
      {"RAISE_VARARGS", "'raise'"},
      {"LOAD_ASSERTION_ERROR", "'assert'"},
      {"BEFORE_WITH", "'with'"},
      {"PUSH_EXC_INFO", "'try'"},
      {"YIELD_VALUE", "'yield'"},
      {"RETURN_GENERATOR", "a generator"},
      {"IMPORT_NAME", "'import'"},
      {"BUILD_MAP", "a dict"},
      {"BUILD_SET", "a set"},
      {"FORMAT_VALUE", "an f-string"},
      {"FORMAT_SIMPLE", "an f-string"},
      {"FORMAT_WITH_SPEC", "an f-string"},
      {"CONVERT_VALUE", "an f-string"},
      {"BUILD_STRING", "an f-string"},
      {"STORE_GLOBAL", "'global'"},
      {"DELETE_FAST", "'del'"},
      {"DELETE_SUBSCR", "'del'"},
      {"CALL_FUNCTION_EX", "a call with *args or **kwargs"},
      {"LIST_APPEND", "a comprehension"},
      {"LOAD_FAST_AND_CLEAR", "a comprehension"},
      {"LOAD_BUILD_CLASS", "a class"},
  };
  auto it = constructs.find(opname);
  return it != constructs.end() ? it->second : "the instruction " + opname;
}

// CPython 3.11 threads a jump of a value `and`/`or` through the jump it lands on: `b or
// c` tested by the `and` that follows it jumps, when `b` is true, past that test (which
// would pop `b` and go on), and a jump onto the `or` that ends `(b or c) or d` takes that
// one's target. 3.12 does neither. Both are put back the way 3.12 has them, onto the test
// they skipped (which decides as the threaded jump did): the value then is whole where
// it is tested, and jumps of an operand do not leave the expression they belong to.
void unthreadJumps(std::vector<BytecodeInstruction> &instructions) {
  static const std::string ifFalseOrPop = "JUMP_IF_FALSE_OR_POP",
                           ifTrueOrPop = "JUMP_IF_TRUE_OR_POP";
  std::map<int64_t, size_t> indexOfOffset;
  for (size_t i = 0; i < instructions.size(); ++i)
    indexOfOffset[instructions[i].offset] = i;
  for (BytecodeInstruction &in : instructions) {
    bool ifTrue = in.opname == "POP_JUMP_FORWARD_IF_TRUE";
    if (!ifTrue && in.opname != "POP_JUMP_FORWARD_IF_FALSE")
      continue;
    auto target = indexOfOffset.find(in.jumpTarget);
    if (target == indexOfOffset.end() || target->second == 0)
      continue;
    const BytecodeInstruction &skipped = instructions[target->second - 1];
    if (skipped.opname == (ifTrue ? ifFalseOrPop : ifTrueOrPop)) {
      in.opname = ifTrue ? ifTrueOrPop : ifFalseOrPop;
      in.jumpTarget = skipped.offset;
    }
  }
  // A jump that leaves an operand another jump shows to end before its target was
  // threaded: it belongs on the first jump like it in that operand whose code in between
  // jumps nowhere else. From the last, so that the jumps inside are put back first.
  auto jumpsWithin = [&](size_t from, size_t to) {
    for (size_t i = from + 1; i < to; ++i)
      if (instructions[i].jumpTarget >= 0 &&
          (instructions[i].jumpTarget <= int64_t(instructions[from].offset) ||
           instructions[i].jumpTarget > int64_t(instructions[to].offset)))
        return false;
    return true;
  };
  for (size_t k = instructions.size(); k-- > 0;) {
    BytecodeInstruction &in = instructions[k];
    if (in.opname != ifFalseOrPop && in.opname != ifTrueOrPop)
      continue;
    int64_t operandEnd = -1;
    for (size_t i = 0; i < k; ++i) {
      int64_t end = instructions[i].jumpTarget;
      if (end > int64_t(in.offset) && end < in.jumpTarget && (operandEnd < 0 || end < operandEnd))
        operandEnd = end;
    }
    for (size_t j = k + 1; operandEnd >= 0 && j < instructions.size() &&
                           int64_t(instructions[j].offset) <= operandEnd;
         ++j)
      if (instructions[j].opname == in.opname && instructions[j].jumpTarget == in.jumpTarget &&
          jumpsWithin(k, j)) {
        in.jumpTarget = instructions[j].offset;
        break;
      }
  }
}

// An EXTENDED_ARG only widens the argument of the instruction after it, which `dis` has
// already folded in; a jump to it means that instruction. Dropped, so that the shapes
// below see the instructions that run next to each other as neighbours (a far jump back
// after a `while` loop's own).
void dropExtendedArgs(std::vector<BytecodeInstruction> &instructions) {
  std::map<int64_t, int64_t> runs; // an EXTENDED_ARG's offset → the instruction's
  for (size_t i = instructions.size(); i-- > 0;)
    if (instructions[i].opname == "EXTENDED_ARG" && i + 1 < instructions.size())
      runs[instructions[i].offset] = runs.count(instructions[i + 1].offset)
                                         ? runs[instructions[i + 1].offset]
                                         : instructions[i + 1].offset;
  std::erase_if(instructions,
                [&](const BytecodeInstruction &in) { return runs.count(in.offset) != 0; });
  for (BytecodeInstruction &in : instructions)
    if (auto run = runs.find(in.jumpTarget); run != runs.end())
      in.jumpTarget = run->second;
}

// CPython 3.13 ends a `for` loop with END_FOR, POP_TOP, both of which an exhausted FOR_ITER
// skips as 3.12's skips its END_FOR alone (the iterator is gone by then). The POP_TOP is
// dropped, a jump to it meaning the instruction after it, so that the loop ends as in 3.12.
void dropEndForPops(std::vector<BytecodeInstruction> &instructions) {
  std::map<int64_t, int64_t> next; // a dropped POP_TOP's offset → the instruction's after it
  for (size_t i = 1; i + 1 < instructions.size(); ++i)
    if (instructions[i].opname == "POP_TOP" && instructions[i - 1].opname == "END_FOR")
      next[instructions[i].offset] = instructions[i + 1].offset;
  std::erase_if(instructions,
                [&](const BytecodeInstruction &in) { return next.count(in.offset) != 0; });
  for (BytecodeInstruction &in : instructions)
    if (auto dropped = next.find(in.jumpTarget); dropped != next.end())
      in.jumpTarget = dropped->second;
}

// `test` jumping over `jump`, which no other jump lands on, to `next`: made one
// conditional jump to where `jump` goes, on the other outcome. Whether it was.
bool joinJumpOver(BytecodeInstruction &test, const BytecodeInstruction &jump,
                  const BytecodeInstruction &next, const std::set<int64_t> &targets) {
  static const std::map<std::string, std::string, std::less<>> negated = {
      {"POP_JUMP_IF_FALSE", "POP_JUMP_IF_TRUE"},
      {"POP_JUMP_IF_TRUE", "POP_JUMP_IF_FALSE"},
      {"POP_JUMP_IF_NONE", "POP_JUMP_IF_NOT_NONE"},
      {"POP_JUMP_IF_NOT_NONE", "POP_JUMP_IF_NONE"}};
  auto other = negated.find(test.opname);
  if (other == negated.end() || test.jumpTarget != int64_t(next.offset) ||
      targets.count(jump.offset))
    return false;
  test.opname = other->second;
  test.jumpTarget = jump.jumpTarget;
  return true;
}

// Where a `while` loop's exit is a jump (the loop ends an enclosing loop's body, or an
// `if` body before its `else`), CPython 3.12 sends its test when false and its `break`s
// straight to where that jump goes; and having no conditional jump backwards, it tests
// at the bottom by jumping over a JUMP_BACKWARD. Put back as 3.11 has them: the exits go
// to the jump after the loop, and the tests before and at the bottom are one conditional
// jump each, so that the loop reads alike in both.
void unthreadLoopExits(std::vector<BytecodeInstruction> &instructions) {
  std::map<int64_t, size_t> indexOfOffset;
  for (size_t i = 0; i < instructions.size(); ++i)
    indexOfOffset[instructions[i].offset] = i;
  std::set<size_t> pretests, latches; // of `while` loops whose exit is a jump
  auto jumps = [](const BytecodeInstruction &in) {
    return in.opname == "JUMP_BACKWARD" || in.opname == "JUMP_FORWARD";
  };
  for (size_t latch = 0; latch + 1 < instructions.size(); ++latch) {
    const BytecodeInstruction &back = instructions[latch], &exit = instructions[latch + 1];
    auto header = indexOfOffset.find(back.jumpTarget);
    if (back.opname != "JUMP_BACKWARD" || header == indexOfOffset.end())
      continue;
    size_t first = header->second;
    if (exit.opname == "JUMP_BACKWARD" && exit.jumpTarget < back.jumpTarget) {
      if (first >= 2 && instructions[first - 1].jumpTarget == exit.jumpTarget &&
          instructions[first - 2].jumpTarget == back.jumpTarget) {
        pretests.insert(first - 2);
        --first; // the test's jump out of the loop is an exit too
      }
    } else if (exit.opname == "JUMP_FORWARD" && exit.jumpTarget > int64_t(exit.offset) &&
               first >= 1 && instructions[first - 1].opname.starts_with("POP_JUMP_IF_") &&
               (instructions[first - 1].jumpTarget == exit.jumpTarget ||
                instructions[first - 1].jumpTarget == int64_t(exit.offset))) {
      // Only a loop with a test falls through to a jump after it: the test before the
      // loop is then one conditional jump out, as in 3.11 (and 3.13, which sends it to the
      // jump where 3.12 sends it past).
      instructions[first - 1].jumpTarget = exit.offset;
    } else {
      continue;
    }
    latches.insert(latch);
    for (size_t k = first; k < latch; ++k)
      if (jumps(instructions[k]) && instructions[k].jumpTarget == exit.jumpTarget) {
        instructions[k].opname = "JUMP_FORWARD";
        instructions[k].jumpTarget = exit.offset;
      }
  }
  // Likewise a `for` loop followed by a jump (it ends an enclosing loop's body, or an `if`
  // body before its `else`): 3.12 sends its `break`s straight to where that jump goes,
  // where 3.11 has them go to the jump. Nothing else inside the loop jumps out of it
  // (Python has no `continue` of an outer loop), so each such jump is one of its `break`s.
  for (size_t header = 0; header < instructions.size(); ++header) {
    auto end = indexOfOffset.find(instructions[header].jumpTarget);
    if (instructions[header].opname != "FOR_ITER" || end == indexOfOffset.end() ||
        end->second + 1 >= instructions.size() || instructions[end->second].opname != "END_FOR")
      continue;
    const BytecodeInstruction &exit = instructions[end->second + 1];
    if (!jumps(exit) || (exit.jumpTarget >= int64_t(instructions[header].offset) &&
                         exit.jumpTarget <= int64_t(exit.offset)))
      continue;
    for (size_t k = header + 1; k < end->second; ++k)
      if (jumps(instructions[k]) && instructions[k].jumpTarget == exit.jumpTarget) {
        instructions[k].opname = "JUMP_FORWARD";
        instructions[k].jumpTarget = exit.offset;
      }
  }
  std::set<int64_t> targets;
  for (const BytecodeInstruction &in : instructions)
    targets.insert(in.jumpTarget);
  // A jump joined into its test is dropped: left as a NOP it would be a block of its own
  // between the loop and the jump after it, which then would not read as the loop's exit.
  std::set<unsigned> joined;
  for (size_t i = 0; i + 2 < instructions.size(); ++i)
    if ((pretests.count(i) || latches.count(i + 1)) &&
        joinJumpOver(instructions[i], instructions[i + 1], instructions[i + 2], targets))
      joined.insert(instructions[i + 1].offset);
  std::erase_if(instructions,
                [&](const BytecodeInstruction &in) { return joined.count(in.offset) != 0; });
}

bool sameInstruction(const Instruction &a, const Instruction &b) {
  return a.op == b.op && a.arg == b.arg && a.flag == b.flag && a.text == b.text &&
         a.binary == b.binary && a.unary == b.unary && a.compare == b.compare &&
         a.target == b.target && a.loc.file == b.loc.file && a.loc.line == b.loc.line &&
         a.loc.col == b.loc.col;
}

class Decoder {
public:
  Decoder(const CodeObject &code, const std::shared_ptr<const std::string> &file)
      : code_(code), file_(file) {
    graph_.constants = code.constants;
  }

  ControlFlowGraph decoded() {
    decode();
    cutBlocks();
    joinCopiedExits();
    graph_.pastEnd = Location{file_, lastLine_, 1};
    return std::move(graph_);
  }

private:
  Location locationOf(const BytecodeInstruction &instruction) {
    if (instruction.line)
      lastLine_ = instruction.line;
    return Location{file_, lastLine_ ? lastLine_ : code_.firstLine,
                    instruction.line ? std::max(1u, instruction.column) : 1};
  }

  // A complex constant comes by its type only; its parts come, exact, with the instruction
  // that loads it (kaji/_bytecode.py).
  void takeComplexParts(const BytecodeInstruction &in, const Location &loc) {
    if (in.arg < 0 || size_t(in.arg) >= graph_.constants.size())
      return;
    BytecodeConstant &constant = graph_.constants[size_t(in.arg)];
    if (constant.kind != BytecodeConstant::Kind::Unsupported || constant.text != "complex")
      return;
    std::string_view parts = in.argText;
    size_t space = parts.find(' ');
    auto parse = [](std::string_view text, double &value) {
      auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
      return error == std::errc() && end == text.data() + text.size();
    };
    if (space == std::string_view::npos || !parse(parts.substr(0, space), constant.floatValue) ||
        !parse(parts.substr(space + 1), constant.imagValue))
      untranslatable(loc, code_.name, "a complex constant without its parts");
    constant.kind = BytecodeConstant::Kind::Complex;
  }

  void decode() {
    std::map<unsigned, int> indexOfOffset;
    std::vector<std::pair<size_t, int64_t>> jumps; // instruction, target offset
    std::set<unsigned> endFor;
    bool py311 = code_.pythonMinor == 11;
    // CPython 3.13 loads a callable's NULL after it, and CALL finds it above the callable.
    bool nullAfterCallable = code_.pythonMinor >= 13;
    std::vector<BytecodeInstruction> decoded = code_.instructions;
    if (py311) {
      unthreadJumps(decoded);
    } else {
      dropExtendedArgs(decoded);
      if (nullAfterCallable)
        dropEndForPops(decoded);
      unthreadLoopExits(decoded);
    }
    std::set<unsigned> testsItsOperand; // the TO_BOOLs before a conditional jump or `not`
    for (size_t i = 0; i + 1 < decoded.size(); ++i)
      if (decoded[i].opname == "TO_BOOL" && (decoded[i + 1].opname.starts_with("POP_JUMP_IF_") ||
                                             decoded[i + 1].opname == "UNARY_NOT"))
        testsItsOperand.insert(decoded[i].offset);
    for (const BytecodeInstruction &in : decoded) {
      indexOfOffset[in.offset] = int(graph_.instructions.size());
      Instruction out;
      out.op = Op::Nop;
      out.loc = locationOf(in);
      out.arg = in.arg;
      out.text = in.argText;
      const std::string &name = in.opname;
      auto emit = [&](Op op) {
        out.op = op;
        graph_.instructions.push_back(out);
      };
      auto jump = [&](Op op) {
        jumps.emplace_back(graph_.instructions.size(), in.jumpTarget);
        emit(op);
      };
      auto pushNull = [&](bool needed) {
        if (!needed)
          return;
        out.flag = false;
        emit(Op::PushNull);
      };
      // CPython 3.13's pairs of local loads and stores: "a, b" in the order they run.
      auto pairOfNames = [&](Op first, Op second) {
        size_t comma = in.argText.find(", ");
        if (comma == std::string::npos)
          untranslatable(out.loc, code_.name, constructOf(name));
        out.text = in.argText.substr(0, comma);
        emit(first);
        out.text = in.argText.substr(comma + 2);
        emit(second);
      };
      if (name == "EXTENDED_ARG") {
        // dis folds its argument into the instruction it prefixes, which a jump to it
        // (CPython's loops jump back to the EXTENDED_ARG of a far FOR_ITER) means: it takes
        // that instruction's index, so that a block starts with what it runs.
        continue;
      }
      if (name == "RESUME" || name == "NOP" || name == "PRECALL" || name == "CACHE" ||
          name == "COPY_FREE_VARS") {
        emit(Op::Nop);
      } else if (name == "TO_BOOL") {
        // 3.13 makes the operand of a jump or of `not` a bool, as they do themselves; alone it
        // is what `not not x` was folded into, written back so.
        if (!testsItsOperand.count(in.offset)) {
          out.unary = UnaryOperator::Not;
          emit(Op::UnaryOp);
          emit(Op::UnaryOp);
        } else {
          emit(Op::Nop);
        }
      } else if (name == "END_FOR") {
        endFor.insert(in.offset);
        emit(Op::Nop);
      } else if (name == "POP_TOP") {
        emit(Op::PopTop);
      } else if (name == "COPY") {
        emit(Op::Copy);
      } else if (name == "SWAP") {
        emit(Op::Swap);
      } else if (name == "PUSH_NULL") {
        emit(Op::PushNull);
      } else if (name == "LOAD_CONST") {
        takeComplexParts(in, out.loc);
        emit(Op::LoadConst);
      } else if (name == "RETURN_CONST") {
        takeComplexParts(in, out.loc);
        emit(Op::LoadConst);
        emit(Op::Return);
      } else if (name == "RETURN_VALUE") {
        emit(Op::Return);
      } else if (name == "LOAD_FAST" || name == "LOAD_FAST_CHECK" || name == "LOAD_DEREF") {
        emit(Op::LoadName);
      } else if (name == "LOAD_FAST_LOAD_FAST") {
        pairOfNames(Op::LoadName, Op::LoadName);
      } else if (name == "LOAD_GLOBAL") {
        bool withNull = (in.arg & 1) != 0;
        out.flag = withNull && !nullAfterCallable;
        emit(Op::LoadName);
        pushNull(withNull && nullAfterCallable);
      } else if (name == "LOAD_METHOD") {
        out.flag = true;
        emit(Op::LoadAttr);
      } else if (name == "LOAD_ATTR") {
        bool methodForm = !py311 && (in.arg & 1) != 0;
        out.flag = methodForm && !nullAfterCallable;
        emit(Op::LoadAttr);
        pushNull(methodForm && nullAfterCallable);
      } else if (name == "STORE_ATTR") {
        emit(Op::StoreAttr);
      } else if (name == "STORE_FAST" || name == "STORE_DEREF") {
        emit(Op::StoreName);
      } else if (name == "STORE_FAST_STORE_FAST") {
        pairOfNames(Op::StoreName, Op::StoreName);
      } else if (name == "STORE_FAST_LOAD_FAST") {
        pairOfNames(Op::StoreName, Op::LoadName);
      } else if (name == "BINARY_SUBSCR") {
        emit(Op::BinarySubscr);
      } else if (name == "STORE_SUBSCR") {
        emit(Op::StoreSubscr);
      } else if (name == "BINARY_SLICE") {
        emit(Op::BinarySlice);
      } else if (name == "STORE_SLICE") {
        emit(Op::StoreSlice);
      } else if (name == "BUILD_SLICE") {
        emit(Op::BuildSlice);
      } else if (name == "BUILD_TUPLE") {
        emit(Op::BuildTuple);
      } else if (name == "BUILD_LIST") {
        emit(Op::BuildList);
      } else if (name == "LIST_EXTEND") {
        emit(Op::ListExtend);
      } else if (name == "UNPACK_SEQUENCE") {
        emit(Op::UnpackSequence);
      } else if (name == "BINARY_OP") {
        std::string_view spelled = in.argText;
        out.flag = spelled.size() > 1 && spelled.back() == '=';
        if (out.flag)
          spelled.remove_suffix(1);
        auto it = binaryOperators().find(spelled);
        if (it == binaryOperators().end())
          untranslatable(out.loc, code_.name, "the operator '" + in.argText + "'");
        out.binary = it->second;
        emit(Op::BinaryOp);
      } else if (name == "UNARY_NEGATIVE" || name == "UNARY_NOT" || name == "UNARY_INVERT" ||
                 name == "UNARY_POSITIVE" ||
                 (name == "CALL_INTRINSIC_1" && in.argText == "INTRINSIC_UNARY_POSITIVE")) {
        out.unary = name == "UNARY_NEGATIVE" ? UnaryOperator::Minus
                    : name == "UNARY_NOT"    ? UnaryOperator::Not
                    : name == "UNARY_INVERT" ? UnaryOperator::Invert
                                             : UnaryOperator::Plus;
        emit(Op::UnaryOp);
      } else if (name == "COMPARE_OP") {
        auto it = compareOperators().find(in.argText);
        if (it == compareOperators().end())
          untranslatable(out.loc, code_.name, "the comparison '" + in.argText + "'");
        out.compare = it->second;
        emit(Op::Compare);
      } else if (name == "IS_OP") {
        out.compare = in.arg ? CompareOperator::IsNot : CompareOperator::Is;
        emit(Op::Compare);
      } else if (name == "CONTAINS_OP") {
        out.compare = in.arg ? CompareOperator::NotIn : CompareOperator::In;
        emit(Op::Compare);
      } else if (name == "KW_NAMES") {
        emit(Op::KwNames);
      } else if (name == "CALL") {
        out.flag = nullAfterCallable;
        emit(Op::Call);
      } else if (name == "CALL_KW") {
        // 3.13 loads the keywords' names as a constant right before: the KW_NAMES of 3.12.
        if (graph_.instructions.empty() || graph_.instructions.back().op != Op::LoadConst)
          untranslatable(out.loc, code_.name, "this call");
        graph_.instructions.back().op = Op::KwNames;
        out.flag = nullAfterCallable;
        emit(Op::Call);
      } else if (name == "GET_ITER") {
        emit(Op::GetIter);
      } else if (name == "FOR_ITER") {
        jump(Op::ForIter);
      } else if (name.starts_with("JUMP_IF_FALSE_OR_POP") ||
                 name.starts_with("JUMP_IF_TRUE_OR_POP")) {
        // CPython 3.12 spells these COPY 1, POP_JUMP_IF_x, POP_TOP: take that form, the
        // POP_TOP in a block of its own (only the fall-through path runs it).
        out.arg = 1;
        emit(Op::Copy);
        jump(name.starts_with("JUMP_IF_FALSE") ? Op::JumpIfFalse : Op::JumpIfTrue);
        emit(Op::PopTop);
        synthetic_.insert(int(graph_.instructions.size()) - 1);
      } else if (name.starts_with("POP_JUMP") && name.ends_with("IF_FALSE")) {
        jump(Op::JumpIfFalse);
      } else if (name.starts_with("POP_JUMP") && name.ends_with("IF_TRUE")) {
        jump(Op::JumpIfTrue);
      } else if (name.starts_with("POP_JUMP") && name.ends_with("IF_NOT_NONE")) {
        jump(Op::JumpIfNotNone);
      } else if (name.starts_with("POP_JUMP") && name.ends_with("IF_NONE")) {
        jump(Op::JumpIfNone);
      } else if (name.starts_with("JUMP")) {
        jump(Op::Jump);
      } else {
        untranslatable(out.loc, code_.name, constructOf(name));
      }
    }
    for (auto [index, offset] : jumps) {
      // A 3.12 loop ends at END_FOR, which `break` jumps past: both mean the next one.
      auto target = indexOfOffset.find(unsigned(offset));
      if (target == indexOfOffset.end())
        untranslatable(graph_.instructions[index].loc, code_.name, "a jump into an instruction");
      int resolved = target->second;
      if (endFor.count(unsigned(offset)))
        ++resolved;
      graph_.instructions[index].target = resolved;
    }
  }

  void cutBlocks() {
    int count = int(graph_.instructions.size());
    std::set<int> leaders{0};
    for (int i = 0; i < count; ++i) {
      const Instruction &in = graph_.instructions[i];
      if (in.target >= 0)
        leaders.insert(in.target);
      if (endsBlock(in.op) || synthetic_.count(i + 1))
        leaders.insert(i + 1);
      if (synthetic_.count(i))
        leaders.insert(i);
    }
    leaders.erase(count);
    leaders.insert(count);
    int previous = -1;
    graph_.blockOf.assign(count + 1, -1);
    for (int leader : leaders) {
      if (previous >= 0)
        graph_.blocks.push_back(Block{previous, leader});
      previous = leader;
    }
    for (int b = 0; b < int(graph_.blocks.size()); ++b)
      for (int i = graph_.blocks[b].begin; i < graph_.blocks[b].end; ++i)
        graph_.blockOf[i] = b;
    graph_.predecessors.assign(graph_.blocks.size(), {});
    graph_.latch.assign(graph_.blocks.size(), -1);
    for (int b = 0; b < int(graph_.blocks.size()); ++b)
      for (int successor : graph_.successors(b)) {
        graph_.predecessors[successor].insert(b);
        if (successor <= b)
          graph_.latch[successor] = std::max(graph_.latch[successor], b);
      }
  }

  // CPython 3.12 and 3.13 copy a short block that returns into the blocks that jump to it,
  // positions and all ("inlining small exit blocks"): in `r = (x if c else y); return r`
  // each arm of the conditional ends in its own copy of the call, store and return, and the
  // arms never meet. A block that ends in an exact copy of the end of a later block that
  // returns jumps there instead, as the source reads; the copy is left unreachable. (Only
  // later: a jump back would read as a loop.)
  void joinCopiedExits() {
    bool joined = false;
    auto returns = [&](const Block &block) {
      return graph_.instructions[block.end - 1].op == Op::Return;
    };
    for (const Block &copying : graph_.blocks) {
      if (!returns(copying))
        continue;
      for (const Block &exit : graph_.blocks) {
        if (exit.begin <= copying.begin || !returns(exit))
          continue;
        int length = 0;
        while (length < copying.end - copying.begin && length < exit.end - exit.begin &&
               sameInstruction(graph_.instructions[copying.end - 1 - length],
                               graph_.instructions[exit.end - 1 - length]))
          ++length;
        // A block that is a copy as a whole has nothing before the copy to jump from; it
        // stays (CPython 3.11 copies `return None` so, as a block of its own).
        if (length == 0 || length == copying.end - copying.begin)
          continue;
        Instruction jump;
        jump.op = Op::Jump;
        jump.target = exit.end - length;
        jump.loc = graph_.instructions[copying.end - length].loc;
        graph_.instructions[copying.end - length] = std::move(jump);
        joined = true;
        break;
      }
    }
    if (!joined)
      return;
    graph_.blocks.clear();
    cutBlocks();
  }

  const CodeObject &code_;
  std::shared_ptr<const std::string> file_;
  ControlFlowGraph graph_;
  std::set<int> synthetic_; // the POP_TOPs of JUMP_IF_x_OR_POP: each a block of its own
  unsigned lastLine_ = 0;
};

} // namespace

ControlFlowGraph decodeBlocks(const CodeObject &code,
                              const std::shared_ptr<const std::string> &file) {
  return Decoder(code, file).decoded();
}

} // namespace kaji::frontend::bytecode
