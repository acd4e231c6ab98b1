#include "kaji/frontend/Signature.h"

#include "Limits.h"

#include "kaji/ir/RecordType.h"

#include <algorithm>
#include <cctype>
#include <utility>

namespace kaji::frontend {
namespace {

using ir::ScalarKind;

constexpr unsigned kMaxArrayDimensions = 32;

struct ScalarName {
  std::string_view name;
  ScalarKind kind;
};

// The names Numba's signatures and numpy agree on.
constexpr ScalarName kScalarNames[] = {
    {"bool", ScalarKind::Bool},
    {"bool_", ScalarKind::Bool},
    {"boolean", ScalarKind::Bool},
    {"b1", ScalarKind::Bool},
    {"int8", ScalarKind::Int8},
    {"i1", ScalarKind::Int8},
    {"char", ScalarKind::Int8},
    {"int16", ScalarKind::Int16},
    {"i2", ScalarKind::Int16},
    {"short", ScalarKind::Int16},
    {"int32", ScalarKind::Int32},
    {"i4", ScalarKind::Int32},
    {"intc", ScalarKind::Int32},
    {"int64", ScalarKind::Int64},
    {"i8", ScalarKind::Int64},
    {"int_", ScalarKind::Int64},
    {"intp", ScalarKind::Int64},
    {"long_", ScalarKind::Int64},
    {"longlong", ScalarKind::Int64},
    {"uint8", ScalarKind::UInt8},
    {"u1", ScalarKind::UInt8},
    {"ubyte", ScalarKind::UInt8},
    {"uchar", ScalarKind::UInt8},
    {"uint16", ScalarKind::UInt16},
    {"u2", ScalarKind::UInt16},
    {"ushort", ScalarKind::UInt16},
    {"uint32", ScalarKind::UInt32},
    {"u4", ScalarKind::UInt32},
    {"uintc", ScalarKind::UInt32},
    {"uint64", ScalarKind::UInt64},
    {"u8", ScalarKind::UInt64},
    {"uint", ScalarKind::UInt64},
    {"uintp", ScalarKind::UInt64},
    {"ulong", ScalarKind::UInt64},
    {"ulonglong", ScalarKind::UInt64},
    {"float16", ScalarKind::Float16},
    {"f2", ScalarKind::Float16},
    {"half", ScalarKind::Float16},
    {"bfloat16", ScalarKind::BFloat16},
    {"float8_e4m3fn", ScalarKind::Float8E4M3},
    {"float8_e5m2", ScalarKind::Float8E5M2},
    {"float8_e8m0fnu", ScalarKind::Float8E8M0},
    {"float32", ScalarKind::Float32},
    {"f4", ScalarKind::Float32},
    {"single", ScalarKind::Float32},
    {"float64", ScalarKind::Float64},
    {"f8", ScalarKind::Float64},
    {"double", ScalarKind::Float64},
    {"complex64", ScalarKind::Complex64},
    {"c8", ScalarKind::Complex64},
    {"csingle", ScalarKind::Complex64},
    {"complex128", ScalarKind::Complex128},
    {"c16", ScalarKind::Complex128},
    {"cdouble", ScalarKind::Complex128},
};

// The names that mean one type in Numba's signatures (numba.types) and another in numpy.
constexpr ScalarName kNumbaOnlyNames[] = {{"byte", ScalarKind::UInt8},
                                          {"float_", ScalarKind::Float32}};
constexpr ScalarName kNumpyOnlyNames[] = {{"byte", ScalarKind::Int8},
                                          {"float_", ScalarKind::Float64}};

template <size_t N>
std::optional<ScalarKind> findScalarName(const ScalarName (&table)[N], std::string_view name) {
  for (const ScalarName &entry : table)
    if (entry.name == name)
      return entry.kind;
  return std::nullopt;
}

// Recursive descent over the signature text; `pos_` is the offending column on error.
class SignatureParser {
public:
  SignatureParser(std::string_view text, const ir::Location &loc) : text_(text), loc_(loc) {}

  // `RET(PARAMS)`, as written in kaji and Numba, `(PARAMS) -> RET`, as Numba prints a
  // signature object, or `(PARAMS)`, Numba's tuple of argument types, returning void.
  Signature parse() {
    Signature sig;
    skipSpace();
    if (atEnd())
      fail("empty signature: expected e.g. 'void(float32[:])'");
    if (peek() == '(') {
      parseParameters(sig);
      skipSpace();
      sig.returnType = ir::Type::voidType();
      sig.resultInferred = atEnd();
      if (!atEnd()) {
        expect('-', "'->' before the return type");
        expect('>', "'->' before the return type");
        sig.returnType = parseType(/*allowVoid=*/true);
      }
    } else {
      sig.returnType = parseType(/*allowVoid=*/true);
      parseParameters(sig);
    }
    expectEnd("the signature");
    return sig;
  }

  ir::Type parseSingleType() {
    skipSpace();
    if (atEnd())
      fail("empty type: expected e.g. 'float32[:]'");
    ir::Type type = parseType(/*allowVoid=*/true);
    expectEnd("the type");
    return type;
  }

private:
  // `(PARAMS)`: each a type or a tuple, their leaves into `sig.params`.
  void parseParameters(Signature &sig) {
    expect('(', "'(' after the return type");
    skipSpace();
    if (consume(')'))
      return;
    do {
      skipSpace();
      if (peek() == ')')
        break; // a trailing comma, as Python allows
      sig.structure.push_back(parseParameter(sig.params));
      skipSpace();
    } while (consume(','));
    expect(')', "',' or ')'");
  }

  void expectEnd(const char *what) {
    skipSpace();
    if (!atEnd())
      fail("unexpected '" + std::string(1, text_[pos_]) + "' after " + what);
  }

  // One parameter: a type, appended to `leaves`, or a tuple of parameters.
  ParameterStructure parseParameter(std::vector<ir::Type> &leaves) {
    skipSpace();
    size_t start = pos_;
    std::string_view name = parseName();
    ParameterStructure structure;
    if (name == "class") {
      expect('(', "'(' after 'class'");
      skipSpace();
      size_t typeStart = pos_;
      ir::Type type = parseType(/*allowVoid=*/false);
      if (!type.isScalar()) {
        pos_ = typeStart;
        fail("'class(...)' takes a number type, not '" + typeString(type) + "'");
      }
      structure.typeValue = type.scalarKind();
      expect(')', "')' after the type");
      return structure;
    }
    if (name != "UniTuple" && name != "Tuple" && name != "NamedTuple") {
      // `CPointer(float32)` is `float32*`, as Numba spells it in signature strings.
      bool spelledCPointer = name == "CPointer";
      if (spelledCPointer)
        expect('(', "'(' after 'CPointer'");
      else
        pos_ = start;
      size_t typeStart = pos_;
      ir::Type type = parseType(/*allowVoid=*/false);
      skipSpace();
      if (spelledCPointer)
        expect(')', "')' after the type");
      if (spelledCPointer || consume('*')) {
        if (!type.isScalar()) {
          pos_ = typeStart;
          fail("a C pointer points to numbers, not to '" + typeString(type) + "'");
        }
        structure.pointee = type;
        type = ir::Type::scalar(ir::ScalarKind::UInt64);
      }
      leaves.push_back(type);
      return structure;
    }
    structure.tuple = true;
    expect('(', "'(' after '" + std::string(name) + "'");
    if (name == "UniTuple") {
      size_t firstLeaf = leaves.size();
      ParameterStructure element = parseParameter(leaves);
      skipSpace();
      size_t countStart = pos_;
      if (parseName() != "x") {
        pos_ = countStart;
        fail("expected 'x' and a count in 'UniTuple(type x count)'");
      }
      skipSpace();
      countStart = pos_;
      size_t count = 0;
      while (!atEnd() && std::isdigit(static_cast<unsigned char>(text_[pos_])) && count < 100000)
        count = count * 10 + size_t(text_[pos_++] - '0');
      if (pos_ == countStart || count == 0) {
        pos_ = countStart;
        fail("expected a positive count in 'UniTuple(type x count)'");
      }
      std::vector<ir::Type> elementLeaves(leaves.begin() + std::ptrdiff_t(firstLeaf), leaves.end());
      // Checked before the copies are made: nested counts multiply.
      if (std::max<size_t>(elementLeaves.size(), 1) * count > kMaxTupleElements) {
        pos_ = countStart;
        fail("'UniTuple(type x " + std::to_string(count) + ")' is over kaji's limit of " +
             std::to_string(kMaxTupleElements) + " tuple elements; use an array");
      }
      for (size_t i = 1; i < count; ++i)
        leaves.insert(leaves.end(), elementLeaves.begin(), elementLeaves.end());
      structure.elements.assign(count, element);
      expect(')', "')' after the count");
      return structure;
    }
    if (name == "NamedTuple") {
      skipSpace();
      size_t classStart = pos_;
      structure.tupleClass = std::string(parseName());
      if (structure.tupleClass.empty()) {
        pos_ = classStart;
        fail("expected the namedtuple's class name in 'NamedTuple(Name, field=type, ...)'");
      }
    }
    skipSpace();
    bool first = structure.tupleClass.empty();
    while (peek() != ')') {
      if (!first)
        expect(',', "',' or ')'");
      first = false;
      skipSpace();
      if (peek() == ')')
        break; // a trailing comma
      if (!structure.tupleClass.empty()) {
        size_t fieldStart = pos_;
        std::string field(parseName());
        if (field.empty()) {
          pos_ = fieldStart;
          fail("expected a field name in 'NamedTuple(Name, field=type, ...)'");
        }
        structure.fields.push_back(std::move(field));
        expect('=', "'=' after the field name");
      }
      structure.elements.push_back(parseParameter(leaves));
      skipSpace();
    }
    expect(')', "')'");
    return structure;
  }

  std::string_view parseName() {
    skipSpace();
    size_t start = pos_;
    while (!atEnd() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
      ++pos_;
    return text_.substr(start, pos_ - start);
  }

  // `void` and `none` (Numba's name of void) only where `allowVoid`.
  ir::Type parseType(bool allowVoid) {
    skipSpace();
    size_t start = pos_;
    std::string_view name = parseName();
    if (name.empty())
      fail(atEnd() ? "expected a type at the end of the signature" : "expected a type");
    skipSpace();
    if (name == "void" || name == "none") {
      if (allowVoid && peek() != '[')
        return ir::Type::voidType();
      pos_ = start;
      fail("'" + std::string(name) + "' is only valid as a return type");
    }
    if (name == "array" && peek() == '(')
      return parseNumbaArray();
    if (name == "record" && peek() == '<')
      return parseRecordArray(start);
    if (auto vector = scalarKindFromSignatureName(name) ? std::nullopt : vectorTypeNamed(name)) {
      if (peek() == '[')
        fail("no kernel or device function takes an array of " + typeString(*vector) +
             ": arrays of vectors exist only inside kernels (cuda.local.array, "
             "cuda.shared.array)");
      return *vector;
    }
    ScalarKind kind = scalarKind(name, start);
    if (peek() != '[')
      return ir::Type::scalar(kind);
    return parseArrayDimensions(kind);
  }

  ScalarKind scalarKind(std::string_view name, size_t start) {
    if (auto kind = scalarKindFromSignatureName(name))
      return *kind;
    pos_ = start;
    fail("unknown type '" + std::string(name) + "' in signature");
  }

  // `record<8, align 4, x: f32 at 0, y: i32 at 4>[:]`: an array of records, the record as
  // kaji IR spells it (RecordType.h); `record<...>[]` is one record.
  ir::Type parseRecordArray(size_t start) {
    const ir::RecordType *record = parseRecord(start);
    skipSpace();
    if (peek() != '[')
      fail("a record is passed as an array of records: add '[:]', or '[]' for one record");
    ir::Type shape = parseArrayDimensions(ScalarKind::UInt8);
    return ir::Type::array(record, shape.ndim(), shape.layout());
  }

  // The record `record<...>` at `start`, as kaji IR spells it (RecordType.h).
  const ir::RecordType *parseRecord(size_t start) {
    std::string_view rest = text_.substr(start);
    const ir::RecordType *record = ir::parseRecordType(rest);
    if (!record) {
      pos_ = start;
      fail("malformed record type");
    }
    // A layout the verifier would refuse is the signature's error, not a compiler bug.
    if (std::string problem = record->problem(); !problem.empty()) {
      pos_ = start;
      fail("unusable record type: " + problem);
    }
    pos_ = text_.size() - rest.size();
    return record;
  }

  // `array(float32, 2d, C)`: an array type as Numba prints it; layout C, F or A (any). The
  // dtype may be a record as kaji IR spells it (`array(record<...>, 1d, C)`).
  ir::Type parseNumbaArray() {
    ++pos_; // '('
    skipSpace();
    size_t dtypeStart = pos_;
    std::string_view dtype = parseName();
    const ir::RecordType *record =
        dtype == "record" && peek() == '<' ? parseRecord(dtypeStart) : nullptr;
    ScalarKind elem = record ? ScalarKind::UInt8 : scalarKind(dtype, dtypeStart);
    skipSpace();
    expect(',', "',' after the array's dtype");
    skipSpace();
    size_t ndimStart = pos_;
    unsigned ndim = 0;
    while (std::isdigit(static_cast<unsigned char>(peek())) && ndim <= kMaxArrayDimensions)
      ndim = ndim * 10 + unsigned(text_[pos_++] - '0');
    if (pos_ == ndimStart || peek() != 'd')
      fail("expected the array's dimensions, such as '2d'");
    if (ndim > kMaxArrayDimensions) {
      pos_ = ndimStart;
      fail("arrays of more than " + std::to_string(kMaxArrayDimensions) +
           " dimensions are not supported");
    }
    ++pos_; // 'd'
    expect(',', "',' after the array's dimensions");
    skipSpace();
    std::optional<ir::Layout> layout = consume('C')   ? ir::Layout::C
                                       : consume('F') ? ir::Layout::F
                                       : consume('A') ? std::optional(ir::Layout::Any)
                                                      : std::nullopt;
    if (!layout)
      fail("expected the array's layout: C, F or A");
    expect(')', "')' after the array's layout");
    // A contiguous single dimension is the C layout, as `[::1]` spells it; a 0-d array has no
    // layout, as `[]` spells it.
    if (ndim == 1 && layout == ir::Layout::F)
      layout = ir::Layout::C;
    if (ndim == 0)
      layout = ir::Layout::Any;
    return record ? ir::Type::array(record, ndim, *layout) : ir::Type::array(elem, ndim, *layout);
  }

  // `[:, :, ::1]` after the dtype: one `:` per dimension, `::1` marking a contiguous one;
  // `[]` is a 0-d array, as typeString spells it.
  ir::Type parseArrayDimensions(ScalarKind elem) {
    ++pos_; // '['
    if (skipSpace(), consume(']'))
      return ir::Type::array(elem, 0, ir::Layout::Any);
    std::vector<bool> contiguous;
    std::vector<size_t> starts;
    do {
      skipSpace();
      size_t dimStart = pos_;
      starts.push_back(dimStart);
      expect(':', "':' for an array dimension");
      skipSpace();
      bool unit = false;
      if (consume(':')) {
        skipSpace();
        expect('1', "'1' after '::' (only '::1' marks a contiguous dimension)");
        unit = true;
      }
      contiguous.push_back(unit);
      if (contiguous.size() > kMaxArrayDimensions) {
        pos_ = dimStart;
        fail("arrays of more than " + std::to_string(kMaxArrayDimensions) +
             " dimensions are not supported");
      }
      skipSpace();
    } while (consume(','));
    expect(']', "']'");
    unsigned ndim = unsigned(contiguous.size());
    unsigned marked = 0;
    for (bool unit : contiguous)
      marked += unit;
    if (marked == 0)
      return ir::Type::array(elem, ndim, ir::Layout::Any);
    if (marked == 1 && contiguous.back())
      return ir::Type::array(elem, ndim, ir::Layout::C);
    if (marked == 1 && contiguous.front())
      return ir::Type::array(elem, ndim, ir::Layout::F);
    for (size_t d = 1; d + 1 < ndim; ++d)
      if (contiguous[d])
        pos_ = starts[d];
    if (marked > 1)
      pos_ = starts.back();
    fail("'::1' may mark only the last dimension (C layout) or the first (F layout)");
  }

  bool atEnd() const { return pos_ >= text_.size(); }
  char peek() const { return atEnd() ? '\0' : text_[pos_]; }
  void skipSpace() {
    while (!atEnd() && std::isspace(static_cast<unsigned char>(text_[pos_])))
      ++pos_;
  }
  bool consume(char c) {
    if (peek() != c)
      return false;
    ++pos_;
    return true;
  }
  void expect(char c, const std::string &what) {
    skipSpace();
    if (!consume(c))
      fail("expected " + what +
           (atEnd() ? " at the end of the signature"
                    : ", found '" + std::string(1, text_[pos_]) + "'"));
  }

  [[noreturn]] void fail(const std::string &message) const {
    ir::Location at = loc_;
    if (at.known())
      at.col += unsigned(pos_);
    throw ir::CompileError(at, message);
  }

  std::string_view text_;
  const ir::Location &loc_;
  size_t pos_ = 0;
};

} // namespace

std::optional<ir::ScalarKind> scalarKindFromSignatureName(std::string_view name) {
  if (auto kind = findScalarName(kNumbaOnlyNames, name))
    return kind;
  return findScalarName(kScalarNames, name);
}

std::optional<ir::ScalarKind> scalarKindFromNumpyName(std::string_view name) {
  if (auto kind = findScalarName(kNumpyOnlyNames, name))
    return kind;
  return findScalarName(kScalarNames, name);
}

Signature parseSignature(std::string_view text, const ir::Location &loc) {
  return SignatureParser(text, loc).parse();
}

ir::Type parseType(std::string_view text, const ir::Location &loc) {
  return SignatureParser(text, loc).parseSingleType();
}

void checkDeviceSignature(const Signature &sig, const ir::Location &loc) {
  for (const ParameterStructure &param : sig.structure)
    if (param.typeValue)
      throw ir::CompileError(loc, "a device function's signature cannot take a type ('" +
                                      parameterString(param, {}) +
                                      "'); give the function no signature, and calls pass the "
                                      "type as a compile-time value");
}

void checkKernelSignature(const Signature &sig, const ir::Location &loc) {
  if (!sig.returnType.isVoid())
    throw ir::CompileError(loc, "a kernel's signature must return void, not '" +
                                    typeString(sig.returnType) + "'");
  for (const ir::Type &param : sig.params)
    if (param.isVector())
      throw ir::CompileError(loc, "a kernel cannot take a " + typeString(param) +
                                      ": its arguments come from the host, which has no vector "
                                      "values (as in Numba); pass the lanes, or an array, and "
                                      "build the vector in the kernel");
}

std::optional<WrittenSignature> writtenSignature(const Expr &argument) {
  if (auto *literal = argument.as<StringLiteralExpr>()) {
    ir::Location loc = literal->loc;
    loc.col += 1; // past the opening quote
    return WrittenSignature{literal->value, loc};
  }
  // Type objects called (`void(float32[:])`) or an argument tuple (`(float32[:], int32)`)
  // read as the signature text they print as.
  if (argument.as<CallExpr>() || argument.as<TupleExpr>())
    return WrittenSignature{unparse(argument), argument.loc};
  return std::nullopt;
}

std::string typeString(const ir::Type &type) {
  if (type.isVoid())
    return "void";
  if (type.isFragment())
    return type.str();
  std::string text =
      type.isRecordArray() ? type.record()->str() : std::string(ir::numpyName(type.scalarKind()));
  if (type.isScalar())
    return text;
  if (type.isVector() || type.isVectorArray()) // Numba's name: float32x4
    text += 'x' + std::to_string(type.lanes());
  if (type.isVector())
    return text;
  text += '[';
  for (unsigned d = 0; d < type.ndim(); ++d) {
    if (d > 0)
      text += ", ";
    bool unit = (type.layout() == ir::Layout::C && d + 1 == type.ndim()) ||
                (type.layout() == ir::Layout::F && d == 0);
    text += unit ? "::1" : ":";
  }
  return text + ']';
}

size_t ParameterStructure::leafCount() const {
  if (typeValue)
    return 0;
  if (!tuple)
    return 1;
  size_t count = 0;
  for (const ParameterStructure &element : elements)
    count += element.leafCount();
  return count;
}

std::vector<ParameterStructure> leafParameters(size_t count) {
  return std::vector<ParameterStructure>(count);
}

std::vector<ParameterStructure> Signature::parameters() const {
  return structure.empty() ? leafParameters(params.size()) : structure;
}

std::string parameterString(const ParameterStructure &structure, std::span<const ir::Type> leaves) {
  if (structure.pointee)
    return typeString(*structure.pointee) + "*";
  if (structure.typeValue)
    return "class(" + typeString(ir::Type::scalar(*structure.typeValue)) + ")";
  if (!structure.tuple)
    return typeString(leaves.front());
  std::vector<std::string> elements;
  for (const ParameterStructure &element : structure.elements) {
    size_t count = element.leafCount();
    elements.push_back(parameterString(element, leaves.first(count)));
    leaves = leaves.subspan(count);
  }
  std::string text;
  if (!structure.tupleClass.empty()) {
    text = "NamedTuple(" + structure.tupleClass;
    for (size_t i = 0; i < elements.size(); ++i)
      text += ", " + structure.fields[i] + "=" + elements[i];
    return text + ")";
  }
  bool uniform = !elements.empty() &&
                 std::all_of(elements.begin(), elements.end(),
                             [&](const std::string &element) { return element == elements[0]; });
  if (uniform)
    return "UniTuple(" + elements[0] + " x " + std::to_string(elements.size()) + ")";
  for (const std::string &element : elements)
    text += (text.empty() ? "" : ", ") + element;
  return "Tuple(" + text + ")";
}

std::vector<std::string> parameterStrings(const Signature &sig) {
  std::vector<std::string> spellings;
  std::span<const ir::Type> leaves = sig.params;
  for (const ParameterStructure &parameter : sig.parameters()) {
    size_t count = parameter.leafCount();
    spellings.push_back(parameterString(parameter, leaves.first(count)));
    leaves = leaves.subspan(count);
  }
  return spellings;
}

std::string signatureString(const Signature &sig) {
  std::string text = (sig.resultInferred ? std::string() : typeString(sig.returnType)) + '(';
  std::vector<std::string> parameters = parameterStrings(sig);
  for (size_t i = 0; i < parameters.size(); ++i)
    text += (i > 0 ? ", " : "") + parameters[i];
  return text + ')';
}

} // namespace kaji::frontend
