// The parameter types a launch compiles for: its arguments' own, or, for a kernel given
// signatures, the best of those its arguments convert to, rated as Numba rates overloads (two
// equally good ones are a TypeError, as in Numba).
#include "dispatcher.h"

#include "kaji/driver/Language.h"

#include <algorithm>
#include <optional>
#include <span>

namespace kaji::python {

namespace {

using frontend::Conversion;
using frontend::ConversionRating;

// Whether arguments shaped as `arguments` fill parameters shaped as `parameters`: the same
// tuples, a C pointer taking the int its address is passed as. An empty structure is one leaf
// per parameter.
bool sameShape(std::span<const frontend::ParameterStructure> parameters,
               std::span<const frontend::ParameterStructure> arguments) {
  auto leaf = [](const frontend::ParameterStructure &p) { return !p.tuple && !p.typeValue; };
  if (parameters.empty() || arguments.empty())
    return std::all_of(parameters.begin(), parameters.end(), leaf) &&
           std::all_of(arguments.begin(), arguments.end(), leaf);
  if (parameters.size() != arguments.size())
    return false;
  for (size_t i = 0; i < parameters.size(); ++i) {
    const frontend::ParameterStructure &p = parameters[i], &a = arguments[i];
    if (p.tuple != a.tuple || p.typeValue != a.typeValue || p.tupleClass != a.tupleClass ||
        p.fields != a.fields || p.elements.size() != a.elements.size() ||
        (p.tuple && !sameShape(p.elements, a.elements)))
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
  // The best overload; two equally good ones are ambiguous, as Numba's kernel dispatch finds.
  const frontend::Signature *best = nullptr, *tied = nullptr;
  ConversionRating bestRating;
  for (const frontend::Signature &params : eagerSignatures_) {
    bool match =
        sameShape(params.structure, structureScratch_) && params.params.size() == arguments.size();
    ConversionRating rating;
    for (size_t i = 0; match && i < arguments.size(); ++i) {
      std::optional<Conversion> converted =
          driver::launchConversion(params.params[i], arguments[i].type);
      match = converted.has_value();
      if (match)
        rating.add(*converted);
    }
    if (!match)
      continue;
    if (!best || rating < bestRating) {
      best = &params;
      bestRating = rating;
      tied = nullptr;
    } else if (!(bestRating < rating) && !tied) {
      tied = &params;
    }
  }
  if (best && tied) {
    auto spelled = [](frontend::Signature signature) { // void(...), however it was declared
      signature.resultInferred = false;
      return driver::signatureString(signature);
    };
    throw py::type_error("Ambiguous overloading for kernel '" + name() + "' with arguments " +
                         spelled(argTypes) + ": they convert as well to " + spelled(*best) +
                         " as to " + spelled(*tied) +
                         "; pass arguments of one signature's types (np.float32(x), ...)");
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
