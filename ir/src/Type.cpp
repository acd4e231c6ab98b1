#include "kaji/ir/Type.h"

#include "kaji/ir/MatrixFragments.h"
#include "kaji/ir/RecordType.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <utility>

namespace kaji::ir {

namespace {

struct ScalarInfo {
  std::string_view irName;
  std::string_view numpyName;
  unsigned bits;
  bool isInteger;
  bool isSigned;
  bool isFloat;
  bool isComplex;
};

constexpr std::array<ScalarInfo, 18> kScalarInfo = {{
    {"bool", "bool", 1, false, false, false, false},
    {"i8", "int8", 8, true, true, false, false},
    {"i16", "int16", 16, true, true, false, false},
    {"i32", "int32", 32, true, true, false, false},
    {"i64", "int64", 64, true, true, false, false},
    {"u8", "uint8", 8, true, false, false, false},
    {"u16", "uint16", 16, true, false, false, false},
    {"u32", "uint32", 32, true, false, false, false},
    {"u64", "uint64", 64, true, false, false, false},
    {"f16", "float16", 16, false, true, true, false},
    {"bf16", "bfloat16", 16, false, true, true, false},
    {"f32", "float32", 32, false, true, true, false},
    {"f64", "float64", 64, false, true, true, false},
    {"c64", "complex64", 64, false, true, false, true},
    {"c128", "complex128", 128, false, true, false, true},
    {"f8e4m3", "float8_e4m3fn", 8, false, true, false, false},
    {"f8e5m2", "float8_e5m2", 8, false, true, false, false},
    {"f8e8m0", "float8_e8m0fnu", 8, false, false, false, false},
}};

const ScalarInfo &info(ScalarKind k) { return kScalarInfo[static_cast<size_t>(k)]; }

std::string_view layoutName(Layout layout) {
  switch (layout) {
  case Layout::C:
    return "C";
  case Layout::F:
    return "F";
  case Layout::Any:
    return "any";
  }
  return "any";
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ')
    s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ')
    s.remove_suffix(1);
  return s;
}

} // namespace

bool isInteger(ScalarKind k) { return info(k).isInteger; }
bool isSigned(ScalarKind k) { return info(k).isSigned; }
bool isFloat(ScalarKind k) { return info(k).isFloat; }
bool isComplex(ScalarKind k) { return info(k).isComplex; }
bool isHalfPrecision(ScalarKind k) { return k == ScalarKind::Float16 || k == ScalarKind::BFloat16; }
bool isFloat8(ScalarKind k) {
  return k == ScalarKind::Float8E4M3 || k == ScalarKind::Float8E5M2 || k == ScalarKind::Float8E8M0;
}

ScalarKind componentKind(ScalarKind k) {
  if (k == ScalarKind::Complex64)
    return ScalarKind::Float32;
  return k == ScalarKind::Complex128 ? ScalarKind::Float64 : k;
}

ScalarKind complexOf(ScalarKind k) {
  return k == ScalarKind::Float64 ? ScalarKind::Complex128 : ScalarKind::Complex64;
}
unsigned bitWidth(ScalarKind k) { return info(k).bits; }
unsigned byteSize(ScalarKind k) { return k == ScalarKind::Bool ? 1 : info(k).bits / 8; }
std::string_view irName(ScalarKind k) { return info(k).irName; }
std::string_view numpyName(ScalarKind k) { return info(k).numpyName; }

std::string_view memorySpaceName(MemorySpace space) {
  switch (space) {
  case MemorySpace::Global:
    return "global";
  case MemorySpace::Shared:
    return "shared";
  case MemorySpace::Local:
    return "local";
  case MemorySpace::Constant:
    return "const";
  }
  return "unknown";
}

std::optional<ScalarKind> scalarKindFromName(std::string_view name) {
  for (size_t i = 0; i < kScalarInfo.size(); ++i)
    if (kScalarInfo[i].irName == name || kScalarInfo[i].numpyName == name)
      return static_cast<ScalarKind>(i);
  return std::nullopt;
}

Type Type::scalar(ScalarKind k) {
  Type t;
  t.kind_ = Kind::Scalar;
  t.scalar_ = k;
  return t;
}

Type Type::vector(ScalarKind lane, unsigned lanes) {
  Type t;
  t.kind_ = Kind::Vector;
  t.scalar_ = lane;
  t.lanes_ = static_cast<uint8_t>(lanes);
  return t;
}

Type Type::array(ScalarKind elem, unsigned ndim, Layout layout, MemorySpace space) {
  Type t;
  t.kind_ = Kind::Array;
  t.scalar_ = elem;
  t.ndim_ = static_cast<uint8_t>(ndim);
  t.layout_ = layout;
  t.space_ = space;
  return t;
}

Type Type::arrayOf(Type element, unsigned ndim, Layout layout, MemorySpace space) {
  Type t = array(element.scalarKind(), ndim, layout, space);
  t.lanes_ = element.isVector() ? uint8_t(element.lanes()) : 0;
  return t;
}

Type Type::elementType() const { return lanes_ ? vector(scalar_, lanes_) : scalar(scalar_); }

Type Type::array(const RecordType *elem, unsigned ndim, Layout layout, MemorySpace space) {
  Type t = array(ScalarKind::UInt8, ndim, layout, space);
  t.record_ = elem;
  return t;
}

unsigned Type::elementSize() const {
  return record_ ? unsigned(record_->size()) : byteSize(scalar_) * std::max(lanes_, uint8_t(1));
}

unsigned Type::elementAlignment() const {
  if (record_)
    return unsigned(record_->alignment());
  unsigned lane = byteSize(componentKind(scalar_));
  if (lanes_ == 0 || lanes_ == 3)
    return lane;
  return std::min(lane * lanes_, 16u);
}

Type Type::fragment(MatrixUse use, MatrixShape shape, ScalarKind element, Layout layout) {
  Type t;
  t.kind_ = Kind::Fragment;
  t.scalar_ = element;
  t.use_ = use;
  t.shape_ = shape;
  t.layout_ = layout;
  return t;
}

std::string Type::str() const {
  switch (kind_) {
  case Kind::Void:
    return "void";
  case Kind::Scalar:
    return std::string(irName(scalar_));
  case Kind::Vector:
    return "vec<" + std::string(irName(scalar_)) + ", " + std::to_string(lanes_) + ">";
  case Kind::Array: {
    std::string element = record_ ? record_->str() : elementType().str();
    std::string s =
        "array<" + element + ", " + std::to_string(ndim_) + ", " + std::string(layoutName(layout_));
    if (space_ != MemorySpace::Global)
      s += ", " + std::string(memorySpaceName(space_));
    return s + ">";
  }
  case Kind::Fragment: {
    std::string s = "fragment<" + std::string(matrixUseName(use_)) + ", " +
                    std::string(matrixShapeName(shape_)) + ", " + std::string(irName(scalar_));
    if (layout_ != Layout::Any)
      s += layout_ == Layout::C ? ", row" : ", col";
    return s + ">";
  }
  }
  return "void";
}

namespace {

// The comma-separated parts of `text` if it is `prefix<...>` with at most N parts.
template <size_t N>
std::optional<std::pair<std::array<std::string_view, N>, size_t>>
bracketedParts(std::string_view text, std::string_view prefix) {
  if (!text.starts_with(prefix) || !text.ends_with('>'))
    return std::nullopt;
  std::string_view body = text.substr(prefix.size(), text.size() - prefix.size() - 1);
  std::array<std::string_view, N> parts;
  size_t count = 0;
  while (true) {
    size_t comma = body.find(',');
    if (count == parts.size())
      return std::nullopt;
    parts[count++] = trim(body.substr(0, comma));
    if (comma == std::string_view::npos)
      break;
    body.remove_prefix(comma + 1);
  }
  return std::pair{parts, count};
}

std::optional<unsigned> parseCount(std::string_view text, unsigned max) {
  unsigned value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value > max)
    return std::nullopt;
  return value;
}

std::optional<ScalarKind> parseIRScalar(std::string_view text) {
  auto kind = scalarKindFromName(text);
  if (!kind || irName(*kind) != text)
    return std::nullopt;
  return kind;
}

// `vec<T, n>`: the lane kind is any scalar here; the verifier restricts it.
std::optional<Type> parseVectorType(std::string_view text) {
  auto parsed = bracketedParts<2>(text, "vec<");
  if (!parsed || parsed->second != 2)
    return std::nullopt;
  auto lane = parseIRScalar(parsed->first[0]);
  auto lanes = parseCount(parsed->first[1], Type::kMaxLanes);
  if (!lane || !lanes || *lanes == 0)
    return std::nullopt;
  return Type::vector(*lane, *lanes);
}

std::optional<Type> parseArrayType(std::string_view text) {
  // A record element has commas of its own: it is parsed first and stands for "u8" below.
  const RecordType *record = nullptr;
  std::string simplified;
  constexpr std::string_view prefix = "array<";
  if (text.starts_with(prefix) && trim(text.substr(prefix.size())).starts_with("record<")) {
    std::string_view rest = trim(text.substr(prefix.size()));
    record = parseRecordType(rest);
    if (!record)
      return std::nullopt;
    simplified = std::string(prefix) + "u8" + std::string(rest);
    text = simplified;
  }
  // So has a vector element: parsed first, it too stands for "u8" below.
  std::optional<Type> vector;
  if (text.starts_with(prefix) && trim(text.substr(prefix.size())).starts_with("vec<")) {
    std::string_view rest = trim(text.substr(prefix.size()));
    size_t end = rest.find('>');
    vector = end == std::string_view::npos ? std::nullopt : parseIRType(rest.substr(0, end + 1));
    if (!vector)
      return std::nullopt;
    simplified = std::string(prefix) + "u8" + std::string(rest.substr(end + 1));
    text = simplified;
  }
  auto parsed = bracketedParts<4>(text, prefix);
  if (!parsed || parsed->second < 3)
    return std::nullopt;
  const auto &[parts, count] = *parsed;
  auto elem = parseIRScalar(parts[0]);
  auto ndim = parseCount(parts[1], 255);
  if (!elem || !ndim)
    return std::nullopt;
  Layout layout;
  if (parts[2] == "C")
    layout = Layout::C;
  else if (parts[2] == "F")
    layout = Layout::F;
  else if (parts[2] == "any")
    layout = Layout::Any;
  else
    return std::nullopt;
  MemorySpace space = MemorySpace::Global;
  if (count == 4) {
    constexpr MemorySpace kNamed[] = {MemorySpace::Shared, MemorySpace::Local,
                                      MemorySpace::Constant};
    auto named = std::find_if(std::begin(kNamed), std::end(kNamed),
                              [&](MemorySpace s) { return parts[3] == memorySpaceName(s); });
    if (named == std::end(kNamed))
      return std::nullopt;
    space = *named;
  }
  if (record)
    return Type::array(record, *ndim, layout, space);
  return Type::arrayOf(vector.value_or(Type::scalar(*elem)), *ndim, layout, space);
}

// `fragment<use, shape, T[, row|col]>`: any use, shape and scalar here; the verifier asks
// MatrixFragments.h which exist.
std::optional<Type> parseFragmentType(std::string_view text) {
  auto parsed = bracketedParts<4>(text, "fragment<");
  if (!parsed || parsed->second < 3)
    return std::nullopt;
  const auto &[parts, count] = *parsed;
  auto use = matrixUseFromName(parts[0]);
  auto shape = matrixShapeFromName(parts[1]);
  auto element = parseIRScalar(parts[2]);
  if (!use || !shape || !element)
    return std::nullopt;
  Layout layout = Layout::Any;
  if (count == 4) {
    if (parts[3] == "row")
      layout = Layout::C;
    else if (parts[3] == "col")
      layout = Layout::F;
    else
      return std::nullopt;
  }
  return Type::fragment(*use, *shape, *element, layout);
}

} // namespace

std::optional<Type> parseIRType(std::string_view text) {
  text = trim(text);
  if (text == "void")
    return Type::voidType();
  if (auto k = parseIRScalar(text))
    return Type::scalar(*k);
  if (text.starts_with("vec<"))
    return parseVectorType(text);
  if (text.starts_with("fragment<"))
    return parseFragmentType(text);
  return parseArrayType(text);
}

} // namespace kaji::ir
