// CUDA's vector types in kernels, as Numba has them (numba.cuda.vector_types): the names
// float32x4, int8x2, ... and their CUDA C aliases float4, char2, ...; a constructor taking any
// mix of numbers and vectors of the same lane type whose lanes add up; read-only lanes .x .y
// .z .w. They lower onto kaji IR's vec<T, n> (make_vector, extract_lane).
#include "FunctionLowerer.h"

#include "kaji/frontend/Signature.h"

#include <array>
#include <cctype>
#include <charconv>
#include <utility>

namespace kaji::frontend {

using ir::ScalarKind;

namespace {

constexpr std::string_view kLaneNames = "xyzw";

bool isDigit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

// The lane kinds of Numba's vector types, by their own names and by CUDA C's (long is
// 64-bit, as numpy's int_ on Linux).
constexpr std::array<std::pair<std::string_view, ScalarKind>, 22> kLaneKinds = {{
    {"int8", ScalarKind::Int8},       {"int16", ScalarKind::Int16},
    {"int32", ScalarKind::Int32},     {"int64", ScalarKind::Int64},
    {"uint8", ScalarKind::UInt8},     {"uint16", ScalarKind::UInt16},
    {"uint32", ScalarKind::UInt32},   {"uint64", ScalarKind::UInt64},
    {"float32", ScalarKind::Float32}, {"float64", ScalarKind::Float64},
    {"char", ScalarKind::Int8},       {"short", ScalarKind::Int16},
    {"int", ScalarKind::Int32},       {"long", ScalarKind::Int64},
    {"longlong", ScalarKind::Int64},  {"uchar", ScalarKind::UInt8},
    {"ushort", ScalarKind::UInt16},   {"uint", ScalarKind::UInt32},
    {"ulong", ScalarKind::UInt64},    {"ulonglong", ScalarKind::UInt64},
    {"float", ScalarKind::Float32},   {"double", ScalarKind::Float64},
}};

} // namespace

std::optional<ir::Type> vectorTypeNamed(std::string_view name) {
  if (name.empty())
    return std::nullopt;
  unsigned lanes = 0;
  auto [end, ec] = std::from_chars(name.data() + name.size() - 1, name.data() + name.size(), lanes);
  if (ec != std::errc() || lanes < 1 || lanes > ir::Type::kMaxLanes)
    return std::nullopt;
  std::string_view base = name.substr(0, name.size() - 1);
  // Numba's own spelling separates the lane count with an x: float32x4 (float4 is CUDA C's).
  bool numbaSpelling = base.ends_with('x') && base.size() > 1 && isDigit(base[base.size() - 2]);
  if (numbaSpelling)
    base.remove_suffix(1);
  for (const auto &[laneName, kind] : kLaneKinds)
    if (laneName == base && numbaSpelling == isDigit(laneName.back()))
      return ir::Type::vector(kind, lanes);
  return std::nullopt;
}

Operand FunctionLowerer::vectorConstructor(ir::Type type, const std::vector<Operand> &args,
                                           const CallExpr &expr) {
  std::string name = typeString(type);
  std::vector<ir::Value *> lanes;
  for (const Operand &arg : args) {
    if (arg.kind == Operand::Kind::Vector && arg.type().scalarKind() == type.scalarKind()) {
      for (unsigned lane = 0; lane < arg.type().lanes(); ++lane)
        lanes.push_back(builder_.extractLane(arg.value, lane));
    } else if (arg.isScalar() && !arg.type().isComplex() && !arg.isPlainEnumMember()) {
      lanes.push_back(convert(arg, type.scalarKind()));
    } else {
      throw ir::CompileError(
          expr.loc, name + "() takes numbers and " + std::string(ir::numpyName(type.scalarKind())) +
                        " vectors, not '" + describe(arg) + "', in '" + unparse(expr) + "'");
    }
  }
  if (lanes.size() != type.lanes())
    throw ir::CompileError(expr.loc, name + "() needs " + std::to_string(type.lanes()) +
                                         " lanes in all, got " + std::to_string(lanes.size()) +
                                         " in '" + unparse(expr) + "'");
  return Operand::vector(builder_.makeVector(type, std::move(lanes)));
}

Operand FunctionLowerer::vectorLane(const Operand &vector, const std::string &attr,
                                    const Expr &node) {
  size_t lane = attr.size() == 1 ? kLaneNames.find(attr.front()) : std::string_view::npos;
  unsigned lanes = vector.type().lanes();
  if (lane >= lanes) {
    std::string names;
    for (unsigned i = 0; i < lanes; ++i)
      names += std::string(i ? ", ." : ".") + kLaneNames[i];
    throw ir::CompileError(node.loc, "'" + describe(vector) + "' has no attribute '" + attr +
                                         "'; its lanes are " + names);
  }
  return Operand::scalar(builder_.extractLane(vector.value, unsigned(lane)));
}

} // namespace kaji::frontend
