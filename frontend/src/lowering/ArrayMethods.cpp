// Methods of arrays inside kernels: transpose(), reshape(), view() (ArrayViews.cpp), copy()
// into a local array, and numpy's whole-array reductions (sum, prod, min, max, mean, var, std,
// all, any, argmin, argmax as methods and as np.sum(a) ..., np.count_nonzero and the nan*
// functions); and stores into a view (`a[1:3] = x`). Kernels cannot allocate, so copy() needs
// a shape known at compile time; a reduction is a fold over the elements in C order.
#include "ComplexArithmetic.h"
#include "FunctionLowerer.h"

namespace kaji::frontend {
namespace {

using ir::ScalarKind;
using Reduction = ArrayReduction::Kind;

constexpr ArrayReduction kNumpyReductions[] = {
    {"sum", Reduction::Sum, false, true},
    {"nansum", Reduction::Sum, true, false},
    {"prod", Reduction::Prod, false, true},
    {"nanprod", Reduction::Prod, true, false},
    {"min", Reduction::Min, false, true},
    {"amin", Reduction::Min, false, false},
    {"nanmin", Reduction::Min, true, false},
    {"max", Reduction::Max, false, true},
    {"amax", Reduction::Max, false, false},
    {"nanmax", Reduction::Max, true, false},
    {"mean", Reduction::Mean, false, true},
    {"nanmean", Reduction::Mean, true, false},
    {"var", Reduction::Var, false, true},
    {"std", Reduction::Std, false, true},
    {"all", Reduction::All, false, true},
    {"any", Reduction::Any, false, true},
    {"count_nonzero", Reduction::CountNonzero, false, false},
    {"argmin", Reduction::ArgMin, false, true},
    {"argmax", Reduction::ArgMax, false, true},
};

// The kind numpy's sum and prod accumulate in: integers and bools widen to 64 bits.
ScalarKind totalKind(ScalarKind element) {
  if (ir::isFloat(element) || ir::isComplex(element))
    return element;
  return ir::isInteger(element) && !ir::isSigned(element) ? ScalarKind::UInt64 : ScalarKind::Int64;
}

// The kind numpy's mean, var and std compute in: float64 for integers and bools, float32 for
// float16 and bfloat16 (whose result is rounded back to them).
ScalarKind meanKind(ScalarKind element) {
  if (ir::isHalfPrecision(element))
    return ScalarKind::Float32;
  return ir::isFloat(element) || ir::isComplex(element) ? element : ScalarKind::Float64;
}

// Whether `value` is NaN (a complex number: has a NaN part); null for kinds without NaN.
ir::Value *nanTest(ir::Builder &b, ir::Value *value) {
  if (value->type().isComplex())
    return *ComplexArithmetic(b).cmath("isnan", value);
  if (!value->type().isFloat())
    return nullptr;
  // x != x only for a NaN (float compares are ordered but for ne).
  return b.cmp(ir::CmpPredicate::Ne, value, value);
}

// The element at index 0 of every dimension, where min, max, argmin and argmax, which have no
// identity, start.
ir::Value *firstElement(ir::Builder &b, const Operand &array) {
  std::vector<ir::Value *> operands{array.value};
  for (unsigned d = 0; d < array.type().ndim(); ++d)
    operands.push_back(b.intConstant(ir::Type::scalar(ScalarKind::Int64), 0));
  return b.create(ir::Opcode::Load, array.type().elementType(), operands)->result();
}

// numpy's maximum (minimum) of two numbers of one kind, NaN propagating; fmax (fmin) where
// `skipsNaN`.
ir::Value *extremum(ir::Builder &b, ir::Value *x, ir::Value *y, bool maximum, bool skipsNaN) {
  ir::Type type = x->type();
  if (type.isComplex())
    return ComplexArithmetic(b).extremum(x, y, maximum, !skipsNaN);
  if (type.isFloat()) {
    using Math = ir::MathFunctionKind;
    Math function =
        skipsNaN ? (maximum ? Math::FMax : Math::FMin) : (maximum ? Math::Maximum : Math::Minimum);
    return b.math(function, type, {x, y});
  }
  ir::Opcode opcode = type.isBool() ? (maximum ? ir::Opcode::Or : ir::Opcode::And)
                      : maximum     ? ir::Opcode::Max
                                    : ir::Opcode::Min;
  return b.binary(opcode, x, y);
}

} // namespace

const ArrayReduction *numpyReduction(std::string_view member) {
  for (const ArrayReduction &reduction : kNumpyReductions)
    if (reduction.name == member)
      return &reduction;
  return nullptr;
}

namespace {

const ArrayReduction *reductionMethod(std::string_view method) {
  const ArrayReduction *reduction = numpyReduction(method);
  return reduction && reduction->method ? reduction : nullptr;
}

} // namespace

bool isArrayMethod(std::string_view name) {
  return reductionMethod(name) || name == "transpose" || name == "reshape" || name == "view" ||
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
  return reduceArray(*reductionMethod(method), array, expr);
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
  if (ir::isComplex(type.scalarKind()))
    throw ir::CompileError(expr.loc, name + "() of '" + describe(array) +
                                         "' is not supported in kernels (real numbers only), "
                                         "in '" +
                                         unparse(expr) + "'");
  ScalarKind elementKind = type.scalarKind();
  // Bools order as 0 and 1.
  ScalarKind kind = elementKind == ScalarKind::Bool ? ScalarKind::Int8 : elementKind;
  ir::Type i64 = ir::Type::scalar(ScalarKind::Int64);
  ir::Builder &b = at(expr.loc);
  ir::Value *first = convert(Operand::scalar(firstElement(b, array)), kind);
  // The fold's accumulators: the extreme value, its index, the index of the element folded.
  std::vector<ir::Value *> initial{first, b.intConstant(i64, 0), b.intConstant(i64, 0)};
  std::vector<ir::Value *> last = foldArray(
      array, expr.loc, initial, [&](const std::vector<ir::Value *> &best, ir::Value *element) {
        ir::Value *value = convert(Operand::scalar(element), kind);
        ir::Builder &inner = at(expr.loc);
        ir::Value *better =
            inner.cmp(maximum ? ir::CmpPredicate::Gt : ir::CmpPredicate::Lt, value, best[0]);
        if (ir::Value *valueIsNaN = nanTest(inner, value)) {
          ir::Value *bestIsNaN = nanTest(inner, best[0]);
          ir::Value *firstNaN =
              inner.binary(ir::Opcode::And, valueIsNaN, inner.unary(ir::Opcode::Not, bestIsNaN));
          better = inner.binary(ir::Opcode::Or, better, firstNaN);
        }
        return std::vector<ir::Value *>{
            inner.select(better, value, best[0]), inner.select(better, best[2], best[1]),
            inner.binary(ir::Opcode::Add, best[2], inner.intConstant(i64, 1))};
      });
  return Operand::scalar(last[1]);
}

std::vector<ir::Value *> FunctionLowerer::foldArray(const Operand &array, const Location &loc,
                                                    const std::vector<ir::Value *> &initial,
                                                    const FoldStep &step) {
  std::vector<std::string> accumulators;
  ir::Builder &b = at(loc);
  for (ir::Value *value : initial) {
    accumulators.push_back(hiddenVariable("$fold"));
    ssa_->write(accumulators.back(), b.block(), value);
  }
  auto read = [&](ir::Block *block) {
    std::vector<ir::Value *> values;
    for (size_t i = 0; i < initial.size(); ++i)
      values.push_back(ssa_->read(accumulators[i], initial[i]->type(), block));
    return values;
  };
  ir::Type element = array.type().elementType();
  forEachElement(array, loc, [&](const std::vector<ir::Value *> &indices) {
    std::vector<ir::Value *> operands{array.value};
    operands.insert(operands.end(), indices.begin(), indices.end());
    ir::Builder &inner = at(loc);
    ir::Value *value = inner.create(ir::Opcode::Load, element, operands)->result();
    std::vector<ir::Value *> next = step(read(inner.block()), value);
    ir::Block *block = at(loc).block();
    for (size_t i = 0; i < next.size(); ++i)
      ssa_->write(accumulators[i], block, next[i]);
  });
  return read(at(loc).block());
}

ir::Value *FunctionLowerer::arrayMean(const Operand &array, ScalarKind kind, bool skipsNaN,
                                      const CallExpr &expr) {
  auto source = [&expr] { return unparse(expr); };
  ir::Type i64 = ir::Type::scalar(ScalarKind::Int64);
  at(expr.loc);
  ir::Value *zero = convert(intConstant(ScalarKind::Int64, 0), kind);
  // The fold's accumulators: the sum and the count of the elements taken.
  std::vector<ir::Value *> initial{zero, builder_.intConstant(i64, 0)};
  std::vector<ir::Value *> totals = foldArray(
      array, expr.loc, initial, [&](const std::vector<ir::Value *> &sums, ir::Value *element) {
        ir::Value *value = convert(Operand::scalar(element), kind);
        ir::Builder &inner = at(expr.loc);
        ir::Value *taken = inner.intConstant(i64, 1);
        if (ir::Value *isNaN = skipsNaN ? nanTest(inner, value) : nullptr) {
          value = inner.select(isNaN, zero, value);
          taken = inner.select(isNaN, inner.intConstant(i64, 0), taken);
        }
        Operand sum = binary(BinaryOperator::Add, Operand::scalar(sums[0]), Operand::scalar(value),
                             expr.loc, source);
        return std::vector<ir::Value *>{sum.value,
                                        at(expr.loc).binary(ir::Opcode::Add, sums[1], taken)};
      });
  Operand count = Operand::scalar(convert(Operand::scalar(totals[1]), kind));
  return binary(BinaryOperator::Div, Operand::scalar(totals[0]), count, expr.loc, source).value;
}

Operand FunctionLowerer::reduceArray(const ArrayReduction &reduction, const Operand &array,
                                     const CallExpr &expr) {
  ir::Type type = array.type();
  if (type.isVectorArray() || type.isRecordArray())
    throw ir::CompileError(
        expr.loc, "cannot reduce '" + describe(array) + "' in '" + unparse(expr) + "': " +
                      (type.isVectorArray() ? "vectors have no arithmetic, as in Numba; "
                                              "reduce their lanes"
                                            : "records have no arithmetic; reduce a field"));
  auto source = [&expr] { return unparse(expr); };
  ScalarKind element = type.scalarKind();
  if (ir::isFloat8(element))
    throw ir::CompileError(expr.loc, "cannot reduce '" + describe(array) + "' in '" +
                                         unparse(expr) +
                                         "': 8-bit floats only convert (as CUDA's); reduce "
                                         "float32(x) of each element");
  ir::Type i64 = ir::Type::scalar(ScalarKind::Int64);
  ir::Builder &b = at(expr.loc);
  switch (reduction.kind) {
  case Reduction::ArgMin:
  case Reduction::ArgMax:
    return argExtremum(reduction.kind == Reduction::ArgMax, array, expr);
  case Reduction::All:
  case Reduction::Any:
  case Reduction::CountNonzero: {
    // count_nonzero adds up the truths as 0 and 1.
    bool counts = reduction.kind == Reduction::CountNonzero;
    ir::Opcode combine = counts                             ? ir::Opcode::Add
                         : reduction.kind == Reduction::All ? ir::Opcode::And
                                                            : ir::Opcode::Or;
    ir::Value *initial =
        counts ? b.intConstant(i64, 0) : b.boolConstant(reduction.kind == Reduction::All);
    return Operand::scalar(
        foldArray(array, expr.loc, {initial},
                  [&](const std::vector<ir::Value *> &accumulated, ir::Value *value) {
                    ir::Value *nonzero = truth(Operand::scalar(value), expr);
                    if (counts)
                      nonzero = convert(Operand::scalar(nonzero), ScalarKind::Int64);
                    return std::vector<ir::Value *>{
                        at(expr.loc).binary(combine, accumulated[0], nonzero)};
                  })
            .front());
  }
  case Reduction::Min:
  case Reduction::Max: {
    // numpy has no identity for min and max: the first element (an IndexError on the cpu
    // target when there is none) starts the fold.
    bool maximum = reduction.kind == Reduction::Max;
    return Operand::scalar(
        foldArray(array, expr.loc, {firstElement(b, array)},
                  [&](const std::vector<ir::Value *> &extreme, ir::Value *value) {
                    return std::vector<ir::Value *>{
                        extremum(at(expr.loc), extreme[0], value, maximum, reduction.skipsNaN)};
                  })
            .front());
  }
  case Reduction::Sum:
  case Reduction::Prod: {
    bool product = reduction.kind == Reduction::Prod;
    ScalarKind kind = totalKind(element);
    ir::Value *identity = convert(intConstant(ScalarKind::Int64, product ? 1 : 0), kind);
    return Operand::scalar(
        foldArray(array, expr.loc, {identity},
                  [&](const std::vector<ir::Value *> &total, ir::Value *loaded) {
                    ir::Value *value = convert(Operand::scalar(loaded), kind);
                    // nansum and nanprod read a NaN as the identity.
                    if (ir::Value *isNaN =
                            reduction.skipsNaN ? nanTest(at(expr.loc), value) : nullptr)
                      value = builder_.select(isNaN, identity, value);
                    return std::vector<ir::Value *>{
                        binary(product ? BinaryOperator::Mul : BinaryOperator::Add,
                               Operand::scalar(total[0]), Operand::scalar(value), expr.loc, source)
                            .value};
                  })
            .front());
  }
  case Reduction::Mean: {
    ir::Value *mean = arrayMean(array, meanKind(element), reduction.skipsNaN, expr);
    return Operand::scalar(ir::isHalfPrecision(element) ? convert(Operand::scalar(mean), element)
                                                        : mean);
  }
  case Reduction::Var:
  case Reduction::Std: {
    // numpy's var is the mean of the squared distances from the mean (|x - mean|**2 for
    // complex x, a float), std its square root.
    ScalarKind kind = meanKind(element), part = ir::componentKind(kind);
    ir::Value *mean = arrayMean(array, kind, false, expr);
    ir::Value *squares =
        foldArray(
            array, expr.loc, {floatConstant(part, 0.0).value},
            [&](const std::vector<ir::Value *> &sum, ir::Value *loaded) {
              ir::Value *deviation = binary(BinaryOperator::Sub,
                                            Operand::scalar(convert(Operand::scalar(loaded), kind)),
                                            Operand::scalar(mean), expr.loc, source)
                                         .value;
              ComplexArithmetic complex(at(expr.loc));
              ir::Value *square =
                  ir::isComplex(kind)
                      ? builder_.binary(ir::Opcode::Add,
                                        builder_.binary(ir::Opcode::Mul, complex.real(deviation),
                                                        complex.real(deviation)),
                                        builder_.binary(ir::Opcode::Mul, complex.imag(deviation),
                                                        complex.imag(deviation)))
                      : builder_.binary(ir::Opcode::Mul, deviation, deviation);
              return std::vector<ir::Value *>{builder_.binary(ir::Opcode::Add, sum[0], square)};
            })
            .front();
    ir::Builder &after = at(expr.loc);
    ir::Value *size = after.intConstant(i64, 1);
    for (unsigned d = 0; d < type.ndim(); ++d)
      size = after.binary(ir::Opcode::Mul, size, arrayExtent(array, d));
    ir::Value *result =
        after.binary(ir::Opcode::Div, squares, convert(Operand::scalar(size), part));
    if (reduction.kind == Reduction::Std)
      result = after.math(ir::MathFunctionKind::Sqrt, result->type(), {result});
    return Operand::scalar(ir::isHalfPrecision(element) ? convert(Operand::scalar(result), element)
                                                        : result);
  }
  }
  throw ir::CompileError(expr.loc, "unknown reduction '" + std::string(reduction.name) + "'");
}

} // namespace kaji::frontend
