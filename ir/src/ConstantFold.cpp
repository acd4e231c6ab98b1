#include "PassUtils.h"
#include "kaji/ir/Constants.h"
#include "kaji/ir/Passes.h"

#include <bit>
#include <cmath>
#include <limits>

namespace kaji::ir {

namespace {

// Integers: canonical int64_t values (see Constants.h) of one scalar kind.
struct IntFolder {
  ScalarKind kind;

  bool isSignedKind() const { return isSigned(kind); }
  unsigned width() const { return bitWidth(kind); }
  int64_t wrap(uint64_t v) const { return wrapToType(kind, int64_t(v)); }
  bool less(int64_t a, int64_t b) const {
    return isSignedKind() ? a < b : uint64_t(a) < uint64_t(b);
  }

  // Truncating division; the one overflowing case (MIN / -1) wraps to MIN.
  int64_t quotient(int64_t a, int64_t b) const {
    if (!isSignedKind())
      return wrap(uint64_t(a) / uint64_t(b));
    if (b == -1)
      return wrap(0 - uint64_t(a));
    return wrap(uint64_t(a / b));
  }

  int64_t remainder(int64_t a, int64_t b) const {
    if (!isSignedKind())
      return wrap(uint64_t(a) % uint64_t(b));
    return b == -1 ? 0 : a % b;
  }

  int64_t power(int64_t base, int64_t exponent) const {
    if (isSignedKind() && exponent < 0) {
      if (base == 1)
        return 1;
      if (base == -1)
        return (exponent & 1) ? -1 : 1;
      return 0;
    }
    uint64_t result = 1, factor = uint64_t(base), e = uint64_t(exponent);
    while (e) {
      if (e & 1)
        result *= factor;
      factor *= factor;
      e >>= 1;
    }
    return wrap(result);
  }

  std::optional<int64_t> binary(Opcode op, int64_t a, int64_t b) const {
    uint64_t ua = uint64_t(a), ub = uint64_t(b);
    switch (op) {
    case Opcode::Add:
      return wrap(ua + ub);
    case Opcode::Sub:
      return wrap(ua - ub);
    case Opcode::Mul:
      return wrap(ua * ub);
    case Opcode::Div:
      return b == 0 ? 0 : quotient(a, b);
    case Opcode::FloorDiv: {
      if (b == 0)
        return 0;
      int64_t q = quotient(a, b);
      if (isSignedKind() && remainder(a, b) != 0 && ((a < 0) != (b < 0)))
        q = wrap(uint64_t(q) - 1);
      return q;
    }
    case Opcode::Mod: {
      if (b == 0)
        return 0;
      int64_t r = remainder(a, b);
      if (isSignedKind() && r != 0 && ((r < 0) != (b < 0)))
        r = wrap(uint64_t(r) + ub);
      return r;
    }
    case Opcode::Pow:
      return power(a, b);
    case Opcode::Min:
      return less(b, a) ? b : a;
    case Opcode::Max:
      return less(a, b) ? b : a;
    case Opcode::And:
      return a & b;
    case Opcode::Or:
      return a | b;
    case Opcode::Xor:
      return a ^ b;
    case Opcode::Shl:
      // A negative signed amount reads as a huge unsigned one: the result is 0.
      return ub >= width() ? 0 : wrap(ua << ub);
    case Opcode::Shr:
      if (isSignedKind())
        return ub >= width() ? (a < 0 ? -1 : 0) : a >> ub;
      return ub >= width() ? 0 : wrap(ua >> ub);
    default:
      return std::nullopt;
    }
  }

  std::optional<int64_t> unary(Opcode op, int64_t a) const {
    switch (op) {
    case Opcode::Neg:
      return wrap(0 - uint64_t(a));
    case Opcode::Not:
      return kind == ScalarKind::Bool ? int64_t(!a) : wrap(~uint64_t(a));
    case Opcode::Abs:
      return isSignedKind() && a < 0 ? wrap(0 - uint64_t(a)) : a;
    default:
      return std::nullopt;
    }
  }

  bool compare(CmpPredicate p, int64_t a, int64_t b) const {
    return isSignedKind() ? comparisonHolds(p, a, b) : comparisonHolds(p, uint64_t(a), uint64_t(b));
  }
};

// Python's float floor division and modulo (CPython's float_divmod), in precision F.
template <class F> std::pair<F, F> pythonDivmod(F a, F b) {
  F mod = std::fmod(a, b);
  F div = (a - mod) / b;
  if (mod != 0) {
    if ((b < 0) != (mod < 0)) {
      mod += b;
      div -= 1;
    }
  } else {
    mod = std::copysign(F(0), b);
  }
  F floorDiv;
  if (div != 0) {
    floorDiv = std::floor(div);
    if (div - floorDiv > F(0.5))
      floorDiv += 1;
  } else {
    floorDiv = std::copysign(F(0), a / b);
  }
  return {floorDiv, mod};
}

template <class F> std::optional<double> floorDivOrMod(Opcode op, double a, double b) {
  auto [floorDiv, mod] = pythonDivmod<F>(F(a), F(b));
  return double(op == Opcode::FloorDiv ? floorDiv : mod);
}

std::optional<double> foldFloatBinary(Opcode op, ScalarKind kind, double a, double b) {
  auto rounded = [&](double v) { return roundToType(kind, v); };
  switch (op) {
  case Opcode::Add:
    return rounded(a + b);
  case Opcode::Sub:
    return rounded(a - b);
  case Opcode::Mul:
    return rounded(a * b);
  case Opcode::Div:
    return rounded(a / b);
  case Opcode::FloorDiv:
  case Opcode::Mod:
    // Division by zero and non-finite operands are left to the target's arithmetic.
    if (b == 0 || !std::isfinite(a) || !std::isfinite(b))
      return std::nullopt;
    if (kind == ScalarKind::Float64)
      return floorDivOrMod<double>(op, a, b);
    if (kind == ScalarKind::Float32)
      return floorDivOrMod<float>(op, a, b);
    return std::nullopt;
  case Opcode::Min:
    return b < a ? b : a;
  case Opcode::Max:
    return b > a ? b : a;
  default:
    return std::nullopt;
  }
}

std::optional<Attr> foldCast(Type from, Type to, const Attr &value) {
  ScalarKind target = to.scalarKind();
  if (from.isFloat()) {
    double v = std::get<double>(value);
    if (to.isBool())
      return int64_t(v != 0);
    if (to.isFloat())
      return roundToType(target, v);
    // float -> int truncates toward zero; out of range (or NaN) has no defined result.
    double t = std::trunc(v);
    unsigned bits = bitWidth(target);
    double low = isSigned(target) ? -std::ldexp(1.0, int(bits) - 1) : 0.0;
    double high = std::ldexp(1.0, isSigned(target) ? int(bits) - 1 : int(bits));
    if (!(t >= low && t < high))
      return std::nullopt;
    return isSigned(target) ? wrapToType(target, int64_t(t)) : int64_t(uint64_t(t));
  }
  int64_t v = std::get<int64_t>(value);
  if (to.isBool())
    return int64_t(v != 0);
  if (to.isInteger())
    return wrapToType(target, v);
  bool fromUnsigned = from.isBool() || !from.isSignedInteger();
  switch (target) {
  case ScalarKind::Float16:
    return fromUnsigned ? double(static_cast<_Float16>(uint64_t(v)))
                        : double(static_cast<_Float16>(v));
  case ScalarKind::Float32:
  case ScalarKind::BFloat16: // an integer converts to float32 first, as in ml_dtypes
    return roundToType(target, fromUnsigned ? double(static_cast<float>(uint64_t(v)))
                                            : double(static_cast<float>(v)));
  default:
    return fromUnsigned ? static_cast<double>(uint64_t(v)) : static_cast<double>(v);
  }
}

// The bits of a float constant, which is exact in its kind; none for a NaN, whose payload the
// double attribute does not keep.
std::optional<uint64_t> floatBits(ScalarKind kind, double value) {
  if (std::isnan(value))
    return std::nullopt;
  switch (kind) {
  case ScalarKind::Float16:
    return std::bit_cast<uint16_t>(static_cast<_Float16>(value));
  case ScalarKind::BFloat16: // float32's upper half
    return std::bit_cast<uint32_t>(static_cast<float>(value)) >> 16;
  case ScalarKind::Float32:
    return std::bit_cast<uint32_t>(static_cast<float>(value));
  default:
    return std::bit_cast<uint64_t>(value);
  }
}

// The float of kind `kind` with these bits; none for a NaN (see floatBits).
std::optional<double> floatFromBits(ScalarKind kind, uint64_t bits) {
  double value;
  switch (kind) {
  case ScalarKind::Float16:
    value = double(std::bit_cast<_Float16>(uint16_t(bits)));
    break;
  case ScalarKind::BFloat16:
    value = double(std::bit_cast<float>(uint32_t(bits << 16)));
    break;
  case ScalarKind::Float32:
    value = double(std::bit_cast<float>(uint32_t(bits)));
    break;
  default:
    value = std::bit_cast<double>(bits);
  }
  if (std::isnan(value))
    return std::nullopt;
  return value;
}

std::optional<Attr> foldBitcast(Type from, Type to, const Attr &value) {
  std::optional<uint64_t> bits = from.isFloat()
                                     ? floatBits(from.scalarKind(), std::get<double>(value))
                                     : uint64_t(std::get<int64_t>(value));
  if (!bits)
    return std::nullopt;
  if (to.isInteger())
    return wrapToType(to.scalarKind(), int64_t(*bits));
  if (std::optional<double> result = floatFromBits(to.scalarKind(), *bits))
    return *result;
  return std::nullopt;
}

// Only the libm functions whose result is exact on every target.
std::optional<Attr> foldMath(MathFunctionKind function, ScalarKind kind,
                             const std::vector<double> &args) {
  double x = args[0];
  switch (function) {
  case MathFunctionKind::IsNan:
    return int64_t(std::isnan(x));
  case MathFunctionKind::IsInf:
    return int64_t(std::isinf(x));
  case MathFunctionKind::IsFinite:
    return int64_t(std::isfinite(x));
  case MathFunctionKind::Sqrt:
    return roundToType(kind, std::sqrt(x));
  case MathFunctionKind::FAbs:
    return std::fabs(x);
  case MathFunctionKind::Floor:
    return std::floor(x);
  case MathFunctionKind::Ceil:
    return std::ceil(x);
  case MathFunctionKind::Trunc:
    return std::trunc(x);
  case MathFunctionKind::RoundEven:
    return std::nearbyint(x); // the default rounding mode: to nearest, ties to even
  case MathFunctionKind::CopySign:
    return std::copysign(x, args[1]);
  case MathFunctionKind::Minimum:
  case MathFunctionKind::Maximum: {
    if (std::isnan(x) || std::isnan(args[1]))
      return std::numeric_limits<double>::quiet_NaN();
    // As llvm.minimum/maximum: -0.0 is below +0.0.
    bool firstBelow = x < args[1] || (x == args[1] && std::signbit(x));
    return (function == MathFunctionKind::Minimum) == firstBelow ? x : args[1];
  }
  case MathFunctionKind::FMin:
    return std::fmin(x, args[1]);
  case MathFunctionKind::FMax:
    return std::fmax(x, args[1]);
  default:
    return std::nullopt;
  }
}

} // namespace

std::optional<Attr> foldOperation(const Operation &op) {
  std::vector<Attr> values;
  for (const Value *operand : op.operands()) {
    const Operation *def = constantOp(operand);
    if (!def)
      return std::nullopt;
    values.push_back(def->attr());
  }
  if (values.empty() || !op.result())
    return std::nullopt;
  Type type = op.operand(0)->type();
  if (!type.isScalar() || !op.resultType().isScalar())
    return std::nullopt;
  // An 8-bit float has no constant form: its bits stay a u8 constant and a bitcast.
  if (isFloat8(type.scalarKind()) || isFloat8(op.resultType().scalarKind()))
    return std::nullopt;
  bool isInt = std::holds_alternative<int64_t>(values[0]);
  IntFolder ints{type.scalarKind()};
  switch (op.opcode()) {
  case Opcode::Cmp: {
    auto p = op.attrAs<CmpPredicate>();
    if (isInt)
      return int64_t(ints.compare(p, std::get<int64_t>(values[0]), std::get<int64_t>(values[1])));
    return int64_t(comparisonHolds(p, std::get<double>(values[0]), std::get<double>(values[1])));
  }
  case Opcode::Cast:
    return foldCast(type, op.resultType(), values[0]);
  case Opcode::Bitcast:
    return foldBitcast(type, op.resultType(), values[0]);
  case Opcode::Select:
    return std::get<int64_t>(values[0]) ? values[1] : values[2];
  case Opcode::Math: {
    std::vector<double> args;
    for (const Attr &value : values)
      args.push_back(std::get<double>(value));
    return foldMath(op.attrAs<MathFunctionKind>(), type.scalarKind(), args);
  }
  case Opcode::Neg:
  case Opcode::Not:
  case Opcode::Abs:
    if (isInt) {
      if (auto r = ints.unary(op.opcode(), std::get<int64_t>(values[0])))
        return *r;
      return std::nullopt;
    }
    if (op.opcode() == Opcode::Neg)
      return -std::get<double>(values[0]);
    if (op.opcode() == Opcode::Abs)
      return std::fabs(std::get<double>(values[0]));
    return std::nullopt;
  default:
    if (values.size() != 2)
      return std::nullopt;
    if (isInt) {
      if (auto r =
              ints.binary(op.opcode(), std::get<int64_t>(values[0]), std::get<int64_t>(values[1])))
        return *r;
      return std::nullopt;
    }
    if (auto r = foldFloatBinary(op.opcode(), type.scalarKind(), std::get<double>(values[0]),
                                 std::get<double>(values[1])))
      return *r;
    return std::nullopt;
  }
}

namespace {

// The operand an operation merely passes on, if it does: `select` of a constant condition,
// a lane of a vector built by `make_vector` in the function.
Value *forwardedOperand(const Operation &op) {
  if (op.opcode() == Opcode::Select) {
    auto cond = intConstant(op.operand(0));
    return cond ? op.operand(*cond ? 1 : 2) : nullptr;
  }
  if (op.opcode() == Opcode::ExtractLane) {
    const Operation *built = op.operand(0)->definingOp();
    if (!built || built->opcode() != Opcode::MakeVector)
      return nullptr;
    auto lane = static_cast<size_t>(op.attrAs<int64_t>());
    return lane < built->numOperands() ? built->operand(unsigned(lane)) : nullptr;
  }
  return nullptr;
}

bool foldFunction(Function &function) {
  detail::ValueForwarding forwarding;
  // Removed operations live until the rewrite: a new constant allocated where one of them
  // was would otherwise alias its key in `forwarding`.
  std::vector<std::unique_ptr<Operation>> removedOps;
  for (auto &block : function.blocks()) {
    auto &ops = block->operations();
    bool removed = false;
    for (size_t i = 0; i < ops.size(); ++i) {
      Operation &op = *ops[i];
      // Resolved first, so that a chain of foldable operations folds in one walk.
      for (Value *&operand : op.operands())
        operand = forwarding.resolve(operand);
      if (op.opcode() == Opcode::Constant || hasSideEffects(op.opcode()) || !op.result())
        continue;
      if (Value *chosen = forwardedOperand(op)) {
        forwarding.forward(op.result(), chosen);
        removedOps.push_back(std::move(ops[i]));
        removed = true;
      } else if (auto folded = foldOperation(op)) {
        auto constant =
            std::make_unique<Operation>(Opcode::Constant, op.resultType(), std::vector<Value *>{},
                                        std::move(*folded), op.location());
        Value *replacement = constant->result();
        forwarding.forward(op.result(), replacement);
        removedOps.push_back(block->replace(i, std::move(constant)));
      }
    }
    if (removed)
      std::erase(ops, nullptr);
  }
  // Uses in successor arguments and in blocks placed before the definition (loops).
  forwarding.rewrite(function);
  return !forwarding.empty();
}

} // namespace

bool foldConstants(Module &module) {
  bool changed = false;
  for (auto &function : module.functions())
    changed |= foldFunction(*function);
  return changed;
}

} // namespace kaji::ir
