#include "kaji/frontend/ConversionRating.h"

namespace kaji::frontend {
namespace {

// The bits of a scalar kind's values that a float must hold to keep them all.
unsigned significantBits(ir::ScalarKind kind) {
  switch (kind) {
  case ir::ScalarKind::Float16:
    return 11;
  case ir::ScalarKind::BFloat16:
    return 8;
  case ir::ScalarKind::Float32:
    return 24;
  case ir::ScalarKind::Float64:
    return 53;
  default:
    return ir::bitWidth(kind) - (ir::isSigned(kind) ? 1 : 0);
  }
}

} // namespace

Conversion realConversion(ir::ScalarKind param, ir::ScalarKind arg) {
  if (param == arg)
    return Conversion::Exact;
  bool keepsValues = significantBits(param) >= significantBits(arg) &&
                     (!ir::isInteger(param) || ir::isSigned(param) || !ir::isSigned(arg)) &&
                     (!ir::isInteger(param) || !ir::isFloat(arg));
  // float16 and bfloat16 hold each other's values only partly.
  bool halves = ir::isHalfPrecision(param) && ir::isHalfPrecision(arg);
  if (!keepsValues || halves)
    return Conversion::Unsafe;
  bool sameFamily = ir::isFloat(param) == ir::isFloat(arg) &&
                    (ir::isFloat(param) || ir::isSigned(param) == ir::isSigned(arg));
  return sameFamily ? Conversion::Promote : Conversion::Safe;
}

Conversion scalarConversion(ir::ScalarKind param, ir::ScalarKind arg) {
  Conversion parts = realConversion(ir::componentKind(param), ir::componentKind(arg));
  if (ir::isComplex(param) && !ir::isComplex(arg) && parts != Conversion::Unsafe)
    return Conversion::Safe;
  return parts;
}

} // namespace kaji::frontend
