// Scalar kernel arguments and global constants: Python bool/int/float and numpy scalars,
// read into their kaji type and bytes. Python scalars are weak (NEP 50), numpy scalars are not.
#pragma once

#include "kaji/ir/Type.h"

#include <pybind11/pybind11.h>

#include <array>
#include <cstddef>
#include <optional>

namespace kaji::python {

namespace py = pybind11;

struct ScalarValue {
  ir::ScalarKind kind = ir::ScalarKind::Int64;
  bool weak = false;                 // a Python bool/int/float rather than a numpy scalar
  std::array<std::byte, 16> bytes{}; // the value as `kind`, little-endian (complex: re, im)
  py::handle object;                 // where it came from (borrowed)

  int64_t asInt64() const; // integer and bool kinds
  double asDouble() const; // float kinds
};

// The scalar `object` is, or nullopt when it is no scalar kaji kernels take. A Python int
// is int64 (uint64 above its range; beyond that an OverflowError naming the value).
std::optional<ScalarValue> scalarValue(py::handle object);

// Writes `value` as a `target` scalar (bool as one byte) to `out`, converting when the
// kinds differ the way numpy's `target(value)` does, but for a Python int within the target
// integer's width read as unsigned or signed (0x80000000 for an int32), which is passed as
// its bits.
void storeScalar(const ScalarValue &value, ir::ScalarKind target, std::byte *out);

} // namespace kaji::python
