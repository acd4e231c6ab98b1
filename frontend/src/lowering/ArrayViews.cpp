// Array views inside kernels: slices, integer indices of fewer than all dimensions, rows of a
// loop over an n-d array, .T, transpose(), reshape() and view(dtype). A view is an
// `array_view` of the array it looks into (docs/ir.md): the same memory from a byte offset
// on, with extents and byte strides of its own, so stores through it reach the original.
// Also the real and imaginary parts of complex arrays (`a.real`), and the arrays made from an
// address: a C pointer parameter's.
#include "FunctionLowerer.h"
#include "IndexArithmetic.h"

#include "kaji/ir/Constants.h"
#include "kaji/ir/RecordType.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace kaji::frontend {
namespace {

using ir::ScalarKind;

const ir::Type kI64 = ir::Type::scalar(ScalarKind::Int64);

// Whether memory selected as `kinds` (one per dimension of a C-contiguous array) is
// C-contiguous: whole rows of the trailing dimensions, one run of them.
bool keepsCOrder(const std::vector<FunctionLowerer::DimSelection::Kind> &kinds) {
  using Kind = FunctionLowerer::DimSelection::Kind;
  size_t d = 0;
  while (d < kinds.size() && kinds[d] == Kind::Index)
    ++d;
  if (d < kinds.size() && (kinds[d] == Kind::Full || kinds[d] == Kind::UnitSlice))
    ++d;
  return std::all_of(kinds.begin() + d, kinds.end(), [](Kind k) { return k == Kind::Full; });
}

} // namespace

ir::Value *FunctionLowerer::arrayExtent(const Operand &array, unsigned dim) {
  if (std::optional<std::vector<int64_t>> shape = staticShape(array))
    return builder_.intConstant(kI64, (*shape)[dim]);
  // A view's extent is a value the frontend made already.
  const ir::Operation *definition = array.value->definingOp();
  if (definition && definition->opcode() == ir::Opcode::ArrayView)
    return definition->operand(2 + dim);
  return builder_.create(ir::Opcode::ArrayDim, kI64, {array.value}, int64_t(dim))->result();
}

ir::Value *FunctionLowerer::arrayStride(const Operand &array, unsigned dim) {
  ir::Type type = array.type();
  int64_t itemSize = type.elementSize();
  const ir::Operation *definition = array.value->definingOp();
  if (definition && definition->opcode() == ir::Opcode::ArrayView)
    return definition->operand(2 + type.ndim() + dim);
  if (std::optional<std::vector<int64_t>> shape = staticShape(array);
      shape && type.layout() == ir::Layout::C) {
    int64_t stride = itemSize;
    for (unsigned d = type.ndim(); --d > dim;)
      stride *= (*shape)[d];
    return builder_.intConstant(kI64, stride);
  }
  if ((type.layout() == ir::Layout::C && dim + 1 == type.ndim()) ||
      (type.layout() == ir::Layout::F && dim == 0))
    return builder_.intConstant(kI64, itemSize);
  return builder_.create(ir::Opcode::ArrayStride, kI64, {array.value}, int64_t(dim))->result();
}

std::optional<std::vector<int64_t>> FunctionLowerer::staticShape(const Operand &array) const {
  const ir::Operation *definition = array.value ? array.value->definingOp() : nullptr;
  if (!definition)
    return std::nullopt;
  switch (definition->opcode()) {
  case ir::Opcode::SharedArray:
  case ir::Opcode::LocalArray:
    return definition->attrAs<ir::ArrayAllocation>().shape;
  case ir::Opcode::ConstArray:
    return definition->attrAs<ir::ConstantData>().shape;
  case ir::Opcode::ArrayView: {
    std::vector<int64_t> shape;
    for (unsigned d = 0; d < array.type().ndim(); ++d) {
      std::optional<int64_t> extent = ir::intConstant(definition->operand(2 + d));
      if (!extent)
        return std::nullopt;
      shape.push_back(*extent);
    }
    return shape;
  }
  default:
    return std::nullopt;
  }
}

std::vector<FunctionLowerer::SubscriptItem>
FunctionLowerer::subscriptItems(const SubscriptExpr &expr) {
  std::vector<SubscriptItem> items;
  auto add = [&](const Expr &indexExpr) {
    if (auto *slice = indexExpr.as<SliceExpr>()) {
      items.push_back({slice, Operand(), &indexExpr});
      return;
    }
    Operand index = lower(indexExpr);
    if (index.kind == Operand::Kind::Tuple)
      for (const Operand &element : index.elements)
        items.push_back({nullptr, element, &indexExpr});
    else
      items.push_back({nullptr, index, &indexExpr});
  };
  if (auto *tuple = expr.index->as<TupleExpr>())
    for (const ExprPtr &element : tuple->elts)
      add(*element);
  else
    add(*expr.index);
  return items;
}

ir::Value *FunctionLowerer::viewIndex(const Operand &array, unsigned dim, const Operand &index,
                                      const Expr &indexExpr, const Expr &node) {
  ir::Value *raw = rawIndex(index, indexExpr, node);
  return builder_.create(ir::Opcode::ArrayIndex, kI64, {array.value, raw}, int64_t(dim))->result();
}

FunctionLowerer::DimSelection FunctionLowerer::sliceSelection(const Operand &array, unsigned dim,
                                                              const SliceExpr &slice,
                                                              const Expr &node) {
  auto bound = [&](const ExprPtr &part) -> ir::Value * {
    if (!part)
      return nullptr;
    Operand value = lower(*part);
    if (value.kind == Operand::Kind::None)
      return nullptr;
    if (!value.isScalar() || !value.type().isInteger())
      throw ir::CompileError(part->loc, "slice indices must be integers or None, not '" +
                                            describe(value) + "', in '" + unparse(node) + "'");
    at(node.loc);
    return convert(value, ScalarKind::Int64);
  };
  ir::Value *lower = bound(slice.lower), *upper = bound(slice.upper), *step = bound(slice.step);
  IndexArithmetic math(at(node.loc));
  if (!step)
    step = math.constant(1);
  std::optional<int64_t> constantStep = ir::intConstant(step);
  if (constantStep && *constantStep == 0)
    throw ir::CompileError(slice.step->loc, "slice step cannot be zero in '" + unparse(node) + "'");
  DimSelection selection;
  selection.kind = !lower && !upper && constantStep == 1 ? DimSelection::Kind::Full
                   : constantStep == 1                   ? DimSelection::Kind::UnitSlice
                                                         : DimSelection::Kind::StridedSlice;
  selection.step = step;
  // Python's slice.indices(): a bound counts from the end when negative and is clamped to
  // [0, extent] going forwards, [-1, extent - 1] going backwards; a missing bound is the end
  // in the step's direction. A step that is zero at run time selects nothing.
  ir::Value *extent = arrayExtent(array, dim);
  ir::Value *zero = math.constant(0), *minusOne = math.constant(-1);
  ir::Value *backwards = math.less(step, zero);
  ir::Value *low = math.select(backwards, minusOne, zero);
  ir::Value *high = math.select(backwards, math.sub(extent, math.constant(1)), extent);
  auto clamp = [&](ir::Value *bound) {
    ir::Value *wrapped = math.select(math.less(bound, zero), math.add(bound, extent), bound);
    return math.min(math.max(wrapped, low), high);
  };
  selection.start = lower ? clamp(lower) : math.select(backwards, high, zero);
  ir::Value *stop = upper ? clamp(upper) : math.select(backwards, minusOne, extent);
  ir::Value *towardsStop =
      math.select(backwards, math.add(step, math.constant(1)), math.sub(step, math.constant(1)));
  selection.length =
      math.max(math.div(math.add(math.sub(stop, selection.start), towardsStop), step), zero);
  return selection;
}

bool FunctionLowerer::selectsView(const Operand &array,
                                  const std::vector<SubscriptItem> &items) const {
  // An element of an array of records is a record: a 0-d view, never a value.
  return items.size() < array.type().ndim() || array.type().isRecordArray() ||
         std::any_of(items.begin(), items.end(),
                     [](const SubscriptItem &item) { return item.slice != nullptr; });
}

Operand FunctionLowerer::subscriptView(const Operand &array,
                                       const std::vector<SubscriptItem> &items,
                                       const SubscriptExpr &expr) {
  unsigned ndim = array.type().ndim();
  if (items.size() > ndim)
    checkIndexCount(array, items.size(), *expr.value, expr);
  std::vector<DimSelection> dims;
  for (unsigned d = 0; d < ndim; ++d) {
    DimSelection selection;
    if (d >= items.size()) {
      selection.kind = DimSelection::Kind::Full;
    } else if (items[d].slice) {
      selection = sliceSelection(array, d, *items[d].slice, expr);
    } else {
      selection.kind = DimSelection::Kind::Index;
      selection.start = viewIndex(array, d, items[d].index, *items[d].expr, expr);
    }
    dims.push_back(selection);
  }
  return selectView(array, dims, expr.loc);
}

Operand FunctionLowerer::rowView(const Operand &array, ir::Value *index, const Location &loc) {
  std::vector<DimSelection> dims(array.type().ndim());
  dims[0].kind = DimSelection::Kind::Index;
  at(loc);
  dims[0].start =
      builder_.create(ir::Opcode::ArrayIndex, kI64, {array.value, index}, int64_t(0))->result();
  for (size_t d = 1; d < dims.size(); ++d)
    dims[d].kind = DimSelection::Kind::Full;
  return selectView(array, dims, loc);
}

Operand FunctionLowerer::selectView(const Operand &array, const std::vector<DimSelection> &dims,
                                    const Location &loc) {
  IndexArithmetic math(at(loc));
  ir::Value *offset = math.constant(0);
  std::vector<ir::Value *> extents, strides;
  std::vector<DimSelection::Kind> kinds;
  for (unsigned d = 0; d < dims.size(); ++d) {
    const DimSelection &selection = dims[d];
    kinds.push_back(selection.kind);
    ir::Value *stride = arrayStride(array, d);
    switch (selection.kind) {
    case DimSelection::Kind::Index:
      offset = math.add(offset, math.mul(selection.start, stride));
      break;
    case DimSelection::Kind::Full:
      extents.push_back(arrayExtent(array, d));
      strides.push_back(stride);
      break;
    case DimSelection::Kind::UnitSlice:
    case DimSelection::Kind::StridedSlice:
      offset = math.add(offset, math.mul(selection.start, stride));
      extents.push_back(selection.length);
      strides.push_back(math.mul(stride, selection.step));
      break;
    }
  }
  ir::Type type = array.type();
  ir::Layout layout = ir::Layout::Any;
  std::vector<DimSelection::Kind> reversed(kinds.rbegin(), kinds.rend());
  if (type.layout() == ir::Layout::C && keepsCOrder(kinds))
    layout = ir::Layout::C;
  else if (type.layout() == ir::Layout::F && keepsCOrder(reversed))
    layout = extents.size() == 1 ? ir::Layout::C : ir::Layout::F;
  return makeView(array, ir::viewTypeOf(type, unsigned(extents.size()), layout), offset, extents,
                  strides, loc);
}

Operand FunctionLowerer::makeView(const Operand &array, ir::Type type, ir::Value *offset,
                                  const std::vector<ir::Value *> &extents,
                                  const std::vector<ir::Value *> &strides, const Location &loc) {
  std::vector<ir::Value *> operands{array.value, offset};
  operands.insert(operands.end(), extents.begin(), extents.end());
  operands.insert(operands.end(), strides.begin(), strides.end());
  return Operand::array(at(loc).create(ir::Opcode::ArrayView, type, operands)->result());
}

Operand FunctionLowerer::complexPartView(const Operand &array, bool imaginary,
                                         const Location &loc) {
  ir::Type type = array.type();
  ScalarKind part = ir::componentKind(type.scalarKind());
  return sameShapeView(array,
                       ir::Type::array(part, type.ndim(), ir::Layout::Any, type.memorySpace()),
                       imaginary ? int64_t(ir::byteSize(part)) : 0, loc);
}

Operand FunctionLowerer::pointedArray(ir::Value *address, ir::Type element) {
  // A C pointer has no extent: the array reaches as far as an index can, so that every
  // non-negative index is in bounds, as a pointer's is.
  ir::Type type = ir::Type::array(element.scalarKind(), 1, ir::Layout::C);
  std::vector<ir::Value *> placement{
      convert(Operand::scalar(address), ScalarKind::Int64),
      builder_.intConstant(kI64, std::numeric_limits<int64_t>::max()),
      builder_.intConstant(kI64, int64_t(ir::byteSize(element.scalarKind())))};
  return Operand::array(builder_.create(ir::Opcode::ArrayAt, type, placement)->result());
}

Operand FunctionLowerer::sameShapeView(const Operand &array, ir::Type type, int64_t byteOffset,
                                       const Location &loc) {
  std::vector<ir::Value *> extents, strides;
  for (unsigned d = 0; d < type.ndim(); ++d) {
    extents.push_back(arrayExtent(array, d));
    strides.push_back(arrayStride(array, d));
  }
  return makeView(array, type, builder_.intConstant(kI64, byteOffset), extents, strides, loc);
}

Operand FunctionLowerer::transposed(const Operand &array, const std::vector<unsigned> &axes,
                                    const Location &loc) {
  at(loc);
  std::vector<ir::Value *> extents, strides;
  for (unsigned axis : axes) {
    extents.push_back(arrayExtent(array, axis));
    strides.push_back(arrayStride(array, axis));
  }
  ir::Type type = array.type();
  bool reverses = std::is_sorted(axes.rbegin(), axes.rend());
  bool keeps = std::is_sorted(axes.begin(), axes.end());
  ir::Layout layout = keeps ? type.layout() : ir::Layout::Any;
  if (reverses && !keeps)
    layout = type.layout() == ir::Layout::C   ? ir::Layout::F
             : type.layout() == ir::Layout::F ? ir::Layout::C
                                              : ir::Layout::Any;
  return makeView(array, ir::viewTypeOf(type, type.ndim(), layout), builder_.intConstant(kI64, 0),
                  extents, strides, loc);
}

Operand FunctionLowerer::transposeCall(const Operand &array, const CallExpr &expr) {
  if (!expr.keywords.empty())
    throw ir::CompileError(expr.keywords.front().loc,
                           "transpose() takes no keyword arguments in kernels");
  unsigned ndim = array.type().ndim();
  std::vector<unsigned> axes(ndim);
  std::iota(axes.rbegin(), axes.rend(), 0u);
  if (expr.args.empty())
    return transposed(array, axes, expr.loc);
  std::vector<Operand> given;
  for (const ExprPtr &arg : expr.args)
    given.push_back(lower(*arg));
  if (given.size() == 1 && given.front().kind == Operand::Kind::Tuple)
    given = std::vector<Operand>(given.front().elements);
  std::vector<bool> seen(ndim);
  axes.clear();
  for (const Operand &axis : given) {
    std::optional<int64_t> value = constantInt(axis);
    if (value && *value < 0)
      *value += ndim;
    if (!value || *value < 0 || *value >= int64_t(ndim) || seen[*value] || given.size() != ndim)
      throw ir::CompileError(expr.loc,
                             "transpose() takes a permutation of the " + std::to_string(ndim) +
                                 " axes as constant integers, in '" + unparse(expr) + "'");
    seen[*value] = true;
    axes.push_back(unsigned(*value));
  }
  return transposed(array, axes, expr.loc);
}

Operand FunctionLowerer::reshaped(const Operand &array, const CallExpr &expr) {
  if (!expr.keywords.empty())
    throw ir::CompileError(expr.keywords.front().loc,
                           "reshape() takes no keyword arguments in kernels (order= is numpy's "
                           "only; Numba reshapes in C order)");
  ir::Type type = array.type();
  if (type.layout() != ir::Layout::C && type.ndim() > 0)
    throw ir::CompileError(expr.loc, "reshape() needs a C-contiguous array, and '" +
                                         unparse(*expr.func) + "' is " + describe(array) +
                                         " (Numba reshapes contiguous arrays only)");
  std::vector<Operand> given;
  for (const ExprPtr &arg : expr.args)
    given.push_back(lower(*arg));
  if (given.size() == 1 && given.front().kind == Operand::Kind::Tuple)
    given = std::vector<Operand>(given.front().elements);
  IndexArithmetic math(at(expr.loc));
  ir::Value *size = math.constant(1);
  for (unsigned d = 0; d < type.ndim(); ++d)
    size = math.mul(size, arrayExtent(array, d));
  std::vector<ir::Value *> extents;
  std::optional<size_t> inferred;
  // Extents known only at run time (a shape passed as an argument): a negative one is the
  // extent to infer, as numpy's -1.
  std::vector<std::pair<size_t, ir::Value *>> inferredAtRunTime;
  ir::Value *known = math.constant(1);
  for (size_t d = 0; d < given.size(); ++d) {
    const Operand &extent = given[d];
    if (!extent.isScalar() || !extent.type().isInteger())
      throw ir::CompileError(expr.loc, "reshape() takes integer extents, not '" + describe(extent) +
                                           "', in '" + unparse(expr) + "'");
    std::optional<int64_t> constant = constantInt(extent);
    if (constant && *constant == -1) {
      if (inferred)
        throw ir::CompileError(expr.loc, "reshape() can only infer one extent (-1) in '" +
                                             unparse(expr) + "'");
      inferred = d;
      extents.push_back(nullptr);
      continue;
    }
    if (constant && *constant < 0)
      throw ir::CompileError(expr.loc,
                             "reshape() extents cannot be negative, in '" + unparse(expr) + "'");
    at(expr.loc);
    extents.push_back(convert(extent, ScalarKind::Int64));
    if (constant) {
      known = math.mul(known, extents.back());
      continue;
    }
    ir::Value *negative = math.less(extents.back(), math.constant(0));
    inferredAtRunTime.emplace_back(d, negative);
    known = math.mul(known, math.select(negative, math.constant(1), extents.back()));
  }
  // size / 0 is 0: an empty array's inferred extent is 0, as numpy's where the others allow.
  ir::Value *inferredExtent = math.div(size, known);
  if (inferred)
    extents[*inferred] = inferredExtent;
  for (auto [d, negative] : inferredAtRunTime)
    extents[d] = math.select(negative, inferredExtent, extents[d]);
  std::vector<ir::Value *> strides(extents.size());
  ir::Value *stride = math.constant(type.elementSize());
  for (size_t d = extents.size(); d-- > 0;) {
    strides[d] = stride;
    stride = math.mul(stride, extents[d]);
  }
  ir::Type result = ir::Type::arrayOf(type.elementType(), unsigned(extents.size()), ir::Layout::C,
                                      type.memorySpace());
  return makeView(array, result, math.constant(0), extents, strides, expr.loc);
}

Operand FunctionLowerer::arrayAtPointer(const CallExpr &expr, bool fortran) {
  const std::string display = fortran ? "farray" : "carray";
  const Expr *pointer = nullptr, *shape = nullptr, *dtype = nullptr;
  const Expr **positional[] = {&pointer, &shape, &dtype};
  if (expr.args.size() > std::size(positional))
    throw ir::CompileError(expr.loc, display + "() takes a pointer, a shape and a dtype, in '" +
                                         unparse(expr) + "'");
  for (size_t i = 0; i < expr.args.size(); ++i)
    *positional[i] = expr.args[i].get();
  for (const Keyword &keyword : expr.keywords) {
    const Expr **slot = keyword.name == "ptr"     ? &pointer
                        : keyword.name == "shape" ? &shape
                        : keyword.name == "dtype" ? &dtype
                                                  : nullptr;
    if (!slot || *slot)
      throw ir::CompileError(keyword.loc, display + "() got an unexpected or repeated argument '" +
                                              keyword.name + "'");
    *slot = keyword.value.get();
  }
  if (!pointer || !shape)
    throw ir::CompileError(expr.loc,
                           display + "() takes a pointer and a shape, in '" + unparse(expr) + "'");
  // A C pointer is an array from its address (a pointer parameter, ffi.from_buffer(a)).
  Operand source = lower(*pointer);
  if (source.kind != Operand::Kind::Array || source.type().isVectorArray() ||
      (source.type().layout() == ir::Layout::Any && source.type().ndim() > 0))
    throw ir::CompileError(pointer->loc, display +
                                             "() takes a C pointer (a pointer parameter, "
                                             "or ffi.from_buffer of a contiguous array), "
                                             "not '" +
                                             describe(source) + "'");
  ir::Type element = source.type().elementType();
  if (dtype) {
    Operand given = lower(*dtype);
    std::optional<ScalarKind> kind;
    if (given.kind == Operand::Kind::Builtin && given.name.starts_with("numpy."))
      kind = scalarKindFromNumpyName(given.name.substr(6));
    if (!kind)
      throw ir::CompileError(dtype->loc, display +
                                             "()'s dtype is a numpy scalar type such as "
                                             "np.float32, not '" +
                                             describe(given) + "'");
    if (source.type().isRecordArray() || *kind != source.type().scalarKind())
      throw ir::CompileError(dtype->loc, "mismatching dtype '" + std::string(ir::numpyName(*kind)) +
                                             "' for a pointer to " + typeString(element));
  }
  Operand extent = lower(*shape);
  std::vector<Operand> given =
      extent.kind == Operand::Kind::Tuple ? extent.elements : std::vector<Operand>{extent};
  IndexArithmetic math(at(expr.loc));
  std::vector<ir::Value *> extents;
  for (const Operand &value : given) {
    std::optional<int64_t> constant = constantInt(value);
    if (!value.isScalar() || !value.type().isInteger() || (constant && *constant < 0))
      throw ir::CompileError(shape->loc, display +
                                             "() takes a shape of non-negative integers, "
                                             "not '" +
                                             describe(extent) + "'");
    extents.push_back(convert(value, ScalarKind::Int64));
  }
  std::vector<ir::Value *> strides(extents.size());
  ir::Value *stride = math.constant(source.type().elementSize());
  for (size_t step = 0; step < extents.size(); ++step) {
    size_t d = fortran ? step : extents.size() - 1 - step;
    strides[d] = stride;
    stride = math.mul(stride, extents[d]);
  }
  ir::Layout layout = fortran && extents.size() > 1 ? ir::Layout::F : ir::Layout::C;
  ir::Type result = source.type().isRecordArray()
                        ? ir::Type::array(source.type().record(), unsigned(extents.size()), layout,
                                          source.type().memorySpace())
                        : ir::Type::arrayOf(element, unsigned(extents.size()), layout,
                                            source.type().memorySpace());
  return makeView(source, result, math.constant(0), extents, strides, expr.loc);
}

Operand FunctionLowerer::viewAs(const Operand &array, const CallExpr &expr) {
  Operand dtype = expr.args.size() == 1 && expr.keywords.empty() ? lower(*expr.args[0]) : Operand();
  std::optional<ScalarKind> kind;
  if (dtype.kind == Operand::Kind::Builtin && dtype.name.starts_with("numpy."))
    kind = scalarKindFromNumpyName(dtype.name.substr(6));
  if (!kind)
    throw ir::CompileError(expr.loc, "view() takes one numpy scalar type such as np.int32, in '" +
                                         unparse(expr) + "'");
  ir::Type type = array.type();
  if (type.isVectorArray())
    throw ir::CompileError(expr.loc, "view() reinterprets arrays of numbers, not '" +
                                         describe(array) + "', in '" + unparse(expr) + "'");
  unsigned ndim = type.ndim();
  int64_t from = ir::byteSize(type.scalarKind()), to = ir::byteSize(*kind);
  if (from != to && (ndim == 0 || type.layout() != ir::Layout::C))
    throw ir::CompileError(expr.loc, "view() as a type of another size needs a C-contiguous "
                                     "array with at least one dimension, and '" +
                                         unparse(*expr.func) + "' is " + describe(array));
  IndexArithmetic math(at(expr.loc));
  std::vector<ir::Value *> extents, strides;
  for (unsigned d = 0; d < ndim; ++d) {
    extents.push_back(arrayExtent(array, d));
    strides.push_back(arrayStride(array, d));
  }
  if (from != to) {
    // The last axis holds its bytes in the new type: numpy raises where they do not divide
    // evenly; the trailing bytes are then left out here (docs/numba-compat.md).
    extents.back() = math.div(math.mul(extents.back(), math.constant(from)), math.constant(to));
    strides.back() = math.constant(to);
  }
  ir::Type result = ir::Type::array(*kind, ndim, type.layout(), type.memorySpace());
  return makeView(array, result, math.constant(0), extents, strides, expr.loc);
}

} // namespace kaji::frontend
