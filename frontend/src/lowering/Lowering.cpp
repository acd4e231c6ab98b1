// Entry point of Sema + IRGen: type inference by lowering to a fixed point, and the
// specialisation of device functions on their argument types.
#include "kaji/frontend/Lowering.h"

#include "FunctionLowerer.h"

#include "kaji/abi/KernelABI.h"
#include "kaji/frontend/Signature.h"
#include "kaji/ir/Constants.h"

#include <algorithm>
#include <functional>

namespace kaji::frontend {
namespace {

// Each run lowers with the types the previous run observed, starting from nothing; the
// lattice of types is shallow, so a function that has not settled after this many runs has
// a bug worth reporting, not a hang.
constexpr int kMaxInferenceRuns = 32;

// How many specialisations of one function may be lowered inside each other: a recursive
// function that calls itself with ever new argument types (growing tuples) would never end.
constexpr size_t kMaxNestedSpecialisations = 16;

// The bytes of the kernel's flattened parameters (abi/KernelABI.h), each aligned to its size:
// an array is its data pointer, then ndim shape and ndim strides, 8 bytes each; a complex
// number its two parts; another scalar its own size (bool one byte).
uint64_t kernelParameterBytes(const std::vector<ir::Type> &argTypes) {
  uint64_t bytes = 0;
  for (const ir::Type &type : argTypes) {
    uint64_t size = type.isArray() ? 8 : ir::byteSize(ir::componentKind(type.scalarKind()));
    uint64_t count = type.isArray() ? 1 + 2 * uint64_t(type.ndim()) : type.isComplex() ? 2 : 1;
    bytes = (bytes + size - 1) / size * size + size * count;
  }
  return bytes;
}

// An argument's type in a mangled name: `f32`, `f32w` for a weak literal, a vector's lane
// count and type (`v4f32`), an array's dtype, rank, layout and (outside global memory) memory
// space: `a2f32c`, `a1f32cl`; an array of vectors has its elements' lanes: `a1v4f32cl`; a
// fragment `F`, its use, shape, element and layout: `Faccm16n16k16f32`, `Fam16n16k16bf16r`.
std::string mangledType(const ArgumentType &arg) {
  if (arg.type.isFragment())
    return std::string("F") + std::string(ir::matrixUseName(arg.type.matrixUse())) +
           std::string(ir::matrixShapeName(arg.type.matrixShape())) +
           std::string(ir::irName(arg.type.scalarKind())) +
           (arg.type.layout() == ir::Layout::Any ? ""
            : arg.type.layout() == ir::Layout::C ? "r"
                                                 : "c");
  // A vector's lanes, then its lane type; an array of them has its elements'.
  std::string element(ir::irName(arg.type.scalarKind()));
  if (arg.type.isVector() || arg.type.isVectorArray())
    element = 'v' + std::to_string(arg.type.lanes()) + element;
  if (arg.type.isVector())
    return element;
  if (!arg.type.isArray())
    return element + (arg.weak ? "w" : "");
  static const char layouts[] = {'c', 'f', 'a'};
  std::string mangled =
      'a' + std::to_string(arg.type.ndim()) + element + layouts[int(arg.type.layout())];
  static const char spaces[] = {'g', 's', 'l', 'k'};
  if (arg.type.memorySpace() != ir::MemorySpace::Global)
    mangled += spaces[int(arg.type.memorySpace())];
  return mangled;
}

// `add__f32_f32`: the name, then each parameter's type; a tuple parameter is `T` (and a
// namedtuple's class), its elements, `_E`; a C pointer `P` and its element type; a
// compile-time argument `K` and its value.
std::string mangle(const std::string &name, const std::vector<ArgumentType> &args,
                   const std::vector<ParameterStructure> &structure,
                   const CompileTimeArguments &constants) {
  std::string mangled = name + "_";
  size_t leaf = 0;
  std::function<void(const ParameterStructure &)> parameter = [&](const ParameterStructure &p) {
    mangled += '_';
    if (p.typeValue) { // no leaf
      mangled += 'C' + std::string(ir::numpyName(*p.typeValue));
      return;
    }
    if (p.pointee) { // its leaf is the address
      mangled += 'P' + mangledType(ArgumentType{*p.pointee});
      ++leaf;
      return;
    }
    if (!p.tuple) {
      mangled += mangledType(args[leaf++]);
      return;
    }
    mangled += 'T' + p.tupleClass;
    for (const ParameterStructure &element : p.elements)
      parameter(element);
    mangled += "_E";
  };
  for (size_t i = 0; i < structure.size(); ++i) {
    if (i < constants.size() && constants[i])
      mangled += "_K" + constants[i]->mangled;
    else
      parameter(structure[i]);
  }
  return mangled;
}

} // namespace

std::string describe(const Operand &operand) {
  switch (operand.kind) {
  case Operand::Kind::Scalar:
    if (operand.enumMember)
      return "enum member '" + operand.enumMember->enumClass + "." +
             operand.enumMember->enumMember + "'";
    return typeString(operand.type());
  case Operand::Kind::Array:
  case Operand::Kind::Vector:
  case Operand::Kind::Fragment:
    return typeString(operand.type());
  case Operand::Kind::Tuple: {
    std::string text = (operand.tupleClass.empty() ? "tuple" : operand.tupleClass) + "(";
    for (size_t i = 0; i < operand.elements.size(); ++i)
      text += (i ? ", " : "") + (operand.fields.empty() ? "" : operand.fields[i] + "=") +
              describe(operand.elements[i]);
    return text + ")";
  }
  case Operand::Kind::None:
    return "None";
  case Operand::Kind::String:
    return "str";
  case Operand::Kind::Module:
    return "module '" + operand.name + "'";
  case Operand::Kind::Namespace:
    return "module '" + operand.global->qualifiedName + "'";
  case Operand::Kind::Builtin:
    return "function '" + operand.name + "'";
  case Operand::Kind::Function:
    return "function '" + operand.function.def->name + "'";
  case Operand::Kind::TupleClass:
    return "class '" + operand.tupleClass + "'";
  case Operand::Kind::EnumClass:
    return "enum class '" + operand.global->qualifiedName + "'";
  case Operand::Kind::External:
    return "CUDA C++ device function '" + operand.global->externalName + "'";
  case Operand::Kind::RecordType:
    return "record type '" + operand.global->qualifiedName + "'";
  case Operand::Kind::Overloaded:
    return "function '" + operand.global->qualifiedName + "'";
  }
  return "?";
}

std::string numbaTypeName(const Operand &operand) {
  switch (operand.kind) {
  case Operand::Kind::Scalar: {
    ir::ScalarKind kind = operand.type().scalarKind();
    std::optional<int64_t> literal = operand.weak && !ir::isFloat(kind) && !operand.enumMember
                                         ? ir::intConstant(operand.value)
                                         : std::nullopt;
    if (literal && kind == ir::ScalarKind::Bool)
      return std::string("Literal[bool](") + (*literal ? "True" : "False") + ")";
    if (literal)
      return "Literal[int](" + std::to_string(*literal) + ")";
    return std::string(ir::numpyName(kind));
  }
  case Operand::Kind::Array: {
    const ir::Type &type = operand.type();
    if (type.record())
      break;
    const char *layout = type.layout() == ir::Layout::C   ? "C"
                         : type.layout() == ir::Layout::F ? "F"
                                                          : "A";
    return "array(" + std::string(ir::numpyName(type.scalarKind())) + ", " +
           std::to_string(type.ndim()) + "d, " + layout + ")";
  }
  case Operand::Kind::Tuple: {
    if (!operand.tupleClass.empty())
      break;
    std::vector<std::string> elements;
    for (const Operand &element : operand.elements)
      elements.push_back(numbaTypeName(element));
    if (!elements.empty() && std::all_of(elements.begin(), elements.end(),
                                         [&](const std::string &e) { return e == elements[0]; }))
      return "UniTuple(" + elements[0] + " x " + std::to_string(elements.size()) + ")";
    std::string text;
    for (const std::string &element : elements)
      text += (text.empty() ? "" : ", ") + element;
    return "Tuple(" + text + ")";
  }
  case Operand::Kind::Builtin:
    if (operand.name.starts_with("numpy.") && operand.elements.empty())
      return "class(" + operand.name.substr(6) + ")";
    break;
  default:
    break;
  }
  return describe(operand);
}

namespace {

bool anyReturn(const ReturnTypes &returns) { return returns.value || returns.none; }

} // namespace

ir::Function *LoweringContext::lower(const FunctionRef &fn, std::shared_ptr<const Environment> env,
                                     const std::vector<ArgumentType> &args,
                                     const std::vector<ParameterStructure> &structure,
                                     const CompileTimeArguments &constants, ir::Function::Kind kind,
                                     const std::string &name, ir::Module &target) {
  const FunctionDefStmt &def = *fn.def;
  if (std::count_if(active_.begin(), active_.end(), [&](const ActiveFunction &active) {
        return active.def == &def;
      }) >= ptrdiff_t(kMaxNestedSpecialisations))
    throw ir::CompileError(def.loc, "'" + def.name +
                                        "' calls itself with ever new argument types; give its "
                                        "recursive calls the types of its parameters");
  active_.push_back({name, &def});
  // A PendingRecursion of an outer function passes through this one.
  struct Pop {
    std::vector<ActiveFunction> &active;
    ~Pop() { active.pop_back(); }
  } pop{active_};
  FunctionTypes guess;
  for (int run = 0;; ++run) {
    if (run == kMaxInferenceRuns)
      throw ir::CompileError(def.loc, "the types of the variables of '" + def.name +
                                          "' do not settle; please report this");
    // What recursive calls return in this run: what the previous run saw.
    returns_.insert_or_assign(name, guess.returns);
    ir::Module trial;
    FunctionLowerer lowerer(*this, fn, env, kind, guess, trial, scratch_);
    lowerer.run(args, structure, constants, name);
    const FunctionTypes &next = lowerer.observed();
    if (lowerer.pendingRecursion() && !anyReturn(next.returns))
      throw ir::CompileError(
          *lowerer.pendingRecursion(),
          "recursion without a signature: cannot type infer runaway recursion, as every "
          "return of '" +
              def.name +
              "' depends on what its recursive call returns; give it a "
              "signature (@jit(\"int64(int64)\", device=True)) or a "
              "return that does not call it");
    if (next == guess)
      break;
    guess = next;
  }
  returns_.insert_or_assign(name, guess.returns);
  locals_.insert_or_assign(name, guess.locals);
  return FunctionLowerer(*this, fn, env, kind, guess, target, target)
      .run(args, structure, constants, name);
}

ir::Function *LoweringContext::specialise(const FunctionRef &callee,
                                          std::shared_ptr<const Environment> env,
                                          const std::vector<ArgumentType> &args,
                                          const std::vector<ParameterStructure> &structure,
                                          const CompileTimeArguments &constants,
                                          bool resultDeclared, const Location &callLoc,
                                          ir::Module &target) {
  std::string name = mangle(functionKey(callee.def), args, structure, constants);
  for (const ActiveFunction &active : active_) {
    if (active.name != name)
      continue;
    if (anyReturn(returns_.at(name)))
      return active.function;
    if (resultDeclared)
      return nullptr;
    throw PendingRecursion{name, callLoc};
  }
  if (ir::Function *existing = target.lookup(name))
    return existing;
  return lower(callee, std::move(env), args, structure, constants, ir::Function::Kind::Device, name,
               target);
}

std::string LoweringContext::functionKey(const FunctionDefStmt *def) {
  if (auto known = functionKeys_.find(def); known != functionKeys_.end())
    return known->second;
  size_t sameName = std::count_if(functionKeys_.begin(), functionKeys_.end(),
                                  [&](const auto &key) { return key.first->name == def->name; });
  std::string key = def->name;
  if (sameName)
    key.append(".").append(std::to_string(sameName + 1));
  functionKeys_.emplace(def, key);
  return key;
}

namespace {

// Lowers `fn` as lowerFunction does, in `context`; returns the function and its IR name.
std::pair<ir::Function *, std::string>
lowerTopLevel(LoweringContext &context, const FunctionRef &fn,
              const std::vector<ir::Type> &argTypes, ir::Function::Kind kind, ir::Module &out,
              const std::vector<ParameterStructure> &structure) {
  if (kind == ir::Function::Kind::Kernel) {
    uint64_t bytes = kernelParameterBytes(argTypes);
    if (bytes > abi::kMaxKernelParameterBytes)
      throw ir::CompileError(fn.def->loc, "kernel '" + fn.def->name + "' takes " +
                                              std::to_string(bytes) +
                                              " bytes of parameters, over CUDA's limit of " +
                                              std::to_string(abi::kMaxKernelParameterBytes));
  }
  std::vector<ArgumentType> args;
  for (const ir::Type &type : argTypes)
    args.push_back({type, false});
  auto env = fn.env ? fn.env : std::make_shared<const Environment>();
  std::string name = fn.def->name;
  std::vector<ParameterStructure> parameters =
      structure.empty() ? leafParameters(args.size()) : structure;
  if (kind == ir::Function::Kind::Device)
    name = mangle(context.functionKey(fn.def), args, parameters, {});
  ir::Function *function = context.lower(fn, std::move(env), args, parameters, {}, kind, name, out);
  return {function, name};
}

} // namespace

ir::Function *lowerFunction(const FunctionRef &fn, const std::vector<ir::Type> &argTypes,
                            ir::Function::Kind kind, ir::Module &out,
                            const LoweringOptions &options,
                            const std::vector<ParameterStructure> &structure) {
  LoweringContext context(out, options);
  return lowerTopLevel(context, fn, argTypes, kind, out, structure).first;
}

std::vector<std::pair<std::string, std::string>>
localVariableTypes(const FunctionRef &fn, const std::vector<ir::Type> &argTypes,
                   ir::Function::Kind kind, const LoweringOptions &options,
                   const std::vector<ParameterStructure> &structure) {
  ir::Module scratch;
  LoweringContext context(scratch, options);
  std::string name = lowerTopLevel(context, fn, argTypes, kind, scratch, structure).second;
  std::vector<std::pair<std::string, std::string>> types;
  for (const auto &[variable, type] : context.localsOf(name))
    types.emplace_back(variable, typeText(type));
  return types;
}

} // namespace kaji::frontend
