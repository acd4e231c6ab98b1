// Lowers one function body to kaji IR for one assignment of local variable types.
// Lowering.cpp runs it repeatedly until the variable types reach a fixed point: each run
// reports the types the assignments actually produced (observed()), the next run uses them.
#pragma once

#include "HalfPrecisionConversions.h"
#include "LocalTypes.h"
#include "Operand.h"
#include "PythonIntegers.h"
#include "SSABuilder.h"
#include "VariableWebs.h"

#include "kaji/frontend/Environment.h"
#include "kaji/frontend/Lowering.h"
#include "kaji/frontend/Signature.h"
#include "kaji/ir/Builder.h"
#include "kaji/ir/IR.h"
#include "kaji/ir/Libdevice.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace kaji::frontend {

class LoweringContext;

// math.frexp, ldexp, modf, remainder, radians and degrees: the math members
// FunctionLowerer::callLibdeviceMath computes.
bool isLibdeviceOrScaledMath(std::string_view member);

// cuda.ldca ... cuda.ldcv and cuda.stcg ... cuda.stwt: whether `member` loads (else stores)
// and with which cache operator; nullopt for another name (GpuBuiltins.cpp).
struct CachedAccess {
  bool load;
  ir::CacheOperator cache;
};
std::optional<CachedAccess> cachedAccessNamed(std::string_view member);

// One of numpy's whole-array reductions (ArrayMethods.cpp): what np.`name`(a) computes, and
// whether arrays have it as a method, a.`name`(), too.
struct ArrayReduction {
  enum class Kind : uint8_t {
    Sum,
    Prod,
    Min,
    Max,
    Mean,
    Var,
    Std,
    All,
    Any,
    CountNonzero,
    ArgMin,
    ArgMax,
  };
  std::string_view name;
  Kind kind;
  bool skipsNaN; // numpy's nan* functions: a NaN element counts as absent
  bool method;
};
// The reduction numpy's function `member` is (np.amin is min, np.nansum a sum skipping NaN),
// or null.
const ArrayReduction *numpyReduction(std::string_view member);
// Whether arrays have the method `name` in kernels (ArrayMethods.cpp).
bool isArrayMethod(std::string_view name);
// The functions of Python's cmath module kaji has (ComplexLowering.cpp).
bool isCmathFunction(std::string_view member);
// numpy.real, imag, conj and conjugate.
bool isNumpyComplexFunction(std::string_view member);
// How many inputs numpy's `member` takes where it is a ufunc FunctionLowerer::callOperatorUfunc
// lowers, else nothing.
std::optional<unsigned> operatorUfuncArity(std::string_view member);
// Whether Python's operator module has `member` for kernels (OperatorModule.cpp).
bool isOperatorFunction(std::string_view member);
// How many inputs numpy's ufunc `member` takes (operator and math ufuncs alike), or nothing
// for a member that is no ufunc kernels have.
std::optional<unsigned> numpyUfuncArity(std::string_view member);
bool involvesComplex(const std::vector<Operand> &args);

// The size of the tuple of `elements` against kMaxTupleElements (Limits.h): each element
// counts one, a nested tuple its own elements too.
uint64_t tupleSize(const std::vector<Operand> &elements);
// Throws at `loc` when the tuple of `elements`, made where `where` says, is over the limit.
void requireTupleSize(const std::vector<Operand> &elements, const Location &loc,
                      const std::function<std::string()> &where);

// Throws unless `function` (as spelt in messages) got minArgs to maxArgs `args`, all numbers.
void requireNumbers(const std::string &function, size_t minArgs, size_t maxArgs,
                    const std::vector<Operand> &args, const CallExpr &expr);

// The type of one argument a function is specialised on.
struct ArgumentType {
  ir::Type type;
  bool weak = false; // a Python literal passed to a device function
  friend bool operator==(const ArgumentType &, const ArgumentType &) = default;
};

// What the return statements of a device function produce.
struct ReturnTypes {
  // Unification of `return expr`: a scalar or vector, or a tuple of scalars and vectors, which
  // the function stores into local arrays its caller passes after the parameters (the IR
  // returns at most one value).
  std::optional<LocalType> value;
  bool none = false; // a bare `return` or falling off the end
  friend bool operator==(const ReturnTypes &, const ReturnTypes &) = default;
};

// The local array one leaf of a returned tuple comes back through: one element of a scalar,
// one per lane of a vector.
struct ReturnSlot {
  ir::ScalarKind kind;
  int64_t extent;
};
std::vector<ReturnSlot> returnSlots(const LocalType &tuple);

// An argument a device function is specialised on by its value rather than its type
// (Numba's first-class functions and literal dispatch, Triton's constexpr): a function, a
// builtin such as math.sin or cuda.atomic.add, a type (np.uint32, kaji.float64), a module,
// a class, None, a constant int, bool or enum member, or a tuple of them (a shape and a dtype
// for cuda.shared.array). It has no IR parameter: the callee binds its parameter to the value
// itself (CompileTimeArguments.cpp).
struct CompileTimeArgument {
  Operand value; // a scalar's IR value is the caller's: `literal` and `literalType` hold it
  int64_t literal = 0;
  ir::ScalarKind literalType = ir::ScalarKind::Int64;
  std::vector<CompileTimeArgument> elements; // a tuple's
  std::string mangled;                       // its part of the specialisation's name
};
// One per parameter: the compile-time argument it takes, or none for an IR parameter.
using CompileTimeArguments = std::vector<std::optional<CompileTimeArgument>>;

// Thrown by a call of `function`, a device function being lowered whose result type no run
// has seen yet (a recursive call before any base case was lowered): the statement making it
// is abandoned for this run of `function` (Lowering.cpp).
struct PendingRecursion {
  std::string function;
  Location loc;
};

struct FunctionTypes {
  LocalTypes locals;
  ReturnTypes returns;
  // The array slots (StatementLowering.cpp writeSlots) that hold more than one array.
  std::set<std::string, std::less<>> reboundArrays;
  friend bool operator==(const FunctionTypes &, const FunctionTypes &) = default;
};

class FunctionLowerer {
public:
  // `guess` gives the variable and return types to lower with; `target` receives the
  // function and `callees` the device functions it calls.
  FunctionLowerer(LoweringContext &context, const FunctionRef &fn,
                  std::shared_ptr<const Environment> env, ir::Function::Kind kind,
                  const FunctionTypes &guess, ir::Module &target, ir::Module &callees);

  // `args` are the flattened leaves of the parameters `structure` describes, but for those
  // `constants` gives (each an empty tuple in `structure`).
  ir::Function *run(const std::vector<ArgumentType> &args,
                    const std::vector<ParameterStructure> &structure,
                    const CompileTimeArguments &constants, std::string name);
  const FunctionTypes &observed() const { return observed_; }
  // Where this run first abandoned a statement for a PendingRecursion of its own function.
  const std::optional<Location> &pendingRecursion() const { return pendingRecursion_; }

private:
  struct Loop {
    ir::Block *continueTarget;
    ir::Block *breakTarget;
  };
  // What a for loop iterates over; `state` names the hidden SSA variable holding a counted
  // iterable's position (Iteration.cpp).
  struct Iterable {
    enum class Kind : uint8_t { Range, Array, Tuple, Enumerate, Zip };
    Kind kind = Kind::Tuple;
    std::string state;           // Range: the current value; Array: the index; Enumerate: the count
    Operand stop, step;          // Range, both of the range's type
    Operand array;               // Array
    std::vector<Operand> items;  // Tuple
    std::vector<Iterable> parts; // Enumerate (one), Zip
  };

  // Statements and control flow (StatementLowering.cpp).
  void bindParameters(const std::vector<ArgumentType> &args,
                      const std::vector<ParameterStructure> &structure,
                      const CompileTimeArguments &constants);
  // The parameter `structure` rebuilt from the entry arguments from `next` on.
  Operand parameterValue(const ParameterStructure &structure, const std::vector<ArgumentType> &args,
                         unsigned &next);
  void collectLocals(const Body &body);
  void collectTargets(const Expr &target);
  void lowerBody(const Body &body);
  void lowerStatement(const Stmt &stmt);
  void lowerAssign(const AssignStmt &stmt);
  void lowerAugAssign(const AugAssignStmt &stmt);
  void lowerIf(const IfStmt &stmt);
  void lowerWhile(const WhileStmt &stmt);
  void lowerFor(const ForStmt &stmt);
  // Iteration (Iteration.cpp): the iterable, with its state initialised in the current block.
  Iterable iterable(const Expr &expr);
  Iterable rangeIterable(const CallExpr &call);
  Iterable enumerateIterable(const CallExpr &call);
  std::string hiddenVariable(const std::string &prefix);
  // The number of copies of the body when `it` takes items from a tuple (the shortest one's
  // length); nothing for a counted loop.
  std::optional<size_t> unrolledCount(const Iterable &it) const;
  // Whether `it` has another item, or null when only the unrolled count decides it.
  ir::Value *hasNext(const Iterable &it, const Location &loc);
  Operand currentItem(const Iterable &it, std::optional<size_t> unrolled, const Location &loc);
  void advance(const Iterable &it, const Location &loc);
  void bindUnrolledTarget(const Expr &target, const Operand &value);
  // Throws at `target` when `value` does not unpack into it.
  void checkUnpackCount(const TupleExpr &target, const Operand &value);
  void lowerReturn(const ReturnStmt &stmt);
  // Exceptions (ExceptionLowering.cpp).
  void lowerRaise(const RaiseStmt &stmt);
  void lowerAssert(const AssertStmt &stmt);
  // The exception `raise` names, as kaji IR's raise op spells it ("Class: message").
  std::string raisedException(const Expr &exception);
  std::string exceptionClass(const Expr &name);
  // The scalar leaves of a returned tuple, in order: where a tuple-returning function stores.
  void storeReturnedTuple(const Operand &value, const LocalType &type, unsigned &next);
  void lowerImplicitReturn();
  void assign(const Expr &target, const Operand &value);
  void writeLocal(const std::string &name, const Operand &value, const Location &loc);
  // After a loop body: the array variables it bound (each iteration binds them anew) are
  // unbound; reading one after the loop makes it an SSA variable.
  void unbindLoopArrays(std::map<std::string, Operand, std::less<>> before);
  Operand readLocal(const std::string &name, const Location &loc);
  // A variable's value in its slots: `name` for a scalar, `name#0`, `name#1#0`, ... for the
  // leaves of a tuple (arrays bound in arrays_, scalars SSA variables).
  void writeSlots(const std::string &slot, const Operand &value, const LocalType &type,
                  const Location &loc);
  // Nothing where a leaf is unassigned on the paths lowered so far.
  std::optional<Operand> readSlots(const std::string &slot, const LocalType &type);
  LocalType &ssaType(const std::string &name, const LocalType &fallback);

  // Expressions (ExpressionLowering.cpp).
  Operand lower(const Expr &expr);
  // lower(), but the result may be a Python int beyond 64 bits (Operand::wideInteger): for
  // the operands of Python-int operations, where 2**64 - 1 is fine.
  Operand lowerExact(const Expr &expr);
  // Throws when `operand` is a Python int beyond 64 bits.
  void requireNarrow(const Operand &operand, const Location &loc,
                     const std::function<std::string()> &source);
  Operand lowerName(const NameExpr &expr);
  Operand lowerBinary(const BinOpExpr &expr);
  // `source` spells the expression for messages.
  Operand binary(BinaryOperator op, const Operand &lhs, const Operand &rhs, const Location &loc,
                 const std::function<std::string()> &source);
  // Throws where a Python int operand does not fit `type`, the type a NumPy 2 operation of
  // `lhs` and `rhs` computes in: the literal takes the type of the other operand, which must
  // hold it (NumPy 2 raises OverflowError for np.uint8(1) + 300; kaji refuses to compile it).
  void requireLiteralsFit(ScalarType type, const Operand &lhs, const Operand &rhs,
                          const Location &loc, const std::function<std::string()> &source);
  // The weak constant of a Python int computed exactly; an error when neither 64 bits nor a
  // further Python-int operation can hold it.
  Operand weakInteger(PythonInt value, const Location &loc);
  // The operation of a Python int with a weak integer constant operand (NEP 50's literal)
  // folded exactly, or nothing where Python's result is no int (kaji's own rules then).
  std::optional<Operand> foldWeakIntegers(BinaryOperator op, const Operand &lhs, const Operand &rhs,
                                          const Location &loc,
                                          const std::function<std::string()> &source);
  Operand lowerUnary(const UnaryOpExpr &expr);
  // `op operand`, Python's unary operator; `operandNode` is where the operand is written.
  Operand unary(UnaryOperator op, const Operand &operand, const Expr &operandNode,
                const Location &loc, const std::function<std::string()> &source);
  Operand lowerBoolOp(const BoolOpExpr &expr);
  Operand lowerCompare(const CompareExpr &expr);
  ir::Value *compareValues(CompareOperator op, const Operand &lhs, const Operand &rhs,
                           const Expr &node);
  // `lhs predicate rhs` of a uint64 and a signed integer, exactly, as NumPy 2 and Python
  // compare: their promoted type, float64, would round both (2**63 == 2**63 - 1 there).
  ir::Value *compareSignedWithUnsigned(ir::CmpPredicate predicate, const Operand &lhs,
                                       const Operand &rhs);
  // ==, !=, is and is not where an operand is an Enum member, or `is` with an IntEnum member;
  // nothing where the operands compare as numbers.
  std::optional<ir::Value *> compareEnumMembers(CompareOperator op, const Operand &lhs,
                                                const Operand &rhs, const Expr &node);
  Operand lowerIfExp(const IfExpExpr &expr);
  Operand lowerSubscript(const SubscriptExpr &expr);
  // The element of `array` at `indices`: a number, or a vector of an array of vectors.
  Operand loadElement(const Operand &array, const std::vector<ir::Value *> &indices);
  // `value` as an element stored into `array` at `target`: a number converted to its element
  // kind, or, into an array of vectors, a vector of exactly its element type.
  ir::Value *storedElement(const Operand &array, const Operand &value, const Expr &target);
  // The indices of a store or atomic through `array[...]`, one per dimension.
  std::vector<ir::Value *> arrayIndices(const Operand &array, const SubscriptExpr &expr);
  // Throws unless `array` is an array kernels can subscript.
  void requireArray(const Operand &array, const SubscriptExpr &expr);
  // Throws when `array`, assigned through `target`, is a constant array.
  void checkWritable(const Operand &array, const Expr &target);
  void checkIndexCount(const Operand &array, size_t count, const Expr &arrayExpr, const Expr &node);
  // One index as i64, or u64 where it is unsigned; an error unless it is an integer.
  ir::Value *rawIndex(const Operand &index, const Expr &indexExpr, const Expr &node);
  // One index as i64, negative values wrapped around the extent of dimension `dim`; an
  // unsigned one as u64, never wrapped.
  ir::Value *indexValue(const Operand &array, unsigned dim, const Operand &index,
                        const Expr &indexExpr, const Expr &node);
  // Records (RecordFields.cpp).
  // The field `name` of the array of records `records`, an array over the same memory; an
  // error at `node` for a field the record lacks.
  Operand fieldView(const Operand &records, const std::string &name, const Expr &node);
  // What reading a field gives: one record's scalar field loaded, else the view itself.
  Operand fieldValue(const Operand &view, const Location &loc);
  // The field view `target` (`r.f` or `r['f']`) assigns to, or nothing for other targets.
  std::optional<Operand> fieldTarget(const Expr &target);
  void storeField(const Operand &view, const Operand &value, const Expr &target);
  // `target = source` of one record (a 0-d view) into another of the same record type,
  // nested records and array fields included; or of a field that is a fixed-size array of
  // records into the same field of another record.
  void copyRecord(const Operand &destination, const Operand &source, const Expr &target);
  // Array views (ArrayViews.cpp).
public:
  // What a view takes of one dimension of the array it looks into.
  struct DimSelection {
    enum class Kind : uint8_t { Index, Full, UnitSlice, StridedSlice };
    Kind kind = Kind::Full;
    ir::Value *start = nullptr;  // Index: the checked index; slices: the first index
    ir::Value *length = nullptr; // slices
    ir::Value *step = nullptr;   // slices
  };

private:
  // One index of a subscript: a slice (not lowered yet) or a lowered index.
  struct SubscriptItem {
    const SliceExpr *slice = nullptr;
    Operand index;
    const Expr *expr = nullptr;
  };
  // The indices of `expr` in order, each lowered once; a tuple index is taken apart.
  std::vector<SubscriptItem> subscriptItems(const SubscriptExpr &expr);
  // The i64 or u64 index values of `items`, one integer per dimension of `array`.
  std::vector<ir::Value *> indicesOf(const Operand &array, const std::vector<SubscriptItem> &items,
                                     const SubscriptExpr &expr);
  // Whether `array[items]` is a view: a slice among the items, or fewer than the dimensions.
  bool selectsView(const Operand &array, const std::vector<SubscriptItem> &items) const;
  // `view[...] = value`: a scalar into every element, or an array broadcast as numpy does.
  void storeIntoView(const Operand &view, const Operand &value, const Expr &target);
  // `array[items]` with a slice or fewer indices than dimensions: a view.
  Operand subscriptView(const Operand &array, const std::vector<SubscriptItem> &items,
                        const SubscriptExpr &expr);
  // An integer index of a view's dimension, checked as a load's (array_index).
  ir::Value *viewIndex(const Operand &array, unsigned dim, const Operand &index,
                       const Expr &indexExpr, const Expr &node);
  DimSelection sliceSelection(const Operand &array, unsigned dim, const SliceExpr &slice,
                              const Expr &node);
  Operand selectView(const Operand &array, const std::vector<DimSelection> &dims,
                     const Location &loc);
  // `array[index]` of an n-d array (n > 1), a row: what a for loop over it yields.
  Operand rowView(const Operand &array, ir::Value *index, const Location &loc);
  Operand makeView(const Operand &array, ir::Type type, ir::Value *offset,
                   const std::vector<ir::Value *> &extents, const std::vector<ir::Value *> &strides,
                   const Location &loc);
  // Extents and strides as i64, constants where the compiler knows them.
  ir::Value *arrayExtent(const Operand &array, unsigned dim);
  ir::Value *arrayStride(const Operand &array, unsigned dim);
  // `a.real` or `a.imag` of a complex array: its parts' memory, as a float array of any layout.
  Operand complexPartView(const Operand &array, bool imaginary, const Location &loc);
  // The array a C pointer parameter (Numba's CPointer) points to: 1-d, C, unbounded.
  Operand pointedArray(ir::Value *address, ir::Type element);
  // The array's extents and strides from `byteOffset` on, as an array of `type`: another
  // layout of the same elements, or (an element type, an offset) a part of each element.
  Operand sameShapeView(const Operand &array, ir::Type type, int64_t byteOffset,
                        const Location &loc);
  // The extents of `array` when all are compile-time constants (local, shared and const
  // arrays and views of them with constant bounds).
  std::optional<std::vector<int64_t>> staticShape(const Operand &array) const;
  Operand transposed(const Operand &array, const std::vector<unsigned> &axes, const Location &loc);
  Operand transposeCall(const Operand &array, const CallExpr &expr);
  Operand reshaped(const Operand &array, const CallExpr &expr);
  Operand viewAs(const Operand &array, const CallExpr &expr);
  // Numba's carray(ptr, shape, dtype=None) (farray with `fortran`): the memory a C pointer
  // points to as an array of `shape`, C (Fortran) ordered from its start.
  Operand arrayAtPointer(const CallExpr &expr, bool fortran);
  // Array methods and reductions (ArrayMethods.cpp): `array.method(...)` and np.sum(array)...
  Operand arrayMethod(const Operand &array, const std::string &method, const CallExpr &expr);
  Operand copyArray(const Operand &array, const CallExpr &expr);
  Operand argExtremum(bool maximum, const Operand &array, const CallExpr &expr);
  // Folds the elements of `array`, in C order, into accumulators that start as `initial`:
  // `step(accumulators, element)` gives their next values. Returns their last values.
  using FoldStep =
      std::function<std::vector<ir::Value *>(const std::vector<ir::Value *> &, ir::Value *)>;
  std::vector<ir::Value *> foldArray(const Operand &array, const Location &loc,
                                     const std::vector<ir::Value *> &initial, const FoldStep &step);
  // numpy's mean of the elements (of those not NaN where `skipsNaN`) in `kind`, a float or
  // complex kind.
  ir::Value *arrayMean(const Operand &array, ir::ScalarKind kind, bool skipsNaN,
                       const CallExpr &expr);
  // The element of `array` at `indices` (of an array of indices.size() dimensions) as numpy
  // broadcasts it: its dimensions align with the last ones, and one of extent 1 repeats.
  ir::Value *broadcastElement(const Operand &array, const std::vector<ir::Value *> &indices,
                              const Location &loc);
  Operand reduceArray(const ArrayReduction &reduction, const Operand &array, const CallExpr &expr);
  // Lowers `body` once inside loops over every element of `array`, in C order.
  void forEachElement(const Operand &array, const Location &loc,
                      const std::function<void(const std::vector<ir::Value *> &)> &body);
  // Tuples (TupleOperations.cpp).
  Operand tupleSubscript(const Operand &tuple, const SubscriptExpr &expr);
  // `index`, lowered from `indexExpr`, as a constant; an error at it otherwise.
  int64_t constantTupleIndex(const Operand &index, const Expr &indexExpr, const Expr &node,
                             bool forSlice);
  // `t[i]` with a run-time `i` for a tuple of one scalar type; nothing for other tuples.
  std::optional<Operand> runtimeTupleIndex(const Operand &tuple, const Operand &index,
                                           const SubscriptExpr &expr);
  // `+` of two tuples, `*` of a tuple and a constant; nothing for other operands. A result
  // over kMaxTupleElements is an error at `loc`, before it is made.
  std::optional<Operand> tupleBinary(BinaryOperator op, const Operand &lhs, const Operand &rhs,
                                     const Location &loc,
                                     const std::function<std::string()> &source);
  ir::Value *compareTuples(CompareOperator op, const Operand &lhs, const Operand &rhs,
                           const Expr &node);
  std::optional<Operand> namedTupleField(const Operand &tuple, const std::string &field);
  // `Point(1, y=2)` for a namedtuple class `Point`.
  Operand buildNamedTuple(const Operand &tupleClass, const CallExpr &expr);
  Operand lowerCall(const CallExpr &expr);
  // `f(*t)` (ArgumentUnpacking.cpp).
  static bool unpacksArguments(const CallExpr &expr);
  Operand callUnpackingArguments(const CallExpr &expr);
  // The arguments of a call, each lowered once: positional, then keyword arguments in order.
  struct CallArguments {
    std::vector<Operand> positional;
    std::vector<std::pair<const Keyword *, Operand>> keywords;
  };
  CallArguments lowerArguments(const CallExpr &expr);
  Operand callDevice(const FunctionRef &callee, const CallArguments &arguments,
                     const CallExpr &expr);
  // A call of a function with @overload implementations: the one its argument types pick.
  Operand callOverloaded(const GlobalValue &callee, const CallExpr &expr);
  // Compile-time arguments (CompileTimeArguments.cpp): `arg` as one, or none for a value
  // passed at run time. With `literalsAsValues` (a recursive call) an int or bool literal is
  // a value too.
  std::optional<CompileTimeArgument> compileTimeArgument(const Operand &arg, bool literalsAsValues);
  // The value a parameter bound to `constant` has in this function.
  Operand compileTimeValue(const CompileTimeArgument &constant);
  // A call of a cuda.declare_device function (ExternalCalls.cpp).
  Operand callExternal(const GlobalValue &callee, const CallExpr &expr);
  // The arguments of `expr` bound to the parameters `names` of `callee` as Python binds
  // them, positional then keywords; a parameter given nothing stays empty.
  std::vector<std::optional<Operand>> bindArguments(const std::string &callee,
                                                    const std::vector<std::string> &names,
                                                    const CallArguments &arguments,
                                                    const CallExpr &expr);
  // Appends the leaves of a device function's argument (a tuple is taken apart) and returns
  // its structure; `unsupported` is thrown for a value no parameter takes.
  ParameterStructure flattenArgument(const Operand &arg, std::vector<ArgumentType> &types,
                                     std::vector<ir::Value *> &values,
                                     const std::function<ir::CompileError()> &unsupported);
  // The tuple of `type` loaded from the one-element arrays `slots` from `next` on.
  Operand returnedTuple(const LocalType &type, const std::vector<Operand> &slots, size_t &next);
  const Signature &deviceSignature(const FunctionRef &callee, const std::vector<Operand> &args,
                                   const CallExpr &expr);
  Operand defaultArgument(const Expr &value, const Environment &env);
  // Branches to `ifTrue` or `ifFalse` on the truth of `test`, short-circuiting and/or/not.
  void branchOn(const Expr &test, ir::Block *ifTrue, ir::Block *ifFalse);
  ir::Value *truth(const Operand &value, const Expr &node);
  // Converts a scalar, folding constants so literals stay readable in the IR.
  ir::Value *convert(const Operand &value, ir::ScalarKind to);
  Operand convertScalar(const Operand &value, ScalarType to);
  // The scalar type of an operand of and/or or a ternary; other values are an error.
  ScalarType combinableType(const Operand &value, const Expr &node) const;
  // Merges the values of an and/or or a ternary: the type promotes `operandTypes`, those of
  // every operand in source order, also the ones Python never evaluates; the `values` of the
  // `blocks` that branch to `merge` arrive converted to it.
  // Merges the two vectors of a ternary, which must have one type (Numba unifies no others).
  Operand mergeVectors(ir::Block *merge, const std::vector<ir::Block *> &blocks,
                       const std::vector<Operand> &values, const Expr &node);
  Operand mergeValues(ir::Block *merge, const std::vector<ir::Block *> &blocks,
                      const std::vector<Operand> &values,
                      const std::vector<ScalarType> &operandTypes, const Expr &node);
  // The type of `expr`, an operand of `node` that Python never evaluates: it is lowered (so
  // type-checked) reading variables as `origin` does, and its code is discarded; device
  // functions it calls are lowered for their types into the scratch module, not emitted.
  ScalarType lowerUnevaluated(const Expr &expr, ir::Block *origin, const Expr &node);
  // `expr` lowered as lowerUnevaluated does, for its errors only (a chained comparison's
  // operands after a constantly false link).
  void checkUnevaluated(const Expr &expr, ir::Block *origin);
  // Runs `lowerIt` in a scratch block reading variables as `origin` does, then discards the
  // code it made.
  template <class Lowering> auto inScratch(ir::Block *origin, Lowering &&lowerIt);
  std::optional<int64_t> constantInt(const Operand &value) const;
  Operand intConstant(ir::ScalarKind kind, int64_t value, bool weak = false);
  Operand floatConstant(ir::ScalarKind kind, double value, bool weak = false);

  // Complex numbers (ComplexLowering.cpp).
  ir::Value *toComplex(const Operand &value, ir::ScalarKind to);
  Operand complexBinary(BinaryOperator op, const Operand &lhs, const Operand &rhs, ScalarType type,
                        const Location &loc, const std::function<std::string()> &source);
  ir::Value *compareComplex(CompareOperator op, const Operand &lhs, const Operand &rhs,
                            const Expr &node);
  // numpy's <, <=, >, >= of complex numbers (np.less ...): ComplexArithmetic::less.
  ir::Value *orderComplex(CompareOperator op, const Operand &lhs, const Operand &rhs,
                          const Location &loc);
  // .real, .imag and .conjugate of a number; nothing for other attributes.
  std::optional<Operand> numberAttribute(const Operand &base, const std::string &attr,
                                         const Expr &node);
  Operand conjugate(const Operand &z, const CallExpr &expr);
  Operand complexConstructor(const std::vector<Operand> &args, const CallExpr &expr);
  Operand numpyComplexFunction(const std::string &function, const std::vector<Operand> &args,
                               const CallExpr &expr);
  Operand callCmath(const std::string &function, const std::vector<Operand> &args,
                    const CallExpr &expr);

  // CUDA vector types (VectorTypes.cpp): `float32x4(...)` of numbers and vectors whose lanes
  // add up to the type's, and a lane `.x .y .z .w` of a vector.
  Operand vectorConstructor(ir::Type type, const std::vector<Operand> &args, const CallExpr &expr);
  Operand vectorLane(const Operand &vector, const std::string &attr, const Expr &node);

  // Names of the kaji, math and numpy modules and the Python builtins (Builtins.cpp).
  Operand resolveGlobal(const GlobalValue &global, const Location &loc);
  Operand resolveQualified(const std::string &name, const Location &loc);
  Operand attribute(const Operand &base, const std::string &attr, const Expr &node);
  Operand callBuiltin(const std::string &name, const CallExpr &expr);
  Operand callMath(const std::string &function, const std::vector<Operand> &args,
                   const CallExpr &expr);
  // numpy's ufuncs that are Python's operators on numbers, and those made of them
  // (NumpyOperatorUfuncs.cpp): np.add, np.greater, np.logical_and, np.square, ...
  Operand callOperatorUfunc(const std::string &member, const std::vector<Operand> &args,
                            const CallExpr &expr);
  // operator.`member`(args...), the Python operator it names (OperatorModule.cpp).
  Operand callOperatorFunction(const std::string &member, const std::vector<Operand> &args,
                               const CallExpr &expr);
  // numpy's ufunc `name` ("numpy.sin") of `arity` inputs on arrays, `args` ending with the
  // output array (UfuncsOnArrays.cpp); returns the output.
  Operand callUfuncOnArrays(const std::string &name, unsigned arity,
                            const std::vector<Operand> &args, const CallExpr &expr);
  Operand gridIndex(const CallExpr &expr, bool size);
  // x.bit_count(): the number of ones in |x|, as Python's int.bit_count.
  Operand bitCount(const Operand &x, const CallExpr &expr);
  // round(x) and round(x, ndigits) as Python rounds (Rounding.cpp).
  Operand callRound(const std::vector<Operand> &args, const CallExpr &expr);

  // cuda.libdevice.NAME and the math functions computed through libdevice (LibdeviceCalls.cpp).
  Operand callLibdevice(const std::string &name, const std::vector<Operand> &args,
                        const CallExpr &expr);
  Operand callLibdeviceMath(const std::string &member, const std::vector<Operand> &args,
                            const CallExpr &expr);
  // The values of `function` of `args`: a scalar, or a tuple for a function with outputs.
  Operand libdeviceValues(const ir::LibdeviceFunction &function,
                          const std::vector<ir::Value *> &args);

  // A binary operator the program writes: binary(), after Python's ZeroDivisionError check of
  // the divisor where LoweringOptions::divisionByZeroRaises asks for it.
  Operand operatorBinary(BinaryOperator op, const Operand &lhs, const Operand &rhs,
                         const Location &loc, const std::function<std::string()> &source);
  // Raises `exceptionClass`: `message` where `holds` (a bool) is false, where the target
  // reports exceptions (the cpu target, debug=True), as Python checks what it indexes.
  void raiseUnless(ir::Value *holds, const std::string &exceptionClass, const std::string &message,
                   const Location &loc);
  // isinstance(value, type), decided from value's type; nullopt when `type` is no type.
  std::optional<bool> isInstance(const Operand &value, const Operand &type);
  // cuda.fp16.NAME (kind float16) and cuda.bf16.NAME (bfloat16) (HalfPrecisionCalls.cpp).
  Operand callHalfPrecision(ir::ScalarKind kind, const std::string &spelledName,
                            const std::vector<Operand> &args, const CallExpr &expr);
  ir::Value *callHalfFunction(ir::ScalarKind kind, std::string_view name,
                              const std::vector<Operand> &args,
                              const std::vector<ir::Value *> &values, const CallExpr &expr);
  // Their conversions to and from the other scalars and reinterpretations of the bits
  // (HalfPrecisionConversions.cpp).
  Operand callHalfConversion(const HalfConversion &conversion, const std::string &display,
                             const std::vector<Operand> &args, const CallExpr &expr);
  ir::Value *float64ToFloat32RoundedToOdd(ir::Value *x);
  ir::Value *integerToFloat32RoundedToOdd(ir::Value *x);
  ir::Value *float32ToHalf(ir::Value *x, ir::ScalarKind half, Rounding rounding);
  // 8-bit floats (Float8Conversions.cpp): conversions to and from them, kaji.fp8.NAME, and
  // the error for using one as a number.
  ir::Value *convertFloat8(const Operand &value, ir::ScalarKind to);
  ir::Value *float32RoundedToOdd(ir::Value *x);
  ir::Value *float8ToFloat32(ir::Value *x);
  // float32 `single` as `format`'s bits (uint8); `saturate` and (for e8m0) `roundUp` are bools.
  ir::Value *float8Bits(ir::Value *single, ir::ScalarKind format, ir::Value *saturate,
                        ir::Value *roundUp);
  Operand callFloat8(const std::string &name, const std::vector<Operand> &args,
                     const CallExpr &expr);
  void requireNotFloat8(const Operand &operand, const Location &loc,
                        const std::function<std::string()> &source);

  // The GPU model's builtins (GpuBuiltins.cpp).
  Operand staticArray(const CallExpr &expr, bool shared);
  // cuda.cg (CooperativeGroups.cpp): a call of cuda.cg.this_grid() or of a grid group's
  // method, and a grid group's attribute (nothing when `base` is no grid group).
  Operand callCooperativeGroups(const std::string &name, const CallExpr &expr);
  // cuda.wmma (MatrixFragments.cpp): its calls, a fragment's attributes (num_elements, x) and
  // the element x[i] read or written.
  Operand callMatrixFragments(const std::string &name, const CallExpr &expr);
  // The lowered arguments of a call of `function` (its name for errors), which takes no keywords
  // in kernels.
  std::vector<Operand> positionalArguments(const CallExpr &expr, const std::string &function);
  // A compile error at `loc` unless `function` got `least` to `most` arguments.
  void requireArgumentCount(const std::vector<Operand> &args, size_t least, size_t most,
                            const std::string &function, const Location &loc);
  // cuda.pipeline (AsyncCopies.cpp): memcpy_async, commit and wait_prior.
  Operand callAsyncCopies(const std::string &name, const CallExpr &expr);
  // cuda.wgmma (WarpgroupMma.cpp): mma_async, commit_group and wait_group.
  Operand callWarpgroupMma(const std::string &name, const CallExpr &expr);
  // A compile error at `loc` naming `what` unless compiling for sm_90 (or for no GPU): wgmma is
  // Hopper's alone.
  void requireWarpgroupArchitecture(const std::string &what, const Location &loc);
  std::optional<Operand> fragmentAttribute(const Operand &base, const std::string &attr,
                                           const Expr &node);
  ir::Value *fragmentIndex(const Operand &index, const Location &loc);
  Operand fragmentElement(const Operand &elements, const Operand &index, const Location &loc);
  void storeFragmentElement(const Operand &elements, const Operand &index, const Operand &value,
                            const Location &loc);
  std::optional<Operand> gridGroupAttribute(const Operand &base, const std::string &attr,
                                            const Expr &node);
  ir::Value *linearSpecialRegister(ir::SpecialReg::Kind coordinates, ir::SpecialReg::Kind extents);
  // The alignment= of the shared or local `array`: 0 for None, else checked.
  int64_t arrayAlignment(const Expr &alignmentExpr, ir::Type array);
  Operand constArray(const CallExpr &expr);
  // The global numpy array `global` as a constant array, where the kernel names it.
  Operand globalConstArray(const GlobalValue &global, const Location &loc);
  Operand print(const CallExpr &expr);
  Operand atomic(const std::string &operation, const std::vector<Operand> &args,
                 const CallExpr &expr);
  Operand cachedAccess(const CachedAccess &access, const std::string &display,
                       const std::vector<Operand> &args, const CallExpr &expr);
  Operand laneId(const Location &loc);
  // The number of the GPU architecture compiled for (90 for sm_90); none for the host.
  std::optional<unsigned> compiledArchitecture() const;
  // Throws at `loc` when the GPU compiled for is older than the builtin `name` needs.
  void requireArchitecture(const std::string &name, const Location &loc);
  // Throws at `loc` when the GPU compiled for is older than sm_`minimum`, which `what` needs.
  void requireArchitecture(unsigned minimum, const std::string &what, const Location &loc);
  // syncthreads, threadfence*, popc/brev/clz/ffs and selp; nothing for other names.
  std::optional<Operand> callGpuFunction(const std::string &name, const std::vector<Operand> &args,
                                         const CallExpr &expr);
  // syncwarp, syncthreads_count/and/or, the warp collectives (shfl_*_sync, ballot_sync, ...),
  // activemask and lanemask_lt; nothing for other names.
  std::optional<Operand> warpFunction(const std::string &name, const std::vector<Operand> &args,
                                      const CallExpr &expr);

  // Blocks and branches.
  ir::Block *newBlock() { return function_->addBlock(); }
  ir::Block *newUnreachableBlock();
  void enter(ir::Block *block) { builder_.setBlock(block); }
  bool reachable() const;
  void jump(ir::Block *target);
  void condJump(ir::Value *cond, ir::Block *ifTrue, ir::Block *ifFalse);
  // `cond ? ifTrue() : ifFalse()` as a branch, so that only the side taken runs; both sides
  // build a value of one type, which the join receives as a block argument.
  ir::Value *branchValue(ir::Value *cond, const std::function<ir::Value *()> &ifTrue,
                         const std::function<ir::Value *()> &ifFalse);
  ir::Builder &at(const Location &loc) {
    builder_.setLocation(loc);
    return builder_;
  }

  LoweringContext &context_;
  const FunctionRef &fn_;
  std::shared_ptr<const Environment> env_;
  ir::Function::Kind kind_;
  const FunctionTypes &guess_;
  FunctionTypes observed_;
  LocalTypes ssaTypes_; // the guess, or a first sighting where the guess has none
  ir::Module &target_;
  ir::Module *callees_; // the scratch module while an unevaluated operand is lowered
  ir::Function *function_ = nullptr;
  ir::Builder builder_;
  std::unique_ptr<SSABuilder> ssa_;
  std::set<std::string, std::less<>> locals_;
  VariableWebs webs_;
  // The variable a name of the source reads or assigns: its own, or one web of it.
  const std::string &variable(const NameExpr &name) const {
    auto it = webs_.find(&name);
    return it == webs_.end() ? name.id : it->second;
  }
  // Array slots bound to one array (the others are in FunctionTypes::reboundArrays).
  std::map<std::string, Operand, std::less<>> arrays_;
  std::map<std::string, Operand, std::less<>> loopArrays_; // bound in a loop that has ended
  // The targets of an unrolled loop (Iteration.cpp) in the body copy being lowered: bound to
  // the element, so that each copy has the element's own type.
  std::map<std::string, Operand, std::less<>> unrolledTargets_;
  // Parameters bound to a compile-time argument and never assigned: names for its value.
  std::map<std::string, Operand, std::less<>> compileTimeParameters_;
  std::optional<Location> pendingRecursion_;
  std::vector<Loop> loops_;
  unsigned hiddenVariables_ = 0;
  uint64_t unrolledCopies_ = 0;  // copies of loop bodies over tuples, against kMaxTupleElements
  unsigned firstReturnSlot_ = 0; // the first out-parameter of a function returning a tuple
};

// Shared by every function lowered for one lowerFunction() call: the output module, a
// scratch module for the trial runs, and the chain of functions being lowered (recursion).
class LoweringContext {
public:
  LoweringContext(ir::Module &out, const LoweringOptions &options) : out_(out), options_(options) {}

  ir::Function *lower(const FunctionRef &fn, std::shared_ptr<const Environment> env,
                      const std::vector<ArgumentType> &args,
                      const std::vector<ParameterStructure> &structure,
                      const CompileTimeArguments &constants, ir::Function::Kind kind,
                      const std::string &name, ir::Module &target);
  // The device function `callee` specialised on `args` (the leaves of `structure`) and
  // `constants`, lowered into `target` at most once. A recursive call gets the function
  // being lowered; where no run of it has seen what it returns yet, that is null if
  // `resultDeclared` (an eager signature says it), else PendingRecursion is thrown.
  ir::Function *specialise(const FunctionRef &callee, std::shared_ptr<const Environment> env,
                           const std::vector<ArgumentType> &args,
                           const std::vector<ParameterStructure> &structure,
                           const CompileTimeArguments &constants, bool resultDeclared,
                           const Location &callLoc, ir::Module &target);
  // Whether some specialisation of `def` is being lowered: a call of it is recursive.
  bool isLowering(const FunctionDefStmt &def) const {
    return std::any_of(active_.begin(), active_.end(),
                       [&](const ActiveFunction &active) { return active.def == &def; });
  }
  // Called by the lowerer of the innermost function being lowered once it made `function`.
  void started(ir::Function *function) { active_.back().function = function; }
  // `function`'s def in mangled names: its name, made unique among the defs seen so far.
  std::string functionKey(const FunctionDefStmt *def);
  // What the device function `name`, lowered by this context, returns.
  const ReturnTypes &returnsOf(const std::string &name) const { return returns_.at(name); }
  // The variable types the function `name`, lowered by this context, settled on.
  const LocalTypes &localsOf(const std::string &name) const { return locals_.at(name); }
  ir::Module &output() { return out_; }
  ir::Module &scratch() { return scratch_; }
  const LoweringOptions &options() const { return options_; }

private:
  ir::Module &out_;
  const LoweringOptions &options_;
  ir::Module scratch_;
  // The functions being lowered, outermost first, with what the current run is making.
  struct ActiveFunction {
    std::string name;
    const FunctionDefStmt *def;
    ir::Function *function = nullptr;
  };
  std::vector<ActiveFunction> active_;
  std::map<const FunctionDefStmt *, std::string> functionKeys_;
  std::map<std::string, ReturnTypes, std::less<>> returns_;
  std::map<std::string, LocalTypes, std::less<>> locals_;
};

} // namespace kaji::frontend
