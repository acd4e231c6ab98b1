// Scalar operations in the emitted CUDA C++: arithmetic, comparisons and conversions with
// Python's semantics, the math and libdevice functions, and the warp collectives.
#include "kaji/ir/MathFunctions.h"
#include "kaji/ir/WarpCollectives.h"

#include "CommaSeparated.h"
#include "CudaEmitter.h"
#include "CudaMath.h"

#include <cassert>
#include <optional>

namespace kaji::codegen::nvrtc::emitter {

// pow(x, e) for a constant e of 0, 1, 2 or -1: 1, x, x * x or 1 / x in `type`, the correctly
// rounded results, as on the LLVM path (MathLowering.cpp); nullopt for any other exponent.
static std::optional<std::string> exactPower(const ir::Value *exponent, const std::string &x,
                                             const std::string &type) {
  const ir::Operation *definition = exponent->definingOp();
  if (!definition || definition->opcode() != Opcode::Constant)
    return std::nullopt;
  double e;
  if (auto *value = std::get_if<double>(&definition->attr()))
    e = *value;
  else if (auto *integer = std::get_if<int64_t>(&definition->attr()))
    e = double(*integer);
  else
    return std::nullopt;
  if (e == 0)
    return type + "(1)";
  if (e == 1)
    return type + "(" + x + ")";
  if (e == 2)
    return "(" + type + "(" + x + ") * " + type + "(" + x + "))";
  if (e == -1)
    return "(" + type + "(1) / " + type + "(" + x + "))";
  return std::nullopt;
}

std::string FunctionEmitter::binary(const ir::Operation &op) {
  ir::Type type = op.resultType();
  assert(type.isScalar() && op.numOperands() == 2 && op.operand(0)->type() == type &&
         op.operand(1)->type() == type &&
         "verified: binary arithmetic takes two scalars of its result type");
  std::string a = name(op.operand(0), op), b = name(op.operand(1), op);
  ScalarKind kind = type.scalarKind();
  bool isFloat = type.isFloat(), isHalf = ir::isHalfPrecision(kind);
  const std::string half = scalarTypeName(kind); // the prelude's f16 or bf16
  // float16's + - * are the prelude's operators; bfloat16's go through float32.
  auto infix = [&](const char *symbol) {
    if (kind == ScalarKind::BFloat16 || (isHalf && *symbol == '/'))
      return half + "(f32(" + a + ") " + symbol + " f32(" + b + "))";
    return a + " " + symbol + " " + b;
  };
  auto helper = [&](const char *function) {
    return "kaji::" + std::string(function) + "(" + a + ", " + b + ")";
  };
  auto requireInteger = [&] {
    assert(!isFloat && "verified: bitwise operations and shifts are not defined on floats");
  };
  switch (op.opcode()) {
  case Opcode::Add:
  case Opcode::Sub:
  case Opcode::Mul: {
    const char *symbol = op.opcode() == Opcode::Add ? "+" : op.opcode() == Opcode::Sub ? "-" : "*";
    if (isFloat || isWideUnsigned(kind))
      return infix(symbol);
    return helper(op.opcode() == Opcode::Add ? "add" : op.opcode() == Opcode::Sub ? "sub" : "mul");
  }
  case Opcode::Div:
    return isFloat ? infix("/") : helper("div");
  case Opcode::FloorDiv:
    return isFloat ? helper("float_floordiv") : helper("floordiv");
  case Opcode::Mod:
    return isFloat ? helper("float_mod") : helper("mod");
  case Opcode::Pow:
    if (!isFloat)
      return helper("pow");
    if (std::optional<std::string> exact =
            exactPower(op.operand(1), a, isHalf ? "f32" : typeName(op.resultType())))
      return isHalf ? half + "(" + *exact + ")" : *exact;
    if (isHalf)
      return half + "(powf(f32(" + a + "), f32(" + b + ")))";
    return (kind == ScalarKind::Float32 ? "powf(" : "pow(") + a + ", " + b + ")";
  case Opcode::Min:
  case Opcode::Max: {
    // Python's min(a, b) is `b < a ? b : a`, literally (which operand wins for NaN).
    const char *symbol = op.opcode() == Opcode::Min ? " < " : " > ";
    std::string test = isHalf ? "f32(" + b + ")" + symbol + "f32(" + a + ")" : b + symbol + a;
    if (kind == ScalarKind::Float32 || kind == ScalarKind::Float64)
      return "kaji::choose(" + test + ", " + b + ", " + a + ")";
    return test + " ? " + b + " : " + a;
  }
  case Opcode::And:
  case Opcode::Or:
  case Opcode::Xor: {
    requireInteger();
    const char *symbol = op.opcode() == Opcode::And  ? " & "
                         : op.opcode() == Opcode::Or ? " | "
                                                     : " ^ ";
    return scalarTypeName(kind) + "(" + a + symbol + b + ")";
  }
  case Opcode::Shl:
  case Opcode::Shr:
    requireInteger();
    assert(!type.isBool() && "verified: shifts are not defined on bool");
    return helper(op.opcode() == Opcode::Shl ? "shl" : "shr");
  default:
    break;
  }
  assert(false && "binary() of an operation that is not binary arithmetic");
  return {};
}

std::string FunctionEmitter::unary(const ir::Operation &op) {
  ir::Type type = op.resultType();
  assert(type.isScalar() && op.numOperands() == 1 &&
         "verified: unary arithmetic takes one scalar of its result type");
  std::string a = name(op.operand(0), op);
  ScalarKind kind = type.scalarKind();
  switch (op.opcode()) {
  case Opcode::Neg:
    if (kind == ScalarKind::BFloat16)
      return "bf16(-f32(" + a + "))";
    return type.isFloat() && kind != ScalarKind::Float16 ? "-" + a : "kaji::neg(" + a + ")";
  case Opcode::Not:
    assert(!type.isFloat() && "verified: 'not' is not defined on floats");
    return type.isBool() ? "!" + a : scalarTypeName(kind) + "(~" + a + ")";
  case Opcode::Abs:
    if (kind == ScalarKind::BFloat16)
      return "bf16(fabsf(f32(" + a + ")))";
    if (kind == ScalarKind::Float16)
      return "kaji::abs(" + a + ")";
    if (type.isFloat())
      return (kind == ScalarKind::Float32 ? "fabsf(" : "fabs(") + a + ")";
    return ir::isSigned(kind) ? "kaji::abs(" + a + ")" : a;
  default:
    break;
  }
  assert(false && "unary() of an operation that is not unary arithmetic");
  return {};
}

// C++'s comparisons are IEEE's: ordered, except != which is true for NaN, as kaji's.
std::string FunctionEmitter::compare(const ir::Operation &op) {
  assert(op.numOperands() == 2 && op.operand(0)->type().isScalar() &&
         op.operand(0)->type() == op.operand(1)->type() &&
         "verified: 'cmp' takes two scalars of one type");
  static const char *const kSymbols[] = {"==", "!=", "<", "<=", ">", ">="};
  std::string a = name(op.operand(0), op), b = name(op.operand(1), op);
  if (op.operand(0)->type().scalarKind() == ScalarKind::BFloat16) {
    a = "f32(" + a + ")";
    b = "f32(" + b + ")";
  }
  return a + " " + kSymbols[int(op.attrAs<ir::CmpPredicate>())] + " " + b;
}

std::string FunctionEmitter::cast(const std::string &value, ScalarKind from, ScalarKind to) {
  if (from == to)
    return value;
  std::string target = scalarTypeName(to);
  if (to == ScalarKind::Bool) // NaN is truthy, as bool(nan) in Python
    return ir::isHalfPrecision(from) ? "f32(" + value + ") != 0.0f" : value + " != 0";
  if (ir::isHalfPrecision(from))
    return to == ScalarKind::Float32 ? "f32(" + value + ")"
                                     : cast("f32(" + value + ")", ScalarKind::Float32, to);
  // bfloat16 is reached through float32 from every other type, as ml_dtypes converts.
  if (to == ScalarKind::BFloat16)
    return "bf16(" + cast(value, from, ScalarKind::Float32) + ")";
  if (to == ScalarKind::Float16) {
    if (ir::isFloat(from))
      return "f16(" + value + ")";
    return from == ScalarKind::Bool ? "f16(f32(" + value + "))" : "kaji::int_to_f16(" + value + ")";
  }
  if (ir::isFloat(from) && !ir::isFloat(to))
    return "kaji::to_int<" + target + ">(" + value + ")";
  return target + "(" + value + ")";
}

// libdevice's __nv_NAME; a function that writes values through pointers is called in a
// lambda that returns the one value the op selects.
std::string FunctionEmitter::libdevice(const ir::Operation &op) {
  const std::string &attribute = op.attrAs<std::string>();
  ir::LibdeviceSelection selection = ir::parseLibdeviceSelection(attribute);
  assert(selection.function && "verified: a known libdevice function");
  const ir::LibdeviceFunction &function = *selection.function;
  module_.declareLibdevice(function);
  std::vector<std::string> arguments;
  for (const ir::Value *operand : op.operands())
    arguments.push_back(name(operand, op));
  std::string callee = "__nv_" + std::string(function.name);
  if (function.outputs.empty())
    return callee + "(" + commaSeparated(arguments) + ")";
  std::string lambda = "[&] { ";
  for (size_t i = 0; i < function.outputs.size(); ++i) {
    std::string output = "output" + std::to_string(i);
    lambda += scalarTypeName(function.outputs[i]) + " " + output + "; ";
    arguments.push_back("&" + output);
  }
  std::string call = callee + "(" + commaSeparated(arguments) + ")";
  if (function.result && selection.value == 0)
    return lambda + "return " + call + "; }()";
  size_t output = selection.value - (function.result ? 1 : 0);
  return lambda + call + "; return output" + std::to_string(output) + "; }()";
}

std::string FunctionEmitter::math(const ir::Operation &op) {
  // Verified: one float type for every operand, the result of that type or a bool.
  const ir::MathFunction &function = ir::mathFunction(op.attrAs<ir::MathFunctionKind>());
  ScalarKind argumentKind = op.operand(0)->type().scalarKind();
  // float16 and bfloat16 compute in float32.
  ScalarKind computeKind = ir::isHalfPrecision(argumentKind) ? ScalarKind::Float32 : argumentKind;
  std::vector<std::string> args;
  for (const ir::Value *operand : op.operands())
    args.push_back(cast(name(operand, op), argumentKind, computeKind));
  std::string call = mathCall(function.kind, computeKind == ScalarKind::Float32, args);
  bool predicate = function.result == ir::MathResult::Bool;
  ScalarKind valueKind = predicate ? ScalarKind::Bool : computeKind;
  if (!predicate && ir::isHalfPrecision(argumentKind))
    return cast(scalarTypeName(argumentKind) + "(" + call + ")", argumentKind,
                op.resultType().scalarKind());
  return cast(call, valueKind, op.resultType().scalarKind());
}

std::string FunctionEmitter::warp(const ir::Operation &op) {
  // Verified: a collective of WarpCollectives.def with the operands of its form.
  const ir::WarpCollective &row = ir::warpCollective(op.attrAs<ir::WarpCollectiveKind>());
  std::string collective(row.name);
  auto operand = [&](unsigned i) { return name(op.operand(i), op); };
  switch (row.form) {
  case ir::WarpForm::ActiveMask:
    return "__activemask()";
  case ir::WarpForm::Ballot:
    return "__ballot_sync(" + operand(0) + ", " + operand(1) + ")";
  case ir::WarpForm::Vote:
    return "i32(__" + (collective == "eq" ? std::string("uni") : collective) + "_sync(" +
           operand(0) + ", " + operand(1) + ") != 0)";
  case ir::WarpForm::Match:
    return (collective == "match_all" ? "kaji::match_all_sync(" : "__match_any_sync(") +
           operand(0) + ", " + operand(1) + ")";
  case ir::WarpForm::Shuffle:
    break;
  }
  // shfl_idx is CUDA's __shfl_sync; shfl_up, _down and _xor keep their names.
  std::string variant = collective == "shfl_idx" ? "" : collective.substr(4);
  return "__shfl" + variant + "_sync(" + operand(0) + ", " + operand(1) + ", " + operand(2) + ")";
}

} // namespace kaji::codegen::nvrtc::emitter
