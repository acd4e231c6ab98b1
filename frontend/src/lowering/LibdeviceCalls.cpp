// cuda.libdevice.NAME(...) with Numba's signatures, and the math functions computed by a
// libdevice function (frexp, ldexp, modf, remainder) or by a constant factor (radians,
// degrees).
#include "FunctionLowerer.h"

#include "kaji/ir/Libdevice.h"

#include <cmath>

namespace kaji::frontend {
namespace {

using ir::ScalarKind;

// math.NAME computed by the libdevice function NAME (float64) or NAMEf (float32).
bool isLibdeviceMath(std::string_view name) {
  return name == "frexp" || name == "ldexp" || name == "modf" || name == "remainder";
}

} // namespace

bool isLibdeviceOrScaledMath(std::string_view member) {
  return isLibdeviceMath(member) || member == "radians" || member == "degrees";
}

Operand FunctionLowerer::libdeviceValues(const ir::LibdeviceFunction &function,
                                         const std::vector<ir::Value *> &args) {
  std::vector<Operand> values;
  for (size_t i = 0; i < function.valueCount(); ++i) {
    ir::Type type = ir::Type::scalar(function.valueKind(i));
    values.push_back(Operand::scalar(
        builder_.create(ir::Opcode::Libdevice, type, args, ir::libdeviceSelection(function, i))
            ->result()));
  }
  return values.size() == 1 ? values.front() : Operand::tuple(std::move(values));
}

Operand FunctionLowerer::callLibdevice(const std::string &name, const std::vector<Operand> &args,
                                       const CallExpr &expr) {
  const ir::LibdeviceFunction *function = ir::findLibdeviceFunction(name);
  size_t arity = function->parameters.size();
  requireNumbers("libdevice." + name, arity, arity, args, expr);
  std::vector<ir::Value *> values;
  for (size_t i = 0; i < args.size(); ++i) {
    requireNarrow(args[i], expr.args[i]->loc, [&expr] { return unparse(expr); });
    values.push_back(convert(args[i], function->parameters[i]));
  }
  at(expr.loc);
  return libdeviceValues(*function, values);
}

Operand FunctionLowerer::callLibdeviceMath(const std::string &member,
                                           const std::vector<Operand> &args, const CallExpr &expr) {
  size_t arity = member == "ldexp" || member == "remainder" ? 2 : 1;
  requireNumbers("math." + member, arity, arity, args, expr);
  // Integers compute in float64 as Python does, float16 in float32; ldexp's exponent is an
  // int32, as C's and libdevice's.
  ScalarType type = args.front().scalarType();
  if (member == "remainder")
    type = promote(type, args[1].scalarType());
  ScalarKind floatKind = type.kind == ScalarKind::Float32 || ir::isHalfPrecision(type.kind)
                             ? ScalarKind::Float32
                             : ScalarKind::Float64;
  if (member == "ldexp" && args[1].type().isFloat())
    throw ir::CompileError(expr.args[1]->loc,
                           "math.ldexp() needs an integer exponent, in '" + unparse(expr) + "'");
  at(expr.loc);
  ir::Value *x = convert(args[0], floatKind);
  if (member == "radians" || member == "degrees") {
    double factor = member == "radians" ? M_PI / 180 : 180 / M_PI;
    ir::Value *scale = floatConstant(floatKind, factor).value;
    return Operand::scalar(builder_.binary(ir::Opcode::Mul, x, scale));
  }
  std::vector<ir::Value *> values = {x};
  if (member == "ldexp")
    values.push_back(convert(args[1], ScalarKind::Int32));
  if (member == "remainder")
    values.push_back(convert(args[1], floatKind));
  std::string name = member + (floatKind == ScalarKind::Float32 ? "f" : "");
  return libdeviceValues(*ir::findLibdeviceFunction(name), values);
}

} // namespace kaji::frontend
