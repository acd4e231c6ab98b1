// Bytecode → AST. The instructions are first put in one form for CPython 3.11 and 3.12
// (decode), cut into basic blocks, then walked with a symbolic stack: straight-line code
// becomes statements, and control flow is recovered from the jump graph the way CPython
// lays it out (see docs/python.md): a conditional jump either joins into a larger
// condition (and/or), or merges back with one more value (a conditional expression, a
// value `and`/`or`), or is an `if` whose branches meet at the first block both reach; a
// block jumped back to is a loop. Whatever does not fit these shapes is an error naming
// the construct, never a guess.
#include "kaji/frontend/Bytecode.h"

#include "BytecodeValues.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>
#include <set>

namespace kaji::frontend {
namespace {

using bytecode::kLoopValueName;
using bytecode::untranslatable;
using bytecode::Value;
using bytecode::ValueKind;
using bytecode::ValuePtr;

enum class Op : uint8_t {
  Nop,
  PopTop,
  Copy,
  Swap,
  PushNull,
  LoadConst,
  LoadName, // flag: push NULL first (LOAD_GLOBAL)
  LoadAttr, // flag: method form, NULL first
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
  Call,
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

bool isConditional(Op op) {
  return op == Op::JumpIfFalse || op == Op::JumpIfTrue || op == Op::JumpIfNone ||
         op == Op::JumpIfNotNone;
}

bool endsBlock(Op op) {
  return op == Op::Jump || op == Op::Return || op == Op::ForIter || isConditional(op);
}

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

struct Block {
  int begin = 0, end = 0; // instruction indices
};

// The interpreter's state along one path: the stack, the statement being assembled (a
// tuple assignment stores several times before the stack is back to where it began) and
// which values some other value already took.
struct State {
  std::vector<ValuePtr> stack;
  std::vector<std::pair<ValuePtr, ValuePtr>> stores; // (target, value) of the statement
  // Values by their sequence number (a Value's address may be reused once it is gone).
  std::map<uint64_t, std::vector<ValuePtr>> unpacking; // sequence → its elements' targets
  std::set<uint64_t> used;
  const BytecodeConstant *keywordNames = nullptr;
  uint64_t statementStart = 0;
  Location statementLoc;
};

bool sameStack(const State &a, const State &b) { return a.stack == b.stack; }

struct LoopContext {
  int header = -1, exit = -1, last = -1; // blocks; exit -1: the loop never ends
  int preTest = -1; // `while c:` whose body continues: the block testing c before it
  size_t exitDepth = 0;

  bool continues(int block) const { return block == header || block == preTest; }
  // Where a path inside the loop ends: continue, break, or out of the loop.
  bool ends(int block) const {
    return continues(block) || block == exit || block < header || block > last;
  }
};

// Thrown while a branch is tried as an expression and turns out to hold statements.
struct NotAnExpression {};

// Sets the translator to reject statements (NotAnExpression) for its lifetime.
class ExpressionOnly {
public:
  explicit ExpressionOnly(bool &flag) : flag_(flag), was_(flag) { flag = true; }
  ~ExpressionOnly() { flag_ = was_; }
  ExpressionOnly(const ExpressionOnly &) = delete;
  ExpressionOnly &operator=(const ExpressionOnly &) = delete;

private:
  bool &flag_;
  bool was_;
};

struct Edge {
  int block = -1;
  State state;
  int layout = -1; // the block the jump itself names, before trampolines: its order
};

class Translator {
public:
  explicit Translator(const CodeObject &code) : code_(code), constants_(code.constants) {
    file_ = std::make_shared<const std::string>(code.fileName);
  }

  std::shared_ptr<Module> translate() {
    Location start{file_, code_.firstLine, 1};
    if (code_.pythonMinor != 11 && code_.pythonMinor != 12)
      throw ir::CompileError(start, "kaji translates the bytecode of CPython 3.11 and 3.12, "
                                    "not 3." +
                                        std::to_string(code_.pythonMinor) + "; define '" +
                                        code_.name + "' in a file");
    if (code_.hasExceptionTable)
      untranslatable(start, code_.name, "'try' or 'with'");
    if (!code_.cellVars.empty())
      untranslatable(start, code_.name, "a nested function that captures a local");
    decode();
    cutBlocks();
    joinCopiedExits();

    auto def = std::make_unique<FunctionDefStmt>(start);
    def->name = code_.name;
    size_t firstDefault = code_.argCount - std::min<size_t>(code_.argCount, code_.defaults.size());
    for (unsigned i = 0; i < code_.argCount && i < code_.varNames.size(); ++i)
      def->params.push_back(Parameter{
          start, code_.varNames[i], nullptr,
          i < firstDefault
              ? nullptr
              : bytecode::constantExpr(code_.defaults[i - firstDefault], start, code_.name)});
    State state;
    if (emitRegion(0, state, -1, nullptr, def->body))
      untranslatable(start, code_.name, "code that runs past its end");
    stripTrailing(def->body, StmtKind::Return);
    if (def->body.empty())
      def->body.push_back(std::make_unique<PassStmt>(start));
    auto module = std::make_shared<Module>();
    module->file = file_;
    module->body.push_back(std::move(def));
    return module;
  }

private:
  // ---- decoding ----------------------------------------------------------------------

  Location locationOf(const BytecodeInstruction &instruction) {
    if (instruction.line)
      lastLine_ = instruction.line;
    return Location{file_, lastLine_ ? lastLine_ : code_.firstLine,
                    instruction.line ? std::max(1u, instruction.column) : 1};
  }

  // CPython 3.11 threads a jump of a value `and`/`or` through the jump it lands on: `b or
  // c` tested by the `and` that follows it jumps, when `b` is true, past that test (which
  // would pop `b` and go on), and a jump onto the `or` that ends `(b or c) or d` takes that
  // one's target. 3.12 does neither. Both are put back the way 3.12 has them, onto the test
  // they skipped (which decides as the threaded jump did): the value then is whole where
  // it is tested, and jumps of an operand do not leave the expression they belong to.
  static void unthreadJumps(std::vector<BytecodeInstruction> &instructions) {
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

  // A complex constant comes by its type only; its parts come, exact, with the instruction
  // that loads it (kaji/_bytecode.py).
  void takeComplexParts(const BytecodeInstruction &in, const Location &loc) {
    if (in.arg < 0 || size_t(in.arg) >= constants_.size())
      return;
    BytecodeConstant &constant = constants_[size_t(in.arg)];
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

  // An EXTENDED_ARG only widens the argument of the instruction after it, which `dis` has
  // already folded in; a jump to it means that instruction. Dropped, so that the shapes
  // below see the instructions that run next to each other as neighbours (a far jump back
  // after a `while` loop's own).
  static void dropExtendedArgs(std::vector<BytecodeInstruction> &instructions) {
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

  // Where a `while` loop's exit is a jump (the loop ends an enclosing loop's body, or an
  // `if` body before its `else`), CPython 3.12 sends its test when false and its `break`s
  // straight to where that jump goes; and having no conditional jump backwards, it tests
  // at the bottom by jumping over a JUMP_BACKWARD. Put back as 3.11 has them: the exits go
  // to the jump after the loop, and the tests before and at the bottom are one conditional
  // jump each, so that the loop reads alike in both.
  static void unthreadLoopExits(std::vector<BytecodeInstruction> &instructions) {
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
                 instructions[first - 1].jumpTarget == exit.jumpTarget) {
        // Only a loop with a test falls through to a jump after it: the test before the
        // loop is then one conditional jump out, as in 3.11.
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

  // `test` jumping over `jump`, which no other jump lands on, to `next`: made one
  // conditional jump to where `jump` goes, on the other outcome. Whether it was.
  static bool joinJumpOver(BytecodeInstruction &test, const BytecodeInstruction &jump,
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

  void decode() {
    std::map<unsigned, int> indexOfOffset;
    std::vector<std::pair<size_t, int64_t>> jumps; // instruction, target offset
    std::set<unsigned> endFor;
    bool py311 = code_.pythonMinor == 11;
    std::vector<BytecodeInstruction> decoded = code_.instructions;
    if (py311) {
      unthreadJumps(decoded);
    } else {
      dropExtendedArgs(decoded);
      unthreadLoopExits(decoded);
    }
    for (const BytecodeInstruction &in : decoded) {
      indexOfOffset[in.offset] = int(instructions_.size());
      Instruction out;
      out.op = Op::Nop;
      out.loc = locationOf(in);
      out.arg = in.arg;
      out.text = in.argText;
      const std::string &name = in.opname;
      auto emit = [&](Op op) {
        out.op = op;
        instructions_.push_back(out);
      };
      auto jump = [&](Op op) {
        jumps.emplace_back(instructions_.size(), in.jumpTarget);
        emit(op);
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
      } else if (name == "LOAD_GLOBAL") {
        out.flag = (in.arg & 1) != 0;
        emit(Op::LoadName);
      } else if (name == "LOAD_METHOD") {
        out.flag = true;
        emit(Op::LoadAttr);
      } else if (name == "LOAD_ATTR") {
        out.flag = !py311 && (in.arg & 1) != 0;
        emit(Op::LoadAttr);
      } else if (name == "STORE_ATTR") {
        emit(Op::StoreAttr);
      } else if (name == "STORE_FAST" || name == "STORE_DEREF") {
        emit(Op::StoreName);
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
        synthetic_.insert(int(instructions_.size()) - 1);
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
        untranslatable(instructions_[index].loc, code_.name, "a jump into an instruction");
      int resolved = target->second;
      if (endFor.count(unsigned(offset)))
        ++resolved;
      instructions_[index].target = resolved;
    }
  }

  void cutBlocks() {
    int count = int(instructions_.size());
    std::set<int> leaders{0};
    for (int i = 0; i < count; ++i) {
      const Instruction &in = instructions_[i];
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
    blockOf_.assign(count + 1, -1);
    for (int leader : leaders) {
      if (previous >= 0)
        blocks_.push_back(Block{previous, leader});
      previous = leader;
    }
    for (int b = 0; b < int(blocks_.size()); ++b)
      for (int i = blocks_[b].begin; i < blocks_[b].end; ++i)
        blockOf_[i] = b;
    predecessors_.assign(blocks_.size(), {});
    latch_.assign(blocks_.size(), -1);
    for (int b = 0; b < int(blocks_.size()); ++b)
      for (int successor : successors(b)) {
        predecessors_[successor].insert(b);
        if (successor <= b)
          latch_[successor] = std::max(latch_[successor], b);
      }
  }

  // CPython 3.12 copies a short block that returns into the blocks that jump to it,
  // positions and all ("inlining small exit blocks"): in `r = (x if c else y); return r`
  // one arm of the conditional ends in its own copy of the call, store and return, and the
  // arms never meet. A block that ends in an exact copy of another block that returns
  // jumps to that block instead, as the source reads; the copy is left unreachable.
  void joinCopiedExits() {
    bool joined = false;
    for (const Block &copying : blocks_)
      for (const Block &exit : blocks_) {
        int length = exit.end - exit.begin;
        if (instructions_[exit.end - 1].op != Op::Return || copying.end - copying.begin <= length ||
            !std::equal(instructions_.begin() + exit.begin, instructions_.begin() + exit.end,
                        instructions_.begin() + (copying.end - length), sameInstruction))
          continue;
        Instruction jump;
        jump.op = Op::Jump;
        jump.target = exit.begin;
        jump.loc = instructions_[copying.end - length].loc;
        instructions_[copying.end - length] = std::move(jump);
        joined = true;
        break;
      }
    if (!joined)
      return;
    blocks_.clear();
    cutBlocks();
  }

  static bool sameInstruction(const Instruction &a, const Instruction &b) {
    return a.op == b.op && a.arg == b.arg && a.flag == b.flag && a.text == b.text &&
           a.binary == b.binary && a.unary == b.unary && a.compare == b.compare &&
           a.target == b.target && a.loc.file == b.loc.file && a.loc.line == b.loc.line &&
           a.loc.col == b.loc.col;
  }

  const Instruction &last(int block) const { return instructions_[blocks_[block].end - 1]; }

  int blockAfter(int block) const { return block + 1 < int(blocks_.size()) ? block + 1 : -1; }

  std::vector<int> successors(int block) const {
    const Instruction &in = last(block);
    std::vector<int> result;
    if (in.op == Op::Return)
      return result;
    if (in.target >= 0)
      result.push_back(blockOf_[in.target]);
    if (in.op != Op::Jump && blockAfter(block) >= 0)
      result.push_back(blockAfter(block));
    return result;
  }

  // ---- the symbolic stack ----------------------------------------------------------

  ValuePtr make(ValueKind kind, const Location &loc, std::vector<ValuePtr> operands = {}) {
    auto value = std::make_shared<Value>();
    value->kind = kind;
    value->loc = loc;
    value->sequence = ++sequence_;
    value->operands = std::move(operands);
    return value;
  }

  ValuePtr pop(State &state, const Location &loc) {
    if (state.stack.empty())
      untranslatable(loc, code_.name, "this use of the interpreter's stack");
    ValuePtr value = state.stack.back();
    state.stack.pop_back();
    return value;
  }

  ValuePtr take(State &state, const Location &loc) {
    ValuePtr value = pop(state, loc);
    if (value->kind == ValueKind::Null || value->kind == ValueKind::Iterator)
      untranslatable(loc, code_.name, "this use of the interpreter's stack");
    state.used.insert(value->sequence);
    return value;
  }

  std::vector<ValuePtr> takeMany(State &state, int64_t count, const Location &loc) {
    std::vector<ValuePtr> values(size_t(std::max<int64_t>(count, 0)));
    for (size_t i = values.size(); i-- > 0;)
      values[i] = take(state, loc);
    return values;
  }

  const BytecodeConstant &constant(int64_t index, const Location &loc) {
    if (index < 0 || size_t(index) >= constants_.size())
      untranslatable(loc, code_.name, "a constant out of range");
    return constants_[size_t(index)];
  }

  ValuePtr constantValue(const BytecodeConstant &c, const Location &loc) {
    ValuePtr value = make(ValueKind::Constant, loc);
    value->constant = &c;
    return value;
  }

  static bool isNone(const ValuePtr &value) {
    return value->kind == ValueKind::Constant &&
           value->constant->kind == BytecodeConstant::Kind::None;
  }

  // Runs one straight-line instruction; statements go to `out`.
  void execute(const Instruction &in, State &state, Body &out) {
    if (state.stores.empty() && !state.statementLoc.known())
      state.statementLoc = in.loc;
    const Location &loc = in.loc;
    switch (in.op) {
    case Op::Nop:
      return;
    case Op::PopTop: {
      ValuePtr value = pop(state, loc);
      if (value->kind != ValueKind::Null && value->kind != ValueKind::Iterator &&
          !state.used.count(value->sequence)) {
        state.used.insert(value->sequence);
        emit(out, std::make_unique<ExprStmt>(value->loc, toExpr(*value)));
      }
      finishStatement(state, out);
      return;
    }
    case Op::Copy:
      if (in.arg < 1 || size_t(in.arg) > state.stack.size())
        untranslatable(loc, code_.name, "this use of the interpreter's stack");
      state.stack.push_back(state.stack[state.stack.size() - size_t(in.arg)]);
      return;
    case Op::Swap:
      if (in.arg < 1 || size_t(in.arg) > state.stack.size())
        untranslatable(loc, code_.name, "this use of the interpreter's stack");
      std::swap(state.stack.back(), state.stack[state.stack.size() - size_t(in.arg)]);
      return;
    case Op::PushNull:
      state.stack.push_back(make(ValueKind::Null, loc));
      return;
    case Op::LoadConst:
      state.stack.push_back(constantValue(constant(in.arg, loc), loc));
      return;
    case Op::LoadName: {
      if (in.flag)
        state.stack.push_back(make(ValueKind::Null, loc));
      ValuePtr name = make(ValueKind::Name, loc);
      name->name = in.text;
      state.stack.push_back(name);
      return;
    }
    case Op::LoadAttr: {
      ValuePtr attribute = attributeOf(take(state, loc), in.text, loc);
      if (in.flag)
        state.stack.push_back(make(ValueKind::Null, loc));
      state.stack.push_back(attribute);
      return;
    }
    case Op::StoreAttr: {
      ValuePtr target = attributeOf(take(state, loc), in.text, loc);
      store(state, pop(state, loc), target, out);
      return;
    }
    case Op::StoreName: {
      ValuePtr target = make(ValueKind::Name, loc);
      target->name = in.text;
      store(state, pop(state, loc), target, out);
      return;
    }
    case Op::BinarySubscr: {
      auto operands = takeMany(state, 2, loc);
      state.stack.push_back(make(ValueKind::Subscript, loc, operands));
      return;
    }
    case Op::StoreSubscr: {
      auto operands = takeMany(state, 2, loc);
      store(state, pop(state, loc), make(ValueKind::Subscript, loc, operands), out);
      return;
    }
    case Op::BinarySlice:
    case Op::StoreSlice: {
      auto operands = takeMany(state, 3, loc);
      ValuePtr slice = sliceOf(operands[1], operands[2], nullptr, loc);
      ValuePtr subscript = make(ValueKind::Subscript, loc, {operands[0], slice});
      if (in.op == Op::BinarySlice)
        state.stack.push_back(subscript);
      else
        store(state, pop(state, loc), subscript, out);
      return;
    }
    case Op::BuildSlice: {
      auto operands = takeMany(state, in.arg, loc);
      if (operands.size() < 2)
        untranslatable(loc, code_.name, "this slice");
      state.stack.push_back(
          sliceOf(operands[0], operands[1], operands.size() > 2 ? operands[2] : nullptr, loc));
      return;
    }
    case Op::BuildTuple:
    case Op::BuildList:
      state.stack.push_back(make(in.op == Op::BuildTuple ? ValueKind::Tuple : ValueKind::List, loc,
                                 takeMany(state, in.arg, loc)));
      return;
    case Op::ListExtend: {
      ValuePtr elements = take(state, loc);
      ValuePtr list = take(state, loc);
      if (in.arg != 1 || list->kind != ValueKind::List || elements->kind != ValueKind::Constant ||
          elements->constant->kind != BytecodeConstant::Kind::Tuple)
        untranslatable(loc, code_.name, "a starred list display");
      ValuePtr extended = make(ValueKind::List, list->loc, list->operands);
      for (const BytecodeConstant &element : elements->constant->elements)
        extended->operands.push_back(constantValue(element, elements->loc));
      state.stack.push_back(extended);
      return;
    }
    case Op::UnpackSequence: {
      ValuePtr sequence = pop(state, loc);
      if (in.arg < 1)
        untranslatable(loc, code_.name, "unpacking into nothing");
      state.unpacking[sequence->sequence].assign(size_t(in.arg), nullptr);
      for (int64_t k = in.arg; k-- > 0;) {
        ValuePtr element = make(ValueKind::Unpacked, loc, {sequence});
        element->index = unsigned(k);
        state.stack.push_back(element);
      }
      return;
    }
    case Op::BinaryOp: {
      auto operands = takeMany(state, 2, loc);
      ValuePtr value = make(in.flag ? ValueKind::InPlace : ValueKind::BinOp, loc, operands);
      value->binary = in.binary;
      state.stack.push_back(value);
      return;
    }
    case Op::UnaryOp: {
      ValuePtr value = make(ValueKind::Unary, loc, {take(state, loc)});
      value->unary = in.unary;
      state.stack.push_back(value);
      return;
    }
    case Op::Compare: {
      ValuePtr value = make(ValueKind::Compare, loc, takeMany(state, 2, loc));
      value->compares = {in.compare};
      state.stack.push_back(value);
      return;
    }
    case Op::KwNames:
      state.keywordNames = &constant(in.arg, loc);
      return;
    case Op::Call: {
      auto arguments = takeMany(state, in.arg, loc);
      ValuePtr callee = take(state, loc);
      if (pop(state, loc)->kind != ValueKind::Null)
        untranslatable(loc, code_.name, "this call");
      ValuePtr call = make(ValueKind::Call, callee->loc, {callee});
      call->loc = loc;
      call->operands.insert(call->operands.end(), arguments.begin(), arguments.end());
      if (state.keywordNames) {
        if (state.keywordNames->elements.size() > arguments.size())
          untranslatable(loc, code_.name, "this call");
        for (const BytecodeConstant &keyword : state.keywordNames->elements)
          call->keywords.push_back(keyword.text);
        state.keywordNames = nullptr;
      }
      state.stack.push_back(call);
      return;
    }
    case Op::GetIter:
      state.stack.push_back(make(ValueKind::Iterator, loc, {take(state, loc)}));
      return;
    default:
      untranslatable(loc, code_.name, "this control flow");
    }
  }

  ValuePtr attributeOf(ValuePtr owner, const std::string &name, const Location &loc) {
    ValuePtr attribute = make(ValueKind::Attribute, loc, {std::move(owner)});
    attribute->name = name;
    return attribute;
  }

  ValuePtr sliceOf(ValuePtr lower, ValuePtr upper, ValuePtr step, const Location &loc) {
    auto part = [](ValuePtr value) { return value && isNone(value) ? nullptr : value; };
    return make(ValueKind::Slice, loc, {part(lower), part(upper), part(step)});
  }

  // The AST of `value`, which must compute each value once: one CPython COPYed that no
  // pattern here took apart would run twice.
  ExprPtr toExpr(const Value &value) {
    std::set<const Value *> seen;
    evaluatedOnce(value, seen);
    return bytecode::toExpr(value, code_.name);
  }

  void evaluatedOnce(const Value &value, std::set<const Value *> &seen) {
    if (value.kind != ValueKind::Name && value.kind != ValueKind::Constant &&
        !seen.insert(&value).second)
      untranslatable(value.loc, code_.name, "a value computed once and used twice");
    for (const ValuePtr &operand : value.operands)
      if (operand)
        evaluatedOnce(*operand, seen);
  }

  void emit(Body &out, StmtPtr statement) {
    if (expressionOnly_)
      throw NotAnExpression{};
    out.push_back(std::move(statement));
  }

  // A store of `value` into `target`; unpacked elements wait for their whole sequence.
  void store(State &state, ValuePtr value, ValuePtr target, Body &out) {
    if (value->kind == ValueKind::Null || value->kind == ValueKind::Iterator)
      untranslatable(target->loc, code_.name, "this assignment");
    if (value->kind == ValueKind::Unpacked) {
      ValuePtr sequence = value->operands[0];
      auto &targets = state.unpacking[sequence->sequence];
      targets.at(value->index) = target;
      if (std::all_of(targets.begin(), targets.end(), [](const ValuePtr &t) { return !!t; })) {
        ValuePtr tuple = make(ValueKind::Tuple, targets.front()->loc, targets);
        state.unpacking.erase(sequence->sequence);
        store(state, sequence, tuple, out);
      }
      return;
    }
    state.used.insert(value->sequence);
    state.stores.emplace_back(target, value);
    finishStatement(state, out);
  }

  // Emits the statement in hand once the stack holds none of its values.
  void finishStatement(State &state, Body &out) {
    for (const ValuePtr &value : state.stack)
      if (value->sequence > state.statementStart)
        return;
    if (!state.unpacking.empty())
      return;
    if (!state.stores.empty())
      emitStores(state, out);
    state.statementStart = sequence_;
    state.statementLoc = Location{};
  }

  void emitStores(State &state, Body &out) {
    auto stores = std::move(state.stores);
    state.stores.clear();
    Location loc = state.statementLoc.known() ? state.statementLoc : stores.front().first->loc;
    // Values left on the stack were computed before this statement: it must not change
    // what they read, nor run after a call they make.
    for (const ValuePtr &left : state.stack) {
      if (left->kind == ValueKind::Iterator || left->kind == ValueKind::Null)
        continue;
      for (const auto &[target, value] : stores)
        if (bytecode::calls(*left) || bytecode::reads(*left, rootName(*target)))
          untranslatable(loc, code_.name, "this order of evaluation");
    }
    if (stores.size() == 1) {
      auto &[target, value] = stores.front();
      if (value->kind == ValueKind::InPlace && augmentedTarget(*target, *value->operands[0])) {
        emit(out, std::make_unique<AugAssignStmt>(loc, toExpr(*target), value->binary,
                                                  toExpr(*value->operands[1])));
        return;
      }
    }
    bool oneValue = std::all_of(stores.begin(), stores.end(),
                                [&](const auto &s) { return s.second == stores.front().second; });
    std::vector<ExprPtr> targets;
    if (oneValue) {
      for (const auto &s : stores)
        targets.push_back(toExpr(*s.first));
      emit(out,
           std::make_unique<AssignStmt>(loc, std::move(targets), toExpr(*stores.front().second)));
      return;
    }
    // `a, b = b, a` without a tuple: the values are all computed before the first store.
    // CPython stores distinct names in any order (it drops the SWAPs); in the order the
    // values were computed they read as written.
    std::set<std::string> names;
    for (const auto &s : stores)
      if (s.first->kind == ValueKind::Name)
        names.insert(s.first->name);
    if (names.size() == stores.size())
      std::stable_sort(stores.begin(), stores.end(), [](const auto &a, const auto &b) {
        return a.second->sequence < b.second->sequence;
      });
    std::vector<ExprPtr> values;
    uint64_t lastCall = 0;
    for (const auto &[target, value] : stores) {
      if (bytecode::calls(*value)) {
        if (value->sequence < lastCall)
          untranslatable(loc, code_.name, "this order of evaluation");
        lastCall = value->sequence;
      }
      targets.push_back(toExpr(*target));
      values.push_back(toExpr(*value));
    }
    std::vector<ExprPtr> target;
    target.push_back(std::make_unique<TupleExpr>(loc, std::move(targets)));
    emit(out, std::make_unique<AssignStmt>(loc, std::move(target),
                                           std::make_unique<TupleExpr>(loc, std::move(values))));
  }

  // The variable an assignment target changes: `x` of `x`, `x[i]`, `x[i][j]` and `x[i].r`.
  static const std::string &rootName(const Value &target) {
    return target.kind == ValueKind::Name || target.operands.empty()
               ? target.name
               : rootName(*target.operands[0]);
  }

  // Whether `x += v` stores back into what it read: the same name, the same container and
  // index, or the same owner's attribute (CPython computes them once and COPYs them).
  static bool augmentedTarget(const Value &target, const Value &read) {
    if (target.kind != read.kind)
      return false;
    if (target.kind == ValueKind::Name)
      return read.name == target.name;
    if (target.kind == ValueKind::Attribute)
      return read.name == target.name && read.operands[0] == target.operands[0];
    return target.kind == ValueKind::Subscript && read.operands[0] == target.operands[0] &&
           read.operands[1] == target.operands[1];
  }

  // ---- control flow ----------------------------------------------------------------

  // Emits the code from `block` until control reaches `stop`; returns the state there, or
  // nothing when every path ended (return, break, continue).
  std::optional<State> emitRegion(int block, State state, int stop, const LoopContext *loop,
                                  Body &out, bool enteringLoop = false) {
    state.statementStart = sequence_;
    for (;;) {
      if (block < 0)
        untranslatable(Location{file_, lastLine_, 1}, code_.name, "code that runs past its end");
      if (block == stop)
        return state;
      Location here = instructions_[blocks_[block].begin].loc;
      if (loop && !enteringLoop) {
        if (loop->continues(block)) {
          emitJump<ContinueStmt>(state, out, here);
          return std::nullopt;
        }
        if (block == loop->exit) {
          if (state.stack.size() != loop->exitDepth)
            untranslatable(here, code_.name, "this 'break'");
          emitJump<BreakStmt>(state, out, here);
          return std::nullopt;
        }
        if (block < loop->header || block > loop->last)
          untranslatable(here, code_.name, "a loop's 'else' or a jump out of a loop");
      }
      if (latch_[block] >= 0 && !enteringLoop) {
        if (expressionOnly_)
          throw NotAnExpression{};
        std::optional<Edge> after = emitLoop(block, std::move(state), out);
        if (!after)
          return std::nullopt;
        block = after->block;
        state = std::move(after->state);
        continue;
      }
      enteringLoop = false;
      const Block &range = blocks_[block];
      for (int i = range.begin; i < range.end - 1; ++i)
        execute(instructions_[i], state, out);
      const Instruction &in = last(block);
      if (!endsBlock(in.op)) {
        execute(in, state, out);
        block = blockAfter(block);
        continue;
      }
      switch (in.op) {
      case Op::Jump: {
        int target = blockOf_[in.target];
        if (target <= block && !(loop && loop->continues(target)))
          untranslatable(in.loc, code_.name, "this loop");
        block = target;
        continue;
      }
      case Op::Return: {
        ValuePtr value = take(state, in.loc);
        if (!state.stores.empty())
          untranslatable(in.loc, code_.name, "this 'return'");
        emit(out, std::make_unique<ReturnStmt>(in.loc, isNone(value) ? nullptr : toExpr(*value)));
        return std::nullopt;
      }
      case Op::ForIter:
        untranslatable(in.loc, code_.name, "this loop");
      default: {
        if (expressionOnly_ && blockOf_[in.target] == blockAfter(block)) {
          // A test both of whose outcomes go on alike: CPython decided the condition (`x if
          // (v or 1) else y`) and kept `v` only for its evaluation, which without a call
          // has no effect to keep in the expression.
          if (bytecode::calls(*take(state, in.loc)))
            untranslatable(in.loc, code_.name, "a call in a condition CPython decided");
          block = blockAfter(block);
          continue;
        }
        std::optional<Edge> after = emitConditional(block, std::move(state), stop, loop, out);
        if (!after)
          return std::nullopt;
        block = after->block;
        state = std::move(after->state);
      }
      }
    }
  }

  template <class Jump> void emitJump(State &state, Body &out, const Location &loc) {
    if (!state.stores.empty())
      untranslatable(loc, code_.name, "this jump");
    emit(out, std::make_unique<Jump>(loc));
  }

  // The condition a conditional jump ends `block` with, and where each outcome goes.
  struct Condition {
    ValuePtr value;
    Edge onTrue, onFalse;
    std::set<int> blocks; // the blocks that compute it
  };

  Condition branch(int block, State state) {
    const Instruction &in = last(block);
    ValuePtr tested = take(state, in.loc);
    ValuePtr value = tested;
    if (in.op == Op::JumpIfNone || in.op == Op::JumpIfNotNone) {
      value = make(ValueKind::Compare, in.loc, {tested, constantValue(none_, in.loc)});
      value->compares = {in.op == Op::JumpIfNone ? CompareOperator::Is : CompareOperator::IsNot};
    }
    Edge jump{blockOf_[in.target], state, blockOf_[in.target]};
    Edge fall{blockAfter(block), std::move(state), blockAfter(block)};
    bool jumpsWhenTrue = in.op != Op::JumpIfFalse;
    Condition condition{value, jumpsWhenTrue ? jump : fall, jumpsWhenTrue ? fall : jump, {block}};
    return condition;
  }

  // Follows blocks that only drop used values and go on (the cleanup of a comparison
  // chain, a loop's iterator before `break`).
  void followTrampolines(Edge &edge, std::set<int> &passed, int stop, const LoopContext *loop) {
    while (edge.block >= 0 && edge.block != stop && latch_[edge.block] < 0 &&
           !(loop && (edge.block == loop->exit || loop->continues(edge.block)))) {
      const Block &range = blocks_[edge.block];
      State state = edge.state;
      bool pure = true;
      for (int i = range.begin; i < range.end && pure; ++i) {
        const Instruction &in = instructions_[i];
        if (in.op == Op::Nop)
          continue;
        if (in.op == Op::PopTop && !state.stack.empty() &&
            (state.used.count(state.stack.back()->sequence) ||
             state.stack.back()->kind == ValueKind::Iterator)) {
          state.stack.pop_back();
          continue;
        }
        pure = in.op == Op::Jump && i == range.end - 1 && blockOf_[in.target] > edge.block;
      }
      if (!pure)
        return;
      passed.insert(edge.block);
      const Instruction &end = last(edge.block);
      edge.block = end.op == Op::Jump ? blockOf_[end.target] : blockAfter(edge.block);
      edge.state = std::move(state);
    }
  }

  ValuePtr negate(const ValuePtr &value) {
    if (value->kind == ValueKind::Unary && value->unary == UnaryOperator::Not)
      return value->operands[0];
    ValuePtr result = make(ValueKind::Unary, value->loc, {value});
    result->unary = UnaryOperator::Not;
    return result;
  }

  ValuePtr boolOp(BoolOpExpr::Op op, ValuePtr a, ValuePtr b) {
    ValuePtr result = make(ValueKind::BoolOp, a->loc);
    result->boolOp = op;
    for (ValuePtr part : {a, b}) {
      if (part->kind == ValueKind::BoolOp && part->boolOp == op)
        result->operands.insert(result->operands.end(), part->operands.begin(),
                                part->operands.end());
      else
        result->operands.push_back(part);
    }
    return bytecode::joinComparisonChains(result);
  }

  // Joins the conditional blocks that follow `condition` and only test more (`a and b`,
  // `a or not b`, `a if b else c`, comparison chains) into it.
  void joinConditions(Condition &c, int stop, const LoopContext *loop) {
    for (bool joined = true; joined;) {
      followTrampolines(c.onTrue, c.blocks, stop, loop);
      followTrampolines(c.onFalse, c.blocks, stop, loop);
      joined = joinBoolOp(c, stop, loop) || joinConditionalExpression(c, stop, loop);
    }
  }

  // Whether two outcomes go on the same way: to one place (the copies CPython makes of a
  // function's `return None` are one place) with the same stack.
  bool sameOutcome(const Edge &a, const Edge &b) const {
    return (a.block == b.block || (returnsNone(a.block) && returnsNone(b.block))) &&
           sameStack(a.state, b.state);
  }

  // `c and more` or `c or more`, where `more` tests after one outcome of `c`.
  std::optional<Condition> boolOpOf(const Condition &c, const Condition &more, bool onTrueSide) {
    const Edge &other = onTrueSide ? c.onFalse : c.onTrue;
    BoolOpExpr::Op op = onTrueSide ? BoolOpExpr::Op::And : BoolOpExpr::Op::Or;
    std::optional<Condition> result;
    if (sameOutcome(more.onFalse, other) && onTrueSide)
      result = Condition{boolOp(op, c.value, more.value), more.onTrue, other, {}};
    if (sameOutcome(more.onTrue, other) && !onTrueSide)
      result = Condition{boolOp(op, c.value, more.value), other, more.onFalse, {}};
    if (!result && sameOutcome(more.onTrue, other) && onTrueSide)
      result = Condition{boolOp(op, c.value, negate(more.value)), more.onFalse, other, {}};
    if (!result && sameOutcome(more.onFalse, other) && !onTrueSide)
      result = Condition{boolOp(op, c.value, negate(more.value)), other, more.onTrue, {}};
    if (result) {
      result->blocks = c.blocks;
      result->blocks.insert(more.blocks.begin(), more.blocks.end());
    }
    return result;
  }

  bool joinBoolOp(Condition &c, int stop, const LoopContext *loop) {
    for (bool onTrueSide : {true, false}) {
      std::optional<Condition> more =
          testOnly(onTrueSide ? c.onTrue : c.onFalse, c.blocks, stop, loop);
      if (!more)
        continue;
      followTrampolines(more->onTrue, more->blocks, stop, loop);
      followTrampolines(more->onFalse, more->blocks, stop, loop);
      std::optional<Condition> result = boolOpOf(c, *more, onTrueSide);
      // `a and (b or c)`: `more` is itself a larger condition, which only then ends
      // where `c` goes. Joined only after the flat form failed, so that the recursion is
      // as deep as the parentheses, not as long as an `a and b and c ...` chain.
      if (!result) {
        joinConditions(*more, stop, loop);
        result = boolOpOf(c, *more, onTrueSide);
      }
      if (result) {
        c = std::move(*result);
        return true;
      }
    }
    return false;
  }

  // `a if c else b` as a condition: each outcome of `c` goes on to a test of its own (each
  // possibly a larger condition), and both tests end in the same two places.
  bool joinConditionalExpression(Condition &c, int stop, const LoopContext *loop) {
    std::optional<Condition> body = testOnly(c.onTrue, c.blocks, stop, loop);
    std::optional<Condition> orelse = testOnly(c.onFalse, c.blocks, stop, loop);
    if (!body || !orelse)
      return false;
    joinConditions(*body, stop, loop);
    joinConditions(*orelse, stop, loop);
    bool straight =
        sameOutcome(body->onTrue, orelse->onTrue) && sameOutcome(body->onFalse, orelse->onFalse);
    if (!straight &&
        !(sameOutcome(body->onTrue, orelse->onFalse) && sameOutcome(body->onFalse, orelse->onTrue)))
      return false;
    // The branch of `c` laid out first is the one taken when it is true. Where the two
    // tests agree, neither is negated (CPython negates none without a `not`); where they
    // disagree one was written `not`: the one whose true outcome is not laid out first,
    // as in an `if` (the `then` branch, a `while` loop's body) and CPython's conditional
    // expressions.
    ValuePtr test = c.value;
    if (c.onTrue.layout > c.onFalse.layout) {
      test = negate(test);
      std::swap(body, orelse);
    }
    bool orelseTrue = straight || orelse->onTrue.layout <= orelse->onFalse.layout;
    bool bodyTrue = orelseTrue == straight;
    ValuePtr ifTrue = bodyTrue ? body->value : negate(body->value);
    Condition result{make(ValueKind::IfExp, ifTrue->loc,
                          {test, ifTrue, orelseTrue ? orelse->value : negate(orelse->value)}),
                     orelseTrue ? orelse->onTrue : orelse->onFalse,
                     orelseTrue ? orelse->onFalse : orelse->onTrue, c.blocks};
    const Edge &bodyOnTrue = bodyTrue ? body->onTrue : body->onFalse;
    const Edge &bodyOnFalse = bodyTrue ? body->onFalse : body->onTrue;
    result.onTrue.state.used.insert(bodyOnTrue.state.used.begin(), bodyOnTrue.state.used.end());
    result.onFalse.state.used.insert(bodyOnFalse.state.used.begin(), bodyOnFalse.state.used.end());
    for (const Condition *branch : {&*body, &*orelse})
      result.blocks.insert(branch->blocks.begin(), branch->blocks.end());
    c = std::move(result);
    return true;
  }

  // The state after `block`'s instructions before its last, when they only compute values.
  std::optional<State> tested(int block, State state) {
    try {
      ExpressionOnly only(expressionOnly_);
      Body none;
      for (int i = blocks_[block].begin; i < blocks_[block].end - 1; ++i)
        execute(instructions_[i], state, none);
    } catch (const NotAnExpression &) {
      return std::nullopt;
    }
    if (!state.stores.empty())
      return std::nullopt;
    return state;
  }

  // The condition `edge`'s block tests, when that block only tests (computes a value from
  // the stack it is given and jumps on it) and only the condition's blocks lead to it.
  std::optional<Condition> testOnly(const Edge &edge, const std::set<int> &blocks, int stop,
                                    const LoopContext *loop) {
    int block = edge.block;
    if (block < 0 || block == stop || latch_[block] >= 0 || !isConditional(last(block).op) ||
        (loop && (block == loop->exit || loop->continues(block))))
      return std::nullopt;
    for (int predecessor : predecessors_[block])
      if (!blocks.count(predecessor))
        return std::nullopt;
    std::optional<State> state = tested(block, edge.state);
    if (!state)
      return std::nullopt;
    Condition condition = branch(block, std::move(*state));
    condition.onTrue.layout = condition.onTrue.block;
    condition.onFalse.layout = condition.onFalse.block;
    return condition;
  }

  // Blocks reachable from `from` without leaving the region: loops' back edges, `stop` and
  // the loop's header and exit end a path (and are in the set).
  std::set<int> reach(int from, int stop, const LoopContext *loop) {
    std::set<int> seen;
    std::vector<int> work{from};
    while (!work.empty()) {
      int block = work.back();
      work.pop_back();
      if (block < 0 || !seen.insert(block).second)
        continue;
      if (isSink(block, stop, loop))
        continue;
      for (int successor : successors(block))
        if (successor > block)
          work.push_back(successor);
    }
    return seen;
  }

  bool isSink(int block, int stop, const LoopContext *loop) const {
    return block == stop || (loop && loop->ends(block));
  }

  // Where an `if`'s branches meet again: the first block both reach; else, when the `then`
  // branch always leaves (return, break, continue) before the `else` branch begins, the
  // `else` branch's start (an `if` without `else`, also where that is the end of the region:
  // `if a: (if b: break)`); else -1 (both end).
  int mergePoint(const Edge &then, const Edge &otherwise, int stop, const LoopContext *loop) {
    std::set<int> a = reach(then.block, stop, loop), b = reach(otherwise.block, stop, loop);
    int found = -1;
    bool reachesStop = false;
    for (int block : a)
      if (b.count(block)) {
        if (block == stop)
          reachesStop = true;
        else if (!isSink(block, stop, loop) && !shufflesOnly(block) && (found < 0 || block < found))
          found = block;
      }
    if (found >= 0)
      return found;
    if (reachesStop || otherwise.block == stop)
      return stop;
    if (isSink(otherwise.block, stop, loop))
      return -1;
    for (int block : a)
      if (!isSink(block, stop, loop) && (block >= otherwise.block || implicitReturn(block)))
        return -1;
    return otherwise.block;
  }

  // Whether `block` only rearranges the stack and goes on: the cleanup that comparison
  // chains share, which is no place for branches to meet (the block after it is).
  bool shufflesOnly(int block) const {
    const Block &range = blocks_[block];
    for (int i = range.begin; i < range.end; ++i) {
      Op op = instructions_[i].op;
      bool forwardJump = op == Op::Jump && i == range.end - 1 && instructions_[i].target > i;
      if (op != Op::Nop && op != Op::PopTop && op != Op::Swap && op != Op::Copy && !forwardJump)
        return false;
    }
    return true;
  }

  // Whether `block` ends with the `return None` CPython adds at the end of a function
  // (copied into each branch that reaches the end): it has the position of the
  // instruction before it, where a `return` the user wrote has its own.
  bool implicitReturn(int block) const {
    const Block &range = blocks_[block];
    if (range.end - range.begin < 2 || last(block).op != Op::Return)
      return false;
    const Instruction &value = instructions_[range.end - 2];
    if (value.op != Op::LoadConst || value.arg < 0 || size_t(value.arg) >= constants_.size() ||
        constants_[size_t(value.arg)].kind != BytecodeConstant::Kind::None)
      return false;
    int before = range.end - 3;
    while (before >= 0 && instructions_[before].op == Op::Nop)
      --before;
    if (before < 0)
      return true;
    const Location &previous = instructions_[before].loc, &returned = last(block).loc;
    return previous.line == returned.line && (before < range.begin || previous.col == returned.col);
  }

  // Whether `block` only returns None: the copies CPython makes of a function's end are
  // one place.
  bool returnsNone(int block) const {
    if (block < 0)
      return false;
    const Block &range = blocks_[block];
    int i = range.begin;
    while (i < range.end && instructions_[i].op == Op::Nop)
      ++i;
    return range.end - i == 2 && instructions_[i].op == Op::LoadConst &&
           constants_[size_t(instructions_[i].arg)].kind == BytecodeConstant::Kind::None &&
           instructions_[i + 1].op == Op::Return;
  }

  // A conditional jump at the end of `block` (its other instructions already ran).
  std::optional<Edge> emitConditional(int block, State state, int stop, const LoopContext *loop,
                                      Body &out) {
    if (!state.stores.empty())
      untranslatable(last(block).loc, code_.name, "this conditional assignment");
    Condition c = branch(block, std::move(state));
    joinConditions(c, stop, loop);
    const Location &loc = c.value->loc;

    int merge = mergePoint(c.onTrue, c.onFalse, stop, loop);
    if (std::optional<Edge> value = valueMerge(c, merge, loop))
      return value;
    if (expressionOnly_)
      throw NotAnExpression{};

    bool thenIsTrue = c.onTrue.layout <= c.onFalse.layout;
    Edge &then = thenIsTrue ? c.onTrue : c.onFalse;
    Edge &otherwise = thenIsTrue ? c.onFalse : c.onTrue;
    merge = mergePoint(then, otherwise, stop, loop);
    auto statement = std::make_unique<IfStmt>(loc);
    statement->test = toExpr(*(thenIsTrue ? c.value : negate(c.value)));
    std::optional<State> fromThen =
        emitRegion(then.block, std::move(then.state), merge, loop, statement->body);
    std::optional<State> fromElse =
        emitRegion(otherwise.block, std::move(otherwise.state), merge, loop, statement->orelse);
    if (statement->body.empty())
      statement->body.push_back(std::make_unique<PassStmt>(loc));
    out.push_back(whileLoop(std::move(statement)));
    if (fromThen && fromElse && !sameStack(*fromThen, *fromElse))
      untranslatable(loc, code_.name, "this conditional value");
    if (!fromThen && !fromElse)
      return std::nullopt;
    State after = fromThen ? std::move(*fromThen) : std::move(*fromElse);
    if (fromThen && fromElse)
      after.used.insert(fromElse->used.begin(), fromElse->used.end());
    return Edge{merge, std::move(after), merge};
  }

  // `b if c else d`, and `a and b` / `a or b` as values: both branches only compute one
  // value and meet again.
  std::optional<Edge> valueMerge(const Condition &c, int merge, const LoopContext *loop) {
    if (merge < 0)
      return std::nullopt;
    std::optional<State> whenTrue, whenFalse;
    uint64_t sequence = sequence_;
    try {
      ExpressionOnly only(expressionOnly_);
      Body none;
      whenTrue = emitRegion(c.onTrue.block, c.onTrue.state, merge, loop, none);
      whenFalse = emitRegion(c.onFalse.block, c.onFalse.state, merge, loop, none);
    } catch (const NotAnExpression &) {
      whenTrue.reset();
    }
    if (!whenTrue || !whenFalse || whenTrue->stack.empty() ||
        whenTrue->stack.size() != whenFalse->stack.size() ||
        !std::equal(whenTrue->stack.begin(), whenTrue->stack.end() - 1, whenFalse->stack.begin()) ||
        whenTrue->stack.back() == whenFalse->stack.back() ||
        whenTrue->stack.size() > c.onTrue.state.stack.size() + 1) {
      sequence_ = std::max(sequence_, sequence);
      return std::nullopt;
    }
    ValuePtr ifTrue = whenTrue->stack.back(), ifFalse = whenFalse->stack.back();
    // The value of `a and b` when `a` is false is `a` itself (COPYed), that of `a or b` when
    // `a` is true too; `a and b or c` tests `a and b` and is `b` when that is true.
    auto lastOperand = [](const ValuePtr &value, BoolOpExpr::Op op) {
      return value->kind == ValueKind::BoolOp && value->boolOp == op ? value->operands.back()
                                                                     : value;
    };
    ValuePtr value;
    if (ifFalse == c.value || ifFalse == lastOperand(c.value, BoolOpExpr::Op::Or))
      value = boolOp(BoolOpExpr::Op::And, c.value, ifTrue);
    else if (ifTrue == c.value || ifTrue == lastOperand(c.value, BoolOpExpr::Op::And))
      value = boolOp(BoolOpExpr::Op::Or, c.value, ifFalse);
    else
      value = make(ValueKind::IfExp, ifTrue->loc, {c.value, ifTrue, ifFalse});
    State after = std::move(*whenTrue);
    after.used.insert(whenFalse->used.begin(), whenFalse->used.end());
    after.stack.back() = value;
    after.statementStart = c.onTrue.state.statementStart;
    return Edge{merge, std::move(after), merge};
  }

  // `if c: while True: ... (if c: continue else: break)` is `while c: ...`.
  StmtPtr whileLoop(std::unique_ptr<IfStmt> statement) {
    if (statement->body.size() != 1 || !statement->orelse.empty())
      return statement;
    auto *loop = statement->body.front()->as<WhileStmt>();
    auto test = loop ? bottomTests_.find(loop) : bottomTests_.end();
    if (test == bottomTests_.end() || test->second != unparse(*statement->test))
      return statement;
    bottomTests_.erase(test);
    loop->body.pop_back();
    loop->test = std::move(statement->test);
    loop->loc = statement->loc;
    if (loop->body.empty())
      loop->body.push_back(std::make_unique<PassStmt>(loop->loc));
    return std::move(statement->body.front());
  }

  std::optional<Edge> emitLoop(int header, State state, Body &out) {
    const Instruction &first = instructions_[blocks_[header].begin];
    LoopContext context;
    context.header = header;
    context.last = latch_[header];
    if (first.op == Op::ForIter) {
      if (state.stack.empty() || state.stack.back()->kind != ValueKind::Iterator)
        untranslatable(first.loc, code_.name, "this loop");
      ValuePtr iterator = state.stack.back();
      context.exit = blockOf_[first.target];
      context.exitDepth = state.stack.size() - 1;
      // CPython 3.12 puts a `return` inside the loop after the jump back: the loop is all
      // blocks up to its exit.
      context.last = std::max(context.last, context.exit - 1);
      State body = state;
      body.stack.push_back(make(ValueKind::LoopValue, first.loc));
      auto loop = std::make_unique<ForStmt>(first.loc);
      if (emitRegion(blockAfter(header), std::move(body), -1, &context, loop->body))
        untranslatable(first.loc, code_.name, "this loop");
      auto *assign = loop->body.empty() ? nullptr : loop->body.front()->as<AssignStmt>();
      auto *value = assign ? assign->value->as<NameExpr>() : nullptr;
      if (!value || value->id != kLoopValueName || assign->targets.size() != 1)
        untranslatable(first.loc, code_.name, "this loop's target");
      loop->target = std::move(assign->targets.front());
      loop->iter = toExpr(*iterator->operands[0]);
      loop->body.erase(loop->body.begin());
      stripTrailing(loop->body, StmtKind::Continue);
      if (loop->body.empty())
        loop->body.push_back(std::make_unique<PassStmt>(first.loc));
      out.push_back(std::move(loop));
      state.stack.pop_back();
      state.used.insert(iterator->sequence);
      return Edge{context.exit, std::move(state), context.exit};
    }
    context.exitDepth = state.stack.size();
    auto loop = std::make_unique<WhileStmt>(first.loc);
    loop->test = std::make_unique<BoolLiteralExpr>(first.loc, true);
    if (std::optional<Condition> test = preTest(header, state)) {
      // `while c:` with a `continue`: that jumps back to the test before the loop (this
      // header); the body starts after it and ends with the same test.
      int body = test->onTrue.block;
      context.header = body;
      context.preTest = header;
      context.exit = test->onFalse.block;
      context.last = context.exit - 1;
      if (emitRegion(body, std::move(test->onTrue.state), -1, &context, loop->body,
                     /*enteringLoop=*/true) ||
          bottomTest(loop->body) != unparsed(*test->value))
        untranslatable(first.loc, code_.name, "this loop");
      loop->body.pop_back();
      loop->test = toExpr(*test->value);
    } else {
      context.exit = exitAfter(context.last);
      if (context.exit >= 0)
        context.last = context.exit - 1;
      if (emitRegion(header, state, -1, &context, loop->body, /*enteringLoop=*/true))
        untranslatable(first.loc, code_.name, "this loop");
    }
    // The test at the bottom, `if c: continue else: break`, becomes `if not c: break`; an
    // enclosing `if c:` with the same test makes it `while c:` (whileLoop).
    std::optional<std::string> bottom = bottomTest(loop->body);
    if (bottom) {
      auto *test = loop->body.back()->as<IfStmt>();
      Location at = test->loc;
      auto negated = std::make_unique<IfStmt>(at);
      negated->test = notOf(std::move(test->test));
      negated->body.push_back(std::make_unique<BreakStmt>(at));
      loop->body.back() = std::move(negated);
    }
    stripTrailing(loop->body, StmtKind::Continue);
    if (loop->body.empty())
      loop->body.push_back(std::make_unique<PassStmt>(first.loc));
    if (bottom)
      bottomTests_[loop.get()] = *bottom;
    out.push_back(std::move(loop));
    if (context.exit < 0)
      return std::nullopt;
    return Edge{context.exit, std::move(state), context.exit};
  }

  // Where a `while` loop whose last block is `latch` goes on: the next block, or past the
  // blocks right after it that only clean up the stack (a comparison chain's) and go on to
  // the block after them.
  int exitAfter(int latch) const {
    int end = blockAfter(latch);
    while (end >= 0 && shufflesOnly(end))
      end = blockAfter(end);
    for (int block = blockAfter(latch); block >= 0 && block != end; block = blockAfter(block))
      if (last(block).op == Op::Jump && blockOf_[last(block).target] != end)
        return blockAfter(latch);
    return end;
  }

  // `not test`; `c` of `not c` (a test, where only its truth counts).
  static ExprPtr notOf(ExprPtr test) {
    auto *inverted = test->as<UnaryOpExpr>();
    if (inverted && inverted->op == UnaryOperator::Not)
      return std::move(inverted->operand);
    Location at = test->loc;
    return std::make_unique<UnaryOpExpr>(at, UnaryOperator::Not, std::move(test));
  }

  // The test of the `if c: continue else: break` that ends a loop body, as text.
  static std::optional<std::string> bottomTest(const Body &body) {
    auto *test = body.empty() ? nullptr : body.back()->as<IfStmt>();
    if (test && test->body.size() == 1 && test->body.front()->kind == StmtKind::Continue &&
        test->orelse.size() == 1 && test->orelse.front()->kind == StmtKind::Break)
      return unparse(*test->test);
    return std::nullopt;
  }

  // The condition `header` tests when it is the test before a `while` loop's body (the
  // next block, itself jumped back to from the end of the body) and leaves the loop when
  // false.
  std::optional<Condition> preTest(int header, const State &state) {
    if (!isConditional(last(header).op))
      return std::nullopt;
    std::optional<State> before = tested(header, state);
    if (!before)
      return std::nullopt;
    Condition test = branch(header, std::move(*before));
    joinConditions(test, -1, nullptr);
    int body = test.onTrue.block;
    if (body <= header || latch_[body] < latch_[header] ||
        test.onFalse.block != exitAfter(latch_[body]))
      return std::nullopt;
    return test;
  }

  std::string unparsed(const Value &value) { return bytecode::unparsed(value, code_.name); }

  // Drops the `return` (without a value) or `continue` that ends `body`, also at the ends
  // of a final `if`'s branches: CPython writes them out where the source has none.
  static void stripTrailing(Body &body, StmtKind kind) {
    while (!body.empty()) {
      Stmt &last = *body.back();
      if (last.kind == kind && !(kind == StmtKind::Return && last.as<ReturnStmt>()->value)) {
        body.pop_back();
        continue;
      }
      if (auto *test = last.as<IfStmt>()) {
        stripTrailing(test->body, kind);
        stripTrailing(test->orelse, kind);
        if (test->body.empty())
          test->body.push_back(std::make_unique<PassStmt>(test->loc));
      }
      return;
    }
  }

  const CodeObject &code_;
  std::vector<BytecodeConstant> constants_; // co_consts, complex ones with their parts
  std::shared_ptr<const std::string> file_;
  std::vector<Instruction> instructions_;
  std::set<int> synthetic_;
  std::vector<Block> blocks_;
  std::vector<int> blockOf_;
  std::vector<std::set<int>> predecessors_;
  std::vector<int> latch_; // per block: the last block that jumps back to it, or -1
  std::map<const WhileStmt *, std::string> bottomTests_;
  BytecodeConstant none_;
  uint64_t sequence_ = 0;
  unsigned lastLine_ = 0;
  bool expressionOnly_ = false;
};

} // namespace

std::shared_ptr<Module> translateBytecode(const CodeObject &code) {
  return Translator(code).translate();
}

} // namespace kaji::frontend
