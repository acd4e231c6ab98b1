// numpy's ufuncs that are Python's operators on numbers (np.add is +, np.greater is >), and
// those made of them (np.logical_and, np.square, np.sign, ...), called on numbers in kernels
// as Numba's CUDA target has them. They follow NumPy 2's promotion, as the operators do;
// where a ufunc differs from its operator, the difference is NumPy's: np.invert of a bool is
// `not`, np.negative, np.positive and np.sign take no bool, the logical ufuncs give a bool,
// np.less and the other order comparisons order complex numbers (Python's operators do not).
#include "FunctionLowerer.h"

#include <cmath>
#include <variant>

namespace kaji::frontend {

using ir::ScalarKind;

namespace {

enum class Form : uint8_t {
  Negative,
  Positive,
  Invert,
  LogicalAnd,
  LogicalOr,
  LogicalXor,
  LogicalNot,
  Square,
  Reciprocal,
  Sign,
  Radians,
  Degrees,
};

struct OperatorUfunc {
  std::string_view name;
  std::variant<BinaryOperator, CompareOperator, Form> operation;
};

constexpr OperatorUfunc kOperatorUfuncs[] = {
    {"add", BinaryOperator::Add},
    {"subtract", BinaryOperator::Sub},
    {"multiply", BinaryOperator::Mul},
    {"divide", BinaryOperator::Div},
    {"true_divide", BinaryOperator::Div},
    {"floor_divide", BinaryOperator::FloorDiv},
    {"remainder", BinaryOperator::Mod},
    {"mod", BinaryOperator::Mod},
    {"bitwise_and", BinaryOperator::BitAnd},
    {"bitwise_or", BinaryOperator::BitOr},
    {"bitwise_xor", BinaryOperator::BitXor},
    {"left_shift", BinaryOperator::LShift},
    {"right_shift", BinaryOperator::RShift},
    {"equal", CompareOperator::Eq},
    {"not_equal", CompareOperator::NotEq},
    {"less", CompareOperator::Lt},
    {"less_equal", CompareOperator::LtE},
    {"greater", CompareOperator::Gt},
    {"greater_equal", CompareOperator::GtE},
    {"negative", Form::Negative},
    {"positive", Form::Positive},
    {"invert", Form::Invert},
    {"bitwise_not", Form::Invert},
    {"logical_and", Form::LogicalAnd},
    {"logical_or", Form::LogicalOr},
    {"logical_xor", Form::LogicalXor},
    {"logical_not", Form::LogicalNot},
    {"square", Form::Square},
    {"reciprocal", Form::Reciprocal},
    {"sign", Form::Sign},
    {"deg2rad", Form::Radians},
    {"radians", Form::Radians},
    {"rad2deg", Form::Degrees},
    {"degrees", Form::Degrees},
};

const OperatorUfunc *findOperatorUfunc(std::string_view member) {
  for (const OperatorUfunc &ufunc : kOperatorUfuncs)
    if (ufunc.name == member)
      return &ufunc;
  return nullptr;
}

size_t arityOf(const OperatorUfunc &ufunc) {
  if (!std::holds_alternative<Form>(ufunc.operation))
    return 2;
  Form form = std::get<Form>(ufunc.operation);
  return form == Form::LogicalAnd || form == Form::LogicalOr || form == Form::LogicalXor ? 2 : 1;
}

} // namespace

std::optional<unsigned> operatorUfuncArity(std::string_view member) {
  const OperatorUfunc *ufunc = findOperatorUfunc(member);
  return ufunc ? std::optional<unsigned>(arityOf(*ufunc)) : std::nullopt;
}

Operand FunctionLowerer::callOperatorUfunc(const std::string &member,
                                           const std::vector<Operand> &args, const CallExpr &expr) {
  const OperatorUfunc &ufunc = *findOperatorUfunc(member);
  std::string display = "numpy." + member;
  size_t arity = arityOf(ufunc);
  auto source = [&expr] { return unparse(expr); };
  if (args.size() != arity)
    throw ir::CompileError(expr.loc, display + "() takes " + std::to_string(arity) +
                                         (arity == 1 ? " argument" : " arguments") + " (" +
                                         std::to_string(args.size()) + " given) in kernels, in '" +
                                         source() + "'");
  for (size_t i = 0; i < args.size(); ++i)
    if (!args[i].isScalar())
      throw ir::CompileError(expr.args[i]->loc, display + "() takes numbers and arrays, not '" +
                                                    describe(args[i]) + "', in '" + source() + "'");
  if (auto op = std::get_if<BinaryOperator>(&ufunc.operation))
    return binary(*op, args[0], args[1], expr.loc, source);
  if (auto op = std::get_if<CompareOperator>(&ufunc.operation)) {
    if (involvesComplex(args) && *op != CompareOperator::Eq && *op != CompareOperator::NotEq)
      return Operand::scalar(orderComplex(*op, args[0], args[1], expr.loc));
    return Operand::scalar(compareValues(*op, args[0], args[1], expr));
  }
  Form form = std::get<Form>(ufunc.operation);
  const Operand &x = args.front();
  bool isBool = x.type().isBool();
  if (isBool && (form == Form::Negative || form == Form::Positive || form == Form::Sign))
    throw ir::CompileError(expr.args[0]->loc, display + "() does not take a bool (numpy has no " +
                                                  "bool loop for it), in '" + source() + "'");
  at(expr.loc);
  switch (form) {
  case Form::Negative:
    return unary(UnaryOperator::Minus, x, *expr.args[0], expr.loc, source);
  case Form::Positive:
    return unary(UnaryOperator::Plus, x, *expr.args[0], expr.loc, source);
  case Form::Invert:
    return unary(isBool ? UnaryOperator::Not : UnaryOperator::Invert, x, *expr.args[0], expr.loc,
                 source);
  case Form::LogicalNot:
    return unary(UnaryOperator::Not, x, *expr.args[0], expr.loc, source);
  case Form::LogicalAnd:
  case Form::LogicalOr:
  case Form::LogicalXor: {
    ir::Value *a = truth(args[0], *expr.args[0]), *b = truth(args[1], *expr.args[1]);
    ir::Opcode opcode = form == Form::LogicalAnd  ? ir::Opcode::And
                        : form == Form::LogicalOr ? ir::Opcode::Or
                                                  : ir::Opcode::Xor;
    return Operand::scalar(builder_.binary(opcode, a, b));
  }
  case Form::Square:
  case Form::Reciprocal: {
    // numpy's bool loops of these compute in int8.
    Operand value = isBool ? Operand::scalar(convert(x, ScalarKind::Int8)) : x;
    if (form == Form::Square)
      return binary(BinaryOperator::Mul, value, value, expr.loc, source);
    ScalarType type = value.scalarType();
    if (ir::isFloat(type.kind) || ir::isComplex(type.kind))
      return binary(BinaryOperator::Div, intConstant(ScalarKind::Int64, 1, /*weak=*/true), value,
                    expr.loc, source);
    // An integer's reciprocal is 1 / x truncated (0 for |x| > 1); of 0 it is 0, kaji's integer
    // division by zero (numpy's is whatever the CPU's division gives).
    if (type.weak)
      type = ScalarType{ScalarKind::Int64, false};
    Operand divisor = convertScalar(value, type);
    return Operand::scalar(
        builder_.binary(ir::Opcode::Div, intConstant(type.kind, 1).value, divisor.value));
  }
  case Form::Sign: {
    if (x.type().isComplex())
      throw ir::CompileError(expr.args[0]->loc,
                             display + "() of a complex number is not supported in kernels, in '" +
                                 source() + "'");
    ScalarType type = x.scalarType();
    if (type.weak && !ir::isFloat(type.kind))
      type = ScalarType{ScalarKind::Int64, false};
    Operand value = convertScalar(x, type);
    Operand zero =
        ir::isFloat(type.kind) ? floatConstant(type.kind, 0.0) : intConstant(type.kind, 0);
    Operand one =
        ir::isFloat(type.kind) ? floatConstant(type.kind, 1.0) : intConstant(type.kind, 1);
    ir::Type boolType = ir::Type::scalar(ScalarKind::Bool);
    auto compare = [&](ir::CmpPredicate predicate) {
      return builder_.create(ir::Opcode::Cmp, boolType, {value.value, zero.value}, predicate)
          ->result();
    };
    // x > 0 → 1, x < 0 → -1, else x itself: 0 for a zero (numpy's sign of -0.0 is 0.0, so a
    // zero gives the constant), NaN for a NaN.
    ir::Value *negativeOne = builder_.create(ir::Opcode::Neg, value.type(), {one.value})->result();
    ir::Value *rest = ir::isFloat(type.kind)
                          ? builder_.select(compare(ir::CmpPredicate::Eq), zero.value, value.value)
                          : zero.value;
    ir::Value *sign =
        builder_.select(compare(ir::CmpPredicate::Gt), one.value,
                        builder_.select(compare(ir::CmpPredicate::Lt), negativeOne, rest));
    return Operand::scalar(sign, type.weak);
  }
  case Form::Radians:
  case Form::Degrees: {
    if (x.type().isComplex())
      throw ir::CompileError(expr.args[0]->loc,
                             display + "() does not take a complex number, in '" + source() + "'");
    // Integers compute in float64, float16 and bfloat16 in float32. numpy's float32 factor is
    // the quotient in float32 of float32 operands (180 / pi rounds to 57.295776 there, not to
    // 57.29578, math.degrees' float32 factor).
    ScalarKind kind = x.type().scalarKind();
    ScalarKind floatKind = kind == ScalarKind::Float32 || ir::isHalfPrecision(kind)
                               ? ScalarKind::Float32
                               : ScalarKind::Float64;
    float pi32 = static_cast<float>(M_PI);
    double factor = floatKind == ScalarKind::Float32
                        ? (form == Form::Radians ? pi32 / 180.0f : 180.0f / pi32)
                        : (form == Form::Radians ? M_PI / 180.0 : 180.0 / M_PI);
    return Operand::scalar(builder_.binary(ir::Opcode::Mul, convert(x, floatKind),
                                           floatConstant(floatKind, factor).value));
  }
  }
  throw ir::CompileError(expr.loc, "unknown numpy ufunc '" + member + "'");
}

} // namespace kaji::frontend
