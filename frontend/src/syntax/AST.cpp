#include "kaji/frontend/AST.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace kaji::frontend {

BinOpExpr::~BinOpExpr() {
  ExprPtr inner = std::move(lhs);
  while (inner && inner->kind == ExprKind::BinOp) {
    ExprPtr next = std::move(static_cast<BinOpExpr &>(*inner).lhs);
    inner = std::move(next); // frees the previous operation, its lhs taken
  }
}

std::vector<const BinOpExpr *> leftChain(const BinOpExpr &last) {
  std::vector<const BinOpExpr *> chain{&last};
  while (const auto *inner = chain.back()->lhs->as<BinOpExpr>())
    chain.push_back(inner);
  std::reverse(chain.begin(), chain.end());
  return chain;
}

const char *spelling(BinaryOperator op) {
  switch (op) {
  case BinaryOperator::Add:
    return "+";
  case BinaryOperator::Sub:
    return "-";
  case BinaryOperator::Mul:
    return "*";
  case BinaryOperator::Div:
    return "/";
  case BinaryOperator::FloorDiv:
    return "//";
  case BinaryOperator::Mod:
    return "%";
  case BinaryOperator::Pow:
    return "**";
  case BinaryOperator::MatMul:
    return "@";
  case BinaryOperator::LShift:
    return "<<";
  case BinaryOperator::RShift:
    return ">>";
  case BinaryOperator::BitAnd:
    return "&";
  case BinaryOperator::BitOr:
    return "|";
  case BinaryOperator::BitXor:
    return "^";
  }
  return "?";
}

const char *spelling(UnaryOperator op) {
  switch (op) {
  case UnaryOperator::Not:
    return "not";
  case UnaryOperator::Invert:
    return "~";
  case UnaryOperator::Plus:
    return "+";
  case UnaryOperator::Minus:
    return "-";
  }
  return "?";
}

const char *spelling(CompareOperator op) {
  switch (op) {
  case CompareOperator::Eq:
    return "==";
  case CompareOperator::NotEq:
    return "!=";
  case CompareOperator::Lt:
    return "<";
  case CompareOperator::LtE:
    return "<=";
  case CompareOperator::Gt:
    return ">";
  case CompareOperator::GtE:
    return ">=";
  case CompareOperator::Is:
    return "is";
  case CompareOperator::IsNot:
    return "is not";
  case CompareOperator::In:
    return "in";
  case CompareOperator::NotIn:
    return "not in";
  }
  return "?";
}

namespace {

// Python's operator precedence, loosest first (as in CPython's ast.unparse).
enum Precedence : int {
  Tuple,
  Test, // `x if c else y`
  Or,
  And,
  Not,
  Compare,
  BitOr,
  BitXor,
  BitAnd,
  Shift,
  Arith,
  Term,
  Factor, // unary + - ~
  Power,
  Atom,
};

Precedence binaryPrecedence(BinaryOperator op) {
  switch (op) {
  case BinaryOperator::BitOr:
    return BitOr;
  case BinaryOperator::BitXor:
    return BitXor;
  case BinaryOperator::BitAnd:
    return BitAnd;
  case BinaryOperator::LShift:
  case BinaryOperator::RShift:
    return Shift;
  case BinaryOperator::Add:
  case BinaryOperator::Sub:
    return Arith;
  case BinaryOperator::Pow:
    return Power;
  default:
    return Term;
  }
}

Precedence next(Precedence p) { return static_cast<Precedence>(p + 1); }

std::string floatRepr(double value) {
  if (std::isinf(value))
    return value > 0 ? "1e309" : "-1e309";
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  std::string text(buffer, result.ptr);
  if (text.find_first_of(".en") == std::string::npos)
    text += ".0";
  return text;
}

std::string stringRepr(const std::string &value) {
  char quote =
      value.find('\'') != std::string::npos && value.find('"') == std::string::npos ? '"' : '\'';
  std::string out(1, quote);
  for (char c : value) {
    switch (c) {
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      if (c == quote) {
        out += '\\';
        out += c;
      } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {
        char escape[8];
        std::snprintf(escape, sizeof escape, "\\x%02x", static_cast<unsigned char>(c));
        out += escape;
      } else {
        out += c;
      }
    }
  }
  out += quote;
  return out;
}

class Unparser {
public:
  std::string text;

  void emit(const Expr &e, Precedence context) {
    Precedence own = precedenceOf(e);
    bool parenthesise = own < context;
    if (parenthesise)
      text += '(';
    emitBare(e);
    if (parenthesise)
      text += ')';
  }

private:
  static Precedence precedenceOf(const Expr &e) {
    switch (e.kind) {
    case ExprKind::BinOp:
      return binaryPrecedence(e.as<BinOpExpr>()->op);
    case ExprKind::UnaryOp:
      return e.as<UnaryOpExpr>()->op == UnaryOperator::Not ? Not : Factor;
    case ExprKind::BoolOp:
      return e.as<BoolOpExpr>()->op == BoolOpExpr::Op::Or ? Or : And;
    case ExprKind::Compare:
      return Compare;
    case ExprKind::IfExp:
      return Test;
    case ExprKind::Slice:
      return Tuple;
    default:
      return Atom;
    }
  }

  void emitList(const std::vector<ExprPtr> &elements) {
    for (size_t i = 0; i < elements.size(); ++i) {
      if (i)
        text += ", ";
      emit(*elements[i], Test);
    }
  }

  void emitBare(const Expr &e) {
    switch (e.kind) {
    case ExprKind::Name:
      text += e.as<NameExpr>()->id;
      return;
    case ExprKind::IntLiteral:
      text += std::to_string(e.as<IntLiteralExpr>()->value);
      return;
    case ExprKind::FloatLiteral:
      text += floatRepr(e.as<FloatLiteralExpr>()->value);
      if (e.as<FloatLiteralExpr>()->imaginary)
        text += "j";
      return;
    case ExprKind::BoolLiteral:
      text += e.as<BoolLiteralExpr>()->value ? "True" : "False";
      return;
    case ExprKind::NoneLiteral:
      text += "None";
      return;
    case ExprKind::StringLiteral:
      text += stringRepr(e.as<StringLiteralExpr>()->value);
      return;
    case ExprKind::BinOp:
      emitChain(leftChain(*e.as<BinOpExpr>()));
      return;
    case ExprKind::UnaryOp: {
      const auto *unary = e.as<UnaryOpExpr>();
      text += spelling(unary->op);
      if (unary->op == UnaryOperator::Not)
        text += ' ';
      emit(*unary->operand, unary->op == UnaryOperator::Not ? Not : Factor);
      return;
    }
    case ExprKind::BoolOp: {
      const auto *boolOp = e.as<BoolOpExpr>();
      Precedence own = precedenceOf(e);
      for (size_t i = 0; i < boolOp->values.size(); ++i) {
        if (i)
          text += own == Or ? " or " : " and ";
        emit(*boolOp->values[i], next(own));
      }
      return;
    }
    case ExprKind::Compare: {
      const auto *compare = e.as<CompareExpr>();
      emit(*compare->left, BitOr);
      for (size_t i = 0; i < compare->ops.size(); ++i) {
        text += std::string(" ") + spelling(compare->ops[i]) + " ";
        emit(*compare->comparators[i], BitOr);
      }
      return;
    }
    case ExprKind::IfExp: {
      const auto *ifExp = e.as<IfExpExpr>();
      emit(*ifExp->body, Or);
      text += " if ";
      emit(*ifExp->test, Or);
      text += " else ";
      emit(*ifExp->orelse, Test);
      return;
    }
    case ExprKind::Call: {
      const auto *call = e.as<CallExpr>();
      emit(*call->func, Atom);
      text += '(';
      emitList(call->args);
      for (size_t i = 0; i < call->keywords.size(); ++i) {
        if (i || !call->args.empty())
          text += ", ";
        text += call->keywords[i].name + "=";
        emit(*call->keywords[i].value, Test);
      }
      text += ')';
      return;
    }
    case ExprKind::Subscript: {
      const auto *subscript = e.as<SubscriptExpr>();
      emit(*subscript->value, Atom);
      text += '[';
      const auto *tuple = subscript->index->as<TupleExpr>();
      if (tuple && !tuple->elts.empty()) {
        for (size_t i = 0; i < tuple->elts.size(); ++i) {
          if (i)
            text += ", ";
          emitSubscriptItem(*tuple->elts[i]);
        }
        if (tuple->elts.size() == 1)
          text += ',';
      } else {
        emitSubscriptItem(*subscript->index);
      }
      text += ']';
      return;
    }
    case ExprKind::Slice: {
      const auto *slice = e.as<SliceExpr>();
      if (slice->lower)
        emit(*slice->lower, Test);
      text += ':';
      if (slice->upper)
        emit(*slice->upper, Test);
      if (slice->step) {
        text += ':';
        emit(*slice->step, Test);
      }
      return;
    }
    case ExprKind::Attribute: {
      const auto *attribute = e.as<AttributeExpr>();
      emit(*attribute->value, Atom);
      // `1.real` would lex as the float `1.` followed by a name.
      if (attribute->value->kind == ExprKind::IntLiteral)
        text += ' ';
      text += '.' + attribute->attr;
      return;
    }
    case ExprKind::Tuple: {
      const auto &elements = e.as<TupleExpr>()->elts;
      text += '(';
      emitList(elements);
      if (elements.size() == 1)
        text += ',';
      text += ')';
      return;
    }
    case ExprKind::List:
      text += '[';
      emitList(e.as<ListExpr>()->elts);
      text += ']';
      return;
    case ExprKind::Starred: {
      const auto *starred = e.as<StarredExpr>();
      text += starred->mapping ? "**" : "*";
      emit(*starred->value, BitOr);
      return;
    }
    }
  }

  // The context an operand of `bin` is emitted in.
  static Precedence lhsContext(const BinOpExpr &bin) {
    Precedence own = binaryPrecedence(bin.op);
    return bin.op == BinaryOperator::Pow ? next(own) : own;
  }
  static Precedence rhsContext(const BinOpExpr &bin) {
    return bin.op == BinaryOperator::Pow ? Factor : next(binaryPrecedence(bin.op));
  }

  // A left-leaning chain in a loop. Each operation's text starts with the chain's first
  // operand, so the parentheses an inner operation needs open there, all at once.
  void emitChain(const std::vector<const BinOpExpr *> &chain) {
    auto parenthesised = [&](size_t i) {
      return i + 1 < chain.size() && binaryPrecedence(chain[i]->op) < lhsContext(*chain[i + 1]);
    };
    for (size_t i = 0; i < chain.size(); ++i)
      if (parenthesised(i))
        text += '(';
    emit(*chain.front()->lhs, lhsContext(*chain.front()));
    for (size_t i = 0; i < chain.size(); ++i) {
      text += std::string(" ") + spelling(chain[i]->op) + " ";
      emit(*chain[i]->rhs, rhsContext(*chain[i]));
      if (parenthesised(i))
        text += ')';
    }
  }

  void emitSubscriptItem(const Expr &e) {
    if (e.kind == ExprKind::Slice)
      emitBare(e);
    else
      emit(e, Test);
  }
};

} // namespace

std::string unparse(const Expr &expr) {
  Unparser unparser;
  unparser.emit(expr, Tuple);
  return std::move(unparser.text);
}

void forEachChild(const Expr &expr, const std::function<void(const Expr &)> &visit) {
  auto each = [&](const ExprPtr &child) {
    if (child)
      visit(*child);
  };
  auto all = [&](const std::vector<ExprPtr> &children) {
    for (const ExprPtr &child : children)
      each(child);
  };
  switch (expr.kind) {
  case ExprKind::BinOp:
    each(expr.as<BinOpExpr>()->lhs);
    each(expr.as<BinOpExpr>()->rhs);
    break;
  case ExprKind::UnaryOp:
    each(expr.as<UnaryOpExpr>()->operand);
    break;
  case ExprKind::BoolOp:
    all(expr.as<BoolOpExpr>()->values);
    break;
  case ExprKind::Compare:
    each(expr.as<CompareExpr>()->left);
    all(expr.as<CompareExpr>()->comparators);
    break;
  case ExprKind::IfExp:
    each(expr.as<IfExpExpr>()->test);
    each(expr.as<IfExpExpr>()->body);
    each(expr.as<IfExpExpr>()->orelse);
    break;
  case ExprKind::Call:
    each(expr.as<CallExpr>()->func);
    all(expr.as<CallExpr>()->args);
    for (const Keyword &keyword : expr.as<CallExpr>()->keywords)
      each(keyword.value);
    break;
  case ExprKind::Subscript:
    each(expr.as<SubscriptExpr>()->value);
    each(expr.as<SubscriptExpr>()->index);
    break;
  case ExprKind::Slice:
    each(expr.as<SliceExpr>()->lower);
    each(expr.as<SliceExpr>()->upper);
    each(expr.as<SliceExpr>()->step);
    break;
  case ExprKind::Attribute:
    each(expr.as<AttributeExpr>()->value);
    break;
  case ExprKind::Tuple:
    all(expr.as<TupleExpr>()->elts);
    break;
  case ExprKind::List:
    all(expr.as<ListExpr>()->elts);
    break;
  case ExprKind::Starred:
    each(expr.as<StarredExpr>()->value);
    break;
  case ExprKind::Name:
  case ExprKind::IntLiteral:
  case ExprKind::FloatLiteral:
  case ExprKind::BoolLiteral:
  case ExprKind::NoneLiteral:
  case ExprKind::StringLiteral:
    break;
  }
}

} // namespace kaji::frontend
