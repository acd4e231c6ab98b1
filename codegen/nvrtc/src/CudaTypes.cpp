// Types and literals in the emitted CUDA C++: the prelude's names of kaji's types, numbers and
// strings as C++ literals, and the alignment of static arrays.
#include "CudaEmitter.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstring>

namespace kaji::codegen::nvrtc::emitter {

std::string scalarTypeName(ScalarKind kind) {
  return kind == ScalarKind::Bool ? "bool" : std::string(ir::irName(kind));
}

// Memory holds bool as one byte (0 or 1), in arrays and kernel parameters alike.
std::string storageTypeName(ScalarKind kind) {
  return kind == ScalarKind::Bool ? "u8" : scalarTypeName(kind);
}

// What an array's memory holds: its scalars' storage type, or its vectors.
std::string elementTypeName(ir::Type array) {
  return array.isVectorArray() ? typeName(array.elementType())
                               : storageTypeName(array.scalarKind());
}

std::string arrayTypeName(ir::Type type) {
  return "kaji::array<" + elementTypeName(type) + ", " + std::to_string(std::max(type.ndim(), 1u)) +
         ">";
}

std::string typeName(ir::Type type) {
  if (type.isFragment())
    return fragmentPointerTypeName(type);
  if (type.isVector())
    return "kaji::vec<" + scalarTypeName(type.scalarKind()) + ", " + std::to_string(type.lanes()) +
           ">";
  return type.isArray() ? arrayTypeName(type) : scalarTypeName(type.scalarKind());
}

bool isWideUnsigned(ScalarKind kind) {
  return kind == ScalarKind::UInt32 || kind == ScalarKind::UInt64;
}

// The shortest decimal that reads back to `value` in its type, as a C++ float literal; the
// bits through CUDA's reinterpreting intrinsics where there is no literal (NaN, infinity).
std::string floatLiteral(double value, ScalarKind kind) {
  bool single = kind != ScalarKind::Float64;
  char text[64];
  if (value != value || value - value != 0) {
    if (single) {
      float narrow = float(value);
      uint32_t bits;
      std::memcpy(&bits, &narrow, sizeof bits);
      std::snprintf(text, sizeof text, "__int_as_float(0x%08x)", bits);
    } else {
      uint64_t bits;
      std::memcpy(&bits, &value, sizeof bits);
      std::snprintf(text, sizeof text, "__longlong_as_double(0x%016llxLL)",
                    static_cast<unsigned long long>(bits));
    }
  } else {
    auto end = single ? std::to_chars(text, text + sizeof text - 4, float(value)).ptr
                      : std::to_chars(text, text + sizeof text - 4, value).ptr;
    std::string_view digits(text, size_t(end - text));
    std::string literal(digits);
    if (digits.find_first_of(".e") == std::string_view::npos)
      literal += ".0";
    if (single)
      literal += 'f';
    std::snprintf(text, sizeof text, "%s", literal.c_str());
  }
  std::string literal = text;
  return ir::isHalfPrecision(kind) ? scalarTypeName(kind) + "(" + literal + ")" : literal;
}

std::string intLiteral(int64_t value, ScalarKind kind) {
  if (kind == ScalarKind::Bool)
    return value ? "true" : "false";
  if (!ir::isSigned(kind)) {
    std::string digits = std::to_string(uint64_t(value));
    return digits + (kind == ScalarKind::UInt64 ? "ull" : kind == ScalarKind::UInt32 ? "u" : "");
  }
  if (value == INT64_MIN)
    return "(-9223372036854775807ll - 1)";
  return std::to_string(value) + (kind == ScalarKind::Int64 ? "ll" : "");
}

std::string quoted(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    // Other control characters as three octal digits, which no following digit extends.
    if ((c >= 0 && c < ' ') || c == '\x7f') {
      char escape[5];
      std::snprintf(escape, sizeof escape, "\\%03o", unsigned(c));
      out += escape;
      continue;
    }
    if (c == '?') // no trigraphs
      out += '\\';
    out += c;
  }
  return out + '"';
}

// `__align__(N) ` for `array` that asked for `requested` bytes (0: nothing): at least its
// element's alignment, and 16 by default, as the LLVM lowering aligns.
std::string alignment(int64_t requested, ir::Type array) {
  int64_t element = int64_t(array.elementAlignment());
  int64_t bytes = requested ? std::max(requested, element) : std::max<int64_t>(element, 16);
  return "__align__(" + std::to_string(bytes) + ") ";
}

} // namespace kaji::codegen::nvrtc::emitter
