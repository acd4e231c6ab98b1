// The parameter types a launch compiles for: its arguments' own, or, for a kernel given
// signatures, the best of those its arguments convert to, rated as Numba rates overloads.
#include "dispatcher.h"

#include "kaji/driver/Language.h"

#include <algorithm>
#include <optional>
#include <span>
#include <tuple>

namespace kaji::python {

namespace {

// How an argument becomes an eagerly compiled parameter's type, from the best to the worst, as
// Numba ranks overloads: Promote keeps every value and its kind (float32 to float64, int32 to
// int64, a C array to one of any layout), Safe keeps every value (int32 to float64), Unsafe
// may not (float64 to float32).
enum class Conversion { Exact, Promote, Safe, Unsafe };

// The bits of a scalar kind's values that a float must hold to keep them all.
unsigned significantBits(ir::ScalarKind kind) {
  switch (kind) {
  case ir::ScalarKind::Float16:
    return 11;
  case ir::ScalarKind::BFloat16:
    return 8;
  case ir::ScalarKind::Float32:
    return 24;
  case ir::ScalarKind::Float64:
    return 53;
  default:
    return ir::bitWidth(kind) - (ir::isSigned(kind) ? 1 : 0);
  }
}

// A real scalar kind to another, or a complex one's parts to another's.
Conversion realConversion(ir::ScalarKind param, ir::ScalarKind arg) {
  if (param == arg)
    return Conversion::Exact;
  bool keepsValues = significantBits(param) >= significantBits(arg) &&
                     (!ir::isInteger(param) || ir::isSigned(param) || !ir::isSigned(arg));
  // float16 and bfloat16 hold each other's values only partly.
  bool halves = ir::isHalfPrecision(param) && ir::isHalfPrecision(arg);
  if (!keepsValues || halves)
    return Conversion::Unsafe;
  bool sameFamily = ir::isFloat(param) == ir::isFloat(arg) &&
                    (ir::isFloat(param) || ir::isSigned(param) == ir::isSigned(arg));
  return sameFamily ? Conversion::Promote : Conversion::Safe;
}

// How an argument of type `arg` becomes a parameter of type `param`, if it can: arrays of the
// same element type and rank and a layout the parameter allows; any number to a float or a
// complex number, integers to integers, bool to bool.
std::optional<Conversion> conversion(const ir::Type &param, const ir::Type &arg) {
  if (param == arg)
    return Conversion::Exact;
  if (param.isArray() || arg.isArray()) {
    bool accepted = param.isArray() && arg.isArray() && param.scalarKind() == arg.scalarKind() &&
                    param.record() == arg.record() && param.ndim() == arg.ndim() &&
                    param.layout() == ir::Layout::Any;
    return accepted ? std::optional(Conversion::Promote) : std::nullopt;
  }
  if (param.isBool() || arg.isBool())
    return std::nullopt;
  if (arg.isComplex() && !param.isComplex())
    return std::nullopt;
  if (!param.isFloat() && !param.isComplex() && !arg.isInteger())
    return std::nullopt;
  Conversion parts =
      realConversion(ir::componentKind(param.scalarKind()), ir::componentKind(arg.scalarKind()));
  // A real number becomes a complex one's real part.
  if (param.isComplex() && !arg.isComplex() && parts != Conversion::Unsafe)
    return Conversion::Safe;
  return parts;
}

// An overload's conversions of a launch's arguments, compared as Numba rates them: fewer
// unsafe ones first, then fewer safe ones, then fewer promotions.
struct ConversionRating {
  unsigned unsafe = 0, safe = 0, promote = 0;
  void add(Conversion kind) {
    unsafe += kind == Conversion::Unsafe;
    safe += kind == Conversion::Safe;
    promote += kind == Conversion::Promote;
  }
  bool operator<(const ConversionRating &other) const {
    return std::tie(unsafe, safe, promote) < std::tie(other.unsafe, other.safe, other.promote);
  }
};

// Whether arguments shaped as `arguments` fill parameters shaped as `parameters`: the same
// tuples, a C pointer taking the int its address is passed as. An empty structure is one leaf
// per parameter.
bool sameShape(std::span<const frontend::ParameterStructure> parameters,
               std::span<const frontend::ParameterStructure> arguments) {
  if (parameters.empty() || arguments.empty())
    return std::none_of(parameters.begin(), parameters.end(),
                        [](const frontend::ParameterStructure &p) { return p.tuple; }) &&
           std::none_of(arguments.begin(), arguments.end(),
                        [](const frontend::ParameterStructure &a) { return a.tuple; });
  if (parameters.size() != arguments.size())
    return false;
  for (size_t i = 0; i < parameters.size(); ++i) {
    const frontend::ParameterStructure &p = parameters[i], &a = arguments[i];
    if (p.tuple != a.tuple || p.tupleClass != a.tupleClass || p.fields != a.fields ||
        p.elements.size() != a.elements.size() || (p.tuple && !sameShape(p.elements, a.elements)))
      return false;
  }
  return true;
}

} // namespace

frontend::Signature Dispatcher::launchTypes(const std::vector<Argument> &arguments) const {
  frontend::Signature argTypes{ir::Type::voidType(), {}, structureScratch_};
  for (const Argument &argument : arguments)
    argTypes.params.push_back(argument.type);
  if (eagerSignatures_.empty())
    return argTypes;
  // The best overload; of equally good ones the first declared.
  const frontend::Signature *best = nullptr;
  ConversionRating bestRating;
  for (const frontend::Signature &params : eagerSignatures_) {
    bool match =
        sameShape(params.structure, structureScratch_) && params.params.size() == arguments.size();
    ConversionRating rating;
    for (size_t i = 0; match && i < arguments.size(); ++i) {
      std::optional<Conversion> converted = conversion(params.params[i], arguments[i].type);
      match = converted.has_value();
      if (match)
        rating.add(*converted);
    }
    if (match && (!best || rating < bestRating)) {
      best = &params;
      bestRating = rating;
    }
  }
  if (best)
    return *best;
  std::string known;
  for (const frontend::Signature &params : eagerSignatures_)
    known += "\n  " + driver::signatureString(params);
  // Numba's phrase first, for code that matches it.
  throw py::type_error("No matching definition for argument type(s) of kernel '" + name() +
                       "': it has no signature for arguments " + driver::signatureString(argTypes) +
                       "; it was compiled for:" + known);
}

} // namespace kaji::python
