#include "ModuleConstants.h"

#include "lowering/PythonIntegers.h"

#include "kaji/frontend/Signature.h"

#include <cmath>
#include <string>

namespace kaji::frontend {

namespace {

constexpr PythonInt kLargestExactDouble = PythonInt(1) << 53;

bool isWeakInt(const GlobalValue &v) {
  return v.kind == GlobalValue::Kind::Constant && v.weak && ir::isInteger(v.constantType);
}

bool isWeakFloat(const GlobalValue &v) {
  return v.kind == GlobalValue::Kind::Constant && v.weak && ir::isFloat(v.constantType);
}

PythonInt intOf(const GlobalValue &v) {
  return v.constantType == ir::ScalarKind::UInt64 ? PythonInt(uint64_t(v.intValue))
                                                  : PythonInt(v.intValue);
}

std::optional<GlobalValue> weakInt(PythonInt value) {
  std::optional<ir::ScalarKind> kind = weakIntegerKind(value);
  if (!kind)
    return std::nullopt;
  return GlobalValue::intConstant(*kind, int64_t(value), true);
}

// A Python int as a float, when the conversion is exact (so no rounding rule is involved).
std::optional<double> exactDouble(const GlobalValue &v) {
  if (isWeakFloat(v))
    return v.floatValue;
  if (!isWeakInt(v) || intOf(v) > kLargestExactDouble || intOf(v) < -kLargestExactDouble)
    return std::nullopt;
  return double(intOf(v));
}

std::optional<GlobalValue> binary(BinaryOperator op, const GlobalValue &a, const GlobalValue &b) {
  if (isWeakInt(a) && isWeakInt(b) && op != BinaryOperator::Div) {
    ExactResult result = exactBinary(op, intOf(a), intOf(b));
    if (result.kind != ExactResult::Kind::Value)
      return std::nullopt;
    return weakInt(result.value);
  }
  std::optional<double> x = exactDouble(a), y = exactDouble(b);
  if (!x || !y)
    return std::nullopt;
  // IEEE double arithmetic is Python's float arithmetic for these; //, % and ** on floats
  // have rules of their own and are left to the kernel.
  switch (op) {
  case BinaryOperator::Add:
    return GlobalValue::floatConstant(ir::ScalarKind::Float64, *x + *y, true);
  case BinaryOperator::Sub:
    return GlobalValue::floatConstant(ir::ScalarKind::Float64, *x - *y, true);
  case BinaryOperator::Mul:
    return GlobalValue::floatConstant(ir::ScalarKind::Float64, *x * *y, true);
  case BinaryOperator::Div:
    if (*y == 0)
      return std::nullopt; // ZeroDivisionError in Python
    return GlobalValue::floatConstant(ir::ScalarKind::Float64, *x / *y, true);
  default:
    return std::nullopt;
  }
}

std::optional<GlobalValue> negated(const GlobalValue &v) {
  if (isWeakInt(v))
    return weakInt(-intOf(v));
  if (isWeakFloat(v))
    return GlobalValue::floatConstant(ir::ScalarKind::Float64, -v.floatValue, true);
  return std::nullopt;
}

// numpy's scalar constructor of a Python number. Only conversions with one obvious answer
// are evaluated: float16, an int out of the type's range (an OverflowError in NumPy 2) and
// a float to an int (truncation) are left to the kernel.
std::optional<GlobalValue> constructed(ir::ScalarKind type, const GlobalValue &v) {
  if (type == ir::ScalarKind::Float32 || type == ir::ScalarKind::Float64) {
    std::optional<double> value = isWeakFloat(v) ? std::optional(v.floatValue)
                                  : isWeakInt(v) ? exactDouble(v)
                                                 : std::nullopt;
    if (!value)
      return std::nullopt;
    double rounded = type == ir::ScalarKind::Float32 ? double(float(*value)) : *value;
    return GlobalValue::floatConstant(type, rounded, false);
  }
  if (ir::isInteger(type) && isWeakInt(v) && fitsIn(intOf(v), type))
    return GlobalValue::intConstant(type, int64_t(intOf(v)), false);
  return std::nullopt;
}

} // namespace

std::string memberNamed(const Expr &expr, const Environment &env) {
  if (auto *name = expr.as<NameExpr>()) {
    const GlobalValue *bound = env.lookup(name->id);
    return bound && bound->kind == GlobalValue::Kind::Builtin ? bound->qualifiedName : "";
  }
  if (auto *attribute = expr.as<AttributeExpr>()) {
    auto *base = attribute->value->as<NameExpr>();
    const GlobalValue *module = base ? env.lookup(base->id) : nullptr;
    if (module && module->kind == GlobalValue::Kind::Module)
      return module->qualifiedName + "." + attribute->attr;
  }
  return "";
}

std::optional<ir::ScalarKind> scalarTypeNamed(const Expr &expr, const Environment &env) {
  std::string text = memberNamed(expr, env);
  if (text.starts_with("numpy."))
    return scalarKindFromNumpyName(text.substr(6));
  if (text.starts_with("kaji."))
    return scalarKindFromSignatureName(text.substr(5));
  return std::nullopt;
}

std::optional<GlobalValue> evaluateModuleConstant(const Expr &value, const Environment &env) {
  if (auto *tuple = value.as<TupleExpr>()) {
    std::vector<GlobalValue> elements;
    for (const ExprPtr &element : tuple->elts) {
      std::optional<GlobalValue> constant = evaluateModuleConstant(*element, env);
      if (!constant)
        return std::nullopt;
      elements.push_back(std::move(*constant));
    }
    return GlobalValue::tuple(std::move(elements));
  }
  if (auto *i = value.as<IntLiteralExpr>())
    return weakInt(PythonInt(i->value));
  if (auto *f = value.as<FloatLiteralExpr>(); f && !f->imaginary) // no complex constants yet
    return GlobalValue::floatConstant(ir::ScalarKind::Float64, f->value, true);
  if (auto *b = value.as<BoolLiteralExpr>())
    return GlobalValue::intConstant(ir::ScalarKind::Bool, b->value, true);
  if (auto *name = value.as<NameExpr>()) {
    const GlobalValue *bound = env.lookup(name->id);
    if (bound &&
        (bound->kind == GlobalValue::Kind::Constant || bound->kind == GlobalValue::Kind::Tuple))
      return *bound;
    return std::nullopt;
  }
  if (auto *unary = value.as<UnaryOpExpr>()) {
    std::optional<GlobalValue> operand = evaluateModuleConstant(*unary->operand, env);
    if (!operand)
      return std::nullopt;
    if (unary->op == UnaryOperator::Minus)
      return negated(*operand);
    if (unary->op == UnaryOperator::Plus && (isWeakInt(*operand) || isWeakFloat(*operand)))
      return operand;
    return std::nullopt;
  }
  if (auto *binop = value.as<BinOpExpr>()) {
    // A chain `a + b + c ...` in a loop, not one nested call per term.
    std::vector<const BinOpExpr *> chain = leftChain(*binop);
    std::optional<GlobalValue> result = evaluateModuleConstant(*chain.front()->lhs, env);
    for (const BinOpExpr *operation : chain) {
      std::optional<GlobalValue> rhs =
          result ? evaluateModuleConstant(*operation->rhs, env) : std::nullopt;
      if (!rhs)
        return std::nullopt;
      result = binary(operation->op, *result, *rhs);
    }
    return result;
  }
  if (auto *call = value.as<CallExpr>(); call && memberNamed(*call->func, env) == "numpy.dtype")
    return evaluateRecordDtype(*call, env);
  if (auto *call = value.as<CallExpr>(); call && call->args.size() == 1 && call->keywords.empty()) {
    std::optional<ir::ScalarKind> type = scalarTypeNamed(*call->func, env);
    std::optional<GlobalValue> argument =
        type ? evaluateModuleConstant(*call->args[0], env) : std::nullopt;
    if (!argument)
      return std::nullopt;
    return constructed(*type, *argument);
  }
  return std::nullopt;
}

} // namespace kaji::frontend
