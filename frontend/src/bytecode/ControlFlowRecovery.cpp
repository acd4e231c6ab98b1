#include "ControlFlowRecovery.h"

#include "SymbolicStack.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kaji::frontend::bytecode {
namespace {

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

struct Edge {
  int block = -1;
  State state;
  int layout = -1; // the block the jump itself names, before trampolines: its order
};

class ControlFlowRecovery {
public:
  ControlFlowRecovery(const ControlFlowGraph &graph, const std::string &function)
      : graph_(graph), function_(function), stack_(graph.constants, function) {}

  Body functionBody(const Location &start) {
    Body body;
    State state;
    if (emitRegion(0, state, -1, nullptr, body))
      untranslatable(start, function_, "code that runs past its end");
    stripTrailing(body, StmtKind::Return);
    return body;
  }

private:
  // Emits the code from `block` until control reaches `stop`; returns the state there, or
  // nothing when every path ended (return, break, continue).
  std::optional<State> emitRegion(int block, State state, int stop, const LoopContext *loop,
                                  Body &out, bool enteringLoop = false) {
    state.statementStart = stack_.newestSequence();
    for (;;) {
      if (block < 0)
        untranslatable(graph_.pastEnd, function_, "code that runs past its end");
      if (block == stop)
        return state;
      Location here = graph_.instructions[graph_.blocks[block].begin].loc;
      if (loop && !enteringLoop) {
        if (loop->continues(block)) {
          emitJump<ContinueStmt>(state, out, here);
          return std::nullopt;
        }
        if (block == loop->exit) {
          if (state.stack.size() != loop->exitDepth)
            untranslatable(here, function_, "this 'break'");
          emitJump<BreakStmt>(state, out, here);
          return std::nullopt;
        }
        if (block < loop->header || block > loop->last)
          untranslatable(here, function_, "a loop's 'else' or a jump out of a loop");
      }
      if (graph_.latch[block] >= 0 && !enteringLoop) {
        if (stack_.expressionOnly())
          throw NotAnExpression{};
        std::optional<Edge> after = emitLoop(block, std::move(state), out);
        if (!after)
          return std::nullopt;
        block = after->block;
        state = std::move(after->state);
        continue;
      }
      enteringLoop = false;
      const Block &range = graph_.blocks[block];
      for (int i = range.begin; i < range.end - 1; ++i)
        stack_.execute(graph_.instructions[i], state, out);
      const Instruction &in = graph_.last(block);
      if (!endsBlock(in.op)) {
        stack_.execute(in, state, out);
        block = graph_.blockAfter(block);
        continue;
      }
      switch (in.op) {
      case Op::Jump: {
        int target = graph_.blockOf[in.target];
        if (target <= block && !(loop && loop->continues(target)))
          untranslatable(in.loc, function_, "this loop");
        block = target;
        continue;
      }
      case Op::Return: {
        ValuePtr value = stack_.take(state, in.loc);
        if (!state.stores.empty())
          untranslatable(in.loc, function_, "this 'return'");
        stack_.emit(out, std::make_unique<ReturnStmt>(
                             in.loc, isNone(value) ? nullptr : stack_.toExpr(*value)));
        return std::nullopt;
      }
      case Op::ForIter:
        untranslatable(in.loc, function_, "this loop");
      default: {
        if (stack_.expressionOnly() && graph_.blockOf[in.target] == graph_.blockAfter(block)) {
          // A test both of whose outcomes go on alike: CPython decided the condition (`x if
          // (v or 1) else y`) and kept `v` only for its evaluation, which without a call
          // has no effect to keep in the expression.
          if (bytecode::calls(*stack_.take(state, in.loc)))
            untranslatable(in.loc, function_, "a call in a condition CPython decided");
          block = graph_.blockAfter(block);
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
      untranslatable(loc, function_, "this jump");
    stack_.emit(out, std::make_unique<Jump>(loc));
  }

  // The condition a conditional jump ends `block` with, and where each outcome goes.
  struct Condition {
    ValuePtr value;
    Edge onTrue, onFalse;
    std::set<int> blocks; // the blocks that compute it
  };

  Condition branch(int block, State state) {
    const Instruction &in = graph_.last(block);
    ValuePtr tested = stack_.take(state, in.loc);
    ValuePtr value = tested;
    if (in.op == Op::JumpIfNone || in.op == Op::JumpIfNotNone) {
      value =
          stack_.make(ValueKind::Compare, in.loc, {tested, stack_.constantValue(none_, in.loc)});
      value->compares = {in.op == Op::JumpIfNone ? CompareOperator::Is : CompareOperator::IsNot};
    }
    Edge jump{graph_.blockOf[in.target], state, graph_.blockOf[in.target]};
    Edge fall{graph_.blockAfter(block), std::move(state), graph_.blockAfter(block)};
    bool jumpsWhenTrue = in.op != Op::JumpIfFalse;
    Condition condition{value, jumpsWhenTrue ? jump : fall, jumpsWhenTrue ? fall : jump, {block}};
    return condition;
  }

  // Follows blocks that only drop used values and go on (the cleanup of a comparison
  // chain, a loop's iterator before `break`).
  void followTrampolines(Edge &edge, std::set<int> &passed, int stop, const LoopContext *loop) {
    while (edge.block >= 0 && edge.block != stop && graph_.latch[edge.block] < 0 &&
           !(loop && (edge.block == loop->exit || loop->continues(edge.block)))) {
      const Block &range = graph_.blocks[edge.block];
      State state = edge.state;
      bool pure = true;
      for (int i = range.begin; i < range.end && pure; ++i) {
        const Instruction &in = graph_.instructions[i];
        if (in.op == Op::Nop)
          continue;
        if (in.op == Op::PopTop && !state.stack.empty() &&
            (state.used.count(state.stack.back()->sequence) ||
             state.stack.back()->kind == ValueKind::Iterator)) {
          state.stack.pop_back();
          continue;
        }
        pure = in.op == Op::Jump && i == range.end - 1 && graph_.blockOf[in.target] > edge.block;
      }
      if (!pure)
        return;
      passed.insert(edge.block);
      const Instruction &end = graph_.last(edge.block);
      edge.block = end.op == Op::Jump ? graph_.blockOf[end.target] : graph_.blockAfter(edge.block);
      edge.state = std::move(state);
    }
  }

  ValuePtr negate(const ValuePtr &value) {
    if (value->kind == ValueKind::Unary && value->unary == UnaryOperator::Not)
      return value->operands[0];
    ValuePtr result = stack_.make(ValueKind::Unary, value->loc, {value});
    result->unary = UnaryOperator::Not;
    return result;
  }

  ValuePtr boolOp(BoolOpExpr::Op op, ValuePtr a, ValuePtr b) {
    ValuePtr result = stack_.make(ValueKind::BoolOp, a->loc);
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
    Condition result{
        stack_.make(ValueKind::IfExp, ifTrue->loc,
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
      SymbolicStack::ExpressionOnly only(stack_);
      Body none;
      for (int i = graph_.blocks[block].begin; i < graph_.blocks[block].end - 1; ++i)
        stack_.execute(graph_.instructions[i], state, none);
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
    if (block < 0 || block == stop || graph_.latch[block] >= 0 ||
        !isConditional(graph_.last(block).op) ||
        (loop && (block == loop->exit || loop->continues(block))))
      return std::nullopt;
    for (int predecessor : graph_.predecessors[block])
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
      for (int successor : graph_.successors(block))
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
    const Block &range = graph_.blocks[block];
    for (int i = range.begin; i < range.end; ++i) {
      Op op = graph_.instructions[i].op;
      bool forwardJump = op == Op::Jump && i == range.end - 1 && graph_.instructions[i].target > i;
      if (op != Op::Nop && op != Op::PopTop && op != Op::Swap && op != Op::Copy && !forwardJump)
        return false;
    }
    return true;
  }

  // Whether `block` ends with the `return None` CPython adds at the end of a function
  // (copied into each branch that reaches the end): it has the position of the
  // instruction before it, where a `return` the user wrote has its own.
  bool implicitReturn(int block) const {
    const Block &range = graph_.blocks[block];
    if (range.end - range.begin < 2 || graph_.last(block).op != Op::Return)
      return false;
    const Instruction &value = graph_.instructions[range.end - 2];
    if (value.op != Op::LoadConst || value.arg < 0 ||
        size_t(value.arg) >= graph_.constants.size() ||
        graph_.constants[size_t(value.arg)].kind != BytecodeConstant::Kind::None)
      return false;
    int before = range.end - 3;
    while (before >= 0 && graph_.instructions[before].op == Op::Nop)
      --before;
    if (before < 0)
      return true;
    const Location &previous = graph_.instructions[before].loc, &returned = graph_.last(block).loc;
    return previous.line == returned.line && (before < range.begin || previous.col == returned.col);
  }

  // Whether `block` only returns None: the copies CPython makes of a function's end are
  // one place.
  bool returnsNone(int block) const {
    if (block < 0)
      return false;
    const Block &range = graph_.blocks[block];
    int i = range.begin;
    while (i < range.end && graph_.instructions[i].op == Op::Nop)
      ++i;
    return range.end - i == 2 && graph_.instructions[i].op == Op::LoadConst &&
           graph_.constants[size_t(graph_.instructions[i].arg)].kind ==
               BytecodeConstant::Kind::None &&
           graph_.instructions[i + 1].op == Op::Return;
  }

  // A conditional jump at the end of `block` (its other instructions already ran).
  std::optional<Edge> emitConditional(int block, State state, int stop, const LoopContext *loop,
                                      Body &out) {
    if (!state.stores.empty())
      untranslatable(graph_.last(block).loc, function_, "this conditional assignment");
    Condition c = branch(block, std::move(state));
    joinConditions(c, stop, loop);
    const Location &loc = c.value->loc;

    int merge = mergePoint(c.onTrue, c.onFalse, stop, loop);
    if (std::optional<Edge> value = valueMerge(c, merge, loop))
      return value;
    if (stack_.expressionOnly())
      throw NotAnExpression{};

    bool thenIsTrue = c.onTrue.layout <= c.onFalse.layout;
    Edge &then = thenIsTrue ? c.onTrue : c.onFalse;
    Edge &otherwise = thenIsTrue ? c.onFalse : c.onTrue;
    merge = mergePoint(then, otherwise, stop, loop);
    auto statement = std::make_unique<IfStmt>(loc);
    statement->test = stack_.toExpr(*(thenIsTrue ? c.value : negate(c.value)));
    std::optional<State> fromThen =
        emitRegion(then.block, std::move(then.state), merge, loop, statement->body);
    std::optional<State> fromElse =
        emitRegion(otherwise.block, std::move(otherwise.state), merge, loop, statement->orelse);
    if (statement->body.empty())
      statement->body.push_back(std::make_unique<PassStmt>(loc));
    out.push_back(whileLoop(std::move(statement)));
    if (fromThen && fromElse && !sameStack(*fromThen, *fromElse))
      untranslatable(loc, function_, "this conditional value");
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
    try {
      SymbolicStack::ExpressionOnly only(stack_);
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
        whenTrue->stack.size() > c.onTrue.state.stack.size() + 1)
      return std::nullopt;
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
      value = stack_.make(ValueKind::IfExp, ifTrue->loc, {c.value, ifTrue, ifFalse});
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
    const Instruction &first = graph_.instructions[graph_.blocks[header].begin];
    LoopContext context;
    context.header = header;
    context.last = graph_.latch[header];
    if (first.op == Op::ForIter) {
      if (state.stack.empty() || state.stack.back()->kind != ValueKind::Iterator)
        untranslatable(first.loc, function_, "this loop");
      ValuePtr iterator = state.stack.back();
      context.exit = graph_.blockOf[first.target];
      context.exitDepth = state.stack.size() - 1;
      // CPython 3.12 puts a `return` inside the loop after the jump back: the loop is all
      // blocks up to its exit.
      context.last = std::max(context.last, context.exit - 1);
      State body = state;
      body.stack.push_back(stack_.make(ValueKind::LoopValue, first.loc));
      auto loop = std::make_unique<ForStmt>(first.loc);
      if (emitRegion(graph_.blockAfter(header), std::move(body), -1, &context, loop->body))
        untranslatable(first.loc, function_, "this loop");
      auto *assign = loop->body.empty() ? nullptr : loop->body.front()->as<AssignStmt>();
      auto *value = assign ? assign->value->as<NameExpr>() : nullptr;
      if (!value || value->id != kLoopValueName || assign->targets.size() != 1)
        untranslatable(first.loc, function_, "this loop's target");
      loop->target = std::move(assign->targets.front());
      loop->iter = stack_.toExpr(*iterator->operands[0]);
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
          bottomTest(loop->body) != bytecode::unparsed(*test->value, function_))
        untranslatable(first.loc, function_, "this loop");
      loop->body.pop_back();
      loop->test = stack_.toExpr(*test->value);
    } else {
      context.exit = exitAfter(context.last);
      if (context.exit >= 0)
        context.last = context.exit - 1;
      if (emitRegion(header, state, -1, &context, loop->body, /*enteringLoop=*/true))
        untranslatable(first.loc, function_, "this loop");
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
    int end = graph_.blockAfter(latch);
    while (end >= 0 && shufflesOnly(end))
      end = graph_.blockAfter(end);
    for (int block = graph_.blockAfter(latch); block >= 0 && block != end;
         block = graph_.blockAfter(block))
      if (graph_.last(block).op == Op::Jump && graph_.blockOf[graph_.last(block).target] != end)
        return graph_.blockAfter(latch);
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
    if (!isConditional(graph_.last(header).op))
      return std::nullopt;
    std::optional<State> before = tested(header, state);
    if (!before)
      return std::nullopt;
    Condition test = branch(header, std::move(*before));
    joinConditions(test, -1, nullptr);
    int body = test.onTrue.block;
    if (body <= header || graph_.latch[body] < graph_.latch[header] ||
        test.onFalse.block != exitAfter(graph_.latch[body]))
      return std::nullopt;
    return test;
  }

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

  const ControlFlowGraph &graph_;
  const std::string &function_;
  SymbolicStack stack_;
  std::map<const WhileStmt *, std::string> bottomTests_;
  BytecodeConstant none_;
};

} // namespace

Body recoverStatements(const ControlFlowGraph &graph, const std::string &function,
                       const Location &start) {
  return ControlFlowRecovery(graph, function).functionBody(start);
}

} // namespace kaji::frontend::bytecode
