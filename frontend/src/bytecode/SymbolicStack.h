// The symbolic stack: straight-line instructions run on a stack of symbolic values
// (BytecodeValues.h) instead of numbers, into the expressions they compute and the
// statements that store them. Control-flow recovery (ControlFlowRecovery.h) runs each block
// on the State of the path it is on.
#pragma once

#include "BytecodeDecoder.h"
#include "BytecodeValues.h"

#include <map>
#include <set>
#include <utility>

namespace kaji::frontend::bytecode {

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

inline bool sameStack(const State &a, const State &b) { return a.stack == b.stack; }

// Thrown while a branch is tried as an expression and turns out to hold statements.
struct NotAnExpression {};

bool isNone(const ValuePtr &value);

class SymbolicStack {
public:
  // `constants` (co_consts) outlive the stack: constant values point into them.
  SymbolicStack(const std::vector<BytecodeConstant> &constants, const std::string &function)
      : constants_(constants), function_(function) {}

  // Sets the stack to reject statements (NotAnExpression) for its lifetime.
  class ExpressionOnly {
  public:
    explicit ExpressionOnly(SymbolicStack &stack)
        : flag_(stack.expressionOnly_), was_(stack.expressionOnly_) {
      flag_ = true;
    }
    ~ExpressionOnly() { flag_ = was_; }
    ExpressionOnly(const ExpressionOnly &) = delete;
    ExpressionOnly &operator=(const ExpressionOnly &) = delete;

  private:
    bool &flag_;
    bool was_;
  };

  // Whether statements are rejected (an ExpressionOnly is alive).
  bool expressionOnly() const { return expressionOnly_; }
  // The sequence number of the newest value: those of values made later are greater.
  uint64_t newestSequence() const { return sequence_; }

  ValuePtr make(ValueKind kind, const Location &loc, std::vector<ValuePtr> operands = {});
  // The value on top of the stack, marked used; throws for a NULL or an iterator.
  ValuePtr take(State &state, const Location &loc);
  ValuePtr constantValue(const BytecodeConstant &c, const Location &loc);

  // Runs one straight-line instruction; statements go to `out`.
  void execute(const Instruction &in, State &state, Body &out);
  // The AST of `value`, which must compute each value once: one CPython COPYed that no
  // pattern here took apart would run twice.
  ExprPtr toExpr(const Value &value);
  // Appends `statement` to `out`; throws NotAnExpression while statements are rejected.
  void emit(Body &out, StmtPtr statement);

private:
  ValuePtr pop(State &state, const Location &loc);
  std::vector<ValuePtr> takeMany(State &state, int64_t count, const Location &loc);
  const BytecodeConstant &constant(int64_t index, const Location &loc);
  ValuePtr attributeOf(ValuePtr owner, const std::string &name, const Location &loc);
  ValuePtr sliceOf(ValuePtr lower, ValuePtr upper, ValuePtr step, const Location &loc);
  void evaluatedOnce(const Value &value, std::set<const Value *> &seen);
  void store(State &state, ValuePtr value, ValuePtr target, Body &out);
  void finishStatement(State &state, Body &out);
  void emitStores(State &state, Body &out);

  const std::vector<BytecodeConstant> &constants_;
  const std::string &function_;
  uint64_t sequence_ = 0;
  bool expressionOnly_ = false;
};

} // namespace kaji::frontend::bytecode
