#include "TypeRules.h"

namespace kaji::frontend {
namespace {

using ir::ScalarKind;

// The smallest float that holds every value of integer kind `k` as numpy sees it.
ScalarKind floatHolding(ScalarKind k) {
  unsigned bits = ir::bitWidth(k);
  if (bits <= 8)
    return ScalarKind::Float16;
  if (bits <= 16)
    return ScalarKind::Float32;
  return ScalarKind::Float64;
}

// float16 and bfloat16 hold no common set of values but float32's, as in ml_dtypes.
ScalarKind widerFloat(ScalarKind a, ScalarKind b) {
  if (a != b && ir::bitWidth(a) == 16 && ir::bitWidth(b) == 16)
    return ScalarKind::Float32;
  return ir::bitWidth(a) >= ir::bitWidth(b) ? a : b;
}

// The float kind of `f` with an integer of kind `k`: bfloat16 holds int8 and uint8 exactly,
// as ml_dtypes promotes them; wider integers go where float16 takes them.
ScalarKind floatWithInteger(ScalarKind f, ScalarKind k) {
  if (f == ScalarKind::BFloat16 && ir::bitWidth(k) <= 8)
    return f;
  return widerFloat(f, floatHolding(k));
}

ScalarKind signedOfWidth(unsigned bits) {
  switch (bits) {
  case 8:
    return ScalarKind::Int8;
  case 16:
    return ScalarKind::Int16;
  case 32:
    return ScalarKind::Int32;
  default:
    return ScalarKind::Int64;
  }
}

ScalarKind promoteIntegers(ScalarKind a, ScalarKind b) {
  if (ir::isSigned(a) == ir::isSigned(b))
    return ir::bitWidth(a) >= ir::bitWidth(b) ? a : b;
  ScalarKind s = ir::isSigned(a) ? a : b;
  ScalarKind u = ir::isSigned(a) ? b : a;
  if (ir::bitWidth(s) > ir::bitWidth(u))
    return s;
  if (ir::bitWidth(u) == 64)
    return ScalarKind::Float64; // no integer holds both int64 and uint64
  return signedOfWidth(2 * ir::bitWidth(u));
}

} // namespace

// numpy.result_type of a complex kind and another kind: the complex kind whose parts hold
// both (complex64 with float64 or int32 is complex128).
static ScalarKind promoteComplex(ScalarKind a, ScalarKind b) {
  return ir::complexOf(promoteStrong(ir::componentKind(a), ir::componentKind(b)));
}

ScalarKind promoteStrong(ScalarKind a, ScalarKind b) {
  if (a == b)
    return a;
  if (ir::isComplex(a) || ir::isComplex(b))
    return promoteComplex(a, b);
  if (a == ScalarKind::Bool)
    return b;
  if (b == ScalarKind::Bool)
    return a;
  if (ir::isFloat(a) && ir::isFloat(b))
    return widerFloat(a, b);
  if (ir::isFloat(a))
    return floatWithInteger(a, b);
  if (ir::isFloat(b))
    return floatWithInteger(b, a);
  return promoteIntegers(a, b);
}

ScalarType promote(ScalarType a, ScalarType b) {
  if (a.weak && b.weak) {
    if (ir::isComplex(a.kind) || ir::isComplex(b.kind))
      return {ScalarKind::Complex128, true};
    if (ir::isFloat(a.kind) || ir::isFloat(b.kind))
      return {ScalarKind::Float64, true};
    if (a.kind == ScalarKind::Bool && b.kind == ScalarKind::Bool)
      return {ScalarKind::Bool, true};
    bool unsignedLiteral = a.kind == ScalarKind::UInt64 || b.kind == ScalarKind::UInt64;
    return {unsignedLiteral ? ScalarKind::UInt64 : ScalarKind::Int64, true};
  }
  if (!a.weak && !b.weak)
    return {promoteStrong(a.kind, b.kind), false};
  ScalarType weak = a.weak ? a : b;
  ScalarType strong = a.weak ? b : a;
  if (weak.kind == ScalarKind::Bool)
    return strong;
  // A Python complex keeps a float's precision (float32 * 1j is complex64, NEP 50).
  if (ir::isComplex(weak.kind))
    return {ir::isFloat(strong.kind) || ir::isComplex(strong.kind)
                ? ir::complexOf(ir::componentKind(strong.kind))
                : ScalarKind::Complex128,
            false};
  if (ir::isComplex(strong.kind))
    return strong;
  if (ir::isFloat(weak.kind))
    return {ir::isFloat(strong.kind) ? strong.kind : ScalarKind::Float64, false};
  // A Python int adopts any numeric kind; next to a bool it is a default int.
  return {strong.kind == ScalarKind::Bool ? ScalarKind::Int64 : strong.kind, false};
}

} // namespace kaji::frontend
