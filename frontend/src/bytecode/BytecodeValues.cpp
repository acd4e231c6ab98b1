#include "BytecodeValues.h"

#include "Limits.h"

#include <cmath>

namespace kaji::frontend::bytecode {

void untranslatable(const Location &loc, const std::string &function,
                    const std::string &construct) {
  throw ir::CompileError(loc, "kaji cannot compile " + construct + " in '" + function +
                                  "' from bytecode (it has no source text: it was defined by "
                                  "exec(), `python -c` or the REPL); define the kernel in a "
                                  "file");
}

namespace {

// Whether `root` or a value below it satisfies `test`; a worklist, not one call per level,
// as a chain `a + b + c ...` is as deep as it is long.
template <class Test> bool anyValue(const Value &root, Test test) {
  std::vector<const Value *> pending{&root};
  while (!pending.empty()) {
    const Value *value = pending.back();
    pending.pop_back();
    if (test(*value))
      return true;
    for (const ValuePtr &operand : value->operands)
      if (operand)
        pending.push_back(operand.get());
  }
  return false;
}

} // namespace

bool reads(const Value &value, const std::string &name) {
  return anyValue(value,
                  [&](const Value &v) { return v.kind == ValueKind::Name && v.name == name; });
}

bool calls(const Value &value) {
  return anyValue(value, [](const Value &v) { return v.kind == ValueKind::Call; });
}

ValuePtr joinComparisonChains(ValuePtr boolOp) {
  if (boolOp->boolOp != BoolOpExpr::Op::And)
    return boolOp;
  std::vector<ValuePtr> joined;
  for (const ValuePtr &operand : boolOp->operands) {
    if (!joined.empty() && joined.back()->kind == ValueKind::Compare &&
        operand->kind == ValueKind::Compare &&
        joined.back()->operands.back() == operand->operands.front()) {
      auto chain = std::make_shared<Value>(*joined.back());
      chain->compares.insert(chain->compares.end(), operand->compares.begin(),
                             operand->compares.end());
      chain->operands.insert(chain->operands.end(), operand->operands.begin() + 1,
                             operand->operands.end());
      joined.back() = chain;
      continue;
    }
    joined.push_back(operand);
  }
  if (joined.size() == 1)
    return joined.front();
  auto result = std::make_shared<Value>(*boolOp);
  result->operands = std::move(joined);
  return result;
}

namespace {

ExprPtr negated(ExprPtr operand, const Location &loc) {
  return std::make_unique<UnaryOpExpr>(loc, UnaryOperator::Minus, std::move(operand));
}

// A float literal (`2.5`, `2.5j`): its magnitude, negated where the sign is set (-0.0 too).
ExprPtr floatLiteral(double value, const Location &loc, bool imaginary = false) {
  ExprPtr literal = std::make_unique<FloatLiteralExpr>(loc, std::fabs(value), imaginary);
  return std::signbit(value) ? negated(std::move(literal), loc) : std::move(literal);
}

// The complex (re, im) as written in the source CPython folds such a constant from: `2j`,
// `1.5 + 2j`, `1.5 - 2j`; null where none of these is exact. Python (and kaji) add a real
// operand as (r, +0.0), so `r + xj` loses the sign of r = -0.0 (-0.0 + 0.0 is +0.0) and
// `r - xj` that of x = 0 (0.0 - 0.0 is +0.0).
ExprPtr writtenComplex(double re, double im, const Location &loc) {
  bool minusZeroReal = re == 0 && std::signbit(re);
  auto imaginary = [&] { return std::make_unique<FloatLiteralExpr>(loc, std::fabs(im), true); };
  if (!std::signbit(im) && re == 0 && !minusZeroReal)
    return imaginary();
  if (!std::signbit(im) && !minusZeroReal)
    return std::make_unique<BinOpExpr>(loc, BinaryOperator::Add, floatLiteral(re, loc),
                                       imaginary());
  if (std::signbit(im) && im != 0)
    return std::make_unique<BinOpExpr>(loc, BinaryOperator::Sub, floatLiteral(re, loc),
                                       imaginary());
  return nullptr;
}

// A complex constant as source text would compute it exactly: `-2j` is (-0.0, -2.0), the
// negation of `2j`, and any other without a written form of its own is the negation of one.
ExprPtr complexExpr(double re, double im, const Location &loc, const std::string &function) {
  bool negation = re == 0 && std::signbit(re) && std::signbit(im);
  for (bool negate : {negation, !negation})
    if (ExprPtr written = writtenComplex(negate ? -re : re, negate ? -im : im, loc))
      return negate ? negated(std::move(written), loc) : std::move(written);
  untranslatable(loc, function, "a complex constant whose zero parts have opposite signs");
}

ExprPtr toExprAt(const Value &value, const std::string &function, unsigned nesting);

std::vector<ExprPtr> operandExprs(const Value &value, size_t first, size_t end,
                                  const std::string &function, unsigned nesting) {
  std::vector<ExprPtr> result;
  for (size_t i = first; i < end; ++i)
    result.push_back(toExprAt(*value.operands[i], function, nesting + 1));
  return result;
}

// `value`, a BinOp (or the InPlace of `x += ...`), and the BinOps down its first operands as
// one left-leaning chain, built in a loop: it is one level of nesting, as in source text.
ExprPtr chainExpr(const Value &value, const std::string &function, unsigned nesting) {
  std::vector<const Value *> chain{&value};
  while (chain.back()->operands[0]->kind == ValueKind::BinOp)
    chain.push_back(chain.back()->operands[0].get());
  ExprPtr result = toExprAt(*chain.back()->operands[0], function, nesting + 1);
  for (auto operation = chain.rbegin(); operation != chain.rend(); ++operation)
    result =
        std::make_unique<BinOpExpr>((*operation)->loc, (*operation)->binary, std::move(result),
                                    toExprAt(*(*operation)->operands[1], function, nesting + 1));
  return result;
}

// `value` at `nesting` levels deep, counted as the parser counts them, with the same limit.
ExprPtr toExprAt(const Value &value, const std::string &function, unsigned nesting) {
  const Location &loc = value.loc;
  if (nesting > kMaxExpressionNesting)
    throw ir::CompileError(loc, kExpressionNestingError);
  auto operand = [&](size_t i) -> ExprPtr {
    return value.operands[i] ? toExprAt(*value.operands[i], function, nesting + 1) : nullptr;
  };
  auto operands = [&](size_t first, size_t end) {
    return operandExprs(value, first, end, function, nesting);
  };
  switch (value.kind) {
  case ValueKind::Name:
    return std::make_unique<NameExpr>(loc, value.name);
  case ValueKind::Constant:
    return constantExpr(*value.constant, loc, function);
  case ValueKind::BinOp:
  case ValueKind::InPlace:
    return chainExpr(value, function, nesting);
  case ValueKind::Unary:
    return std::make_unique<UnaryOpExpr>(loc, value.unary, operand(0));
  case ValueKind::Compare:
    return std::make_unique<CompareExpr>(loc, operand(0), value.compares,
                                         operands(1, value.operands.size()));
  case ValueKind::BoolOp:
    return std::make_unique<BoolOpExpr>(loc, value.boolOp, operands(0, value.operands.size()));
  case ValueKind::IfExp:
    return std::make_unique<IfExpExpr>(loc, operand(0), operand(1), operand(2));
  case ValueKind::Call: {
    size_t positional = value.operands.size() - value.keywords.size();
    std::vector<Keyword> keywords;
    for (size_t i = 0; i < value.keywords.size(); ++i)
      keywords.push_back(
          Keyword{value.operands[positional + i]->loc, value.keywords[i], operand(positional + i)});
    return std::make_unique<CallExpr>(loc, operand(0), operands(1, positional),
                                      std::move(keywords));
  }
  case ValueKind::Subscript:
    return std::make_unique<SubscriptExpr>(loc, operand(0), operand(1));
  case ValueKind::Slice:
    return std::make_unique<SliceExpr>(loc, operand(0), operand(1), operand(2));
  case ValueKind::Attribute:
    return std::make_unique<AttributeExpr>(loc, operand(0), value.name);
  case ValueKind::Tuple:
    return std::make_unique<TupleExpr>(loc, operands(0, value.operands.size()));
  case ValueKind::List:
    return std::make_unique<ListExpr>(loc, operands(0, value.operands.size()));
  case ValueKind::LoopValue:
    return std::make_unique<NameExpr>(loc, kLoopValueName);
  case ValueKind::Null:
  case ValueKind::Iterator:
  case ValueKind::Unpacked:
    break;
  }
  untranslatable(loc, function, "this use of the interpreter's stack");
}

} // namespace

ExprPtr constantExpr(const BytecodeConstant &constant, const Location &loc,
                     const std::string &function) {
  switch (constant.kind) {
  case BytecodeConstant::Kind::None:
    return std::make_unique<NoneLiteralExpr>(loc);
  case BytecodeConstant::Kind::Bool:
    return std::make_unique<BoolLiteralExpr>(loc, constant.magnitude != 0);
  case BytecodeConstant::Kind::Int: {
    ExprPtr literal = std::make_unique<IntLiteralExpr>(loc, constant.magnitude);
    return constant.negative ? negated(std::move(literal), loc) : std::move(literal);
  }
  case BytecodeConstant::Kind::Float:
    return floatLiteral(constant.floatValue, loc);
  case BytecodeConstant::Kind::Complex:
    return complexExpr(constant.floatValue, constant.imagValue, loc, function);
  case BytecodeConstant::Kind::String:
    return std::make_unique<StringLiteralExpr>(loc, constant.text);
  case BytecodeConstant::Kind::Tuple: {
    std::vector<ExprPtr> elements;
    for (const BytecodeConstant &element : constant.elements)
      elements.push_back(constantExpr(element, loc, function));
    return std::make_unique<TupleExpr>(loc, std::move(elements));
  }
  case BytecodeConstant::Kind::Unsupported:
    break;
  }
  untranslatable(loc, function, "a constant of type '" + constant.text + "'");
}

ExprPtr toExpr(const Value &value, const std::string &function) {
  return toExprAt(value, function, 1);
}

std::string unparsed(const Value &value, const std::string &function) {
  return unparse(*toExpr(value, function));
}

} // namespace kaji::frontend::bytecode
