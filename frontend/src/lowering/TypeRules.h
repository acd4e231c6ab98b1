// Promotion of scalar types: numpy.result_type for strong types, NEP 50 for weak ones
// (Python int/float literals, which adopt the other operand's kind).
#pragma once

#include "kaji/ir/Type.h"

namespace kaji::frontend {

struct ScalarType {
  ir::ScalarKind kind = ir::ScalarKind::Int64;
  bool weak = false;
  friend bool operator==(const ScalarType &, const ScalarType &) = default;
};

// numpy.result_type of two strong types (int64 + uint64 -> float64, bool + bool -> bool).
ir::ScalarKind promoteStrong(ir::ScalarKind a, ir::ScalarKind b);

// The common type of two operands. Two weak operands give a weak int64 (or float64 if
// either is a float); a weak one yields to a strong one of a compatible kind.
ScalarType promote(ScalarType a, ScalarType b);

} // namespace kaji::frontend
