// Expressions: names, literals, operators with numpy/NEP 50 promotion, short-circuit
// logic, subscripts, and the dispatch of calls (device functions: DeviceFunctionCalls.cpp).
#include "ComplexArithmetic.h"
#include "FunctionLowerer.h"

#include "kaji/ir/Constants.h"
#include "kaji/ir/Passes.h"

#include <algorithm>
#include <cstdint>
#include <utility>

namespace kaji::frontend {
namespace {

using ir::ScalarKind;

const char *verb(BinaryOperator op) {
  switch (op) {
  case BinaryOperator::Add:
    return "add";
  case BinaryOperator::Sub:
    return "subtract";
  case BinaryOperator::Mul:
    return "multiply";
  case BinaryOperator::Div:
    return "divide";
  case BinaryOperator::FloorDiv:
    return "floor-divide";
  case BinaryOperator::Mod:
    return "take the remainder of";
  case BinaryOperator::Pow:
    return "raise";
  case BinaryOperator::MatMul:
    return "matrix-multiply";
  case BinaryOperator::LShift:
  case BinaryOperator::RShift:
    return "shift";
  case BinaryOperator::BitAnd:
    return "bitwise-and";
  case BinaryOperator::BitOr:
    return "bitwise-or";
  case BinaryOperator::BitXor:
    return "bitwise-xor";
  }
  return "combine";
}

ir::Opcode opcodeOf(BinaryOperator op) {
  switch (op) {
  case BinaryOperator::Add:
    return ir::Opcode::Add;
  case BinaryOperator::Sub:
    return ir::Opcode::Sub;
  case BinaryOperator::Mul:
    return ir::Opcode::Mul;
  case BinaryOperator::Div:
    return ir::Opcode::Div;
  case BinaryOperator::FloorDiv:
    return ir::Opcode::FloorDiv;
  case BinaryOperator::Mod:
    return ir::Opcode::Mod;
  case BinaryOperator::Pow:
    return ir::Opcode::Pow;
  case BinaryOperator::LShift:
    return ir::Opcode::Shl;
  case BinaryOperator::RShift:
    return ir::Opcode::Shr;
  case BinaryOperator::BitAnd:
    return ir::Opcode::And;
  case BinaryOperator::BitOr:
    return ir::Opcode::Or;
  case BinaryOperator::BitXor:
  case BinaryOperator::MatMul:
    break;
  }
  return ir::Opcode::Xor;
}

ir::CmpPredicate predicateOf(CompareOperator op) {
  switch (op) {
  case CompareOperator::Eq:
    return ir::CmpPredicate::Eq;
  case CompareOperator::NotEq:
    return ir::CmpPredicate::Ne;
  case CompareOperator::Lt:
    return ir::CmpPredicate::Lt;
  case CompareOperator::LtE:
    return ir::CmpPredicate::Le;
  case CompareOperator::Gt:
    return ir::CmpPredicate::Gt;
  default:
    return ir::CmpPredicate::Ge;
  }
}

bool isPythonBuiltin(std::string_view name) {
  for (std::string_view builtin :
       {"range", "len", "min", "max", "abs", "int", "float", "bool", "complex", "print", "round",
        "enumerate", "zip", "pow", "isinstance", "tuple"})
    if (name == builtin)
      return true;
  return false;
}

// Replaces an operation just appended by the constant it folds to, if it folds.
ir::Value *folded(ir::Builder &builder, ir::Operation *op) {
  auto value = ir::foldOperation(*op);
  if (!value)
    return op->result();
  ir::Block *block = op->parent();
  ir::Type type = op->resultType();
  block->take(block->operations().size() - 1);
  return builder.create(ir::Opcode::Constant, type, {}, *value)->result();
}

bool branchesTo(const ir::Block *block, const ir::Block *target) {
  if (ir::Operation *terminator = block->terminator())
    for (const ir::Successor &successor : terminator->successors())
      if (successor.block == target)
        return true;
  return false;
}

} // namespace

Operand FunctionLowerer::intConstant(ScalarKind kind, int64_t value, bool weak) {
  return Operand::scalar(builder_.intConstant(ir::Type::scalar(kind), value), weak);
}

Operand FunctionLowerer::floatConstant(ScalarKind kind, double value, bool weak) {
  return Operand::scalar(builder_.floatConstant(ir::Type::scalar(kind), value), weak);
}

std::optional<int64_t> FunctionLowerer::constantInt(const Operand &value) const {
  if (!value.isScalar() || value.type().isFloat())
    return std::nullopt;
  return ir::intConstant(value.value);
}

ir::Value *FunctionLowerer::convert(const Operand &value, ScalarKind to) {
  ir::Type type = ir::Type::scalar(to);
  if (value.type() == type)
    return value.value;
  if (ir::isComplex(to))
    return toComplex(value, to);
  if (value.type().isComplex())
    throw ir::CompileError(builder_.location(),
                           "cannot convert " + describe(value) + " to " +
                               std::string(ir::numpyName(to)) +
                               " (the imaginary part would be lost); take .real or abs() of it");
  if (ir::isFloat8(to) || ir::isFloat8(value.type().scalarKind()))
    return convertFloat8(value, to);
  return folded(builder_, builder_.create(ir::Opcode::Cast, type, {value.value}));
}

Operand FunctionLowerer::convertScalar(const Operand &value, ScalarType to) {
  return Operand::scalar(convert(value, to.kind), to.weak);
}

Operand FunctionLowerer::lower(const Expr &expr) {
  Operand result = lowerExact(expr);
  requireNarrow(result, expr.loc, [&expr] { return unparse(expr); });
  return result;
}

void FunctionLowerer::requireNarrow(const Operand &operand, const Location &loc,
                                    const std::function<std::string()> &source) {
  if (operand.wideInteger)
    throw ir::CompileError(loc, "Python integer " + toString(*operand.wideInteger) + " in '" +
                                    source() +
                                    "' does not fit in 64 bits (kernels hold Python ints as "
                                    "int64, or uint64 above 2**63 - 1)");
}

Operand FunctionLowerer::lowerExact(const Expr &expr) {
  at(expr.loc);
  switch (expr.kind) {
  case ExprKind::Name:
    return lowerName(*expr.as<NameExpr>());
  case ExprKind::IntLiteral: {
    uint64_t value = expr.as<IntLiteralExpr>()->value;
    return intConstant(value > uint64_t(INT64_MAX) ? ScalarKind::UInt64 : ScalarKind::Int64,
                       int64_t(value), true);
  }
  case ExprKind::FloatLiteral: {
    auto *literal = expr.as<FloatLiteralExpr>();
    Operand value = floatConstant(ScalarKind::Float64, literal->value, true);
    if (!literal->imaginary)
      return value;
    Operand zero = floatConstant(ScalarKind::Float64, 0.0, true);
    Operand imaginary =
        Operand::scalar(builder_
                            .create(ir::Opcode::Complex, ir::Type::scalar(ScalarKind::Complex128),
                                    {zero.value, value.value})
                            ->result(),
                        true);
    return imaginary;
  }
  case ExprKind::BoolLiteral:
    return Operand::scalar(builder_.boolConstant(expr.as<BoolLiteralExpr>()->value), true);
  case ExprKind::NoneLiteral:
    return Operand();
  case ExprKind::StringLiteral:
    return Operand::named(Operand::Kind::String, expr.as<StringLiteralExpr>()->value);
  case ExprKind::BinOp:
    return lowerBinary(*expr.as<BinOpExpr>());
  case ExprKind::UnaryOp:
    return lowerUnary(*expr.as<UnaryOpExpr>());
  case ExprKind::BoolOp:
    return lowerBoolOp(*expr.as<BoolOpExpr>());
  case ExprKind::Compare:
    return lowerCompare(*expr.as<CompareExpr>());
  case ExprKind::IfExp:
    return lowerIfExp(*expr.as<IfExpExpr>());
  case ExprKind::Call:
    return lowerCall(*expr.as<CallExpr>());
  case ExprKind::Subscript:
    return lowerSubscript(*expr.as<SubscriptExpr>());
  case ExprKind::Slice:
    throw ir::CompileError(expr.loc, "array slicing inside kernels is not supported yet");
  case ExprKind::Attribute: {
    auto *attr = expr.as<AttributeExpr>();
    return attribute(lower(*attr->value), attr->attr, expr);
  }
  case ExprKind::Tuple: {
    std::vector<Operand> elements;
    for (const ExprPtr &element : expr.as<TupleExpr>()->elts)
      elements.push_back(lower(*element));
    requireTupleSize(elements, expr.loc, [] { return std::string("this tuple display"); });
    return Operand::tuple(std::move(elements));
  }
  case ExprKind::List:
    throw ir::CompileError(expr.loc, "lists are not supported in kernels");
  case ExprKind::Starred:
    throw ir::CompileError(expr.loc, "'" + unparse(expr) +
                                         "': kernels unpack a tuple only into a call's "
                                         "positional arguments, as in f(*t)");
  }
  throw ir::CompileError(expr.loc, "unsupported expression '" + unparse(expr) + "'");
}

Operand FunctionLowerer::lowerName(const NameExpr &expr) {
  const std::string &name = variable(expr);
  if (auto constant = compileTimeParameters_.find(name); constant != compileTimeParameters_.end())
    return constant->second;
  if (locals_.count(name))
    return readLocal(name, expr.loc);
  if (const GlobalValue *global = env_->lookup(expr.id))
    return resolveGlobal(*global, expr.loc);
  if (isPythonBuiltin(expr.id))
    return Operand::named(Operand::Kind::Builtin, "builtins." + expr.id);
  if (auto assigned = env_->unevaluated.find(expr.id); assigned != env_->unevaluated.end())
    throw ir::CompileError(expr.loc, "'" + expr.id + "' is assigned at line " +
                                         std::to_string(assigned->second.line) +
                                         " a value kaji-compile cannot evaluate from the file's "
                                         "text (it takes literals, arithmetic on them and numpy "
                                         "scalar constructors such as np.float32(0.5))");
  throw ir::CompileError(expr.loc, "name '" + expr.id + "' is not defined");
}

Operand FunctionLowerer::lowerBinary(const BinOpExpr &expr) {
  // A chain `a + b + c ...` in a loop, left to right as Python evaluates it.
  std::vector<const BinOpExpr *> chain = leftChain(expr);
  Operand result = lowerExact(*chain.front()->lhs);
  for (const BinOpExpr *operation : chain) {
    Operand rhs = lowerExact(*operation->rhs);
    result = operatorBinary(operation->op, result, rhs, operation->loc,
                            [operation] { return unparse(*operation); });
  }
  return result;
}

Operand FunctionLowerer::operatorBinary(BinaryOperator op, const Operand &lhs, const Operand &rhs,
                                        const Location &loc,
                                        const std::function<std::string()> &source) {
  bool divides =
      op == BinaryOperator::Div || op == BinaryOperator::FloorDiv || op == BinaryOperator::Mod;
  if (divides && context_.options().divisionByZeroRaises && lhs.isScalar() && rhs.isScalar()) {
    at(loc);
    ir::Value *divisor = rhs.value;
    if (!ir::isComplex(rhs.scalarType().kind))
      raiseUnless(builder_.cmp(ir::CmpPredicate::Ne, divisor, builder_.zero(divisor->type())),
                  "ZeroDivisionError", "division by zero", loc);
  }
  return binary(op, lhs, rhs, loc, source);
}

Operand FunctionLowerer::binary(BinaryOperator op, const Operand &lhs, const Operand &rhs,
                                const Location &loc, const std::function<std::string()> &source) {
  auto fail = [&] {
    return ir::CompileError(loc, std::string("cannot ") + verb(op) + " '" + describe(lhs) +
                                     "' and '" + describe(rhs) + "' in '" + source() + "'");
  };
  if (op == BinaryOperator::MatMul)
    throw ir::CompileError(loc,
                           "the '@' operator is not supported in kernels ('" + source() + "')");
  if (std::optional<Operand> tuple = tupleBinary(op, lhs, rhs, loc, source))
    return *tuple;
  if (!lhs.isScalar() || !rhs.isScalar() || lhs.isPlainEnumMember() || rhs.isPlainEnumMember())
    throw fail();
  if (std::optional<Operand> exact = foldWeakIntegers(op, lhs, rhs, loc, source))
    return *exact;
  for (const Operand *operand : {&lhs, &rhs}) {
    requireNarrow(*operand, loc, source);
    requireNotFloat8(*operand, loc, source);
  }
  ScalarType type = promote(lhs.scalarType(), rhs.scalarType());
  if (ir::isComplex(type.kind))
    return complexBinary(op, lhs, rhs, type, loc, source);
  bool bitwise =
      op == BinaryOperator::BitAnd || op == BinaryOperator::BitOr || op == BinaryOperator::BitXor;
  bool shift = op == BinaryOperator::LShift || op == BinaryOperator::RShift;
  if ((bitwise || shift) && ir::isFloat(type.kind))
    throw fail();
  if (op == BinaryOperator::Div && !ir::isFloat(type.kind))
    type.kind = ScalarKind::Float64; // true division
  if (type.kind == ScalarKind::Bool && !bitwise)
    type.kind = ScalarKind::Int64; // True + True == 2
  requireLiteralsFit(type, lhs, rhs, loc, source);
  ir::Value *a = convert(lhs, type.kind);
  ir::Value *b = convert(rhs, type.kind);
  ir::Operation *result = at(loc).create(opcodeOf(op), ir::Type::scalar(type.kind), {a, b});
  return Operand::scalar(folded(builder_, result), type.weak);
}

void FunctionLowerer::requireLiteralsFit(ScalarType type, const Operand &lhs, const Operand &rhs,
                                         const Location &loc,
                                         const std::function<std::string()> &source) {
  for (const Operand *operand : {&lhs, &rhs}) {
    std::optional<PythonInt> literal = weakIntegerValue(*operand);
    if (literal && !type.weak && ir::isInteger(type.kind) && !fitsIn(*literal, type.kind))
      throw ir::CompileError(loc, "Python integer " + toString(*literal) + " out of bounds for " +
                                      std::string(ir::numpyName(type.kind)) + " in '" + source() +
                                      "': the literal takes the type of the other operand, " +
                                      describe(operand == &lhs ? rhs : lhs) +
                                      ", as in NumPy 2; convert one of them to a wider type");
  }
}

Operand FunctionLowerer::weakInteger(PythonInt value, const Location &loc) {
  at(loc);
  if (std::optional<ScalarKind> kind = weakIntegerKind(value))
    return intConstant(*kind, int64_t(value), true);
  Operand wide = intConstant(ScalarKind::UInt64, int64_t(value), true);
  wide.wideInteger = value;
  return wide;
}

std::optional<Operand>
FunctionLowerer::foldWeakIntegers(BinaryOperator op, const Operand &lhs, const Operand &rhs,
                                  const Location &loc, const std::function<std::string()> &source) {
  std::optional<PythonInt> a = weakIntegerValue(lhs), b = weakIntegerValue(rhs);
  if (!a || !b)
    return std::nullopt;
  ExactResult exact = exactBinary(op, *a, *b);
  switch (exact.kind) {
  case ExactResult::Kind::Value:
    return weakInteger(exact.value, loc);
  case ExactResult::Kind::Overflow:
    throw ir::CompileError(loc, "the value of '" + source() +
                                    "' does not fit in 64 bits (kernels hold Python ints as "
                                    "int64, or uint64 above 2**63 - 1)");
  case ExactResult::Kind::Undefined:
    break;
  }
  return std::nullopt;
}

Operand FunctionLowerer::lowerUnary(const UnaryOpExpr &expr) {
  return unary(expr.op, lowerExact(*expr.operand), *expr.operand, expr.loc,
               [&expr] { return unparse(expr); });
}

Operand FunctionLowerer::unary(UnaryOperator op, const Operand &operand, const Expr &operandNode,
                               const Location &loc, const std::function<std::string()> &source) {
  at(loc);
  if (operand.isPlainEnumMember() && op != UnaryOperator::Not)
    throw ir::CompileError(loc, "bad operand '" + describe(operand) + "' for unary '" +
                                    std::string(spelling(op)) + "' in '" + source() + "'");
  if (std::optional<PythonInt> value = weakIntegerValue(operand);
      value && op != UnaryOperator::Not) {
    PythonInt result = op == UnaryOperator::Minus    ? -*value
                       : op == UnaryOperator::Invert ? ~*value
                                                     : *value;
    return weakInteger(result, loc);
  }
  requireNarrow(operand, loc, source);
  requireNotFloat8(operand, loc, source);
  if (op == UnaryOperator::Not) {
    ir::Value *t = truth(operand, operandNode);
    return Operand::scalar(folded(builder_, builder_.create(ir::Opcode::Not, t->type(), {t})));
  }
  if (!operand.isScalar() ||
      (op == UnaryOperator::Invert && (operand.type().isFloat() || operand.type().isComplex())))
    throw ir::CompileError(loc, std::string("bad operand type for unary ") + spelling(op) + ": '" +
                                    describe(operand) + "' in '" + source() + "'");
  ScalarType type = operand.scalarType();
  if (type.kind == ScalarKind::Bool)
    type.kind = ScalarKind::Int64; // -True == -1, ~True == -2
  if (ir::isComplex(type.kind) && op == UnaryOperator::Minus)
    return Operand::scalar(ComplexArithmetic(builder_).neg(operand.value), type.weak);
  Operand value = convertScalar(operand, type);
  if (op == UnaryOperator::Plus)
    return value;
  ir::Opcode opcode = op == UnaryOperator::Minus ? ir::Opcode::Neg : ir::Opcode::Not;
  ir::Operation *result = at(loc).create(opcode, value.type(), {value.value});
  return Operand::scalar(folded(builder_, result), type.weak);
}

ir::Value *FunctionLowerer::truth(const Operand &value, const Expr &node) {
  at(node.loc);
  switch (value.kind) {
  case Operand::Kind::Scalar: {
    if (value.isPlainEnumMember())
      return builder_.boolConstant(true);
    if (ir::isFloat8(value.type().scalarKind())) // CUDA's explicit operator bool: not zero
      return truth(Operand::scalar(convert(value, ScalarKind::Float32)), node);
    if (value.type().isBool())
      return value.value;
    if (value.type().isComplex()) {
      ir::Value *zero = toComplex(floatConstant(ir::componentKind(value.type().scalarKind()), 0.0),
                                  value.type().scalarKind());
      return compareComplex(CompareOperator::NotEq, value, Operand::scalar(zero), node);
    }
    Operand zero = value.type().isFloat() ? floatConstant(value.type().scalarKind(), 0.0)
                                          : intConstant(value.type().scalarKind(), 0);
    return folded(builder_, builder_.create(ir::Opcode::Cmp, ir::Type::scalar(ScalarKind::Bool),
                                            {value.value, zero.value}, ir::CmpPredicate::Ne));
  }
  case Operand::Kind::Array:
    throw ir::CompileError(node.loc,
                           "the truth value of an array is ambiguous in '" + unparse(node) + "'");
  case Operand::Kind::Tuple:
    return builder_.boolConstant(!value.elements.empty());
  case Operand::Kind::None:
    return builder_.boolConstant(false);
  case Operand::Kind::String:
    return builder_.boolConstant(!value.name.empty());
  default:
    return builder_.boolConstant(true);
  }
}

void FunctionLowerer::branchOn(const Expr &test, ir::Block *ifTrue, ir::Block *ifFalse) {
  if (auto *boolOp = test.as<BoolOpExpr>()) {
    bool isAnd = boolOp->op == BoolOpExpr::Op::And;
    for (size_t i = 0; i + 1 < boolOp->values.size(); ++i) {
      ir::Block *next = newBlock();
      branchOn(*boolOp->values[i], isAnd ? next : ifTrue, isAnd ? ifFalse : next);
      ssa_->seal(next);
      enter(next);
      if (!reachable())
        return; // a constant operand decided the branch: Python evaluates no further
    }
    return branchOn(*boolOp->values.back(), ifTrue, ifFalse);
  }
  if (auto *unary = test.as<UnaryOpExpr>(); unary && unary->op == UnaryOperator::Not)
    return branchOn(*unary->operand, ifFalse, ifTrue);
  Operand value = lower(test);
  condJump(truth(value, test), ifTrue, ifFalse);
}

ScalarType FunctionLowerer::combinableType(const Operand &value, const Expr &node) const {
  if (!value.isScalar())
    throw ir::CompileError(node.loc, "'" + describe(value) + "' cannot be combined in '" +
                                         unparse(node) + "'; only numbers and bools can");
  return value.scalarType();
}

Operand FunctionLowerer::mergeValues(ir::Block *merge, const std::vector<ir::Block *> &blocks,
                                     const std::vector<Operand> &values,
                                     const std::vector<ScalarType> &operandTypes,
                                     const Expr &node) {
  // Every operand counts in the type, also one a constant condition leaves unevaluated, as
  // in Numba: the type of `1 or x` is the promotion of int and x's type, never a result of
  // folding the condition. The values that arrive are those of blocks branching to `merge`.
  // Operands promote in source order: promotion with weak types is not associative.
  ScalarType type = operandTypes.front();
  for (size_t i = 1; i < operandTypes.size(); ++i)
    type = promote(type, operandTypes[i]);
  ir::Value *argument = ssa_->addArgument(merge, ir::Type::scalar(type.kind));
  for (size_t i = 0; i < blocks.size(); ++i) {
    ir::Block *block = blocks[i];
    if (!branchesTo(block, merge))
      continue;
    // The conversion belongs before the branch that carries the value.
    auto terminator = block->take(block->operations().size() - 1);
    enter(block);
    at(node.loc);
    ir::Value *converted = convert(values[i], type.kind);
    block->append(std::move(terminator));
    ssa_->setIncoming(argument, block, converted);
  }
  enter(merge);
  return Operand::scalar(argument, type.weak);
}

Operand FunctionLowerer::mergeVectors(ir::Block *merge, const std::vector<ir::Block *> &blocks,
                                      const std::vector<Operand> &values, const Expr &node) {
  ir::Type type = values.front().type();
  for (const Operand &value : values)
    if (value.kind != Operand::Kind::Vector || value.type() != type)
      throw ir::CompileError(node.loc, "'" + describe(values.front()) + "' and '" +
                                           describe(values.back()) + "' cannot be combined in '" +
                                           unparse(node) + "'; a vector only with its own type");
  ir::Value *argument = ssa_->addArgument(merge, type);
  for (size_t i = 0; i < blocks.size(); ++i)
    if (branchesTo(blocks[i], merge))
      ssa_->setIncoming(argument, blocks[i], values[i].value);
  enter(merge);
  return Operand::vector(argument);
}

template <class Lowering> auto FunctionLowerer::inScratch(ir::Block *origin, Lowering &&lowerIt) {
  ir::Block *resume = builder_.block();
  auto &blocks = function_->blocks();
  size_t first = blocks.size();
  ir::Block *scratch = newBlock();
  ssa_->readAs(scratch, origin);
  enter(scratch);
  ir::Module *callees = std::exchange(callees_, &context_.scratch());
  auto result = lowerIt();
  callees_ = callees;
  for (size_t i = first; i < blocks.size(); ++i)
    ssa_->discard(blocks[i].get());
  blocks.erase(blocks.begin() + std::ptrdiff_t(first), blocks.end());
  enter(resume);
  return result;
}

ScalarType FunctionLowerer::lowerUnevaluated(const Expr &expr, ir::Block *origin,
                                             const Expr &node) {
  return inScratch(origin, [&] { return combinableType(lower(expr), node); });
}

void FunctionLowerer::checkUnevaluated(const Expr &expr, ir::Block *origin) {
  inScratch(origin, [&] { return lower(expr); });
}

Operand FunctionLowerer::lowerBoolOp(const BoolOpExpr &expr) {
  bool isAnd = expr.op == BoolOpExpr::Op::And;
  ir::Block *origin = builder_.block();
  ir::Block *merge = newBlock();
  std::vector<ScalarType> operandTypes;
  std::vector<ir::Block *> blocks;
  std::vector<Operand> values;
  for (size_t i = 0; i < expr.values.size(); ++i) {
    Operand value = lower(*expr.values[i]);
    blocks.push_back(builder_.block());
    values.push_back(value);
    operandTypes.push_back(combinableType(value, expr));
    if (i + 1 == expr.values.size()) {
      jump(merge);
      break;
    }
    ir::Block *next = newBlock();
    ir::Value *t = truth(value, *expr.values[i]);
    condJump(t, isAnd ? next : merge, isAnd ? merge : next);
    ssa_->seal(next);
    enter(next);
    if (!reachable()) {
      // A constant operand decided the result: Python evaluates no further.
      for (size_t rest = i + 1; rest < expr.values.size(); ++rest)
        operandTypes.push_back(lowerUnevaluated(*expr.values[rest], origin, expr));
      break;
    }
  }
  ssa_->seal(merge);
  return mergeValues(merge, blocks, values, operandTypes, expr);
}

std::optional<ir::Value *> FunctionLowerer::compareEnumMembers(CompareOperator op,
                                                               const Operand &lhs,
                                                               const Operand &rhs,
                                                               const Expr &node) {
  bool identity = op == CompareOperator::Is || op == CompareOperator::IsNot;
  bool equality = identity || op == CompareOperator::Eq || op == CompareOperator::NotEq;
  if (!(lhs.enumMember || rhs.enumMember) ||
      !(identity || lhs.isPlainEnumMember() || rhs.isPlainEnumMember()))
    return std::nullopt; // IntEnum members compare as the ints they are
  if (!equality)
    throw ir::CompileError(node.loc, "'" + std::string(spelling(op)) + "' is not defined for '" +
                                         describe(lhs) + "' and '" + describe(rhs) + "' in '" +
                                         unparse(node) + "'");
  bool wantsSame = op == CompareOperator::Eq || op == CompareOperator::Is;
  if (lhs.enumMember && rhs.enumMember) {
    bool same = lhs.enumMember->enumClass == rhs.enumMember->enumClass &&
                lhs.enumMember->enumMember == rhs.enumMember->enumMember;
    return builder_.boolConstant(same == wantsSame);
  }
  if (lhs.kind == Operand::Kind::None || rhs.kind == Operand::Kind::None)
    return builder_.boolConstant(!wantsSame);
  // A member against a plain number: a variable or parameter that was assigned a member
  // holds its value (docs/numba-compat.md), so the values compare.
  Operand lhsValue = lhs, rhsValue = rhs;
  lhsValue.enumMember = rhsValue.enumMember = nullptr;
  return compareValues(wantsSame ? CompareOperator::Eq : CompareOperator::NotEq, lhsValue, rhsValue,
                       node);
}

ir::Value *FunctionLowerer::compareValues(CompareOperator op, const Operand &lhs,
                                          const Operand &rhs, const Expr &node) {
  at(node.loc);
  if (std::optional<ir::Value *> result = compareEnumMembers(op, lhs, rhs, node))
    return *result;
  if (op == CompareOperator::Is || op == CompareOperator::IsNot) {
    bool lhsNone = lhs.kind == Operand::Kind::None, rhsNone = rhs.kind == Operand::Kind::None;
    // True and False are singletons: `flag is True` is `flag == True` for two bools.
    auto isBool = [](const Operand &operand) {
      return operand.isScalar() && operand.scalarType().kind == ScalarKind::Bool;
    };
    if (isBool(lhs) && isBool(rhs))
      return compareValues(op == CompareOperator::Is ? CompareOperator::Eq : CompareOperator::NotEq,
                           lhs, rhs, node);
    if (!lhsNone && !rhsNone)
      throw ir::CompileError(node.loc, "'" + std::string(spelling(op)) +
                                           "' is supported only against None (and between two "
                                           "bools) in kernels; use "
                                           "'==' or '!=' to compare values, in '" +
                                           unparse(node) + "'");
    return builder_.boolConstant((lhsNone && rhsNone) == (op == CompareOperator::Is));
  }
  if (op == CompareOperator::In || op == CompareOperator::NotIn) {
    if (rhs.kind != Operand::Kind::Tuple)
      throw ir::CompileError(node.loc, "the '" + std::string(spelling(op)) +
                                           "' operator takes a tuple on its right in kernels, "
                                           "not '" +
                                           describe(rhs) + "', in '" + unparse(node) + "'");
    // Python's `x in t`: any(x == e for e in t).
    ir::Value *found = builder_.boolConstant(false);
    for (const Operand &element : rhs.elements)
      found = builder_.binary(ir::Opcode::Or, found,
                              compareValues(CompareOperator::Eq, lhs, element, node));
    if (op == CompareOperator::In)
      return found;
    return folded(builder_, builder_.create(ir::Opcode::Not, found->type(), {found}));
  }
  if (lhs.kind == Operand::Kind::String && rhs.kind == Operand::Kind::String) {
    // Strings are compile-time constants (literals, and arguments of device functions, which
    // are specialised on them): Python's order of code points is UTF-8's order of bytes.
    int order = lhs.name.compare(rhs.name);
    return builder_.boolConstant(ir::comparisonHolds(predicateOf(op), order, 0));
  }
  if (!lhs.isScalar() || !rhs.isScalar())
    return compareTuples(op, lhs, rhs, node);
  for (const Operand *operand : {&lhs, &rhs})
    requireNotFloat8(*operand, node.loc, [&node] { return unparse(node); });
  if (std::optional<bool> decided = decidedComparison(predicateOf(op), lhs, rhs))
    return builder_.boolConstant(*decided);
  if (lhs.type().isComplex() || rhs.type().isComplex())
    return compareComplex(op, lhs, rhs, node);
  ScalarType type = promote(lhs.scalarType(), rhs.scalarType());
  if (ir::isFloat(type.kind) && lhs.type().isInteger() && rhs.type().isInteger())
    return compareSignedWithUnsigned(predicateOf(op), lhs, rhs);
  ir::Value *a = convert(lhs, type.kind);
  ir::Value *b = convert(rhs, type.kind);
  return folded(builder_, builder_.create(ir::Opcode::Cmp, ir::Type::scalar(ScalarKind::Bool),
                                          {a, b}, predicateOf(op)));
}

ir::Value *FunctionLowerer::compareSignedWithUnsigned(ir::CmpPredicate predicate,
                                                      const Operand &lhs, const Operand &rhs) {
  bool lhsSigned = lhs.type().isSignedInteger();
  ir::Value *signedValue = convert(lhsSigned ? lhs : rhs, ScalarKind::Int64);
  ir::Value *negative =
      folded(builder_, builder_.create(ir::Opcode::Cmp, ir::Type::scalar(ScalarKind::Bool),
                                       {signedValue, builder_.intConstant(signedValue->type(), 0)},
                                       ir::CmpPredicate::Lt));
  // Where the signed operand is not negative both are values of uint64.
  ir::Value *asUnsigned =
      folded(builder_,
             builder_.create(ir::Opcode::Cmp, ir::Type::scalar(ScalarKind::Bool),
                             {convert(lhs, ScalarKind::UInt64), convert(rhs, ScalarKind::UInt64)},
                             predicate));
  // A negative one is below every unsigned value: the result is what -1 against 0 gives.
  bool holdsWhenNegative =
      lhsSigned ? ir::comparisonHolds(predicate, -1, 0) : ir::comparisonHolds(predicate, 0, -1);
  if (holdsWhenNegative)
    return builder_.binary(ir::Opcode::Or, negative, asUnsigned);
  ir::Value *notNegative =
      folded(builder_, builder_.create(ir::Opcode::Not, negative->type(), {negative}));
  return builder_.binary(ir::Opcode::And, notNegative, asUnsigned);
}

Operand FunctionLowerer::lowerCompare(const CompareExpr &expr) {
  ir::Block *origin = builder_.block();
  Operand left = lower(*expr.left);
  if (expr.ops.size() == 1)
    return Operand::scalar(compareValues(expr.ops[0], left, lower(*expr.comparators[0]), expr));
  // `a < b < c` is `a < b and b < c` with b evaluated once.
  ir::Block *merge = newBlock();
  ir::Value *result = ssa_->addArgument(merge, ir::Type::scalar(ScalarKind::Bool));
  for (size_t i = 0; i < expr.ops.size(); ++i) {
    Operand right = lower(*expr.comparators[i]);
    ir::Value *holds = compareValues(expr.ops[i], left, right, expr);
    ir::Block *block = builder_.block();
    if (i + 1 == expr.ops.size()) {
      jump(merge);
      ssa_->setIncoming(result, block, holds);
      break;
    }
    ir::Value *no = builder_.boolConstant(false);
    ir::Block *next = newBlock();
    condJump(holds, next, merge);
    ssa_->setIncoming(result, block, no);
    ssa_->seal(next);
    enter(next);
    if (!reachable()) {
      // A comparison that is constantly false ends the chain; what follows is still
      // checked, as an unevaluated operand of `and` is (`u32 ^ 2**64-1` is an error there).
      for (size_t rest = i + 1; rest < expr.ops.size(); ++rest)
        checkUnevaluated(*expr.comparators[rest], origin);
      break;
    }
    left = right;
  }
  ssa_->seal(merge);
  enter(merge);
  return Operand::scalar(result);
}

Operand FunctionLowerer::lowerIfExp(const IfExpExpr &expr) {
  ir::Block *thenBlock = newBlock();
  ir::Block *elseBlock = newBlock();
  ir::Block *merge = newBlock();
  ir::Block *origin = builder_.block();
  branchOn(*expr.test, thenBlock, elseBlock);
  std::vector<ScalarType> operandTypes;
  ssa_->seal(thenBlock);
  ssa_->seal(elseBlock);
  std::vector<ir::Block *> blocks;
  std::vector<Operand> values;
  std::optional<PendingRecursion> pending;
  for (auto [block, branch] :
       {std::pair{thenBlock, expr.body.get()}, {elseBlock, expr.orelse.get()}}) {
    enter(block);
    if (!reachable()) { // the condition is constant: Python never evaluates this branch
      operandTypes.push_back(lowerUnevaluated(*branch, origin, expr));
      continue;
    }
    try {
      values.push_back(lower(*branch));
    } catch (const PendingRecursion &recursion) {
      // A recursive call no run has typed yet: in this run the other branch alone types the
      // expression, as a base case does (`1 if n < 2 else n * f(n - 1)`, Numba's rule).
      if (recursion.function != function_->name())
        throw;
      pending = recursion;
      pendingRecursion_ = pendingRecursion_.value_or(recursion.loc);
      enter(newUnreachableBlock());
      continue;
    }
    if (values.back().kind != Operand::Kind::Vector)
      operandTypes.push_back(combinableType(values.back(), expr));
    blocks.push_back(builder_.block());
    jump(merge);
  }
  if (values.empty() && operandTypes.empty())
    throw *pending;
  ssa_->seal(merge);
  bool vectors = std::any_of(values.begin(), values.end(), [](const Operand &value) {
    return value.kind == Operand::Kind::Vector;
  });
  // A number never merges with a vector, also one in a branch a constant condition skips.
  if (vectors && !operandTypes.empty())
    throw ir::CompileError(expr.loc,
                           "a vector and a number cannot be combined in '" + unparse(expr) + "'");
  if (vectors)
    return mergeVectors(merge, blocks, values, expr);
  return mergeValues(merge, blocks, values, operandTypes, expr);
}

Operand FunctionLowerer::lowerSubscript(const SubscriptExpr &expr) {
  Operand base = lower(*expr.value);
  if (base.kind == Operand::Kind::Tuple)
    return tupleSubscript(base, expr);
  // Color['red']: the member by its name, as Python's Enum classes give it.
  if (auto *name = expr.index->as<StringLiteralExpr>();
      name && base.kind == Operand::Kind::EnumClass)
    return attribute(base, name->value, expr);
  if (isFragmentElements(base))
    return fragmentElement(base, lower(*expr.index), expr.loc);
  requireArray(base, expr);
  if (auto *field = expr.index->as<StringLiteralExpr>(); field && base.type().isRecordArray())
    return fieldValue(fieldView(base, field->value, expr), expr.loc);
  std::vector<SubscriptItem> items = subscriptItems(expr);
  if (selectsView(base, items))
    return subscriptView(base, items, expr);
  std::vector<ir::Value *> indices = indicesOf(base, items, expr);
  at(expr.loc);
  return loadElement(base, indices);
}

Operand FunctionLowerer::loadElement(const Operand &array,
                                     const std::vector<ir::Value *> &indices) {
  std::vector<ir::Value *> operands{array.value};
  operands.insert(operands.end(), indices.begin(), indices.end());
  ir::Type element = array.type().elementType();
  ir::Value *value = builder_.create(ir::Opcode::Load, element, operands)->result();
  return element.isVector() ? Operand::vector(value) : Operand::scalar(value);
}

ir::Value *FunctionLowerer::storedElement(const Operand &array, const Operand &value,
                                          const Expr &target) {
  ir::Type element = array.type().elementType();
  bool fits = element.isVector() ? value.kind == Operand::Kind::Vector && value.type() == element
                                 : value.isScalar();
  if (!fits)
    throw ir::CompileError(target.loc, "cannot store '" + describe(value) + "' into '" +
                                           unparse(target) + "', an element of '" +
                                           describe(array) + "'");
  return element.isVector() ? value.value : convert(value, element.scalarKind());
}

std::vector<ir::Value *> FunctionLowerer::arrayIndices(const Operand &array,
                                                       const SubscriptExpr &expr) {
  requireArray(array, expr);
  std::vector<SubscriptItem> items = subscriptItems(expr);
  for (const SubscriptItem &item : items)
    if (item.slice)
      throw ir::CompileError(item.expr->loc,
                             "an operator-assignment to a slice is not supported in kernels; "
                             "assign each element, in '" +
                                 unparse(expr) + "'");
  return indicesOf(array, items, expr);
}

std::vector<ir::Value *> FunctionLowerer::indicesOf(const Operand &array,
                                                    const std::vector<SubscriptItem> &items,
                                                    const SubscriptExpr &expr) {
  checkIndexCount(array, items.size(), *expr.value, expr);
  std::vector<ir::Value *> indices;
  for (unsigned d = 0; d < items.size(); ++d)
    indices.push_back(indexValue(array, d, items[d].index, *items[d].expr, expr));
  return indices;
}

void FunctionLowerer::requireArray(const Operand &array, const SubscriptExpr &expr) {
  if (array.kind != Operand::Kind::Array)
    throw ir::CompileError(expr.loc, "'" + describe(array) + "' is not subscriptable in '" +
                                         unparse(expr) + "'");
}

void FunctionLowerer::checkIndexCount(const Operand &array, size_t count, const Expr &arrayExpr,
                                      const Expr &node) {
  unsigned ndim = array.type().ndim();
  if (count != ndim)
    throw ir::CompileError(
        node.loc, "'" + unparse(arrayExpr) + "' has " + std::to_string(ndim) + " dimension" +
                      (ndim == 1 ? "" : "s") + " but is indexed with " + std::to_string(count) +
                      (count == 1 ? " index" : " indices") + " in '" + unparse(node) + "'");
}

ir::Value *FunctionLowerer::rawIndex(const Operand &index, const Expr &indexExpr,
                                     const Expr &node) {
  if (!index.isScalar() || !index.type().isInteger())
    throw ir::CompileError(indexExpr.loc, "array indices must be integers, not '" +
                                              describe(index) + "', in '" + unparse(node) + "'");
  at(indexExpr.loc);
  // An unsigned index stays unsigned: however large, it never counts from the end.
  return convert(index, index.type().isSignedInteger() ? ScalarKind::Int64 : ScalarKind::UInt64);
}

ir::Value *FunctionLowerer::indexValue(const Operand &array, unsigned dim, const Operand &index,
                                       const Expr &indexExpr, const Expr &node) {
  ir::Value *i64 = rawIndex(index, indexExpr, node);
  if (!index.type().isSignedInteger())
    return i64;
  std::optional<int64_t> constant = constantInt(index);
  if (constant && *constant >= 0)
    return i64;
  // Negative indices count from the end, as in Python and Numba.
  ir::Value *extent = builder_
                          .create(ir::Opcode::ArrayDim, ir::Type::scalar(ScalarKind::Int64),
                                  {array.value}, int64_t(dim))
                          ->result();
  ir::Value *wrapped = builder_.binary(ir::Opcode::Add, i64, extent);
  if (constant)
    return wrapped;
  ir::Value *zero = builder_.intConstant(i64->type(), 0);
  return builder_.select(builder_.cmp(ir::CmpPredicate::Lt, i64, zero), wrapped, i64);
}

Operand FunctionLowerer::lowerCall(const CallExpr &expr) {
  if (unpacksArguments(expr))
    return callUnpackingArguments(expr);
  Operand callee = lower(*expr.func);
  switch (callee.kind) {
  case Operand::Kind::Builtin:
    if (callee.name == "int.bit_count")
      return bitCount(callee.elements.front(), expr);
    if (callee.name.starts_with("array."))
      return arrayMethod(callee.elements.front(), callee.name.substr(6), expr);
    if (callee.name == "complex.conjugate")
      return conjugate(callee.elements.front(), expr);
    return callBuiltin(callee.name, expr);
  case Operand::Kind::Function:
    // A kernel called from a kernel is compiled as a device function, as in Numba.
    return callDevice(callee.function, lowerArguments(expr), expr);
  case Operand::Kind::External:
    return callExternal(*callee.global, expr);
  case Operand::Kind::Overloaded:
    return callOverloaded(*callee.global, expr);
  case Operand::Kind::TupleClass:
    return buildNamedTuple(callee, expr);
  default:
    throw ir::CompileError(expr.loc,
                           "'" + describe(callee) + "' is not callable in '" + unparse(expr) + "'");
  }
}

} // namespace kaji::frontend
