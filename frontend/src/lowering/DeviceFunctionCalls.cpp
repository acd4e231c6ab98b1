// Calls of device functions: matching the arguments to the callee's eager signatures or
// specialising it on their types, default arguments, inlining requests and returned tuples.
#include "FunctionLowerer.h"
#include "kaji/frontend/ConversionRating.h"

#include <algorithm>
#include <utility>

namespace kaji::frontend {

using ir::ScalarKind;

Operand FunctionLowerer::defaultArgument(const Expr &value, const Environment &env) {
  if (auto *name = value.as<NameExpr>()) {
    const GlobalValue *global = env.lookup(name->id);
    if (!global || global->kind != GlobalValue::Kind::Constant)
      throw ir::CompileError(value.loc, "default value '" + unparse(value) +
                                            "' must be a literal or a module-level constant");
    return resolveGlobal(*global, value.loc);
  }
  bool literal = value.as<IntLiteralExpr>() || value.as<FloatLiteralExpr>() ||
                 value.as<BoolLiteralExpr>() || value.as<NoneLiteralExpr>();
  if (auto *unary = value.as<UnaryOpExpr>())
    literal = unary->op == UnaryOperator::Minus &&
              (unary->operand->as<IntLiteralExpr>() || unary->operand->as<FloatLiteralExpr>());
  if (!literal)
    throw ir::CompileError(value.loc, "default value '" + unparse(value) +
                                          "' must be a literal or a module-level constant");
  return lower(value);
}

FunctionLowerer::CallArguments FunctionLowerer::lowerArguments(const CallExpr &expr) {
  CallArguments arguments;
  for (const ExprPtr &arg : expr.args)
    arguments.positional.push_back(lower(*arg));
  for (const Keyword &kw : expr.keywords)
    arguments.keywords.emplace_back(&kw, lower(*kw.value));
  return arguments;
}

std::vector<std::optional<Operand>>
FunctionLowerer::bindArguments(const std::string &callee, const std::vector<std::string> &names,
                               const CallArguments &arguments, const CallExpr &expr) {
  if (arguments.positional.size() > names.size())
    throw ir::CompileError(expr.loc, callee + "() takes " + std::to_string(names.size()) +
                                         " positional argument" + (names.size() == 1 ? "" : "s") +
                                         " but " + std::to_string(arguments.positional.size()) +
                                         " were given");
  std::vector<std::optional<Operand>> bound(names.size());
  for (size_t i = 0; i < arguments.positional.size(); ++i)
    bound[i] = arguments.positional[i];
  for (const auto &[kw, value] : arguments.keywords) {
    auto name = std::find(names.begin(), names.end(), kw->name);
    if (name == names.end())
      throw ir::CompileError(kw->loc,
                             callee + "() got an unexpected keyword argument '" + kw->name + "'");
    std::optional<Operand> &slot = bound[size_t(name - names.begin())];
    if (slot)
      throw ir::CompileError(kw->loc,
                             callee + "() got multiple values for argument '" + kw->name + "'");
    slot = value;
  }
  return bound;
}

Operand FunctionLowerer::callDevice(const FunctionRef &callee, const CallArguments &arguments,
                                    const CallExpr &expr) {
  const FunctionDefStmt &def = *callee.def;
  std::shared_ptr<const Environment> calleeEnv = callee.env ? callee.env : env_;
  const std::vector<Parameter> &params = def.params;
  std::vector<std::string> names;
  for (const Parameter &param : params)
    names.push_back(param.name);
  std::vector<std::optional<Operand>> bound = bindArguments(def.name, names, arguments, expr);
  std::vector<Operand> args;
  for (size_t i = 0; i < params.size(); ++i) {
    if (!bound[i]) {
      if (!params[i].defaultValue)
        throw ir::CompileError(expr.loc,
                               def.name + "() missing required argument '" + params[i].name + "'");
      bound[i] = defaultArgument(*params[i].defaultValue, *calleeEnv);
    }
    args.push_back(*bound[i]);
  }
  // An eager signature has no tuples: it fits scalar and array arguments only.
  const Signature *signature =
      callee.signatures.empty() ? nullptr : &deviceSignature(callee, args, expr);
  std::vector<ArgumentType> types;
  std::vector<ir::Value *> values;
  std::vector<ParameterStructure> structure;
  CompileTimeArguments constants(args.size());
  bool recursive = context_.isLowering(def);
  for (size_t i = 0; i < args.size(); ++i) {
    if (!signature && (constants[i] = compileTimeArgument(args[i], recursive))) {
      structure.emplace_back().tuple = true; // no leaves: it has no IR parameter
      continue;
    }
    if (signature && args[i].kind == Operand::Kind::Scalar) {
      at(expr.loc);
      types.push_back({signature->params[i], false});
      values.push_back(convert(args[i], signature->params[i].scalarKind()));
      structure.emplace_back();
      continue;
    }
    structure.push_back(flattenArgument(args[i], types, values, [&] {
      return ir::CompileError(expr.loc, "cannot pass '" + describe(args[i]) + "' as argument '" +
                                            params[i].name + "' of device function '" + def.name +
                                            "'");
    }));
  }
  bool resultDeclared = signature && !signature->resultInferred;
  ir::Function *function = context_.specialise(callee, calleeEnv, types, structure, constants,
                                               resultDeclared, expr.loc, *callees_);
  if (!function) {
    // A recursive call in a trial run before any returned: its signature says what it gives.
    const ir::Type &declared = signature->returnType;
    if (declared.isVoid())
      return Operand();
    ir::Value *zero = convert(intConstant(ScalarKind::Int64, 0), declared.scalarKind());
    if (declared.isVector())
      return Operand::vector(builder_.makeVector(declared, std::vector(declared.lanes(), zero)));
    return Operand::scalar(zero);
  }
  const ReturnTypes &returns = context_.returnsOf(function->name());
  at(expr.loc);
  // A tuple comes back through local arrays, one per leaf (FunctionLowerer.h).
  std::vector<Operand> slots;
  std::vector<ir::Type> paramTypes = function->paramTypes();
  if (paramTypes.size() > values.size()) {
    std::vector<ReturnSlot> leaves = returnSlots(*returns.value);
    for (size_t i = values.size(); i < paramTypes.size(); ++i) {
      std::vector<int64_t> shape{leaves[i - values.size()].extent};
      slots.push_back(Operand::array(
          builder_.create(ir::Opcode::LocalArray, paramTypes[i], {}, shape)->result()));
    }
  }
  for (const Operand &slot : slots)
    values.push_back(slot.value);
  ir::Operation *call =
      builder_.create(ir::Opcode::Call, function->returnType(), values, function->name());
  if (!slots.empty()) {
    size_t next = 0;
    return returnedTuple(*returns.value, slots, next);
  }
  const ir::Type &returned = function->returnType();
  if (!resultDeclared)
    return returned.isVoid()     ? Operand()
           : returned.isVector() ? Operand::vector(call->result())
                                 : Operand::scalar(call->result());
  // A number converts to the signature's type; a vector is only ever what it is, as in Numba.
  const ir::Type &declared = signature->returnType;
  if (declared.isVoid() != returned.isVoid() || declared.isArray() ||
      ((declared.isVector() || returned.isVector()) && declared != returned))
    throw ir::CompileError(expr.loc, "device function '" + def.name + "' returns " +
                                         typeString(function->returnType()) +
                                         " but its signature '" + signatureString(*signature) +
                                         "' says " + typeString(declared));
  if (declared.isVoid())
    return Operand();
  if (declared.isVector())
    return Operand::vector(call->result());
  return Operand::scalar(convert(Operand::scalar(call->result()), declared.scalarKind()));
}

namespace {

// The type of an argument of an overloaded function as its implementation is picked by:
// describe()'s text of a number, vector or array, "(a, b)" of a tuple ("(a,)" of one element),
// "none"; nullopt for anything else, which no implementation takes.
std::optional<std::string> overloadArgumentType(const Operand &arg) {
  switch (arg.kind) {
  case Operand::Kind::Scalar:
  case Operand::Kind::Array:
  case Operand::Kind::Vector:
    return typeString(arg.type());
  case Operand::Kind::None:
    return "none";
  case Operand::Kind::Tuple: {
    std::string text = "(";
    for (size_t i = 0; i < arg.elements.size(); ++i) {
      std::optional<std::string> element = overloadArgumentType(arg.elements[i]);
      if (!element)
        return std::nullopt;
      text += (i ? ", " : "") + *element;
    }
    return text + (arg.elements.size() == 1 ? ",)" : ")");
  }
  default:
    return std::nullopt;
  }
}

} // namespace

Operand FunctionLowerer::callOverloaded(const GlobalValue &callee, const CallExpr &expr) {
  CallArguments arguments = lowerArguments(expr);
  std::vector<std::string> types, keywords;
  std::string shown;
  auto add = [&](const Operand &arg, const Location &loc, const std::string &keyword) {
    std::optional<std::string> type = overloadArgumentType(arg);
    if (!type)
      throw ir::CompileError(loc, "cannot pass '" + describe(arg) + "' to '" +
                                      callee.qualifiedName +
                                      "', whose implementations (@overload) take numbers, "
                                      "vectors, arrays, tuples of them and None");
    types.push_back(*type);
    shown += (shown.empty() ? "" : ", ") + (keyword.empty() ? "" : keyword + "=") + describe(arg);
  };
  for (size_t i = 0; i < arguments.positional.size(); ++i)
    add(arguments.positional[i], expr.args[i]->loc, "");
  for (const auto &[kw, value] : arguments.keywords) {
    add(value, kw->loc, kw->name);
    keywords.push_back(kw->name);
  }
  std::optional<FunctionRef> implementation;
  try {
    implementation = callee.overloaded->implementation(types, keywords);
  } catch (const std::runtime_error &failure) {
    throw ir::CompileError(expr.loc, "picking the implementation of '" + callee.qualifiedName +
                                         "(" + shown + ")': " + failure.what());
  }
  if (!implementation)
    throw ir::CompileError(expr.loc, "No implementation of function '" + callee.qualifiedName +
                                         "' found for signature:\n >>> " + callee.qualifiedName +
                                         "(" + shown +
                                         ")\nnone of its @overload typing "
                                         "functions returned one for these argument types");
  return callDevice(*implementation, arguments, expr);
}

namespace {

// How an argument of type `arg` becomes parameter `param` of an eager signature, if it can: a
// real number converts to any real type (Numba's device calls allow unsafe conversions), a
// complex one to a complex type, a vector or fragment is exactly its type; an array needs the
// element type
// and rank, and a layout the parameter takes (any takes every layout). Arrays are never
// converted.
std::optional<Conversion> parameterConversion(const ir::Type &param, const ir::Type &arg) {
  if (param == arg)
    return Conversion::Exact;
  if (param.isArray() != arg.isArray() || param.isVector() || arg.isVector() ||
      param.isFragment() || arg.isFragment())
    return std::nullopt;
  if (param.isArray()) {
    bool accepted = param.scalarKind() == arg.scalarKind() && param.ndim() == arg.ndim() &&
                    param.layout() == ir::Layout::Any;
    return accepted ? std::optional(Conversion::Promote) : std::nullopt;
  }
  if (arg.isComplex() && !param.isComplex())
    return std::nullopt;
  return scalarConversion(param.scalarKind(), arg.scalarKind());
}

// The rating of `signature`'s conversions of `args`, or nullopt when one does not convert.
std::optional<ConversionRating> rateSignature(const Signature &signature,
                                              const std::vector<Operand> &args) {
  if (signature.params.size() != args.size())
    return std::nullopt;
  ConversionRating rating;
  for (size_t i = 0; i < args.size(); ++i) {
    std::optional<Conversion> converted = parameterConversion(signature.params[i], args[i].type());
    if (!converted)
      return std::nullopt;
    rating.add(*converted);
  }
  return rating;
}

std::string describeArguments(const std::vector<Operand> &args) {
  std::string text;
  for (size_t i = 0; i < args.size(); ++i)
    text += (i ? ", " : "") + describe(args[i]);
  return text;
}

} // namespace

// The eager signature a call of `callee` uses: the best its arguments convert to, rated as
// Numba rates overloads; of equally good ones the first declared, as Numba resolves a device
// call.
const Signature &FunctionLowerer::deviceSignature(const FunctionRef &callee,
                                                  const std::vector<Operand> &args,
                                                  const CallExpr &expr) {
  const Signature *best = nullptr;
  ConversionRating bestRating;
  for (const Signature &signature : callee.signatures) {
    std::optional<ConversionRating> rating = rateSignature(signature, args);
    if (rating && (!best || *rating < bestRating)) {
      best = &signature;
      bestRating = *rating;
    }
  }
  if (best)
    return *best;
  std::string known;
  for (const Signature &signature : callee.signatures)
    known += "\n  " + signatureString(signature);
  throw ir::CompileError(expr.loc, "device function '" + callee.def->name +
                                       "' has no signature for arguments (" +
                                       describeArguments(args) + "); it has:" + known);
}

Operand FunctionLowerer::returnedTuple(const LocalType &type, const std::vector<Operand> &slots,
                                       size_t &next) {
  if (type.kind != LocalType::Kind::Tuple) {
    const Operand &slot = slots[next++];
    auto element = [&](ScalarKind kind, unsigned index) {
      ir::Value *at = builder_.intConstant(ir::Type::scalar(ScalarKind::Int64), index);
      return builder_.create(ir::Opcode::Load, ir::Type::scalar(kind), {slot.value, at})->result();
    };
    if (type.kind != LocalType::Kind::Vector)
      return Operand::scalar(element(type.scalar.kind, 0));
    std::vector<ir::Value *> lanes;
    for (unsigned lane = 0; lane < type.vector.lanes(); ++lane)
      lanes.push_back(element(type.vector.scalarKind(), lane));
    return Operand::vector(builder_.makeVector(type.vector, std::move(lanes)));
  }
  std::vector<Operand> elements;
  for (const LocalType &element : type.elements)
    elements.push_back(returnedTuple(element, slots, next));
  Operand tuple = Operand::tuple(std::move(elements));
  tuple.tupleClass = type.tupleClass;
  tuple.fields = type.fields;
  return tuple;
}

ParameterStructure
FunctionLowerer::flattenArgument(const Operand &arg, std::vector<ArgumentType> &types,
                                 std::vector<ir::Value *> &values,
                                 const std::function<ir::CompileError()> &unsupported) {
  ParameterStructure structure;
  if (arg.kind == Operand::Kind::Scalar || arg.kind == Operand::Kind::Array ||
      arg.kind == Operand::Kind::Vector || arg.kind == Operand::Kind::Fragment) {
    types.push_back({arg.type(), arg.weak});
    values.push_back(arg.value);
    return structure;
  }
  if (arg.kind != Operand::Kind::Tuple)
    throw unsupported();
  structure.tuple = true;
  structure.tupleClass = arg.tupleClass;
  structure.fields = arg.fields;
  for (const Operand &element : arg.elements)
    structure.elements.push_back(flattenArgument(element, types, values, unsupported));
  return structure;
}

} // namespace kaji::frontend
