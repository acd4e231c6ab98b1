// kaji IR types: scalars, short vectors and strided arrays of scalars, vectors or records. Value
// semantics, cheap to copy.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kaji::ir {

class RecordType;

enum class ScalarKind : uint8_t {
  Bool,
  Int8,
  Int16,
  Int32,
  Int64,
  UInt8,
  UInt16,
  UInt32,
  UInt64,
  Float16,
  BFloat16, // bfloat16: float32's sign and exponent, 7 fraction bits
  Float32,
  Float64,
  Complex64,  // two float32: real, imaginary
  Complex128, // two float64
  // 8-bit floats (CUDA's __nv_fp8_*, ml_dtypes' names): values that only convert to and from
  // the other kinds (docs/language.md, "8-bit floats"); they are no isFloat kind.
  Float8E4M3, // float8_e4m3fn: 4 exponent bits (bias 7), 3 fraction bits, no infinity
  Float8E5M2, // float8_e5m2: float16's upper byte
  Float8E8M0, // float8_e8m0fnu: a power of two 2^(bits - 127); 0xFF is NaN
};

// Element order of an array's memory: C (row-major), F (column-major) or unknown.
enum class Layout : uint8_t { C, F, Any };

// Where an array's data lives on the GPU. Kernel parameters are Global.
enum class MemorySpace : uint8_t { Global, Shared, Local, Constant };

// A matrix fragment's operand of the multiply-accumulate D = A x B + C: A, B, or the
// accumulator C and D (MatrixFragments.h).
enum class MatrixUse : uint8_t { A, B, Accumulator };

// The m x n x k shapes of the warp-level multiply-accumulate (MatrixFragments.def).
enum class MatrixShape : uint8_t {
#define KAJI_MATRIX_SHAPE(shape, m, n, k, instruction) shape,
#include "kaji/ir/MatrixFragments.def"
};

bool isInteger(ScalarKind k); // bool excluded
bool isSigned(ScalarKind k);
bool isFloat(ScalarKind k);
bool isComplex(ScalarKind k);
// float16 and bfloat16: no target computes math functions in them, float32 does.
bool isHalfPrecision(ScalarKind k);
bool isFloat8(ScalarKind k);
// The float kind of a complex kind's parts (Complex64 -> Float32); `k` itself otherwise.
ScalarKind componentKind(ScalarKind k);
// The complex kind whose parts are the float kind `k` (Float16, BFloat16 and Float32 ->
// Complex64).
ScalarKind complexOf(ScalarKind k);
unsigned bitWidth(ScalarKind k); // Bool is 1
unsigned byteSize(ScalarKind k); // Bool is 1

// Short IR spelling: bool i8 i16 i32 i64 u8 u16 u32 u64 f16 bf16 f32 f64 c64 c128.
std::string_view irName(ScalarKind k);
// "global", "shared", "local" or "const", as array types spell it.
std::string_view memorySpaceName(MemorySpace space);
// NumPy spelling: bool int8 ... uint64 float16 bfloat16 float32 float64 complex64 complex128
// (bfloat16 as ml_dtypes spells it).
std::string_view numpyName(ScalarKind k);
// Accepts both spellings (and "float"/"int" aliases are NOT accepted here).
std::optional<ScalarKind> scalarKindFromName(std::string_view name);

class Type {
public:
  enum class Kind : uint8_t { Void, Scalar, Vector, Array, Fragment };

  // The lane counts a vector may have (CUDA's vector types: float1 ... float4).
  static constexpr unsigned kMaxLanes = 4;

  Type() = default; // void
  static Type voidType() { return Type(); }
  static Type scalar(ScalarKind k);
  // A CUDA vector value (float32x4 ...): `lanes` (1..kMaxLanes) values of the real scalar `lane`.
  static Type vector(ScalarKind lane, unsigned lanes);
  static Type array(ScalarKind elem, unsigned ndim, Layout layout = Layout::Any,
                    MemorySpace space = MemorySpace::Global);
  // An array whose elements are `element`, a scalar or a vector. Vectors live in memory only
  // in local and shared arrays (docs/ir.md, "Vectors").
  static Type arrayOf(Type element, unsigned ndim, Layout layout = Layout::Any,
                      MemorySpace space = MemorySpace::Global);
  // An array whose elements are records (RecordType.h).
  static Type array(const RecordType *elem, unsigned ndim, Layout layout = Layout::Any,
                    MemorySpace space = MemorySpace::Global);
  // A thread's part of a matrix a warp holds for the multiply-accumulate (docs/ir.md, "Matrix
  // fragments"): `use`'s operand at `shape`, of `element`s, row major (C) or column major (F);
  // an accumulator's layout is Any. Which fragments exist: MatrixFragments.h.
  static Type fragment(MatrixUse use, MatrixShape shape, ScalarKind element, Layout layout);

  Kind kind() const { return kind_; }
  bool isVoid() const { return kind_ == Kind::Void; }
  bool isScalar() const { return kind_ == Kind::Scalar; }
  bool isVector() const { return kind_ == Kind::Vector; }
  bool isArray() const { return kind_ == Kind::Array; }
  bool isFragment() const { return kind_ == Kind::Fragment; }
  bool isBool() const { return isScalar() && scalar_ == ScalarKind::Bool; }
  bool isInteger() const { return isScalar() && ir::isInteger(scalar_); }
  bool isFloat() const { return isScalar() && ir::isFloat(scalar_); }
  bool isComplex() const { return isScalar() && ir::isComplex(scalar_); }
  bool isSignedInteger() const { return isInteger() && ir::isSigned(scalar_); }

  // The scalar kind of a scalar, the lane kind of a vector, or the element kind of an array
  // of scalars or of a fragment.
  ScalarKind scalarKind() const { return scalar_; }
  // A vector's lane count (of an array of vectors, its element's).
  unsigned lanes() const { return lanes_; }
  // The element record of an array of records, else null.
  const RecordType *record() const { return record_; }
  bool isRecordArray() const { return record_ != nullptr; }
  bool isVectorArray() const { return isArray() && lanes_ != 0; }
  // The element of an array of scalars or vectors.
  Type elementType() const;
  // The bytes of one element of an array (a scalar's, a vector's or a record's size).
  unsigned elementSize() const;
  // The alignment an array's element accesses assume, a power of two: a scalar's size (a
  // complex number's part's), a vector's as CUDA aligns its vector types (float4 and double2:
  // 16 bytes, float2: 8, a three-lane one as its lane), a record's own.
  unsigned elementAlignment() const;
  unsigned ndim() const { return ndim_; }
  // An array's element order, or a fragment's matrix's.
  Layout layout() const { return layout_; }
  MemorySpace memorySpace() const { return space_; }
  MatrixUse matrixUse() const { return use_; }
  MatrixShape matrixShape() const { return shape_; }

  // IR spelling: "f32", "void", "vec<f32, 4>", "array<f32, 2, C>", "array<f32, 1, any, shared>",
  // "array<vec<f32, 4>, 1, C, local>",
  // "array<record<8, align 4, x: f32 at 0, y: i32 at 4>, 1, C>",
  // "fragment<a, m16n16k16, bf16, row>", "fragment<acc, m16n16k16, f32>".
  std::string str() const;

  friend bool operator==(const Type &, const Type &) = default;

private:
  Kind kind_ = Kind::Void;
  ScalarKind scalar_ = ScalarKind::Bool;
  const RecordType *record_ = nullptr; // interned: equal records are one pointer
  uint8_t ndim_ = 0;
  uint8_t lanes_ = 0;
  Layout layout_ = Layout::Any;
  MemorySpace space_ = MemorySpace::Global;
  MatrixUse use_ = MatrixUse::A;
  MatrixShape shape_ = MatrixShape::M16N16K16;
};

// Parses the IR spelling produced by Type::str(); nullopt if malformed.
std::optional<Type> parseIRType(std::string_view text);

} // namespace kaji::ir
