// Python's operator module in kernels (`operator.add(a, b)`, `add = operator.add`, `from
// operator import mul`): each function is the operator it names, with the operator's rules
// (docs/sema.md), as Numba types it.
#include "FunctionLowerer.h"

#include <variant>

namespace kaji::frontend {
namespace {

// operator.truth and operator.abs beside the operators proper.
enum class Call : uint8_t { Truth, Abs };

struct OperatorFunction {
  std::string_view name;
  std::variant<BinaryOperator, CompareOperator, UnaryOperator, Call> operation;
};

constexpr OperatorFunction kOperatorFunctions[] = {
    {"add", BinaryOperator::Add},
    {"sub", BinaryOperator::Sub},
    {"mul", BinaryOperator::Mul},
    {"truediv", BinaryOperator::Div},
    {"floordiv", BinaryOperator::FloorDiv},
    {"mod", BinaryOperator::Mod},
    {"pow", BinaryOperator::Pow},
    {"and_", BinaryOperator::BitAnd},
    {"or_", BinaryOperator::BitOr},
    {"xor", BinaryOperator::BitXor},
    {"lshift", BinaryOperator::LShift},
    {"rshift", BinaryOperator::RShift},
    {"eq", CompareOperator::Eq},
    {"ne", CompareOperator::NotEq},
    {"lt", CompareOperator::Lt},
    {"le", CompareOperator::LtE},
    {"gt", CompareOperator::Gt},
    {"ge", CompareOperator::GtE},
    {"neg", UnaryOperator::Minus},
    {"pos", UnaryOperator::Plus},
    {"invert", UnaryOperator::Invert},
    {"inv", UnaryOperator::Invert},
    {"not_", UnaryOperator::Not},
    {"truth", Call::Truth},
    {"abs", Call::Abs},
};

const OperatorFunction *findOperatorFunction(std::string_view member) {
  for (const OperatorFunction &function : kOperatorFunctions)
    if (function.name == member)
      return &function;
  return nullptr;
}

} // namespace

bool isOperatorFunction(std::string_view member) { return findOperatorFunction(member); }

Operand FunctionLowerer::callOperatorFunction(const std::string &member,
                                              const std::vector<Operand> &args,
                                              const CallExpr &expr) {
  const OperatorFunction &function = *findOperatorFunction(member);
  bool binary = std::holds_alternative<BinaryOperator>(function.operation) ||
                std::holds_alternative<CompareOperator>(function.operation);
  size_t arity = binary ? 2 : 1;
  auto source = [&expr] { return unparse(expr); };
  if (args.size() != arity)
    throw ir::CompileError(expr.loc, "operator." + member + "() takes " + std::to_string(arity) +
                                         (arity == 1 ? " argument" : " arguments") + " (" +
                                         std::to_string(args.size()) + " given), in '" + source() +
                                         "'");
  if (auto op = std::get_if<BinaryOperator>(&function.operation))
    return this->binary(*op, args[0], args[1], expr.loc, source);
  if (auto op = std::get_if<CompareOperator>(&function.operation))
    return Operand::scalar(compareValues(*op, args[0], args[1], expr));
  if (auto op = std::get_if<UnaryOperator>(&function.operation))
    return unary(*op, args[0], *expr.args[0], expr.loc, source);
  if (std::get<Call>(function.operation) == Call::Truth)
    return Operand::scalar(truth(args[0], *expr.args[0]));
  return callMath("numpy.abs", args, expr);
}

} // namespace kaji::frontend
