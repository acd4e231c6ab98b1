// Numba-style signature strings: "void(float32[:], float32, int64[:, ::1])".
#pragma once

#include "kaji/ir/Location.h"
#include "kaji/ir/Type.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kaji::frontend {

struct Signature {
  ir::Type returnType; // void for kernels
  std::vector<ir::Type> params;
};

// Array layouts: `[:]`, `[:, :]` → any; `[::1]`, `[:, ::1]` → C; `[::1, :]` → F.
// Scalar names: the numpy spellings, plus `int_`/`float_`/`intp`/`uintp`/`boolean`/
// `b1 i1..i8 u1..u8 f2 f4 f8`. Throws ir::CompileError at `loc` (shifted to the
// offending character when loc is known) naming what was expected.
Signature parseSignature(std::string_view text, const ir::Location &loc);

// The canonical spelling of a signature, e.g. for cache keys and messages.
std::string signatureString(const Signature &sig);

// The spelling of one type in a signature and in messages: "float32", "float32[:, ::1]".
std::string typeString(const ir::Type &type);

// A scalar type name as a signature (or `numpy.NAME`) spells it; nullopt if unknown.
std::optional<ir::ScalarKind> scalarKindFromSignatureName(std::string_view name);

} // namespace kaji::frontend
