// The libdevice functions kernels may call by name (cuda.libdevice.NAME), with Numba's
// signatures: one table, Libdevice.def, generated from the libdevice bitcode.
#pragma once

#include "kaji/ir/Type.h"

#include <optional>
#include <string_view>
#include <vector>

namespace kaji::ir {

// How the cpu target computes a libdevice function.
enum class LibdeviceHost : uint8_t {
  Libm, // the C library's function of the same name and signature
  Fast, // __nv_fast_NAME: the C library's NAME
  Own,  // kaji's own lowering
  None, // none: compiling it for the cpu target is an error
};

struct LibdeviceFunction {
  std::string_view name; // without __nv_
  std::optional<ScalarKind> result;
  std::vector<ScalarKind> parameters;
  // Values the function writes through pointer parameters (after the inputs): the Python
  // function returns them as a tuple after its result.
  std::vector<ScalarKind> outputs;
  LibdeviceHost host;

  // The number of values the Python function returns: 1 is a scalar, more a tuple.
  size_t valueCount() const { return (result ? 1 : 0) + outputs.size(); }
  // The type of the Python function's value number `index`.
  ScalarKind valueKind(size_t index) const;
};

const LibdeviceFunction *findLibdeviceFunction(std::string_view name);
std::vector<std::string_view> libdeviceFunctionNames();

// The `libdevice` op's attribute: the function name, then ".N" when it selects value N of a
// function with several values (frexp.1 is frexp's exponent).
struct LibdeviceSelection {
  const LibdeviceFunction *function = nullptr; // null when the name is unknown
  size_t value = 0;
};
LibdeviceSelection parseLibdeviceSelection(std::string_view attribute);
std::string libdeviceSelection(const LibdeviceFunction &function, size_t value);

} // namespace kaji::ir
