// What an expression evaluates to during lowering: an SSA scalar, vector or array, or a
// compile-time thing (tuple, None, string, module, builtin, function) with no IR value.
#pragma once

#include "TypeRules.h"

#include "kaji/frontend/Environment.h"
#include "kaji/ir/IR.h"

#include <optional>
#include <string>
#include <vector>

namespace kaji::frontend {

// A Python int, exactly: 128 bits hold any int64 or uint64 and the result of one operation
// on two of them (PythonIntegers.h).
using PythonInt = __int128;

struct Operand {
  enum class Kind : uint8_t {
    Scalar,
    Array,
    Vector, // a CUDA vector value (float32x4 ...), kaji IR's vec<T, n>
    Tuple,
    None,
    String,
    Module,
    Builtin,
    Function,
    EnumClass,  // an Enum or IntEnum class of the environment (`global`)
    TupleClass, // a namedtuple class: `tupleClass` and `fields`; calling it builds one
    External,   // a linked CUDA C++ device function of the environment (`global`)
    RecordType, // a record dtype of the environment (`global`), for local and shared arrays
    Overloaded, // a function with @overload implementations of the environment (`global`)
    Namespace,  // a module of the user's (`global`): its members are the environment's
    Fragment,   // a thread's part of a warp's matrix (cuda.wmma.fragment), kaji IR's fragment<>
  };
  Kind kind = Kind::None;
  ir::Value *value = nullptr; // Scalar, Array, Vector, Fragment
  bool weak = false;          // Scalar: a Python literal or an expression of literals only
  // Scalar: a weak integer constant beyond 64 bits, such as the 2**64 of 2**64 - 1; `value`
  // holds its low bits. Only an operand of another Python-int operation may be one.
  std::optional<PythonInt> wideInteger;
  std::vector<Operand> elements; // Tuple
  // Tuple, TupleClass: a namedtuple's class name and field names (none for a plain tuple).
  std::string tupleClass;
  std::vector<std::string> fields;
  std::string name;     // Module, Builtin: canonical dotted name; String: its text
  FunctionRef function; // Function
  // EnumClass, External, RecordType, Overloaded (the environment outlives lowering)
  const GlobalValue *global = nullptr;
  // Scalar: the enum member this value is (its class's GlobalValue), else null. An IntEnum
  // member computes as the int it is; an Enum member only compares and gives .value.
  const GlobalValue *enumMember = nullptr;

  static Operand scalar(ir::Value *v, bool weak = false) {
    Operand o;
    o.kind = Kind::Scalar;
    o.value = v;
    o.weak = weak;
    return o;
  }
  static Operand array(ir::Value *v) {
    Operand o;
    o.kind = Kind::Array;
    o.value = v;
    return o;
  }
  static Operand vector(ir::Value *v) {
    Operand o;
    o.kind = Kind::Vector;
    o.value = v;
    return o;
  }
  static Operand fragment(ir::Value *v) {
    Operand o;
    o.kind = Kind::Fragment;
    o.value = v;
    return o;
  }
  static Operand tuple(std::vector<Operand> elements) {
    Operand o;
    o.kind = Kind::Tuple;
    o.elements = std::move(elements);
    return o;
  }
  static Operand named(Kind kind, std::string name) {
    Operand o;
    o.kind = kind;
    o.name = std::move(name);
    return o;
  }

  bool isScalar() const { return kind == Kind::Scalar; }
  // A member of an Enum (not IntEnum): no number, whatever its value.
  bool isPlainEnumMember() const { return enumMember && !enumMember->intEnum; }
  ir::Type type() const { return value ? value->type() : ir::Type(); }
  ScalarType scalarType() const { return {value->type().scalarKind(), weak}; }
};

// For messages: "float32", "float32[:]", "tuple(int64, int64)", "Point(x=int64, y=int64)",
// "module 'math'", "None".
std::string describe(const Operand &operand);

// As Numba prints a value's type in its typing errors: "float32", "Literal[int](1)",
// "array(float32, 1d, A)", "Tuple(Literal[int](1), int32)", "class(float32)"; describe()'s
// text for what Numba spells otherwise.
std::string numbaTypeName(const Operand &operand);

// Whether `operand` is threadIdx, blockIdx, blockDim or gridDim: Numba's dim3, with .x, .y, .z.
bool isDim3(const Operand &operand);

// Whether `operand` is a fragment's elements, `frag.x` (MatrixFragments.cpp).
bool isFragmentElements(const Operand &operand);

} // namespace kaji::frontend
