// Methods of arrays inside kernels: transpose(), reshape(), view() (ArrayViews.cpp), copy()
// into a local array, and the whole-array reductions sum, prod, min, max, mean, all, any,
// argmin and argmax, also spelt np.sum(a) ...; and stores into a view (`a[1:3] = x`). Kernels
// cannot allocate, so copy() needs a shape known at compile time; a reduction is a loop nest over
// the elements in C order.
#include "FunctionLowerer.h"

#include <algorithm>
#include <array>

namespace kaji::frontend {
namespace {

using ir::ScalarKind;

constexpr std::array<std::pair<std::string_view, std::string_view>, 11> kNumpyReductions = {{
    {"sum", "sum"},
    {"prod", "prod"},
    {"min", "min"},
    {"amin", "min"},
    {"max", "max"},
    {"amax", "max"},
    {"mean", "mean"},
    {"all", "all"},
    {"any", "any"},
    {"argmin", "argmin"},
    {"argmax", "argmax"},
}};

bool isReduction(std::string_view method) {
  return std::any_of(kNumpyReductions.begin(), kNumpyReductions.end(),
                     [&](const auto &entry) { return entry.first == method; }) &&
         method != "amin" && method != "amax";
}

// The type a reduction accumulates in: numpy's sum and prod widen integers to 64 bits, mean
// of integers is float64 and of float16 computes in float32.
ScalarKind accumulatorKind(const std::string &reduction, ScalarKind element) {
  if (reduction == "all" || reduction == "any")
    return ScalarKind::Bool;
  if (reduction == "min" || reduction == "max")
    return element;
  if (reduction == "mean")
    return !ir::isFloat(element)          ? ScalarKind::Float64
           : ir::isHalfPrecision(element) ? ScalarKind::Float32
                                          : element;
  if (ir::isFloat(element))
    return element;
  return ir::isInteger(element) && !ir::isSigned(element) ? ScalarKind::UInt64 : ScalarKind::Int64;
}

} // namespace

std::optional<std::string> numpyReduction(std::string_view member) {
  for (const auto &[name, reduction] : kNumpyReductions)
    if (name == member)
      return std::string(reduction);
  return std::nullopt;
}

bool isArrayMethod(std::string_view name) {
  return isReduction(name) || name == "transpose" || name == "reshape" || name == "view" ||
         name == "copy";
}

Operand FunctionLowerer::arrayMethod(const Operand &array, const std::string &method,
                                     const CallExpr &expr) {
  if (array.type().isRecordArray() && method != "transpose")
    throw ir::CompileError(expr.loc, "arrays of records have no method '" + method +
                                         "' in kernels; use their fields, in '" + unparse(expr) +
                                         "'");
  if (method == "transpose")
    return transposeCall(array, expr);
  if (method == "reshape")
    return reshaped(array, expr);
  if (method == "view")
    return viewAs(array, expr);
  if (method == "copy")
    return copyArray(array, expr);
  if (!expr.args.empty() || !expr.keywords.empty())
    throw ir::CompileError(expr.loc, method +
                                         "() reduces the whole array in kernels: it takes no "
                                         "axis or other arguments, in '" +
                                         unparse(expr) + "'");
  return reduceArray(method, array, expr);
}

void FunctionLowerer::forEachElement(
    const Operand &array, const Location &loc,
    const std::function<void(const std::vector<ir::Value *> &)> &body) {
  ir::Type i64 = ir::Type::scalar(ScalarKind::Int64);
  std::vector<ir::Value *> indices;
  std::function<void(unsigned)> loop = [&](unsigned dim) {
    if (dim == array.type().ndim()) {
      body(indices);
      return;
    }
    std::string position = hiddenVariable("$element");
    ir::Builder &b = at(loc);
    ir::Value *extent = arrayExtent(array, dim);
    ssa_->write(position, b.block(), b.intConstant(i64, 0));
    ir::Block *header = newBlock(), *inside = newBlock(), *exit = newBlock();
    jump(header);
    enter(header);
    ir::Value *index = ssa_->read(position, i64, header);
    condJump(at(loc).cmp(ir::CmpPredicate::Lt, index, extent), inside, exit);
    ssa_->seal(inside);
    enter(inside);
    indices.push_back(index);
    loop(dim + 1);
    indices.pop_back();
    ir::Builder &next = at(loc);
    ir::Value *current = ssa_->read(position, i64, next.block());
    ssa_->write(position, next.block(),
                next.binary(ir::Opcode::Add, current, next.intConstant(i64, 1)));
    jump(header);
    ssa_->seal(header);
    ssa_->seal(exit);
    enter(exit);
  };
  loop(0);
}

Operand FunctionLowerer::copyArray(const Operand &array, const CallExpr &expr) {
  if (!expr.args.empty() || !expr.keywords.empty())
    throw ir::CompileError(expr.loc,
                           "copy() takes no arguments in kernels, in '" + unparse(expr) + "'");
  std::optional<std::vector<int64_t>> shape = staticShape(array);
  if (!shape || array.type().ndim() == 0)
    throw ir::CompileError(expr.loc,
                           "copy() in a kernel makes a local array, so it needs a shape known at "
                           "compile time (a local, shared or constant array, or a view of one with "
                           "constant bounds); '" +
                               unparse(*expr.func) + "' is " + describe(array) +
                               ": copy into a cuda.local.array of a constant shape instead");
  for (int64_t extent : *shape)
    if (extent <= 0)
      throw ir::CompileError(expr.loc, "copy() of an empty array in '" + unparse(expr) +
                                           "': a local array needs positive extents");
  ir::Type type = array.type();
  ir::Type local =
      ir::Type::arrayOf(type.elementType(), type.ndim(), ir::Layout::C, ir::MemorySpace::Local);
  ir::Value *copy = at(expr.loc).create(ir::Opcode::LocalArray, local, {}, *shape)->result();
  ir::Type element = type.elementType();
  forEachElement(array, expr.loc, [&](const std::vector<ir::Value *> &indices) {
    std::vector<ir::Value *> source{array.value};
    source.insert(source.end(), indices.begin(), indices.end());
    ir::Value *value = at(expr.loc).create(ir::Opcode::Load, element, source)->result();
    std::vector<ir::Value *> target{value, copy};
    target.insert(target.end(), indices.begin(), indices.end());
    builder_.create(ir::Opcode::Store, ir::Type(), target);
  });
  return Operand::array(copy);
}

ir::Value *FunctionLowerer::broadcastElement(const Operand &array,
                                             const std::vector<ir::Value *> &indices,
                                             const Location &loc) {
  ir::Builder &b = at(loc);
  ir::Type i64 = ir::Type::scalar(ScalarKind::Int64);
  unsigned skipped = unsigned(indices.size()) - array.type().ndim();
  std::vector<ir::Value *> operands{array.value};
  for (unsigned d = 0; d < array.type().ndim(); ++d) {
    ir::Value *single = b.cmp(ir::CmpPredicate::Eq, arrayExtent(array, d), b.intConstant(i64, 1));
    operands.push_back(b.select(single, b.intConstant(i64, 0), indices[skipped + d]));
  }
  return b.create(ir::Opcode::Load, array.type().elementType(), operands)->result();
}

void FunctionLowerer::storeIntoView(const Operand &view, const Operand &value, const Expr &target) {
  unsigned ndim = view.type().ndim();
  bool broadcast = value.kind == Operand::Kind::Array;
  // Vectors are never converted: an array of them broadcasts only into one of its type.
  bool vectors = view.type().isVectorArray() || (broadcast && value.type().isVectorArray());
  if ((broadcast && (value.type().ndim() > ndim ||
                     (vectors && value.type().elementType() != view.type().elementType()))) ||
      (!broadcast && !value.isScalar() && value.kind != Operand::Kind::Vector))
    throw ir::CompileError(target.loc, "cannot store '" + describe(value) + "' into '" +
                                           unparse(target) + "', a " + describe(view));
  ScalarKind kind = view.type().scalarKind();
  // A number (or a vector, into an array of vectors) fills the view; an array broadcasts.
  ir::Value *filling = broadcast ? nullptr : storedElement(view, value, target);
  forEachElement(view, target.loc, [&](const std::vector<ir::Value *> &indices) {
    ir::Value *element = filling;
    if (!element) {
      element = broadcastElement(value, indices, target.loc);
      if (!vectors)
        element = convert(Operand::scalar(element), kind);
    }
    std::vector<ir::Value *> operands{element, view.value};
    operands.insert(operands.end(), indices.begin(), indices.end());
    at(target.loc).create(ir::Opcode::Store, ir::Type(), operands);
  });
}

// numpy's argmin and argmax of the whole array: the flat C-order index of the first smallest
// (largest) element, a NaN counting as the extreme (the first NaN's index). Of an empty array
// numpy raises; kaji reads its first element, as min and max do.
Operand FunctionLowerer::argExtremum(bool maximum, const Operand &array, const CallExpr &expr) {
  ir::Type type = array.type();
  std::string name = maximum ? "argmax" : "argmin";
  if (type.isVectorArray() || ir::isComplex(type.scalarKind()))
    throw ir::CompileError(expr.loc, name + "() of '" + describe(array) +
                                         "' is not supported in kernels (real numbers only), "
                                         "in '" +
                                         unparse(expr) + "'");
  ScalarKind elementKind = type.scalarKind();
  // Bools order as 0 and 1.
  ScalarKind kind = elementKind == ScalarKind::Bool ? ScalarKind::Int8 : elementKind;
  ir::Type element = ir::Type::scalar(elementKind), valueType = ir::Type::scalar(kind);
  ir::Type i64 = ir::Type::scalar(ScalarKind::Int64);
  ir::Builder &b = at(expr.loc);
  std::vector<ir::Value *> first{array.value};
  for (unsigned d = 0; d < type.ndim(); ++d)
    first.push_back(b.intConstant(i64, 0));
  std::string best = hiddenVariable("$" + name + "_value");
  std::string bestIndex = hiddenVariable("$" + name + "_index");
  std::string position = hiddenVariable("$" + name + "_position");
  ssa_->write(best, b.block(),
              convert(Operand::scalar(b.create(ir::Opcode::Load, element, first)->result()), kind));
  ssa_->write(bestIndex, b.block(), b.intConstant(i64, 0));
  ssa_->write(position, b.block(), b.intConstant(i64, 0));
  forEachElement(array, expr.loc, [&](const std::vector<ir::Value *> &indices) {
    std::vector<ir::Value *> operands{array.value};
    operands.insert(operands.end(), indices.begin(), indices.end());
    ir::Builder &inner = at(expr.loc);
    ir::Value *value =
        convert(Operand::scalar(inner.create(ir::Opcode::Load, element, operands)->result()), kind);
    ir::Value *current = ssa_->read(best, valueType, inner.block());
    ir::Value *index = ssa_->read(position, i64, inner.block());
    ir::Value *better =
        inner.cmp(maximum ? ir::CmpPredicate::Gt : ir::CmpPredicate::Lt, value, current);
    if (ir::isFloat(kind)) {
      // x != x only for a NaN (float compares are ordered but for ne).
      ir::Value *valueIsNaN = inner.cmp(ir::CmpPredicate::Ne, value, value);
      ir::Value *bestIsNaN = inner.cmp(ir::CmpPredicate::Ne, current, current);
      ir::Value *firstNaN =
          inner.binary(ir::Opcode::And, valueIsNaN,
                       inner.create(ir::Opcode::Not, bestIsNaN->type(), {bestIsNaN})->result());
      better = inner.binary(ir::Opcode::Or, better, firstNaN);
    }
    ssa_->write(best, inner.block(), inner.select(better, value, current));
    ssa_->write(bestIndex, inner.block(),
                inner.select(better, index, ssa_->read(bestIndex, i64, inner.block())));
    ssa_->write(position, inner.block(),
                inner.binary(ir::Opcode::Add, index, inner.intConstant(i64, 1)));
  });
  return Operand::scalar(ssa_->read(bestIndex, i64, at(expr.loc).block()));
}

Operand FunctionLowerer::reduceArray(const std::string &reduction, const Operand &array,
                                     const CallExpr &expr) {
  if (reduction == "argmin" || reduction == "argmax")
    return argExtremum(reduction == "argmax", array, expr);
  ir::Type type = array.type();
  if (type.isVectorArray())
    throw ir::CompileError(expr.loc, "cannot reduce '" + describe(array) + "' in '" +
                                         unparse(expr) +
                                         "': vectors have no arithmetic, as in "
                                         "Numba; reduce their lanes");
  ScalarKind elementKind = type.scalarKind();
  ScalarKind kind = accumulatorKind(reduction, elementKind);
  ir::Type accumulatorType = ir::Type::scalar(kind);
  ir::Type element = ir::Type::scalar(elementKind);
  bool minimum = reduction == "min", maximum = reduction == "max";
  ir::Builder &b = at(expr.loc);
  ir::Value *initial;
  if (minimum || maximum) {
    // numpy has no identity for min and max of an empty array: the first element (an
    // IndexError on the cpu target when there is none) starts the reduction.
    std::vector<ir::Value *> first{array.value};
    for (unsigned d = 0; d < type.ndim(); ++d)
      first.push_back(b.intConstant(ir::Type::scalar(ScalarKind::Int64), 0));
    initial = b.create(ir::Opcode::Load, element, first)->result();
  } else if (kind == ScalarKind::Bool) {
    initial = b.boolConstant(reduction == "all");
  } else if (ir::isFloat(kind)) {
    initial = b.floatConstant(accumulatorType, reduction == "prod" ? 1.0 : 0.0);
  } else {
    initial = b.intConstant(accumulatorType, reduction == "prod" ? 1 : 0);
  }
  std::string accumulator = hiddenVariable("$" + reduction);
  ssa_->write(accumulator, b.block(), initial);
  forEachElement(array, expr.loc, [&](const std::vector<ir::Value *> &indices) {
    std::vector<ir::Value *> operands{array.value};
    operands.insert(operands.end(), indices.begin(), indices.end());
    ir::Builder &inner = at(expr.loc);
    ir::Value *value = inner.create(ir::Opcode::Load, element, operands)->result();
    ir::Value *current = ssa_->read(accumulator, accumulatorType, inner.block());
    ir::Value *next;
    if (reduction == "all" || reduction == "any") {
      ir::Value *truth =
          elementKind == ScalarKind::Bool
              ? value
              : inner.cmp(ir::CmpPredicate::Ne, value,
                          ir::isFloat(elementKind) ? inner.floatConstant(element, 0.0)
                                                   : inner.intConstant(element, 0));
      next = inner.binary(reduction == "all" ? ir::Opcode::And : ir::Opcode::Or, current, truth);
    } else if ((minimum || maximum) && ir::isFloat(kind)) {
      // numpy's min and max propagate NaN.
      next = inner.math(minimum ? ir::MathFunctionKind::Minimum : ir::MathFunctionKind::Maximum,
                        accumulatorType, {current, value});
    } else if (minimum || maximum) {
      ir::Opcode opcode = kind == ScalarKind::Bool ? (minimum ? ir::Opcode::And : ir::Opcode::Or)
                          : minimum                ? ir::Opcode::Min
                                                   : ir::Opcode::Max;
      next = inner.binary(opcode, current, value);
    } else {
      next = inner.binary(reduction == "prod" ? ir::Opcode::Mul : ir::Opcode::Add, current,
                          convert(Operand::scalar(value), kind));
    }
    ssa_->write(accumulator, inner.block(), next);
  });
  ir::Builder &after = at(expr.loc);
  ir::Value *result = ssa_->read(accumulator, accumulatorType, after.block());
  if (reduction == "mean") {
    ir::Value *size = after.intConstant(ir::Type::scalar(ScalarKind::Int64), 1);
    for (unsigned d = 0; d < type.ndim(); ++d)
      size = after.binary(ir::Opcode::Mul, size, arrayExtent(array, d));
    result = after.binary(ir::Opcode::Div, result, convert(Operand::scalar(size), kind));
    if (ir::isHalfPrecision(elementKind))
      result = convert(Operand::scalar(result), elementKind);
  }
  return Operand::scalar(result);
}

} // namespace kaji::frontend
