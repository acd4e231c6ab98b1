// Tuples inside kernels, all compile-time: indexing and slicing with constants, `+` and `*`,
// comparison as Python compares sequences, and the fields of a namedtuple.
#include "FunctionLowerer.h"
#include "Limits.h"

#include "kaji/ir/Constants.h"

#include <algorithm>

namespace kaji::frontend {
namespace {

Operand plainTuple(std::vector<Operand> elements) { return Operand::tuple(std::move(elements)); }

} // namespace

uint64_t tupleSize(const std::vector<Operand> &elements) {
  uint64_t size = 0;
  for (const Operand &element : elements)
    size += element.kind == Operand::Kind::Tuple ? 1 + tupleSize(element.elements) : 1;
  return size;
}

void requireTupleSize(const std::vector<Operand> &elements, const Location &loc,
                      const std::function<std::string()> &where) {
  if (uint64_t size = tupleSize(elements); size > kMaxTupleElements)
    throw tupleTooLarge(loc, size, where());
}

int64_t FunctionLowerer::constantTupleIndex(const Operand &index, const Expr &indexExpr,
                                            const Expr &node, bool forSlice) {
  std::optional<int64_t> value = constantInt(index);
  if (!value || index.type().isBool())
    throw ir::CompileError(indexExpr.loc,
                           std::string("tuple ") + (forSlice ? "slice bounds" : "indices") +
                               " must be constant integers in '" + unparse(node) + "'");
  return *value;
}

Operand FunctionLowerer::tupleSubscript(const Operand &tuple, const SubscriptExpr &expr) {
  int64_t size = int64_t(tuple.elements.size());
  if (auto *slice = expr.index->as<SliceExpr>()) {
    // Python's slice.indices(): bounds clamp, a missing bound runs to the end in the step's
    // direction.
    int64_t step =
        slice->step ? constantTupleIndex(lower(*slice->step), *slice->step, expr, true) : 1;
    if (step == 0)
      throw ir::CompileError(slice->step->loc,
                             "slice step cannot be zero in '" + unparse(expr) + "'");
    auto bound = [&](const ExprPtr &part, int64_t missing) {
      if (!part)
        return missing;
      int64_t value = constantTupleIndex(lower(*part), *part, expr, true);
      if (value < 0)
        value += size;
      int64_t low = step > 0 ? 0 : -1, high = step > 0 ? size : size - 1;
      return std::clamp(value, low, high);
    };
    int64_t start = bound(slice->lower, step > 0 ? 0 : size - 1);
    int64_t stop = bound(slice->upper, step > 0 ? size : -1);
    std::vector<Operand> elements;
    for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step)
      elements.push_back(tuple.elements[size_t(i)]);
    return plainTuple(std::move(elements));
  }
  Operand index = lower(*expr.index);
  if (!constantInt(index) && index.isScalar() && index.type().isInteger())
    if (std::optional<Operand> element = runtimeTupleIndex(tuple, index, expr))
      return *element;
  int64_t position = constantTupleIndex(index, *expr.index, expr, false);
  int64_t wrapped = position < 0 ? position + size : position;
  if (wrapped < 0 || wrapped >= size)
    throw ir::CompileError(expr.index->loc, "tuple index out of range in '" + unparse(expr) +
                                                "' (the tuple has " + std::to_string(size) +
                                                " element" + (size == 1 ? "" : "s") + ")");
  return tuple.elements[size_t(wrapped)];
}

std::optional<Operand> FunctionLowerer::runtimeTupleIndex(const Operand &tuple,
                                                          const Operand &index,
                                                          const SubscriptExpr &expr) {
  // Numba's UniTuple: elements of one type, indexed at run time. The elements go into a
  // local array, read as any array is: negative indices wrap, the cpu target checks bounds.
  if (tuple.elements.empty())
    return std::nullopt;
  bool weak = true;
  for (const Operand &element : tuple.elements) {
    if (!element.isScalar() || element.type() != tuple.elements[0].type())
      return std::nullopt;
    weak = weak && element.weak;
  }
  at(expr.loc);
  ir::ScalarKind kind = tuple.elements[0].type().scalarKind();
  ir::Type arrayType = ir::Type::array(kind, 1, ir::Layout::C, ir::MemorySpace::Local);
  Operand array = Operand::array(builder_
                                     .create(ir::Opcode::LocalArray, arrayType, {},
                                             std::vector<int64_t>{int64_t(tuple.elements.size())})
                                     ->result());
  ir::Type i64 = ir::Type::scalar(ir::ScalarKind::Int64);
  for (size_t i = 0; i < tuple.elements.size(); ++i)
    builder_.create(ir::Opcode::Store, ir::Type(),
                    {tuple.elements[i].value, array.value, builder_.intConstant(i64, int64_t(i))});
  // Python's IndexError for a position outside the tuple, where exceptions are reported.
  if (context_.options().reportExceptions) {
    ir::Value *raw = rawIndex(index, *expr.index, expr);
    ir::Value *size = builder_.intConstant(raw->type(), int64_t(tuple.elements.size()));
    ir::Value *inRange = builder_.cmp(ir::CmpPredicate::Lt, raw, size);
    if (index.type().isSignedInteger())
      inRange = builder_.binary(
          ir::Opcode::And, inRange,
          builder_.cmp(ir::CmpPredicate::Ge, raw, builder_.unary(ir::Opcode::Neg, size)));
    raiseUnless(inRange, "IndexError", "tuple index out of range", expr.loc);
  }
  ir::Value *position = indexValue(array, 0, index, *expr.index, expr);
  return Operand::scalar(
      at(expr.loc)
          .create(ir::Opcode::Load, ir::Type::scalar(kind), {array.value, position})
          ->result(),
      weak);
}

std::optional<Operand> FunctionLowerer::tupleBinary(BinaryOperator op, const Operand &lhs,
                                                    const Operand &rhs, const Location &loc,
                                                    const std::function<std::string()> &source) {
  bool lhsTuple = lhs.kind == Operand::Kind::Tuple, rhsTuple = rhs.kind == Operand::Kind::Tuple;
  if (op == BinaryOperator::Add && lhsTuple && rhsTuple) {
    if (uint64_t size = tupleSize(lhs.elements) + tupleSize(rhs.elements); size > kMaxTupleElements)
      throw tupleTooLarge(loc, size, "'" + source() + "'");
    std::vector<Operand> elements = lhs.elements;
    elements.insert(elements.end(), rhs.elements.begin(), rhs.elements.end());
    return plainTuple(std::move(elements));
  }
  if (op == BinaryOperator::Mul && lhsTuple != rhsTuple) {
    const Operand &count = lhsTuple ? rhs : lhs;
    const Operand &tuple = lhsTuple ? lhs : rhs;
    std::optional<int64_t> times = constantInt(count);
    if (!times || count.type().isBool())
      return std::nullopt;
    // Checked before a single copy is made: `(1,) * 10**11` must fail at once.
    uint64_t size = 0;
    if (*times > 0 && __builtin_mul_overflow(tupleSize(tuple.elements), uint64_t(*times), &size))
      size = UINT64_MAX;
    if (size > kMaxTupleElements)
      throw tupleTooLarge(loc, size, "'" + source() + "'");
    std::vector<Operand> elements;
    for (int64_t i = 0; size != 0 && i < *times; ++i)
      elements.insert(elements.end(), tuple.elements.begin(), tuple.elements.end());
    return plainTuple(std::move(elements));
  }
  return std::nullopt;
}

ir::Value *FunctionLowerer::compareTuples(CompareOperator op, const Operand &lhs,
                                          const Operand &rhs, const Expr &node) {
  if (lhs.kind != Operand::Kind::Tuple || rhs.kind != Operand::Kind::Tuple)
    throw ir::CompileError(node.loc, "cannot compare '" + describe(lhs) + "' and '" +
                                         describe(rhs) + "' in '" + unparse(node) + "'");
  size_t lhsSize = lhs.elements.size(), rhsSize = rhs.elements.size();
  bool equality = op == CompareOperator::Eq || op == CompareOperator::NotEq;
  if (equality && lhsSize != rhsSize)
    return builder_.boolConstant(op == CompareOperator::NotEq);
  // Python compares the first elements that differ; where all are equal, the lengths. Built
  // from the last pair backwards: result = a[i] == b[i] ? (the rest) : a[i] op b[i].
  ir::Value *result =
      equality ? builder_.boolConstant(op == CompareOperator::Eq)
               : compareValues(op, intConstant(ir::ScalarKind::Int64, int64_t(lhsSize), true),
                               intConstant(ir::ScalarKind::Int64, int64_t(rhsSize), true), node);
  for (size_t i = std::min(lhsSize, rhsSize); i-- > 0;) {
    const Operand &a = lhs.elements[i], &b = rhs.elements[i];
    ir::Value *same = compareValues(CompareOperator::Eq, a, b, node);
    ir::Value *differing = equality ? builder_.boolConstant(op == CompareOperator::NotEq)
                                    : compareValues(op, a, b, node);
    if (std::optional<int64_t> constant = ir::intConstant(same))
      result = *constant ? result : differing;
    else
      result = builder_.select(same, result, differing);
  }
  return result;
}

std::optional<Operand> FunctionLowerer::namedTupleField(const Operand &tuple,
                                                        const std::string &field) {
  for (size_t i = 0; i < tuple.fields.size(); ++i)
    if (tuple.fields[i] == field)
      return tuple.elements[i];
  return std::nullopt;
}

Operand FunctionLowerer::buildNamedTuple(const Operand &tupleClass, const CallExpr &expr) {
  const std::string &name = tupleClass.tupleClass;
  const std::vector<std::string> &fields = tupleClass.fields;
  std::vector<std::optional<Operand>> elements =
      bindArguments(name, fields, lowerArguments(expr), expr);
  std::vector<Operand> values;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (!elements[i])
      throw ir::CompileError(expr.loc, name + "() missing required argument '" + fields[i] + "'");
    values.push_back(*elements[i]);
  }
  Operand tuple = Operand::tuple(std::move(values));
  tuple.tupleClass = name;
  tuple.fields = fields;
  return tuple;
}

} // namespace kaji::frontend
