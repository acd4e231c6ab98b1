// Numba-style signature strings: "void(float32[:], float32, int64[:, ::1])".
#pragma once

#include "kaji/frontend/AST.h"
#include "kaji/ir/Location.h"
#include "kaji/ir/Type.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kaji::frontend {

// How a function's parameters take the flattened parameter types: a leaf takes one type, a
// tuple the leaves of its elements in order. The IR has no tuples: the frontend passes a
// tuple as its leaves and rebuilds it from them (docs/architecture.md).
struct ParameterStructure {
  bool tuple = false;
  std::vector<ParameterStructure> elements; // tuple
  std::string tupleClass;                   // a namedtuple's class; empty for a plain tuple
  std::vector<std::string> fields;          // a namedtuple's field names
  // A C pointer (Numba's CPointer, `float32*`): its leaf is the address, a u64, and the
  // function sees an array of this element type starting there.
  std::optional<ir::Type> pointee;
  // A number type passed as a value (Numba's NumberClass, `class(float32)`: a kernel taking
  // `np.float32`): no leaf, the function sees the type itself, a compile-time value.
  std::optional<ir::ScalarKind> typeValue;
  size_t leafCount() const;
  friend bool operator==(const ParameterStructure &, const ParameterStructure &) = default;
};

// `count` parameters of one type each: the structure of a signature without tuples.
std::vector<ParameterStructure> leafParameters(size_t count);

struct Signature {
  ir::Type returnType;          // void for kernels
  std::vector<ir::Type> params; // flattened: the leaf types of every parameter, in order
  // One per parameter; none means each of `params` is a parameter of its own.
  std::vector<ParameterStructure> structure;
  // `(PARAMS)` alone: a device function's result is what it returns, as in Numba (returnType
  // is void); signatureString() keeps the spelling.
  bool resultInferred = false;
  // The structure, with leaves filled in when `structure` is empty.
  std::vector<ParameterStructure> parameters() const;
};

// `RET(PARAMS)` or, as Numba prints a signature, `(PARAMS) -> RET`; `void` or `none` return
// nothing, as does `(PARAMS)`, Numba's tuple of argument types. Array layouts: `[:]`, `[:, :]` →
// any; `[::1]`, `[:, ::1]` → C; `[::1, :]` → F; or as Numba prints them, `array(float32, 2d, C)`
// (layout C, F or A). Vectors by Numba's names (`float32x4`) or CUDA C's (`float4`); no array
// has vector elements. Scalar names: Numba's (numba.types: `float32`, `f4`, `intp`, `boolean`,
// `byte` = uint8, `float_` = float32, ...). Tuples as Numba prints them: `UniTuple(int32 x 3)`,
// `Tuple(int32, float64[:])`, `Tuple()`, nested; a namedtuple as
// `NamedTuple(Point, x=float32, y=float32)`; a C pointer to scalars as Numba prints
// `CPointer(float32)`: `float32*`, or spelled `CPointer(float32)`; a number type passed as a value
// as Numba prints its class: `class(float32)` (not for device functions, checkDeviceSignature).
// Throws ir::CompileError at `loc` (shifted to the offending character when loc is known) naming
// what was expected.
Signature parseSignature(std::string_view text, const ir::Location &loc);

// One type as a signature spells it (void included), e.g. "float32[:, ::1]".
ir::Type parseType(std::string_view text, const ir::Location &loc);

// A signature as a decorator writes it, `@jit("void(float32[:])")` or with Numba's type
// objects `@jit(void(float32[:]))`: its text (the string, or the expression as written) and
// where that text starts, for parseSignature. nullopt for other expressions.
struct WrittenSignature {
  std::string text;
  ir::Location loc;
};
std::optional<WrittenSignature> writtenSignature(const Expr &decoratorArgument);

// The canonical spelling of a signature, e.g. for cache keys and messages.
std::string signatureString(const Signature &sig);
// The spelling of each of its parameters, as signatureString() lists them.
std::vector<std::string> parameterStrings(const Signature &sig);

// The spelling of one type in a signature and in messages: "float32", "float32[:, ::1]".
std::string typeString(const ir::Type &type);

// The spelling of one parameter of `structure` whose leaves are `leaves`:
// "UniTuple(int64 x 2)" (all elements alike), "Tuple(int64, float32[:])", or typeString().
std::string parameterString(const ParameterStructure &structure, std::span<const ir::Type> leaves);

// The vector type a member of the cuda module, or a signature, names: Numba's float32x4,
// int8x2, ... or CUDA C's float4, char2, ... (VectorTypes.cpp).
std::optional<ir::Type> vectorTypeNamed(std::string_view name);

// Throws ir::CompileError at `loc` unless `sig` is one a kernel may have: it returns void, and
// no parameter is a vector (arguments come from the host, which has no vector values).
void checkKernelSignature(const Signature &sig, const ir::Location &loc);
// Throws ir::CompileError at `loc` when a parameter of `sig` is a type (`class(float32)`): a
// device function's signature converts arguments, which a type is not.
void checkDeviceSignature(const Signature &sig, const ir::Location &loc);

// A scalar type name as a signature (Numba's numba.types) spells it; nullopt if unknown.
std::optional<ir::ScalarKind> scalarKindFromSignatureName(std::string_view name);
// A scalar type as numpy names it (`numpy.NAME`): `byte` is int8 and `float_` float64 there.
std::optional<ir::ScalarKind> scalarKindFromNumpyName(std::string_view name);

} // namespace kaji::frontend
