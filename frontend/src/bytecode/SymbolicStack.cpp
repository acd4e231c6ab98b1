#include "SymbolicStack.h"

#include <algorithm>

namespace kaji::frontend::bytecode {

bool isNone(const ValuePtr &value) {
  return value->kind == ValueKind::Constant &&
         value->constant->kind == BytecodeConstant::Kind::None;
}

namespace {

// The variable an assignment target changes: `x` of `x`, `x[i]`, `x[i][j]` and `x[i].r`.
const std::string &rootName(const Value &target) {
  return target.kind == ValueKind::Name || target.operands.empty() ? target.name
                                                                   : rootName(*target.operands[0]);
}

// Whether `x += v` stores back into what it read: the same name, the same container and
// index, or the same owner's attribute (CPython computes them once and COPYs them).
bool augmentedTarget(const Value &target, const Value &read) {
  if (target.kind != read.kind)
    return false;
  if (target.kind == ValueKind::Name)
    return read.name == target.name;
  if (target.kind == ValueKind::Attribute)
    return read.name == target.name && read.operands[0] == target.operands[0];
  return target.kind == ValueKind::Subscript && read.operands[0] == target.operands[0] &&
         read.operands[1] == target.operands[1];
}

} // namespace

ValuePtr SymbolicStack::make(ValueKind kind, const Location &loc, std::vector<ValuePtr> operands) {
  auto value = std::make_shared<Value>();
  value->kind = kind;
  value->loc = loc;
  value->sequence = ++sequence_;
  value->operands = std::move(operands);
  return value;
}

ValuePtr SymbolicStack::pop(State &state, const Location &loc) {
  if (state.stack.empty())
    untranslatable(loc, function_, "this use of the interpreter's stack");
  ValuePtr value = state.stack.back();
  state.stack.pop_back();
  return value;
}

ValuePtr SymbolicStack::take(State &state, const Location &loc) {
  ValuePtr value = pop(state, loc);
  if (value->kind == ValueKind::Null || value->kind == ValueKind::Iterator)
    untranslatable(loc, function_, "this use of the interpreter's stack");
  state.used.insert(value->sequence);
  return value;
}

std::vector<ValuePtr> SymbolicStack::takeMany(State &state, int64_t count, const Location &loc) {
  std::vector<ValuePtr> values(size_t(std::max<int64_t>(count, 0)));
  for (size_t i = values.size(); i-- > 0;)
    values[i] = take(state, loc);
  return values;
}

const BytecodeConstant &SymbolicStack::constant(int64_t index, const Location &loc) {
  if (index < 0 || size_t(index) >= constants_.size())
    untranslatable(loc, function_, "a constant out of range");
  return constants_[size_t(index)];
}

ValuePtr SymbolicStack::constantValue(const BytecodeConstant &c, const Location &loc) {
  ValuePtr value = make(ValueKind::Constant, loc);
  value->constant = &c;
  return value;
}

void SymbolicStack::execute(const Instruction &in, State &state, Body &out) {
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
      untranslatable(loc, function_, "this use of the interpreter's stack");
    state.stack.push_back(state.stack[state.stack.size() - size_t(in.arg)]);
    return;
  case Op::Swap:
    if (in.arg < 1 || size_t(in.arg) > state.stack.size())
      untranslatable(loc, function_, "this use of the interpreter's stack");
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
      untranslatable(loc, function_, "this slice");
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
      untranslatable(loc, function_, "a starred list display");
    ValuePtr extended = make(ValueKind::List, list->loc, list->operands);
    for (const BytecodeConstant &element : elements->constant->elements)
      extended->operands.push_back(constantValue(element, elements->loc));
    state.stack.push_back(extended);
    return;
  }
  case Op::UnpackSequence: {
    ValuePtr sequence = pop(state, loc);
    if (in.arg < 1)
      untranslatable(loc, function_, "unpacking into nothing");
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
    if (in.flag && pop(state, loc)->kind != ValueKind::Null)
      untranslatable(loc, function_, "this call");
    ValuePtr callee = take(state, loc);
    if (!in.flag && pop(state, loc)->kind != ValueKind::Null)
      untranslatable(loc, function_, "this call");
    ValuePtr call = make(ValueKind::Call, callee->loc, {callee});
    call->loc = loc;
    call->operands.insert(call->operands.end(), arguments.begin(), arguments.end());
    if (state.keywordNames) {
      if (state.keywordNames->elements.size() > arguments.size())
        untranslatable(loc, function_, "this call");
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
    untranslatable(loc, function_, "this control flow");
  }
}

ValuePtr SymbolicStack::attributeOf(ValuePtr owner, const std::string &name, const Location &loc) {
  ValuePtr attribute = make(ValueKind::Attribute, loc, {std::move(owner)});
  attribute->name = name;
  return attribute;
}

ValuePtr SymbolicStack::sliceOf(ValuePtr lower, ValuePtr upper, ValuePtr step,
                                const Location &loc) {
  auto part = [](ValuePtr value) { return value && isNone(value) ? nullptr : value; };
  return make(ValueKind::Slice, loc, {part(lower), part(upper), part(step)});
}

ExprPtr SymbolicStack::toExpr(const Value &value) {
  std::set<const Value *> seen;
  evaluatedOnce(value, seen);
  return bytecode::toExpr(value, function_);
}

void SymbolicStack::evaluatedOnce(const Value &value, std::set<const Value *> &seen) {
  if (value.kind != ValueKind::Name && value.kind != ValueKind::Constant &&
      !seen.insert(&value).second)
    untranslatable(value.loc, function_, "a value computed once and used twice");
  for (const ValuePtr &operand : value.operands)
    if (operand)
      evaluatedOnce(*operand, seen);
}

void SymbolicStack::emit(Body &out, StmtPtr statement) {
  if (expressionOnly_)
    throw NotAnExpression{};
  out.push_back(std::move(statement));
}

// A store of `value` into `target`; unpacked elements wait for their whole sequence.
void SymbolicStack::store(State &state, ValuePtr value, ValuePtr target, Body &out) {
  if (value->kind == ValueKind::Null || value->kind == ValueKind::Iterator)
    untranslatable(target->loc, function_, "this assignment");
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
void SymbolicStack::finishStatement(State &state, Body &out) {
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

void SymbolicStack::emitStores(State &state, Body &out) {
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
        untranslatable(loc, function_, "this order of evaluation");
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
        untranslatable(loc, function_, "this order of evaluation");
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

} // namespace kaji::frontend::bytecode
