// Compile-time arguments of device functions: values that have no IR form (functions,
// builtins, types, modules, classes, None), constants that decide control flow or shapes
// (Python int and bool literals, enum members) and tuples of them (`(4, 8)` passed as a
// shared array's shape). The callee is specialised on each such value, as Numba specialises
// on a first-class function or a literal and Triton on a constexpr.
#include "FunctionLowerer.h"

#include <cctype>

namespace kaji::frontend {
namespace {

// `tag`, then `text` as a part of an IR function name, which takes letters, digits, `_`, `.`
// and `$`.
std::string tagged(char tag, const std::string &text) {
  std::string safe(1, tag);
  for (char c : text)
    safe += std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' ? c : '$';
  return safe;
}

} // namespace

std::optional<CompileTimeArgument> FunctionLowerer::compileTimeArgument(const Operand &arg,
                                                                        bool literalsAsValues) {
  CompileTimeArgument constant;
  constant.value = arg;
  switch (arg.kind) {
  case Operand::Kind::Function:
    constant.mangled = tagged('F', context_.functionKey(arg.function.def));
    return constant;
  case Operand::Kind::Builtin:
    if (!arg.elements.empty())
      return std::nullopt; // a method bound to a run-time value (`x.bit_count`)
    constant.mangled = tagged('B', arg.name);
    return constant;
  case Operand::Kind::Module:
    constant.mangled = tagged('M', arg.name);
    return constant;
  case Operand::Kind::TupleClass:
    constant.mangled = tagged('C', arg.tupleClass);
    return constant;
  case Operand::Kind::EnumClass:
    constant.mangled = tagged('E', arg.global->qualifiedName);
    return constant;
  case Operand::Kind::Overloaded:
    constant.mangled = tagged('O', arg.global->overloaded->fingerprint);
    return constant;
  case Operand::Kind::None:
    constant.mangled = tagged('N', {});
    return constant;
  case Operand::Kind::String: { // its bytes in hex: distinct strings stay distinct names
    static const char digits[] = "0123456789abcdef";
    std::string hex;
    for (unsigned char c : arg.name)
      hex.append({digits[c >> 4], digits[c & 15]});
    constant.mangled = tagged('S', hex);
    return constant;
  }
  case Operand::Kind::Tuple: {
    // Every element one, or the tuple is passed at run time.
    if (arg.elements.empty())
      return std::nullopt;
    constant.mangled = tagged('T', std::to_string(arg.elements.size()));
    for (const Operand &element : arg.elements) {
      std::optional<CompileTimeArgument> part = compileTimeArgument(element, literalsAsValues);
      if (!part)
        return std::nullopt;
      constant.mangled += part->mangled;
      constant.elements.push_back(std::move(*part));
    }
    return constant;
  }
  case Operand::Kind::Scalar:
    break;
  default:
    return std::nullopt;
  }
  if (arg.enumMember) {
    constant.mangled = tagged('E', arg.enumMember->enumClass + "." + arg.enumMember->enumMember);
    return constant;
  }
  // A Python int or bool literal (or an expression of them): its value decides, as a
  // literal does in Numba. Floats and typed scalars are specialised on their type only.
  // A recursive call passes it as a weak value instead, as Numba widens a literal type to its
  // plain one where recursion starts: one specialisation per value would never close a
  // recursion such as fact(n - 1) (fact(20) would nest 20 specialisations).
  std::optional<int64_t> literal = constantInt(arg);
  if (!arg.weak || !literal || arg.wideInteger || literalsAsValues)
    return std::nullopt;
  constant.literal = *literal;
  constant.literalType = arg.type().scalarKind();
  constant.value.value = nullptr;
  constant.mangled = tagged('L', std::string(ir::irName(constant.literalType)));
  constant.mangled.append(*literal < 0 ? "_n" : "_")
      .append(std::to_string(*literal < 0 ? -uint64_t(*literal) : uint64_t(*literal)));
  return constant;
}

Operand FunctionLowerer::compileTimeValue(const CompileTimeArgument &constant) {
  const Operand &value = constant.value;
  if (value.kind == Operand::Kind::Tuple) {
    Operand tuple = value;
    for (size_t i = 0; i < constant.elements.size(); ++i)
      tuple.elements[i] = compileTimeValue(constant.elements[i]);
    return tuple;
  }
  if (value.kind != Operand::Kind::Scalar)
    return value;
  if (value.enumMember)
    return resolveGlobal(*value.enumMember, fn_.def->loc);
  at(fn_.def->loc);
  return intConstant(constant.literalType, constant.literal, /*weak=*/true);
}

} // namespace kaji::frontend
