// Python's complex numbers in kernels: the operators, complex(), .real/.imag/.conjugate()
// and the cmath module, on top of ComplexArithmetic's expansions.
#include "ComplexArithmetic.h"
#include "FunctionLowerer.h"

namespace kaji::frontend {
namespace {

using ir::ScalarKind;

constexpr std::string_view kCmathFunctions[] = {
    "sqrt",  "exp",   "log",  "log10", "sin",   "cos",     "tan",   "asin",
    "acos",  "atan",  "sinh", "cosh",  "tanh",  "asinh",   "acosh", "atanh",
    "phase", "polar", "rect", "isnan", "isinf", "isfinite"};

bool isComplexOperand(const Operand &operand) {
  return operand.isScalar() && operand.type().isComplex();
}

} // namespace

bool isCmathFunction(std::string_view member) {
  for (std::string_view name : kCmathFunctions)
    if (name == member)
      return true;
  return false;
}

bool isNumpyComplexFunction(std::string_view member) {
  return member == "real" || member == "imag" || member == "conj" || member == "conjugate";
}

bool involvesComplex(const std::vector<Operand> &args) {
  for (const Operand &arg : args)
    if (isComplexOperand(arg))
      return true;
  return false;
}

ir::Value *FunctionLowerer::toComplex(const Operand &value, ScalarKind to) {
  return ComplexArithmetic(builder_).convert(value.value, to);
}

Operand FunctionLowerer::complexBinary(BinaryOperator op, const Operand &lhs, const Operand &rhs,
                                       ScalarType type, const Location &loc,
                                       const std::function<std::string()> &source) {
  at(loc);
  ComplexArithmetic complex(builder_);
  // A constant integer exponent multiplies (Numba's powi); any other is a complex power.
  if (op == BinaryOperator::Pow && !rhs.type().isComplex() && rhs.type().isInteger())
    if (std::optional<int64_t> exponent = constantInt(rhs);
        exponent && *exponent >= -64 && *exponent <= 64)
      return Operand::scalar(complex.powConstant(toComplex(lhs, type.kind), *exponent), type.weak);
  ir::Value *a = toComplex(lhs, type.kind), *b = toComplex(rhs, type.kind);
  switch (op) {
  case BinaryOperator::Add:
    return Operand::scalar(complex.add(a, b), type.weak);
  case BinaryOperator::Sub:
    return Operand::scalar(complex.sub(a, b), type.weak);
  case BinaryOperator::Mul:
    return Operand::scalar(complex.mul(a, b), type.weak);
  case BinaryOperator::Div:
    return Operand::scalar(complex.div(a, b), type.weak);
  case BinaryOperator::Pow:
    return Operand::scalar(complex.pow(a, b), type.weak);
  default:
    throw ir::CompileError(loc, "unsupported operand types for " + std::string(spelling(op)) +
                                    ": '" + describe(lhs) + "' and '" + describe(rhs) + "' in '" +
                                    source() + "' (complex numbers have no " +
                                    std::string(spelling(op)) + ", as in Python)");
  }
}

ir::Value *FunctionLowerer::compareComplex(CompareOperator op, const Operand &lhs,
                                           const Operand &rhs, const Expr &node) {
  if (op != CompareOperator::Eq && op != CompareOperator::NotEq)
    throw ir::CompileError(node.loc, "'" + std::string(spelling(op)) +
                                         "' is not supported between '" + describe(lhs) +
                                         "' and '" + describe(rhs) + "' in '" + unparse(node) +
                                         "': complex numbers have no order");
  ScalarType type = promote(lhs.scalarType(), rhs.scalarType());
  ComplexArithmetic complex(at(node.loc));
  ir::Value *equal = complex.equal(toComplex(lhs, type.kind), toComplex(rhs, type.kind));
  if (op == CompareOperator::Eq)
    return equal;
  return builder_.unary(ir::Opcode::Not, equal);
}

ir::Value *FunctionLowerer::orderComplex(CompareOperator op, const Operand &lhs, const Operand &rhs,
                                         const Location &loc) {
  ScalarType type = promote(lhs.scalarType(), rhs.scalarType());
  ComplexArithmetic complex(at(loc));
  ir::Value *a = toComplex(lhs, type.kind), *b = toComplex(rhs, type.kind);
  bool orEqual = op == CompareOperator::LtE || op == CompareOperator::GtE;
  if (op == CompareOperator::Gt || op == CompareOperator::GtE)
    return complex.less(b, a, orEqual);
  return complex.less(a, b, orEqual);
}

std::optional<Operand> FunctionLowerer::numberAttribute(const Operand &base,
                                                        const std::string &attr, const Expr &node) {
  if (!base.isScalar() || base.enumMember)
    return std::nullopt;
  at(node.loc);
  ComplexArithmetic complex(builder_);
  bool isComplex = base.type().isComplex();
  if (attr == "real")
    return isComplex ? Operand::scalar(complex.real(base.value), base.weak) : base;
  if (attr == "imag") {
    if (isComplex)
      return Operand::scalar(complex.imag(base.value), base.weak);
    return base.type().isFloat() ? floatConstant(base.type().scalarKind(), 0.0, base.weak)
                                 : intConstant(base.type().scalarKind(), 0, base.weak);
  }
  if (attr == "conjugate") {
    Operand method = Operand::named(Operand::Kind::Builtin, "complex.conjugate");
    method.elements.push_back(base);
    return method;
  }
  return std::nullopt;
}

Operand FunctionLowerer::conjugate(const Operand &z, const CallExpr &expr) {
  if (!expr.args.empty() || !expr.keywords.empty())
    throw ir::CompileError(expr.loc, "conjugate() takes no arguments, in '" + unparse(expr) + "'");
  if (!isComplexOperand(z))
    return z;
  return Operand::scalar(ComplexArithmetic(at(expr.loc)).conjugate(z.value), z.weak);
}

Operand FunctionLowerer::numpyComplexFunction(const std::string &function,
                                              const std::vector<Operand> &args,
                                              const CallExpr &expr) {
  requireNumbers("numpy." + function, 1, 1, args, expr);
  const Operand &x = args.front();
  if (function == "real" || function == "imag")
    return *numberAttribute(x, function, expr);
  if (!isComplexOperand(x))
    return x;
  return Operand::scalar(ComplexArithmetic(at(expr.loc)).conjugate(x.value), x.weak);
}

Operand FunctionLowerer::complexConstructor(const std::vector<Operand> &args,
                                            const CallExpr &expr) {
  requireNumbers("complex", 0, 2, args, expr);
  ComplexArithmetic complex(at(expr.loc));
  bool weak = true;
  for (const Operand &arg : args)
    weak = weak && arg.weak;
  ir::Type f64 = ir::Type::scalar(ScalarKind::Float64);
  if (args.empty())
    return Operand::scalar(
        complex.make(builder_.floatConstant(f64, 0.0), builder_.floatConstant(f64, 0.0)), true);
  // complex(a, b) is a + b*1j: a complex b contributes its real part to the imaginary one.
  ir::Value *a = toComplex(args[0], ScalarKind::Complex128);
  if (args.size() == 1)
    return Operand::scalar(a, weak);
  ir::Value *b = toComplex(args[1], ScalarKind::Complex128);
  // As CPython: only a complex argument's other part is added, so that complex(1.5, -0.0)
  // keeps its -0.0 (0.0 + -0.0 would be 0.0).
  ir::Value *re = complex.real(a);
  if (isComplexOperand(args[1]))
    re = builder_.binary(ir::Opcode::Sub, re, complex.imag(b));
  ir::Value *im = complex.real(b);
  if (isComplexOperand(args[0]))
    im = builder_.binary(ir::Opcode::Add, complex.imag(a), im);
  return Operand::scalar(complex.make(re, im), weak);
}

Operand FunctionLowerer::callCmath(const std::string &function, const std::vector<Operand> &args,
                                   const CallExpr &expr) {
  std::string display = "cmath." + function;
  bool twoArguments = function == "rect" || function == "log";
  requireNumbers(display, 1, twoArguments ? 2 : 1, args, expr);
  if (function == "rect" && args.size() != 2)
    throw ir::CompileError(expr.loc, "cmath.rect() takes 2 arguments, got 1");
  ComplexArithmetic complex(at(expr.loc),
                            [this](ir::Value *condition, const std::function<ir::Value *()> &ifTrue,
                                   const std::function<ir::Value *()> &ifFalse) {
                              return branchValue(condition, ifTrue, ifFalse);
                            });
  // A real argument is a complex of its precision (float32 -> complex64, ints -> complex128).
  auto complexOf = [&](const Operand &arg) {
    ScalarKind kind = arg.type().scalarKind();
    ScalarKind to = ir::isComplex(kind)              ? kind
                    : ir::isFloat(kind) && !arg.weak ? ir::complexOf(kind)
                                                     : ScalarKind::Complex128;
    return toComplex(arg, to);
  };
  if (function == "rect") {
    if (involvesComplex(args))
      throw ir::CompileError(expr.loc,
                             "cmath.rect() takes real numbers, in '" + unparse(expr) + "'");
    ScalarType type = promote(args[0].scalarType(), args[1].scalarType());
    ScalarKind part = ir::componentKind(
        ir::complexOf(ir::isFloat(type.kind) && !type.weak ? type.kind : ScalarKind::Float64));
    return Operand::scalar(complex.rect(convert(args[0], part), convert(args[1], part)));
  }
  ir::Value *z = complexOf(args[0]);
  if (function == "polar") {
    auto [r, phi] = complex.polar(z);
    return Operand::tuple({Operand::scalar(r), Operand::scalar(phi)});
  }
  if (function == "log" && args.size() == 2) {
    ir::Value *base = complexOf(args[1]);
    ScalarKind kind = promoteStrong(z->type().scalarKind(), base->type().scalarKind());
    return Operand::scalar(complex.div(*complex.cmath("log", complex.convert(z, kind)),
                                       *complex.cmath("log", complex.convert(base, kind))));
  }
  return Operand::scalar(*complex.cmath(function, z));
}

} // namespace kaji::frontend
