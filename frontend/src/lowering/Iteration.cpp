// For loops: over range(), an array (its elements, or the rows of an n-d one), a tuple, and
// enumerate() and zip() of them. A loop that takes items from a tuple is unrolled, one copy
// of the body per item, so the items may differ in type (Numba's literal_unroll); the others
// are counted loops with their position in hidden SSA variables.
#include "FunctionLowerer.h"
#include "Limits.h"

#include "kaji/ir/Constants.h"

#include <algorithm>

namespace kaji::frontend {
namespace {

using ir::ScalarKind;

bool isBuiltinCall(const Operand &callee, std::string_view name) {
  return callee.kind == Operand::Kind::Builtin && callee.name == name;
}

} // namespace

FunctionLowerer::Iterable FunctionLowerer::iterable(const Expr &expr) {
  if (auto *call = expr.as<CallExpr>()) {
    Operand callee = lower(*call->func);
    if (isBuiltinCall(callee, "builtins.range"))
      return rangeIterable(*call);
    if (isBuiltinCall(callee, "builtins.enumerate"))
      return enumerateIterable(*call);
    if (isBuiltinCall(callee, "builtins.zip")) {
      if (!call->keywords.empty())
        throw ir::CompileError(call->keywords.front().loc,
                               "zip() takes no keyword arguments in kernels");
      if (call->args.empty())
        throw ir::CompileError(call->loc, "zip() needs at least one iterable in kernels");
      Iterable zip;
      zip.kind = Iterable::Kind::Zip;
      for (const ExprPtr &arg : call->args)
        zip.parts.push_back(iterable(*arg));
      return zip;
    }
  }
  Operand value = lower(expr);
  Iterable it;
  if (value.kind == Operand::Kind::Tuple) {
    it.kind = Iterable::Kind::Tuple;
    it.items = value.elements;
    return it;
  }
  if (value.kind == Operand::Kind::Array) {
    if (value.type().ndim() == 0)
      throw ir::CompileError(expr.loc, "'" + unparse(expr) + "' is " + describe(value) +
                                           ": numpy cannot iterate over a 0-d array");
    it.kind = Iterable::Kind::Array;
    it.array = value;
    it.state = hiddenVariable("$index");
    at(expr.loc);
    ssa_->write(it.state, builder_.block(), intConstant(ScalarKind::Int64, 0).value);
    return it;
  }
  throw ir::CompileError(expr.loc, "'" + describe(value) + "' is not iterable in '" +
                                       unparse(expr) +
                                       "'; kernels iterate over range(), 1-d arrays, tuples, "
                                       "enumerate() and zip()");
}

FunctionLowerer::Iterable FunctionLowerer::rangeIterable(const CallExpr &call) {
  if (!call.keywords.empty())
    throw ir::CompileError(call.keywords.front().loc, "range() takes no keyword arguments");
  size_t count = call.args.size();
  if (count < 1 || count > 3)
    throw ir::CompileError(call.loc,
                           "range expected 1 to 3 arguments, got " + std::to_string(count));
  std::vector<Operand> bounds;
  for (const ExprPtr &arg : call.args) {
    Operand bound = lower(*arg);
    if (!bound.isScalar() || bound.type().isFloat())
      throw ir::CompileError(arg->loc, "'" + describe(bound) +
                                           "' object cannot be interpreted as an integer in '" +
                                           unparse(*arg) + "'");
    bounds.push_back(bound);
  }
  ScalarType type = bounds.front().scalarType();
  for (const Operand &bound : bounds)
    type = promote(type, bound.scalarType());
  if (type.weak && type.kind != ScalarKind::UInt64)
    type.kind = ScalarKind::Int64;
  if (type.kind == ScalarKind::Bool)
    type.kind = ScalarKind::Int64;
  type.weak = false;
  at(call.loc);
  Iterable it;
  it.kind = Iterable::Kind::Range;
  Operand start = count == 1 ? intConstant(type.kind, 0) : convertScalar(bounds[0], type);
  it.stop = convertScalar(bounds[count == 1 ? 0 : 1], type);
  it.step = count == 3 ? convertScalar(bounds[2], type) : intConstant(type.kind, 1);
  std::optional<int64_t> constantStep = constantInt(it.step);
  if (constantStep && *constantStep == 0)
    throw ir::CompileError(call.args[2]->loc, "range() arg 3 must not be zero");
  it.state = hiddenVariable("$range");
  ssa_->write(it.state, builder_.block(), start.value);
  return it;
}

FunctionLowerer::Iterable FunctionLowerer::enumerateIterable(const CallExpr &call) {
  const Expr *startExpr = call.args.size() == 2 ? call.args[1].get() : nullptr;
  for (const Keyword &kw : call.keywords) {
    if (kw.name != "start" || startExpr)
      throw ir::CompileError(kw.loc,
                             "enumerate() got an unexpected keyword argument '" + kw.name + "'");
    startExpr = kw.value.get();
  }
  if (call.args.empty() || call.args.size() > 2)
    throw ir::CompileError(call.loc, "enumerate() takes an iterable and an optional start, got " +
                                         std::to_string(call.args.size()) + " arguments");
  Iterable it;
  it.kind = Iterable::Kind::Enumerate;
  it.parts.push_back(iterable(*call.args[0]));
  Operand start = startExpr ? lower(*startExpr) : Operand();
  at(call.loc);
  if (!startExpr)
    start = intConstant(ScalarKind::Int64, 0);
  if (!start.isScalar() || !start.type().isInteger())
    throw ir::CompileError(startExpr->loc,
                           "enumerate() start must be an integer, not '" + describe(start) + "'");
  it.state = hiddenVariable("$count");
  ssa_->write(it.state, builder_.block(), convert(start, ScalarKind::Int64));
  return it;
}

std::string FunctionLowerer::hiddenVariable(const std::string &prefix) {
  return prefix + std::to_string(hiddenVariables_++);
}

std::optional<size_t> FunctionLowerer::unrolledCount(const Iterable &it) const {
  if (it.kind == Iterable::Kind::Tuple)
    return it.items.size();
  std::optional<size_t> count;
  for (const Iterable &part : it.parts)
    if (std::optional<size_t> n = unrolledCount(part))
      count = count ? std::min(*count, *n) : *n;
  return count;
}

ir::Value *FunctionLowerer::hasNext(const Iterable &it, const Location &loc) {
  ir::Builder &b = at(loc);
  switch (it.kind) {
  case Iterable::Kind::Tuple:
    return nullptr;
  case Iterable::Kind::Array: {
    ir::Value *index = ssa_->read(it.state, ir::Type::scalar(ScalarKind::Int64), b.block());
    ir::Value *extent = b.create(ir::Opcode::ArrayDim, ir::Type::scalar(ScalarKind::Int64),
                                 {it.array.value}, int64_t(0))
                            ->result();
    return b.cmp(ir::CmpPredicate::Lt, index, extent);
  }
  case Iterable::Kind::Range: {
    ScalarKind kind = it.stop.type().scalarKind();
    ir::Value *current = ssa_->read(it.state, it.stop.type(), b.block());
    ir::Value *ascending = b.cmp(ir::CmpPredicate::Lt, current, it.stop.value);
    std::optional<int64_t> constantStep = constantInt(it.step);
    ir::Value *cond = ascending;
    if (ir::isSigned(kind) && !(constantStep && *constantStep > 0)) {
      ir::Value *descending = b.cmp(ir::CmpPredicate::Gt, current, it.stop.value);
      if (constantStep)
        cond = descending;
      else
        cond = b.select(b.cmp(ir::CmpPredicate::Gt, it.step.value, intConstant(kind, 0).value),
                        ascending, descending);
    }
    // Python raises on a zero step; a kernel cannot, and must not spin forever: it runs no
    // iterations.
    if (!constantStep)
      cond = b.binary(ir::Opcode::And, cond,
                      b.cmp(ir::CmpPredicate::Ne, it.step.value, intConstant(kind, 0).value));
    return cond;
  }
  case Iterable::Kind::Enumerate:
  case Iterable::Kind::Zip: {
    ir::Value *cond = nullptr;
    for (const Iterable &part : it.parts)
      if (ir::Value *partCond = hasNext(part, loc))
        cond = cond ? at(loc).binary(ir::Opcode::And, cond, partCond) : partCond;
    return cond;
  }
  }
  return nullptr;
}

Operand FunctionLowerer::currentItem(const Iterable &it, std::optional<size_t> unrolled,
                                     const Location &loc) {
  at(loc);
  ir::Block *block = builder_.block();
  switch (it.kind) {
  case Iterable::Kind::Tuple:
    return it.items[*unrolled];
  case Iterable::Kind::Array: {
    ir::Value *index = ssa_->read(it.state, ir::Type::scalar(ScalarKind::Int64), block);
    // An n-d array yields its rows, views of n-1 dimensions; an array of records its records,
    // 0-d views.
    if (it.array.type().ndim() > 1 || it.array.type().isRecordArray())
      return rowView(it.array, index, loc);
    return loadElement(it.array, {index});
  }
  case Iterable::Kind::Range:
    return Operand::scalar(ssa_->read(it.state, it.stop.type(), block));
  case Iterable::Kind::Enumerate: {
    ir::Value *count = ssa_->read(it.state, ir::Type::scalar(ScalarKind::Int64), block);
    // In an unrolled loop the count is a constant, so that it may index a tuple.
    if (std::optional<int64_t> first = ir::intConstant(count); first && unrolled)
      count = intConstant(ScalarKind::Int64, *first).value;
    return Operand::tuple({Operand::scalar(count), currentItem(it.parts[0], unrolled, loc)});
  }
  case Iterable::Kind::Zip: {
    std::vector<Operand> items;
    for (const Iterable &part : it.parts)
      items.push_back(currentItem(part, unrolled, loc));
    return Operand::tuple(std::move(items));
  }
  }
  return Operand();
}

void FunctionLowerer::advance(const Iterable &it, const Location &loc) {
  ir::Builder &b = at(loc);
  auto increment = [&](ir::Type type, ir::Value *step) {
    ir::Value *value = ssa_->read(it.state, type, b.block());
    ssa_->write(it.state, b.block(), b.binary(ir::Opcode::Add, value, step));
  };
  ir::Type i64 = ir::Type::scalar(ScalarKind::Int64);
  switch (it.kind) {
  case Iterable::Kind::Tuple:
    return;
  case Iterable::Kind::Array:
    return increment(i64, b.intConstant(i64, 1));
  case Iterable::Kind::Range:
    return increment(it.stop.type(), it.step.value);
  case Iterable::Kind::Enumerate:
  case Iterable::Kind::Zip:
    if (it.kind == Iterable::Kind::Enumerate)
      increment(i64, b.intConstant(i64, 1));
    for (const Iterable &part : it.parts)
      advance(part, loc);
    return;
  }
}

void FunctionLowerer::bindUnrolledTarget(const Expr &target, const Operand &value) {
  if (auto *name = target.as<NameExpr>()) {
    unrolledTargets_[variable(*name)] = value;
    return;
  }
  if (auto *tuple = target.as<TupleExpr>()) {
    checkUnpackCount(*tuple, value);
    for (size_t i = 0; i < tuple->elts.size(); ++i)
      bindUnrolledTarget(*tuple->elts[i], value.elements[i]);
    return;
  }
  throw ir::CompileError(target.loc, "the target of a loop over a tuple must be names, not '" +
                                         unparse(target) + "'");
}

void FunctionLowerer::lowerFor(const ForStmt &stmt) {
  Iterable it = iterable(*stmt.iter);
  std::optional<size_t> unrolled = unrolledCount(it);
  ir::Block *header = unrolled ? nullptr : newBlock();
  ir::Block *exit = newBlock();
  ir::Block *orelse = stmt.orelse.empty() ? exit : newBlock();
  auto lowerIteration = [&](std::optional<size_t> index, ir::Block *next) {
    ir::Block *body = newBlock();
    if (ir::Value *cond = hasNext(it, stmt.loc))
      condJump(cond, body, orelse);
    else
      jump(body);
    ssa_->seal(body);
    enter(body);
    std::map<std::string, Operand, std::less<>> arraysBefore = arrays_;
    if (index)
      bindUnrolledTarget(*stmt.target, currentItem(it, index, stmt.loc));
    else
      assign(*stmt.target, currentItem(it, index, stmt.loc));
    ir::Block *latch = newBlock();
    loops_.push_back({latch, exit});
    lowerBody(stmt.body);
    loops_.pop_back();
    unbindLoopArrays(arraysBefore);
    jump(latch);
    ssa_->seal(latch);
    enter(latch);
    if (reachable()) {
      advance(it, stmt.loc);
      jump(next);
    }
  };
  if (unrolled) {
    std::map<std::string, Operand, std::less<>> outer = unrolledTargets_;
    for (size_t index = 0; index < *unrolled && reachable(); ++index) {
      // Nested loops over tuples multiply their copies: all of one function's count together.
      if (++unrolledCopies_ > kMaxTupleElements)
        throw ir::CompileError(stmt.loc, "loops over tuples in '" + fn_.def->name +
                                             "' unroll more than " +
                                             std::to_string(kMaxTupleElements) +
                                             " copies of their bodies (nested loops multiply); "
                                             "loop over a range or an array instead");
      ir::Block *next = newBlock();
      lowerIteration(index, next);
      ssa_->seal(next);
      enter(next);
    }
    // The loop variables of the copies are gone (Python would leave the last item bound;
    // reading it after the loop is an error, docs/language.md).
    unrolledTargets_ = std::move(outer);
    jump(orelse);
  } else {
    jump(header);
    enter(header);
    lowerIteration(std::nullopt, header);
    ssa_->seal(header);
  }
  if (orelse != exit) {
    ssa_->seal(orelse);
    enter(orelse);
    lowerBody(stmt.orelse);
    jump(exit);
  }
  ssa_->seal(exit);
  enter(exit);
}

} // namespace kaji::frontend
