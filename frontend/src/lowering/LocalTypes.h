// The type of a local variable: the unification of every value assigned to it anywhere
// in the function, found by lowering to a fixed point (see Lowering.cpp).
#pragma once

#include "Operand.h"

#include "kaji/ir/Location.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kaji::frontend {

struct LocalType {
  enum class Kind : uint8_t { Scalar, Array, Vector, Tuple };
  Kind kind = Kind::Scalar;
  ScalarType scalar;               // Scalar
  ir::Type array;                  // Array
  ir::Type vector;                 // Vector: a vector or a fragment, one SSA value of its type
  std::vector<LocalType> elements; // Tuple: scalars, arrays and tuples
  std::string tupleClass;          // Tuple: a namedtuple's class, empty for a plain tuple
  std::vector<std::string> fields; // Tuple: a namedtuple's field names
  friend bool operator==(const LocalType &, const LocalType &) = default;
};

using LocalTypes = std::map<std::string, LocalType, std::less<>>;

// The type a variable holding `value` has; throws at `loc` for values no variable holds
// (modules, functions, None, and tuples of them).
LocalType localTypeOf(const Operand &value, const std::string &variable, const ir::Location &loc);

// Weak types yield to strong ones; two scalars promote; tuples unify elementwise; arrays that
// differ only in layout as an array of any layout (Numba's 'A'); other arrays and vectors
// only with their own type. Throws
// at `loc` naming the variable when the two cannot share one variable.
LocalType unify(const LocalType &a, const LocalType &b, const std::string &variable,
                const ir::Location &loc);

// `t` as Numba spells a type, which kaji.types.from_text reads: "int64", "float32[:, ::1]",
// "float32x4", "UniTuple(int64 x 2)", "Tuple(int64, float64[::1])" (a namedtuple too).
std::string typeText(const LocalType &t);

// Adds every entry of `from` into `into` (unifying where both have one).
void unifyInto(LocalTypes &into, const LocalTypes &from, const ir::Location &loc);

} // namespace kaji::frontend
