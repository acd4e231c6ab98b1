// The names a kernel body may refer to besides its own locals: what the caller
// (the Python decorator, or the CLI reading a whole file) resolved for it.
#pragma once

#include "kaji/frontend/AST.h"
#include "kaji/frontend/Signature.h"
#include "kaji/ir/IR.h"
#include "kaji/ir/Type.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kaji::frontend {

struct Environment;

// A Python function other kernels may call (a device function), with the parsed
// module that owns its AST and the environment of *its* module.
struct FunctionRef {
  std::shared_ptr<const Module> module; // keeps `def` alive
  const FunctionDefStmt *def = nullptr;
  std::shared_ptr<const Environment> env; // may be null: then the caller's environment
  bool isDevice = true;                   // false for a kernel (calling one is an error)
  // A device function's eager signatures (`@jit("float32(float32)", device=True)`): a call
  // converts its arguments to the one that fits and its result to that return type. None: the
  // function is specialized on each call's argument types.
  std::vector<Signature> signatures;
  // `inline=`/`forceinline=` of its decorator: what its calls become.
  ir::Function::Inlining inlining = ir::Function::Inlining::Default;
};

// A Python function given implementations by Numba's @overload (kaji.cuda.extending): which
// one a call runs, and so its source, depends on the call's argument types, so whoever made the
// environment picks it, through `implementation`.
struct OverloadedFunction {
  // The implementation for a call with arguments of types `types` (as describe() spells an
  // operand, a tuple as "(int64, float32)"; the positional arguments first, then the keyword
  // arguments named `keywords`, in order), or nullopt when no implementation takes them.
  // Failing to pick one (a typing function that raised) throws std::runtime_error saying why.
  std::function<std::optional<FunctionRef>(const std::vector<std::string> &types,
                                           const std::vector<std::string> &keywords)>
      implementation;
  // Tells this function apart from every other in the on-disk cache's key. Its implementations
  // are chosen by running code, so it changes with each process.
  std::string fingerprint;
};

struct GlobalValue {
  enum class Kind : uint8_t {
    Module,      // a module: "math", "kaji" (also `from kaji import cuda`, `numba.cuda`), "numpy"
    Builtin,     // a module member bound directly: "math.sqrt", "kaji.grid", "numpy.float32"
    Constant,    // a scalar value (Python int/float/bool or a numpy scalar)
    Function,    // another @jit function
    Array,       // a numpy array, which kernels read through kaji.const.array_like
    DeviceArray, // an array in device memory, captured by its address (Numba's device
                 // arrays as globals): kernels index it, read and write it like an argument
    Tuple,       // a tuple or namedtuple of constants (and tuples of them)
    TupleClass,  // a namedtuple class, which kernels call to build one
    EnumClass,   // an enum.Enum or enum.IntEnum class: its members by name
    External,    // a CUDA C++ device function linked in (cuda.declare_device)
    ExceptionClass, // an exception class kernels may raise: its key (Python's name for a
                    // built-in class, kaji._exceptions' for another) is qualifiedName
    RecordType,     // a numpy structured dtype (or a type object of one), the element type of
                    // local and shared arrays: its Python name is qualifiedName
    NoneValue,      // None (`if flag is None:`, `alignment=None`)
    String,         // a str, a compile-time constant (`float(TEXT)`, print, a comparison):
                    // its text is `text`
    Overloaded,     // a function with @overload implementations: its Python name is
                    // qualifiedName, the picking of one is `overloaded`
    Unusable,       // a global kernels cannot use (Numba's "untyped global name"): its name
                    // is qualifiedName, why `text`
    Namespace,      // a module of the user's (`import helpers`): its name is qualifiedName,
                    // the members the code may name are `fields` and `elements`
  };
  Kind kind = Kind::Constant;
  std::string qualifiedName; // Module and Builtin: canonical dotted name, e.g. "kaji.threadIdx"
  ir::ScalarKind constantType = ir::ScalarKind::Int64; // Constant
  bool weak = false;     // Constant: Python int/float literals are weak (NEP 50)
  int64_t intValue = 0;  // Constant of integer or bool type
  double floatValue = 0; // Constant of float type
  FunctionRef function;  // Function
  std::shared_ptr<const OverloadedFunction> overloaded; // Overloaded
  // External: its symbol is qualifiedName, its Python name externalName, its declared
  // scalar signature externalSignature, and the files that define it (cuda.declare_device's
  // link=), which a kernel calling it is linked with; called by the C ABI
  // (declare_device(abi="c")) or Numba's; externalCooperative when it synchronizes the grid
  // (use_cooperative=True), so that a kernel calling it launches cooperatively.
  std::string externalName;
  Signature externalSignature;
  std::vector<std::string> externalLinkFiles;
  bool externalCAbi = false;
  bool externalCooperative = false;
  // Constant: the enum class (qualified name) whose member it is, or empty; an IntEnum's
  // members are ints, an Enum's members only compare and give .value.
  // EnumClass: the class's qualified name is qualifiedName, and intEnum says IntEnum.
  std::string enumClass;
  std::string enumMember; // Constant of an enum: the member's name
  bool intEnum = false;
  // EnumClass: its members, Constants, each with the class attribute that names it as its
  // qualifiedName (an alias names a member under a second attribute).
  std::vector<GlobalValue> enumMembers;

  // Array: its name in Python, element type, extents, and its elements' bytes in C order;
  // no bytes (tooLarge) when it is over what constant memory holds.
  // DeviceArray: its name in Python, element type, extents, byte strides, layout and the
  // address of its first element.
  ir::ScalarKind arrayElement = ir::ScalarKind::Float64;
  std::vector<int64_t> arrayShape;
  std::vector<int64_t> arrayStrides;
  ir::Layout arrayLayout = ir::Layout::Any;
  uint64_t arrayAddress = 0;
  std::string arrayBytes;
  bool arrayTooLarge = false;
  // RecordType: the record; Array: the record its elements are, or null for scalars.
  const ir::RecordType *record = nullptr;
  // Tuple: the elements, and a namedtuple's class and field names; TupleClass: the class;
  // Namespace: its members' values and names.
  std::vector<GlobalValue> elements;
  std::string tupleClass;
  std::vector<std::string> fields;
  std::string text; // String; Unusable: why kernels cannot use it

  static GlobalValue module(std::string canonicalName);
  static GlobalValue none();
  static GlobalValue string(std::string text);
  static GlobalValue builtin(std::string canonicalName);
  static GlobalValue intConstant(ir::ScalarKind type, int64_t value, bool weak);
  static GlobalValue floatConstant(ir::ScalarKind type, double value, bool weak);
  static GlobalValue functionRef(FunctionRef ref);
  static GlobalValue unusable(std::string name, std::string why);
  static GlobalValue overloadedFunction(std::string name,
                                        std::shared_ptr<const OverloadedFunction> overloaded);
  static GlobalValue exceptionClass(std::string key);
  static GlobalValue external(std::string symbol, std::string name, Signature signature,
                              std::vector<std::string> linkFiles = {}, bool cAbi = false,
                              bool cooperative = false);
  static GlobalValue enumClassOf(std::string qualifiedName, bool intEnum,
                                 std::vector<GlobalValue> members);
  // `value` (a Constant) as member `member` of the enum class `enumClass`.
  static GlobalValue enumMemberOf(GlobalValue value, std::string enumClass, std::string member,
                                  bool intEnum);
  // EnumClass: the member the class attribute `name` names, or null.
  const GlobalValue *enumMemberNamed(std::string_view name) const;
  // `record`: the record its elements are (then `element` is unused), or null.
  static GlobalValue array(std::string name, ir::ScalarKind element, const ir::RecordType *record,
                           std::vector<int64_t> shape, std::optional<std::string> bytes);
  static GlobalValue deviceArray(std::string name, ir::ScalarKind element,
                                 std::vector<int64_t> shape, std::vector<int64_t> strides,
                                 ir::Layout layout, uint64_t address);
  static GlobalValue tuple(std::vector<GlobalValue> elements, std::string tupleClass = {},
                           std::vector<std::string> fields = {});
  static GlobalValue namedTupleClass(std::string name, std::vector<std::string> fields);
  static GlobalValue namespaceOf(std::string name, std::vector<std::string> memberNames,
                                 std::vector<GlobalValue> members);
  static GlobalValue recordType(std::string name, const ir::RecordType *record);
};

struct Environment {
  std::map<std::string, GlobalValue, std::less<>> names;
  // Module-level names the CLI saw assigned a value it cannot evaluate from the text alone
  // (a call, a list, ...), each with where it was assigned: a kernel using one is told so.
  std::map<std::string, Location, std::less<>> unevaluated;

  const GlobalValue *lookup(std::string_view name) const {
    auto it = names.find(name);
    return it == names.end() ? nullptr : &it->second;
  }
};

// Builds the environment a whole file gives its functions, as the CLI sees it:
// `import math`, `import numpy as np`, `from kaji import cuda, jit`, `from math import sqrt`,
// module-level constants (`NAME = <expression>` that ModuleConstants.h evaluates), and every `def`
// (decorated with `jit(device=True)` → device function). Other statements are ignored; unknown
// imports are left unbound so a use reports "unknown name".
std::shared_ptr<Environment> environmentFromModule(std::shared_ptr<const Module> module);

// A canonical text of everything `function` compiles against besides source text: its file,
// name and position, and its environment (constants' types and exact values, modules,
// builtins, device functions with theirs, recursively). Equal fingerprints, with equal
// sources, compile alike: the on-disk kernel cache keys on it.
std::string fingerprint(const FunctionRef &function);
std::string fingerprint(const Environment &environment);

} // namespace kaji::frontend
