// Statements, control flow and local variables.
#include "FunctionLowerer.h"

#include "kaji/frontend/Signature.h"
#include "kaji/ir/Constants.h"

namespace kaji::frontend {
namespace {

std::function<std::string()> augmentedSource(const AugAssignStmt &stmt) {
  return [&stmt] {
    return unparse(*stmt.target) + " " + spelling(stmt.op) + "= " + unparse(*stmt.value);
  };
}

bool isDocstring(const Stmt &stmt) {
  auto *expr = stmt.as<ExprStmt>();
  return expr && expr->value->as<StringLiteralExpr>();
}

} // namespace

FunctionLowerer::FunctionLowerer(LoweringContext &context, const FunctionRef &fn,
                                 std::shared_ptr<const Environment> env, ir::Function::Kind kind,
                                 const FunctionTypes &guess, ir::Module &target,
                                 ir::Module &callees)
    : context_(context), fn_(fn), env_(std::move(env)), kind_(kind), guess_(guess),
      ssaTypes_(guess.locals), target_(target), callees_(&callees) {}

ir::Function *FunctionLowerer::run(const std::vector<ArgumentType> &args, std::string name) {
  const FunctionDefStmt &def = *fn_.def;
  bool kernel = kind_ == ir::Function::Kind::Kernel;
  if (def.params.size() != args.size())
    throw ir::CompileError(def.loc, std::string(kernel ? "kernel" : "function") + " '" + def.name +
                                        "' takes " + std::to_string(def.params.size()) +
                                        " argument" + (def.params.size() == 1 ? "" : "s") +
                                        " but the signature gives " + std::to_string(args.size()));
  ir::Type returnType;
  if (!kernel && guess_.returns.value)
    returnType = ir::Type::scalar(guess_.returns.value->kind);
  std::vector<ir::Type> paramTypes;
  for (const ArgumentType &arg : args)
    paramTypes.push_back(arg.type);
  function_ = target_.addFunction(
      std::make_unique<ir::Function>(std::move(name), kind_, paramTypes, returnType, def.loc));
  for (const Parameter &param : def.params)
    function_->paramNames().push_back(param.name);
  ssa_ = std::make_unique<SSABuilder>(*function_);
  enter(function_->entry());
  at(def.loc);
  collectLocals(def.body);
  bindParameters(args);
  lowerBody(def.body);
  lowerImplicitReturn();
  ssa_->finish();
  return function_;
}

void FunctionLowerer::bindParameters(const std::vector<ArgumentType> &args) {
  const FunctionDefStmt &def = *fn_.def;
  for (size_t i = 0; i < args.size(); ++i) {
    const Parameter &param = def.params[i];
    ir::Value *value = function_->entry()->argument(unsigned(i));
    locals_.insert(param.name);
    if (args[i].type.isArray()) {
      arrays_[param.name] = Operand::array(value);
      arrayParameters_.insert(param.name);
    } else {
      writeLocal(param.name, Operand::scalar(value, args[i].weak), param.loc);
    }
  }
}

void FunctionLowerer::collectTargets(const Expr &target) {
  if (auto *name = target.as<NameExpr>())
    locals_.insert(name->id);
  else if (auto *tuple = target.as<TupleExpr>())
    for (const ExprPtr &element : tuple->elts)
      collectTargets(*element);
}

void FunctionLowerer::collectLocals(const Body &body) {
  for (const StmtPtr &stmt : body) {
    switch (stmt->kind) {
    case StmtKind::Assign:
      for (const ExprPtr &target : stmt->as<AssignStmt>()->targets)
        collectTargets(*target);
      break;
    case StmtKind::AugAssign:
      collectTargets(*stmt->as<AugAssignStmt>()->target);
      break;
    case StmtKind::AnnAssign:
      collectTargets(*stmt->as<AnnAssignStmt>()->target);
      break;
    case StmtKind::For: {
      auto *loop = stmt->as<ForStmt>();
      collectTargets(*loop->target);
      collectLocals(loop->body);
      collectLocals(loop->orelse);
      break;
    }
    case StmtKind::While:
      collectLocals(stmt->as<WhileStmt>()->body);
      collectLocals(stmt->as<WhileStmt>()->orelse);
      break;
    case StmtKind::If:
      collectLocals(stmt->as<IfStmt>()->body);
      collectLocals(stmt->as<IfStmt>()->orelse);
      break;
    default:
      break;
    }
  }
}

ir::Block *FunctionLowerer::newUnreachableBlock() {
  ir::Block *block = newBlock();
  ssa_->seal(block);
  return block;
}

bool FunctionLowerer::reachable() const {
  // A block lowered only for types stands in for its origin, which is reachable: its own
  // constant conditions must branch on as they would there.
  const ir::Block *block = builder_.block();
  return block == function_->entry() || ssa_->predecessorCount(block) > 0 ||
         ssa_->readsAsAnother(block);
}

void FunctionLowerer::jump(ir::Block *target) {
  if (!reachable())
    return;
  builder_.br(target);
  ssa_->addEdges(builder_.block()->terminator());
}

void FunctionLowerer::condJump(ir::Value *cond, ir::Block *ifTrue, ir::Block *ifFalse) {
  if (auto constant = ir::intConstant(cond)) {
    jump(*constant ? ifTrue : ifFalse);
    return;
  }
  builder_.condBr(cond, ifTrue, {}, ifFalse, {});
  ssa_->addEdges(builder_.block()->terminator());
}

void FunctionLowerer::lowerBody(const Body &body) {
  // Statements after a break, continue or return are dead, as Python's compiler knows.
  for (const StmtPtr &stmt : body) {
    if (!reachable())
      return;
    lowerStatement(*stmt);
  }
}

void FunctionLowerer::lowerStatement(const Stmt &stmt) {
  at(stmt.loc);
  switch (stmt.kind) {
  case StmtKind::Assign:
    return lowerAssign(*stmt.as<AssignStmt>());
  case StmtKind::AugAssign:
    return lowerAugAssign(*stmt.as<AugAssignStmt>());
  case StmtKind::AnnAssign: {
    auto *annotated = stmt.as<AnnAssignStmt>();
    if (annotated->value)
      assign(*annotated->target, lower(*annotated->value));
    return;
  }
  case StmtKind::If:
    return lowerIf(*stmt.as<IfStmt>());
  case StmtKind::While:
    return lowerWhile(*stmt.as<WhileStmt>());
  case StmtKind::For:
    return lowerFor(*stmt.as<ForStmt>());
  case StmtKind::Break:
  case StmtKind::Continue: {
    bool isBreak = stmt.kind == StmtKind::Break;
    if (loops_.empty())
      throw ir::CompileError(stmt.loc, std::string("'") + (isBreak ? "break" : "continue") +
                                           "' outside loop");
    jump(isBreak ? loops_.back().breakTarget : loops_.back().continueTarget);
    enter(newUnreachableBlock());
    return;
  }
  case StmtKind::Return:
    return lowerReturn(*stmt.as<ReturnStmt>());
  case StmtKind::Pass:
    return;
  case StmtKind::ExprStmt:
    if (!isDocstring(stmt))
      lower(*stmt.as<ExprStmt>()->value);
    return;
  case StmtKind::FunctionDef:
    throw ir::CompileError(stmt.loc, "nested functions are not supported in kernels");
  case StmtKind::Import:
  case StmtKind::ImportFrom:
    throw ir::CompileError(stmt.loc,
                           "imports inside kernels are not supported; import at module level");
  }
}

void FunctionLowerer::lowerAssign(const AssignStmt &stmt) {
  Operand value = lower(*stmt.value);
  for (const ExprPtr &target : stmt.targets)
    assign(*target, value);
}

void FunctionLowerer::assign(const Expr &target, const Operand &value) {
  if (auto *name = target.as<NameExpr>())
    return writeLocal(name->id, value, target.loc);
  if (auto *tuple = target.as<TupleExpr>()) {
    if (value.kind != Operand::Kind::Tuple)
      throw ir::CompileError(target.loc, "cannot unpack non-tuple '" + describe(value) + "'");
    size_t expected = tuple->elts.size(), got = value.elements.size();
    if (got > expected)
      throw ir::CompileError(target.loc, "too many values to unpack (expected " +
                                             std::to_string(expected) + ", got " +
                                             std::to_string(got) + ")");
    if (got < expected)
      throw ir::CompileError(target.loc, "not enough values to unpack (expected " +
                                             std::to_string(expected) + ", got " +
                                             std::to_string(got) + ")");
    for (size_t i = 0; i < expected; ++i)
      assign(*tuple->elts[i], value.elements[i]);
    return;
  }
  if (auto *subscript = target.as<SubscriptExpr>()) {
    Operand array = lower(*subscript->value);
    if (array.kind == Operand::Kind::Tuple)
      throw ir::CompileError(target.loc,
                             "tuples are immutable: cannot assign to '" + unparse(target) + "'");
    std::vector<ir::Value *> indices = arrayIndices(array, *subscript);
    checkWritable(array, target);
    if (!value.isScalar())
      throw ir::CompileError(target.loc, "cannot store '" + describe(value) + "' into '" +
                                             unparse(target) + "', an element of '" +
                                             describe(array) + "'");
    indices.insert(indices.begin(), {convert(value, array.type().scalarKind()), array.value});
    at(target.loc).create(ir::Opcode::Store, ir::Type(), indices);
    return;
  }
  if (target.as<AttributeExpr>())
    throw ir::CompileError(target.loc, "cannot assign to attribute '" + unparse(target) + "'");
  throw ir::CompileError(target.loc, "cannot assign to '" + unparse(target) + "'");
}

void FunctionLowerer::checkWritable(const Operand &array, const Expr &target) {
  if (array.type().memorySpace() == ir::MemorySpace::Constant)
    throw ir::CompileError(target.loc, "cannot assign to '" + unparse(target) +
                                           "': an element of a constant array "
                                           "(kaji.const.array_like)");
}

void FunctionLowerer::lowerAugAssign(const AugAssignStmt &stmt) {
  if (auto *name = stmt.target->as<NameExpr>()) {
    Operand current = readLocal(name->id, name->loc);
    Operand rhs = lower(*stmt.value);
    writeLocal(name->id, binary(stmt.op, current, rhs, stmt.loc, augmentedSource(stmt)), stmt.loc);
    return;
  }
  if (auto *subscript = stmt.target->as<SubscriptExpr>()) {
    Operand array = lower(*subscript->value);
    std::vector<ir::Value *> indices = arrayIndices(array, *subscript);
    checkWritable(array, *stmt.target);
    std::vector<ir::Value *> operands = indices;
    operands.insert(operands.begin(), array.value);
    ir::Type element = ir::Type::scalar(array.type().scalarKind());
    Operand current =
        Operand::scalar(at(stmt.loc).create(ir::Opcode::Load, element, operands)->result());
    Operand result = binary(stmt.op, current, lower(*stmt.value), stmt.loc, augmentedSource(stmt));
    operands.insert(operands.begin(), convert(result, element.scalarKind()));
    at(stmt.loc).create(ir::Opcode::Store, ir::Type(), operands);
    return;
  }
  throw ir::CompileError(stmt.target->loc,
                         "cannot assign to '" + unparse(*stmt.target) + "' with an operator");
}

LocalType &FunctionLowerer::ssaType(const std::string &name, const LocalType &fallback) {
  return ssaTypes_.try_emplace(name, fallback).first->second;
}

void FunctionLowerer::writeLocal(const std::string &name, const Operand &value,
                                 const Location &loc) {
  if (arrayParameters_.count(name))
    throw ir::CompileError(loc, "cannot assign to array parameter '" + name + "'");
  LocalType type = localTypeOf(value, name, loc);
  auto [it, inserted] = observed_.locals.try_emplace(name, type);
  if (!inserted)
    it->second = unify(it->second, type, name, loc);
  // The runs so far may have seen assignments this run has not reached yet.
  if (auto guessed = guess_.locals.find(name); guessed != guess_.locals.end())
    unify(guessed->second, type, name, loc);
  if (type.kind == LocalType::Kind::Array) {
    auto [bound, fresh] = arrays_.try_emplace(name, value);
    if (!fresh && bound->second.value != value.value)
      throw ir::CompileError(loc, "array variable '" + name + "' cannot be reassigned");
    return;
  }
  LocalType &slot = ssaType(name, type);
  if (slot.kind != type.kind)
    slot = type; // replaces the placeholder of a read that came first in this run
  if (slot.kind == LocalType::Kind::Tuple) {
    for (size_t i = 0; i < slot.elements.size(); ++i)
      ssa_->write(name + "#" + std::to_string(i), builder_.block(),
                  convert(value.elements[i], slot.elements[i].kind));
    return;
  }
  ssa_->write(name, builder_.block(), convert(value, slot.scalar.kind));
}

Operand FunctionLowerer::readLocal(const std::string &name, const Location &loc) {
  if (auto it = arrays_.find(name); it != arrays_.end())
    return it->second;
  auto undefined = [&] {
    return ir::CompileError(loc, "local variable '" + name + "' is referenced before assignment");
  };
  // Never assigned on a path lowered so far: a later run knows its type, or it is unbound.
  LocalType placeholder;
  placeholder.scalar = {ir::ScalarKind::Int64, true};
  const LocalType &type = ssaType(name, placeholder);
  if (type.kind == LocalType::Kind::Array)
    throw undefined();
  if (type.kind == LocalType::Kind::Tuple) {
    std::vector<Operand> elements;
    for (size_t i = 0; i < type.elements.size(); ++i) {
      ir::Value *v = ssa_->read(name + "#" + std::to_string(i),
                                ir::Type::scalar(type.elements[i].kind), builder_.block());
      if (ssa_->isUndefined(v))
        throw undefined();
      elements.push_back(Operand::scalar(v, type.elements[i].weak));
    }
    return Operand::tuple(std::move(elements));
  }
  ir::Value *v = ssa_->read(name, ir::Type::scalar(type.scalar.kind), builder_.block());
  if (ssa_->isUndefined(v))
    throw undefined();
  return Operand::scalar(v, type.scalar.weak);
}

void FunctionLowerer::lowerIf(const IfStmt &stmt) {
  ir::Block *thenBlock = newBlock();
  ir::Block *merge = newBlock();
  ir::Block *elseBlock = stmt.orelse.empty() ? merge : newBlock();
  branchOn(*stmt.test, thenBlock, elseBlock);
  ssa_->seal(thenBlock);
  enter(thenBlock);
  lowerBody(stmt.body);
  jump(merge);
  if (elseBlock != merge) {
    ssa_->seal(elseBlock);
    enter(elseBlock);
    lowerBody(stmt.orelse);
    jump(merge);
  }
  ssa_->seal(merge);
  enter(merge);
}

void FunctionLowerer::lowerWhile(const WhileStmt &stmt) {
  ir::Block *header = newBlock();
  jump(header);
  enter(header);
  ir::Block *body = newBlock();
  ir::Block *exit = newBlock();
  ir::Block *orelse = stmt.orelse.empty() ? exit : newBlock();
  branchOn(*stmt.test, body, orelse);
  ssa_->seal(body);
  enter(body);
  loops_.push_back({header, exit});
  lowerBody(stmt.body);
  loops_.pop_back();
  jump(header);
  ssa_->seal(header);
  if (orelse != exit) {
    ssa_->seal(orelse);
    enter(orelse);
    lowerBody(stmt.orelse);
    jump(exit);
  }
  ssa_->seal(exit);
  enter(exit);
}

void FunctionLowerer::lowerFor(const ForStmt &stmt) {
  auto *call = stmt.iter->as<CallExpr>();
  Operand callee = call ? lower(*call->func) : lower(*stmt.iter);
  if (!call || callee.kind != Operand::Kind::Builtin || callee.name != "builtins.range")
    throw ir::CompileError(stmt.iter->loc, "for loops in kernels iterate over range() only, not '" +
                                               unparse(*stmt.iter) + "'");
  if (!call->keywords.empty())
    throw ir::CompileError(call->keywords.front().loc, "range() takes no keyword arguments");
  size_t count = call->args.size();
  if (count < 1 || count > 3)
    throw ir::CompileError(call->loc,
                           "range expected 1 to 3 arguments, got " + std::to_string(count));
  std::vector<Operand> bounds;
  for (const ExprPtr &arg : call->args) {
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
  if (type.weak && type.kind != ir::ScalarKind::UInt64)
    type.kind = ir::ScalarKind::Int64;
  if (type.kind == ir::ScalarKind::Bool)
    type.kind = ir::ScalarKind::Int64;
  type.weak = false;
  at(stmt.loc);
  Operand start = count == 1 ? intConstant(type.kind, 0) : convertScalar(bounds[0], type);
  Operand stop = convertScalar(bounds[count == 1 ? 0 : 1], type);
  Operand step = count == 3 ? convertScalar(bounds[2], type) : intConstant(type.kind, 1);
  std::optional<int64_t> constantStep = constantInt(step);
  if (constantStep && *constantStep == 0)
    throw ir::CompileError(call->args[2]->loc, "range() arg 3 must not be zero");

  std::string counter = "$range" + std::to_string(hiddenVariables_++);
  ir::Type counterType = ir::Type::scalar(type.kind);
  ssa_->write(counter, builder_.block(), start.value);
  ir::Block *header = newBlock();
  jump(header);
  enter(header);
  ir::Value *current = ssa_->read(counter, counterType, header);
  ir::Builder &b = at(stmt.loc);
  ir::Value *ascending = b.cmp(ir::CmpPredicate::Lt, current, stop.value);
  ir::Value *cond = ascending;
  if (ir::isSigned(type.kind) && !(constantStep && *constantStep > 0)) {
    ir::Value *descending = b.cmp(ir::CmpPredicate::Gt, current, stop.value);
    if (constantStep)
      cond = descending;
    else
      cond = b.select(b.cmp(ir::CmpPredicate::Gt, step.value, intConstant(type.kind, 0).value),
                      ascending, descending);
  }
  // Python raises on a zero step; a kernel cannot, and must not spin forever: it runs no
  // iterations.
  if (!constantStep)
    cond = b.binary(ir::Opcode::And, cond,
                    b.cmp(ir::CmpPredicate::Ne, step.value, intConstant(type.kind, 0).value));
  ir::Block *body = newBlock();
  ir::Block *latch = newBlock();
  ir::Block *exit = newBlock();
  ir::Block *orelse = stmt.orelse.empty() ? exit : newBlock();
  condJump(cond, body, orelse);
  ssa_->seal(body);
  enter(body);
  assign(*stmt.target, Operand::scalar(current));
  loops_.push_back({latch, exit});
  lowerBody(stmt.body);
  loops_.pop_back();
  jump(latch);
  ssa_->seal(latch);
  enter(latch);
  if (reachable()) {
    ir::Value *value = ssa_->read(counter, counterType, latch);
    ssa_->write(counter, latch, at(stmt.loc).binary(ir::Opcode::Add, value, step.value));
    jump(header);
  }
  ssa_->seal(header);
  if (orelse != exit) {
    ssa_->seal(orelse);
    enter(orelse);
    lowerBody(stmt.orelse);
    jump(exit);
  }
  ssa_->seal(exit);
  enter(exit);
}

void FunctionLowerer::lowerReturn(const ReturnStmt &stmt) {
  bool kernel = kind_ == ir::Function::Kind::Kernel;
  Operand value = stmt.value ? lower(*stmt.value) : Operand();
  at(stmt.loc);
  if (value.kind == Operand::Kind::None) {
    observed_.returns.none = true;
    if (!kernel && guess_.returns.value && guess_.returns.none)
      throw ir::CompileError(stmt.loc, "function '" + fn_.def->name +
                                           "' returns a value on some paths and None on others");
    if (function_->returnType().isVoid())
      builder_.ret();
    else
      builder_.ret(intConstant(function_->returnType().scalarKind(), 0).value);
  } else {
    if (kernel)
      throw ir::CompileError(stmt.loc, "a kernel cannot return a value ('return " +
                                           unparse(*stmt.value) +
                                           "'); write results into an array argument");
    if (!value.isScalar())
      throw ir::CompileError(stmt.value->loc, "device functions can return only scalars, not '" +
                                                  describe(value) + "'");
    ScalarType type = value.scalarType();
    type.weak = false;
    observed_.returns.value =
        observed_.returns.value ? promote(*observed_.returns.value, type) : type;
    if (function_->returnType().isVoid())
      builder_.ret();
    else
      builder_.ret(convert(value, function_->returnType().scalarKind()));
  }
  enter(newUnreachableBlock());
}

void FunctionLowerer::lowerImplicitReturn() {
  if (!reachable())
    return;
  ReturnStmt implicit(fn_.def->loc, nullptr);
  lowerReturn(implicit);
}

} // namespace kaji::frontend
