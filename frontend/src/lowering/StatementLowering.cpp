// Statements, control flow and local variables.
#include "FunctionLowerer.h"
#include "VariableWebs.h"

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
      ssaTypes_(guess.locals), target_(target), callees_(&callees),
      webs_(findVariableWebs(*fn.def)) {}

namespace {

// A parameter's names in the IR, one per leaf: `t_0`, `t_1_0` for the leaves of a tuple `t`.
void leafNames(const ParameterStructure &structure, const std::string &name,
               std::vector<std::string> &names) {
  if (structure.typeValue)
    return;
  if (!structure.tuple) {
    names.push_back(name);
    return;
  }
  for (size_t i = 0; i < structure.elements.size(); ++i)
    leafNames(structure.elements[i], name + "_" + std::to_string(i), names);
}

void appendReturnSlots(const LocalType &type, std::vector<ReturnSlot> &slots) {
  if (type.kind == LocalType::Kind::Tuple)
    for (const LocalType &element : type.elements)
      appendReturnSlots(element, slots);
  else if (type.kind == LocalType::Kind::Vector)
    slots.push_back({type.vector.scalarKind(), type.vector.lanes()});
  else
    slots.push_back({type.scalar.kind, 1});
}

} // namespace

std::vector<ReturnSlot> returnSlots(const LocalType &tuple) {
  std::vector<ReturnSlot> slots;
  appendReturnSlots(tuple, slots);
  return slots;
}

ir::Function *FunctionLowerer::run(const std::vector<ArgumentType> &args,
                                   const std::vector<ParameterStructure> &structure,
                                   const CompileTimeArguments &constants, std::string name) {
  const FunctionDefStmt &def = *fn_.def;
  bool kernel = kind_ == ir::Function::Kind::Kernel;
  if (def.params.size() != structure.size())
    throw ir::CompileError(def.loc, std::string(kernel ? "kernel" : "function") + " '" + def.name +
                                        "' takes " + std::to_string(def.params.size()) +
                                        " argument" + (def.params.size() == 1 ? "" : "s") +
                                        " but the signature gives " +
                                        std::to_string(structure.size()));
  std::vector<ir::Type> paramTypes;
  for (const ArgumentType &arg : args)
    paramTypes.push_back(arg.type);
  std::vector<std::string> paramNames;
  for (size_t i = 0; i < structure.size(); ++i)
    leafNames(structure[i], def.params[i].name, paramNames);
  ir::Type returnType;
  if (!kernel && guess_.returns.value) {
    if (guess_.returns.value->kind == LocalType::Kind::Tuple) {
      std::vector<ReturnSlot> slots = returnSlots(*guess_.returns.value);
      firstReturnSlot_ = unsigned(paramTypes.size());
      for (size_t i = 0; i < slots.size(); ++i) {
        paramTypes.push_back(
            ir::Type::array(slots[i].kind, 1, ir::Layout::C, ir::MemorySpace::Local));
        paramNames.push_back("return_" + std::to_string(i));
      }
    } else if (guess_.returns.value->kind == LocalType::Kind::Vector) {
      returnType = guess_.returns.value->vector;
    } else {
      returnType = ir::Type::scalar(guess_.returns.value->scalar.kind);
    }
  }
  function_ = target_.addFunction(
      std::make_unique<ir::Function>(std::move(name), kind_, paramTypes, returnType, def.loc));
  function_->paramNames() = std::move(paramNames);
  if (!kernel)
    function_->setInlining(fn_.inlining);
  context_.started(function_);
  ssa_ = std::make_unique<SSABuilder>(*function_);
  enter(function_->entry());
  at(def.loc);
  collectLocals(def.body);
  bindParameters(args, structure, constants);
  lowerBody(def.body);
  lowerImplicitReturn();
  // A run that abandoned statements is a trial whose blocks may be half made: only its
  // types count (Lowering.cpp).
  if (!pendingRecursion_)
    ssa_->finish();
  return function_;
}

Operand FunctionLowerer::parameterValue(const ParameterStructure &structure,
                                        const std::vector<ArgumentType> &args, unsigned &next) {
  if (structure.typeValue)
    return resolveQualified("numpy." + std::string(ir::numpyName(*structure.typeValue)),
                            function_->location());
  if (!structure.tuple) {
    ir::Value *value = function_->entry()->argument(next);
    const ArgumentType &arg = args[next++];
    if (structure.pointee)
      return pointedArray(value, *structure.pointee);
    if (arg.type.isVector())
      return Operand::vector(value);
    // The caller's fragment itself (its storage): what the function does to it, the caller sees.
    if (arg.type.isFragment())
      return Operand::fragment(value);
    return arg.type.isArray() ? Operand::array(value) : Operand::scalar(value, arg.weak);
  }
  std::vector<Operand> elements;
  for (const ParameterStructure &element : structure.elements)
    elements.push_back(parameterValue(element, args, next));
  Operand tuple = Operand::tuple(std::move(elements));
  tuple.tupleClass = structure.tupleClass;
  tuple.fields = structure.fields;
  return tuple;
}

void FunctionLowerer::bindParameters(const std::vector<ArgumentType> &args,
                                     const std::vector<ParameterStructure> &structure,
                                     const CompileTimeArguments &constants) {
  const FunctionDefStmt &def = *fn_.def;
  unsigned next = 0;
  for (size_t i = 0; i < structure.size(); ++i) {
    const Parameter &param = def.params[i];
    // A parameter without leaves (a type passed as a value, a tuple of them) is a compile-time
    // value as much as a device call's constant.
    bool constant = (i < constants.size() && constants[i]) || structure[i].leafCount() == 0;
    Operand value = i < constants.size() && constants[i] ? compileTimeValue(*constants[i])
                                                         : parameterValue(structure[i], args, next);
    // Never assigned, it names the value itself, so that `if flag:` folds wherever it is.
    if (constant && !locals_.count(param.name)) {
      compileTimeParameters_[param.name] = value;
      continue;
    }
    locals_.insert(param.name);
    writeLocal(param.name, value, param.loc);
  }
}

void FunctionLowerer::collectTargets(const Expr &target) {
  if (auto *name = target.as<NameExpr>())
    locals_.insert(variable(*name));
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

ir::Value *FunctionLowerer::branchValue(ir::Value *cond, const std::function<ir::Value *()> &ifTrue,
                                        const std::function<ir::Value *()> &ifFalse) {
  if (auto constant = ir::intConstant(cond))
    return *constant ? ifTrue() : ifFalse();
  ir::Block *trueBlock = newBlock(), *falseBlock = newBlock(), *merge = newBlock();
  condJump(cond, trueBlock, falseBlock);
  ssa_->seal(trueBlock);
  ssa_->seal(falseBlock);
  ir::Value *result = nullptr;
  for (auto [block, side] : {std::pair{trueBlock, &ifTrue}, {falseBlock, &ifFalse}}) {
    enter(block);
    ir::Value *value = (*side)();
    if (!result)
      result = ssa_->addArgument(merge, value->type());
    ir::Block *end = builder_.block();
    jump(merge);
    ssa_->setIncoming(result, end, value);
  }
  ssa_->seal(merge);
  enter(merge);
  return result;
}

void FunctionLowerer::lowerBody(const Body &body) {
  // Statements after a break, continue or return are dead, as Python's compiler knows.
  for (const StmtPtr &stmt : body) {
    if (!reachable())
      return;
    try {
      lowerStatement(*stmt);
    } catch (const PendingRecursion &pending) {
      // Its value is not known in this run: the path ends here, so that the returns that do
      // not depend on it (the base case, Numba's rule) give the function's type.
      if (pending.function != function_->name())
        throw;
      if (!pendingRecursion_)
        pendingRecursion_ = pending.loc;
      enter(newUnreachableBlock());
    }
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
  case StmtKind::Raise:
    return lowerRaise(*stmt.as<RaiseStmt>());
  case StmtKind::Assert:
    return lowerAssert(*stmt.as<AssertStmt>());
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
    return writeLocal(variable(*name), value, target.loc);
  if (auto *tuple = target.as<TupleExpr>()) {
    checkUnpackCount(*tuple, value);
    for (size_t i = 0; i < tuple->elts.size(); ++i)
      assign(*tuple->elts[i], value.elements[i]);
    return;
  }
  if (std::optional<Operand> field = fieldTarget(target))
    return storeField(*field, value, target);
  if (auto *subscript = target.as<SubscriptExpr>()) {
    Operand array = lower(*subscript->value);
    if (array.kind == Operand::Kind::Tuple)
      throw ir::CompileError(target.loc,
                             "tuples are immutable: cannot assign to '" + unparse(target) + "'");
    if (isFragmentElements(array))
      return storeFragmentElement(array, lower(*subscript->index), value, target.loc);
    requireArray(array, *subscript);
    std::vector<SubscriptItem> items = subscriptItems(*subscript);
    checkWritable(array, target);
    if (array.type().isRecordArray()) {
      Operand records = subscriptView(array, items, *subscript);
      if (records.type().ndim() != 0)
        throw ir::CompileError(target.loc, "cannot assign to '" + unparse(target) + "', a " +
                                               describe(records) +
                                               ": kernels assign one record at a time");
      return copyRecord(records, value, target);
    }
    if (selectsView(array, items)) {
      storeIntoView(subscriptView(array, items, *subscript), value, target);
      return;
    }
    std::vector<ir::Value *> indices = indicesOf(array, items, *subscript);
    indices.insert(indices.begin(), {storedElement(array, value, target), array.value});
    at(target.loc).create(ir::Opcode::Store, ir::Type(), indices);
    return;
  }
  if (target.as<AttributeExpr>())
    throw ir::CompileError(target.loc, "cannot assign to attribute '" + unparse(target) + "'");
  throw ir::CompileError(target.loc, "cannot assign to '" + unparse(target) + "'");
}

void FunctionLowerer::checkUnpackCount(const TupleExpr &target, const Operand &value) {
  if (value.kind != Operand::Kind::Tuple)
    throw ir::CompileError(target.loc, "cannot unpack non-tuple '" + describe(value) + "'");
  size_t expected = target.elts.size(), got = value.elements.size();
  if (got != expected)
    throw ir::CompileError(target.loc, std::string(got > expected ? "too many" : "not enough") +
                                           " values to unpack (expected " +
                                           std::to_string(expected) + ", got " +
                                           std::to_string(got) + ")");
}

void FunctionLowerer::checkWritable(const Operand &array, const Expr &target) {
  if (array.type().memorySpace() == ir::MemorySpace::Constant)
    throw ir::CompileError(target.loc, "cannot assign to '" + unparse(target) +
                                           "': an element of a constant array "
                                           "(kaji.const.array_like)");
}

void FunctionLowerer::lowerAugAssign(const AugAssignStmt &stmt) {
  if (auto *name = stmt.target->as<NameExpr>()) {
    Operand current = readLocal(variable(*name), name->loc);
    Operand rhs = lower(*stmt.value);
    writeLocal(variable(*name),
               operatorBinary(stmt.op, current, rhs, stmt.loc, augmentedSource(stmt)), stmt.loc);
    return;
  }
  if (std::optional<Operand> field = fieldTarget(*stmt.target)) {
    Operand current = fieldValue(*field, stmt.loc);
    if (!current.isScalar())
      throw ir::CompileError(stmt.target->loc, "cannot assign to '" + unparse(*stmt.target) +
                                                   "' with an operator: it is no number");
    Operand result =
        operatorBinary(stmt.op, current, lower(*stmt.value), stmt.loc, augmentedSource(stmt));
    return storeField(*field, result, *stmt.target);
  }
  if (auto *subscript = stmt.target->as<SubscriptExpr>()) {
    Operand array = lower(*subscript->value);
    if (isFragmentElements(array)) {
      Operand index = lower(*subscript->index);
      Operand current = fragmentElement(array, index, stmt.loc);
      Operand result =
          operatorBinary(stmt.op, current, lower(*stmt.value), stmt.loc, augmentedSource(stmt));
      return storeFragmentElement(array, index, result, stmt.loc);
    }
    std::vector<ir::Value *> indices = arrayIndices(array, *subscript);
    checkWritable(array, *stmt.target);
    if (array.type().isVectorArray())
      throw ir::CompileError(stmt.target->loc, "cannot assign to '" + unparse(*stmt.target) +
                                                   "' with an operator: vectors have no "
                                                   "arithmetic, as in Numba");
    std::vector<ir::Value *> operands = indices;
    operands.insert(operands.begin(), array.value);
    ir::Type element = ir::Type::scalar(array.type().scalarKind());
    Operand current =
        Operand::scalar(at(stmt.loc).create(ir::Opcode::Load, element, operands)->result());
    Operand result =
        operatorBinary(stmt.op, current, lower(*stmt.value), stmt.loc, augmentedSource(stmt));
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
  unrolledTargets_.erase(name);
  LocalType type = localTypeOf(value, name, loc);
  auto [it, inserted] = observed_.locals.try_emplace(name, type);
  if (!inserted)
    it->second = unify(it->second, type, name, loc);
  // The runs so far may have seen assignments this run has not reached yet.
  if (auto guessed = guess_.locals.find(name); guessed != guess_.locals.end())
    unify(guessed->second, type, name, loc);
  LocalType &slot = ssaType(name, type);
  if (slot.kind != type.kind)
    slot = type; // replaces the placeholder of a read that came first in this run
  writeSlots(name, value, slot, loc);
}

void FunctionLowerer::writeSlots(const std::string &slot, const Operand &value,
                                 const LocalType &type, const Location &loc) {
  switch (type.kind) {
  case LocalType::Kind::Array: {
    // An array variable is bound to its one array, so that what the frontend knows of it (a
    // local array's shape, a view's extents) stays known where it is read. One that holds
    // more than one array (reassigned, swapped) is an SSA variable from the next run on.
    if (guess_.reboundArrays.count(slot)) {
      observed_.reboundArrays.insert(slot);
      Operand held = value.type() == type.array ? value : sameShapeView(value, type.array, 0, loc);
      ssa_->write(slot, builder_.block(), held.value);
      return;
    }
    auto [bound, fresh] = arrays_.try_emplace(slot, value);
    if (!fresh && bound->second.value != value.value) {
      observed_.reboundArrays.insert(slot);
      bound->second = value;
    }
    return;
  }
  case LocalType::Kind::Tuple:
    for (size_t i = 0; i < type.elements.size(); ++i)
      writeSlots(slot + "#" + std::to_string(i), value.elements[i], type.elements[i], loc);
    return;
  case LocalType::Kind::Scalar:
    ssa_->write(slot, builder_.block(), convert(value, type.scalar.kind));
    return;
  case LocalType::Kind::Vector:
    ssa_->write(slot, builder_.block(), value.value);
    return;
  }
}

void FunctionLowerer::unbindLoopArrays(std::map<std::string, Operand, std::less<>> before) {
  for (const auto &[slot, value] : arrays_)
    if (!before.count(slot))
      loopArrays_.insert_or_assign(slot, value);
  arrays_ = std::move(before);
}

Operand FunctionLowerer::readLocal(const std::string &name, const Location &loc) {
  if (auto it = unrolledTargets_.find(name); it != unrolledTargets_.end())
    return it->second;
  // Never assigned on a path lowered so far: a later run knows its type, or it is unbound.
  LocalType placeholder;
  placeholder.scalar = {ir::ScalarKind::Int64, true};
  std::optional<Operand> value = readSlots(name, ssaType(name, placeholder));
  if (!value)
    throw ir::CompileError(loc, "local variable '" + std::string(sourceVariableName(name)) +
                                    "' is referenced before assignment");
  return *value;
}

std::optional<Operand> FunctionLowerer::readSlots(const std::string &slot, const LocalType &type) {
  switch (type.kind) {
  case LocalType::Kind::Array: {
    if (guess_.reboundArrays.count(slot)) {
      ir::Value *v = ssa_->read(slot, type.array, builder_.block());
      if (ssa_->isUndefined(v))
        return std::nullopt;
      return Operand::array(v);
    }
    if (auto it = arrays_.find(slot); it != arrays_.end())
      return it->second;
    // Bound by a loop's body and read after it: one array per iteration, so an SSA variable
    // from the next run on; this run, which is only for types, reads the last one bound.
    if (auto it = loopArrays_.find(slot); it != loopArrays_.end()) {
      observed_.reboundArrays.insert(slot);
      return it->second;
    }
    return std::nullopt;
  }
  case LocalType::Kind::Tuple: {
    std::vector<Operand> elements;
    for (size_t i = 0; i < type.elements.size(); ++i) {
      std::optional<Operand> element = readSlots(slot + "#" + std::to_string(i), type.elements[i]);
      if (!element)
        return std::nullopt;
      elements.push_back(*element);
    }
    Operand tuple = Operand::tuple(std::move(elements));
    tuple.tupleClass = type.tupleClass;
    tuple.fields = type.fields;
    return tuple;
  }
  case LocalType::Kind::Scalar: {
    ir::Value *v = ssa_->read(slot, ir::Type::scalar(type.scalar.kind), builder_.block());
    if (ssa_->isUndefined(v))
      return std::nullopt;
    return Operand::scalar(v, type.scalar.weak);
  }
  case LocalType::Kind::Vector: {
    ir::Value *v = ssa_->read(slot, type.vector, builder_.block());
    if (ssa_->isUndefined(v))
      return std::nullopt;
    return v->type().isFragment() ? Operand::fragment(v) : Operand::vector(v);
  }
  }
  return std::nullopt;
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
  std::map<std::string, Operand, std::less<>> arraysBefore = arrays_;
  loops_.push_back({header, exit});
  lowerBody(stmt.body);
  loops_.pop_back();
  unbindLoopArrays(arraysBefore);
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

void FunctionLowerer::lowerReturn(const ReturnStmt &stmt) {
  bool kernel = kind_ == ir::Function::Kind::Kernel;
  Operand value = stmt.value ? lower(*stmt.value) : Operand();
  at(stmt.loc);
  const std::optional<LocalType> &returned = guess_.returns.value;
  if (value.kind == Operand::Kind::None) {
    observed_.returns.none = true;
    if (!kernel && returned && guess_.returns.none)
      throw ir::CompileError(stmt.loc, "function '" + fn_.def->name +
                                           "' returns a value on some paths and None on others");
    if (function_->returnType().isVoid())
      builder_.ret();
    else
      builder_.ret(builder_.zero(function_->returnType()));
  } else {
    if (kernel)
      throw ir::CompileError(stmt.loc, "a kernel cannot return a value ('return " +
                                           unparse(*stmt.value) +
                                           "'); write results into an array argument");
    LocalType type = localTypeOf(value, "return", stmt.value->loc);
    std::vector<ir::ScalarKind> leaves;
    bool numbers = value.isScalar() || value.kind == Operand::Kind::Vector ||
                   value.kind == Operand::Kind::Tuple;
    for (std::vector<LocalType> pending{type}; numbers && !pending.empty();) {
      LocalType next = std::move(pending.back());
      pending.pop_back();
      numbers = next.kind != LocalType::Kind::Array;
      pending.insert(pending.end(), next.elements.begin(), next.elements.end());
    }
    if (!numbers)
      throw ir::CompileError(stmt.value->loc,
                             "device functions can return only numbers, vectors and tuples of "
                             "them, not '" +
                                 describe(value) + "'");
    std::optional<LocalType> &observed = observed_.returns.value;
    observed = observed ? unify(*observed, type, "return value of '" + fn_.def->name + "'",
                                stmt.value->loc)
                        : type;
    if (returned && returned->kind == LocalType::Kind::Tuple) {
      unify(*returned, type, "return value of '" + fn_.def->name + "'", stmt.value->loc);
      unsigned next = firstReturnSlot_;
      storeReturnedTuple(value, *returned, next);
      builder_.ret();
    } else if (value.kind == Operand::Kind::Vector && function_->returnType() == value.type()) {
      builder_.ret(value.value);
    } else if (function_->returnType().isVoid() || !value.isScalar()) {
      builder_.ret();
    } else {
      builder_.ret(convert(value, function_->returnType().scalarKind()));
    }
  }
  enter(newUnreachableBlock());
}

void FunctionLowerer::storeReturnedTuple(const Operand &value, const LocalType &type,
                                         unsigned &next) {
  if (type.kind == LocalType::Kind::Tuple) {
    for (size_t i = 0; i < type.elements.size(); ++i)
      storeReturnedTuple(value.elements[i], type.elements[i], next);
    return;
  }
  ir::Value *slot = function_->entry()->argument(next++);
  ir::Type i64 = ir::Type::scalar(ir::ScalarKind::Int64);
  if (type.kind == LocalType::Kind::Vector) {
    for (unsigned lane = 0; lane < type.vector.lanes(); ++lane)
      builder_.create(
          ir::Opcode::Store, ir::Type(),
          {builder_.extractLane(value.value, lane), slot, builder_.intConstant(i64, lane)});
    return;
  }
  builder_.create(ir::Opcode::Store, ir::Type(),
                  {convert(value, type.scalar.kind), slot, builder_.intConstant(i64, 0)});
}

void FunctionLowerer::lowerImplicitReturn() {
  if (!reachable())
    return;
  ReturnStmt implicit(fn_.def->loc, nullptr);
  lowerReturn(implicit);
}

} // namespace kaji::frontend
