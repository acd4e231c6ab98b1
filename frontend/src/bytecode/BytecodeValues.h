// The values on the interpreter's stack while bytecode is translated: expression trees that
// may share subtrees (COPY pushes the same value twice), so that the patterns CPython
// compiles `a and b`, `a < b < c` and `x[i] += v` into are recognised by identity before
// the trees become AST.
#pragma once

#include "kaji/frontend/AST.h"
#include "kaji/frontend/Bytecode.h"

#include <memory>
#include <string>
#include <vector>

namespace kaji::frontend::bytecode {

struct Value;
using ValuePtr = std::shared_ptr<Value>;

enum class ValueKind : uint8_t {
  Null, // the NULL CALL expects below a callable
  Name,
  Constant,
  BinOp,
  InPlace, // `x += v` before it is stored
  Unary,
  Compare,
  BoolOp,
  IfExp,
  Call,
  Subscript,
  Slice,
  Attribute,
  Tuple,
  List,
  Iterator,  // GET_ITER of operands[0]
  LoopValue, // what FOR_ITER pushes
  Unpacked,  // element `index` of operands[0], from UNPACK_SEQUENCE
};

struct Value {
  ValueKind kind;
  Location loc;
  uint64_t sequence = 0; // creation order: values of the statement in hand are the newest
  std::string name;      // Name, Attribute
  const BytecodeConstant *constant = nullptr;
  BinaryOperator binary = BinaryOperator::Add;
  UnaryOperator unary = UnaryOperator::Minus;
  BoolOpExpr::Op boolOp = BoolOpExpr::Op::And;
  std::vector<CompareOperator> compares;
  std::vector<ValuePtr> operands;    // Slice: lower, upper, step, each may be null
  std::vector<std::string> keywords; // Call: the names of its last operands
  unsigned index = 0;                // Unpacked
};

// The text of a name that stands for the loop variable's value until `for` takes it.
inline constexpr const char *kLoopValueName = "<for target>";

// Whether `value` reads the local or global `name`, or calls anything.
bool reads(const Value &value, const std::string &name);
bool calls(const Value &value);

// `a and b`-shaped BoolOps whose compares share the middle operand become one chain.
ValuePtr joinComparisonChains(ValuePtr boolOp);

// The AST of `value`; throws CompileError for stack entries that are no expression.
ExprPtr toExpr(const Value &value, const std::string &function);
ExprPtr constantExpr(const BytecodeConstant &constant, const Location &loc,
                     const std::string &function);
std::string unparsed(const Value &value, const std::string &function);

[[noreturn]] void untranslatable(const Location &loc, const std::string &function,
                                 const std::string &construct);

} // namespace kaji::frontend::bytecode
