#include "kaji/ir/Constants.h"

#include <bit>
#include <cstdint>

namespace kaji::ir {

namespace {

// bfloat16 keeps float32's upper 16 bits: rounding those to nearest even is exact for normal
// and subnormal values alike, and a carry past the largest finite value gives infinity.
double roundFloatToBfloat16(float value) {
  if (value != value)
    return value;
  uint32_t bits = std::bit_cast<uint32_t>(value);
  bits += 0x7fff + ((bits >> 16) & 1);
  return double(std::bit_cast<float>(bits & 0xffff0000u));
}

} // namespace

int64_t wrapToType(ScalarKind k, int64_t value) {
  if (k == ScalarKind::Bool)
    return value != 0;
  if (!isInteger(k))
    return value;
  unsigned bits = bitWidth(k);
  if (bits == 64)
    return value;
  uint64_t mask = (uint64_t(1) << bits) - 1;
  uint64_t low = uint64_t(value) & mask;
  if (isSigned(k) && (low >> (bits - 1)))
    low |= ~mask;
  return int64_t(low);
}

double roundToType(ScalarKind k, double value) {
  switch (k) {
  case ScalarKind::Float16:
    return double(static_cast<_Float16>(value));
  case ScalarKind::BFloat16: // through float32, as ml_dtypes converts (two roundings)
    return roundFloatToBfloat16(static_cast<float>(value));
  case ScalarKind::Float32:
    return double(static_cast<float>(value));
  default:
    return value;
  }
}

const Operation *constantOp(const Value *v) {
  const Operation *def = v ? v->definingOp() : nullptr;
  return def && def->opcode() == Opcode::Constant ? def : nullptr;
}

std::optional<int64_t> intConstant(const Value *v) {
  const Operation *op = constantOp(v);
  if (!op || !std::holds_alternative<int64_t>(op->attr()))
    return std::nullopt;
  return op->attrAs<int64_t>();
}

std::optional<double> floatConstant(const Value *v) {
  const Operation *op = constantOp(v);
  if (!op || !std::holds_alternative<double>(op->attr()))
    return std::nullopt;
  return op->attrAs<double>();
}

} // namespace kaji::ir
