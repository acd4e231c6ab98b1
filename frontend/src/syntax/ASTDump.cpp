#include "kaji/frontend/Parser.h"

namespace kaji::frontend {
namespace {

// One node per line, children indented by two spaces, each line ending in the
// node's `<line:col>`. Labels without a location (`Decorator`, `Else`, ...) name
// the role of the lines nested under them.
class Dumper {
public:
  std::string text;

  void statements(const Body &body, unsigned depth) {
    for (const StmtPtr &stmt : body)
      statement(*stmt, depth);
  }

private:
  void line(unsigned depth, const std::string &what, const Location *loc) {
    text.append(2 * depth, ' ');
    text += what;
    if (loc)
      text += " <" + std::to_string(loc->line) + ":" + std::to_string(loc->col) + ">";
    text += '\n';
  }
  void line(unsigned depth, const std::string &what, const Location &loc) {
    line(depth, what, &loc);
  }
  void label(unsigned depth, const std::string &what) { line(depth, what, nullptr); }

  void labelled(unsigned depth, const std::string &what, const Expr *e) {
    if (!e)
      return;
    label(depth, what);
    expr(*e, depth + 1);
  }

  void elseBlock(const Body &orelse, unsigned depth) {
    if (orelse.empty())
      return;
    label(depth, "Else");
    statements(orelse, depth + 1);
  }

  void statement(const Stmt &s, unsigned depth) {
    switch (s.kind) {
    case StmtKind::FunctionDef: {
      const auto *fn = s.as<FunctionDefStmt>();
      line(depth, "FunctionDef " + fn->name, s.loc);
      for (const ExprPtr &decorator : fn->decorators)
        labelled(depth + 1, "Decorator", decorator.get());
      for (const Parameter &param : fn->params) {
        line(depth + 1, "Param " + param.name, param.loc);
        labelled(depth + 2, "Annotation", param.annotation.get());
        labelled(depth + 2, "Default", param.defaultValue.get());
      }
      labelled(depth + 1, "Returns", fn->returns.get());
      statements(fn->body, depth + 1);
      return;
    }
    case StmtKind::Assign: {
      const auto *assign = s.as<AssignStmt>();
      line(depth, "Assign", s.loc);
      for (const ExprPtr &target : assign->targets)
        expr(*target, depth + 1);
      expr(*assign->value, depth + 1);
      return;
    }
    case StmtKind::AugAssign: {
      const auto *aug = s.as<AugAssignStmt>();
      line(depth, std::string("AugAssign ") + spelling(aug->op) + "=", s.loc);
      expr(*aug->target, depth + 1);
      expr(*aug->value, depth + 1);
      return;
    }
    case StmtKind::AnnAssign: {
      const auto *ann = s.as<AnnAssignStmt>();
      line(depth, "AnnAssign", s.loc);
      expr(*ann->target, depth + 1);
      labelled(depth + 1, "Annotation", ann->annotation.get());
      if (ann->value)
        expr(*ann->value, depth + 1);
      return;
    }
    case StmtKind::If: {
      const auto *ifStmt = s.as<IfStmt>();
      line(depth, "If", s.loc);
      expr(*ifStmt->test, depth + 1);
      statements(ifStmt->body, depth + 1);
      elseBlock(ifStmt->orelse, depth + 1);
      return;
    }
    case StmtKind::For: {
      const auto *forStmt = s.as<ForStmt>();
      line(depth, "For", s.loc);
      expr(*forStmt->target, depth + 1);
      expr(*forStmt->iter, depth + 1);
      statements(forStmt->body, depth + 1);
      elseBlock(forStmt->orelse, depth + 1);
      return;
    }
    case StmtKind::While: {
      const auto *whileStmt = s.as<WhileStmt>();
      line(depth, "While", s.loc);
      expr(*whileStmt->test, depth + 1);
      statements(whileStmt->body, depth + 1);
      elseBlock(whileStmt->orelse, depth + 1);
      return;
    }
    case StmtKind::Break:
      line(depth, "Break", s.loc);
      return;
    case StmtKind::Continue:
      line(depth, "Continue", s.loc);
      return;
    case StmtKind::Return:
      line(depth, "Return", s.loc);
      if (const Expr *value = s.as<ReturnStmt>()->value.get())
        expr(*value, depth + 1);
      return;
    case StmtKind::Pass:
      line(depth, "Pass", s.loc);
      return;
    case StmtKind::ExprStmt:
      line(depth, "Expr", s.loc);
      expr(*s.as<ExprStmt>()->value, depth + 1);
      return;
    case StmtKind::Import:
      line(depth, "Import", s.loc);
      aliases(s.as<ImportStmt>()->names, depth + 1);
      return;
    case StmtKind::ImportFrom:
      line(depth, "ImportFrom " + s.as<ImportFromStmt>()->module, s.loc);
      aliases(s.as<ImportFromStmt>()->names, depth + 1);
      return;
    case StmtKind::Raise:
      line(depth, "Raise", s.loc);
      if (const Expr *exception = s.as<RaiseStmt>()->exception.get())
        expr(*exception, depth + 1);
      return;
    case StmtKind::Assert:
      line(depth, "Assert", s.loc);
      expr(*s.as<AssertStmt>()->test, depth + 1);
      labelled(depth + 1, "Message", s.as<AssertStmt>()->message.get());
      return;
    }
  }

  void aliases(const std::vector<ImportAlias> &names, unsigned depth) {
    for (const ImportAlias &alias : names)
      line(depth, "Alias " + alias.name + (alias.asName.empty() ? "" : " as " + alias.asName),
           alias.loc);
  }

  void exprs(const std::vector<ExprPtr> &list, unsigned depth) {
    for (const ExprPtr &e : list)
      expr(*e, depth);
  }

  void expr(const Expr &e, unsigned depth) {
    switch (e.kind) {
    case ExprKind::Name:
      line(depth, "Name " + e.as<NameExpr>()->id, e.loc);
      return;
    case ExprKind::IntLiteral:
      line(depth, "Int " + unparse(e), e.loc);
      return;
    case ExprKind::FloatLiteral:
      line(depth, "Float " + unparse(e), e.loc);
      return;
    case ExprKind::BoolLiteral:
      line(depth, "Bool " + unparse(e), e.loc);
      return;
    case ExprKind::NoneLiteral:
      line(depth, "None", e.loc);
      return;
    case ExprKind::StringLiteral:
      line(depth, "String " + unparse(e), e.loc);
      return;
    case ExprKind::BinOp: {
      // A chain `a + b + c ...` in a loop (the same lines as recursing into each lhs).
      std::vector<const BinOpExpr *> chain = leftChain(*e.as<BinOpExpr>());
      unsigned innermost = depth + unsigned(chain.size()) - 1;
      for (size_t i = chain.size(); i-- > 0;)
        line(innermost - unsigned(i), std::string("BinOp ") + spelling(chain[i]->op),
             chain[i]->loc);
      expr(*chain.front()->lhs, innermost + 1);
      for (size_t i = 0; i < chain.size(); ++i)
        expr(*chain[i]->rhs, innermost - unsigned(i) + 1);
      return;
    }
    case ExprKind::UnaryOp: {
      const auto *unary = e.as<UnaryOpExpr>();
      line(depth, std::string("UnaryOp ") + spelling(unary->op), e.loc);
      expr(*unary->operand, depth + 1);
      return;
    }
    case ExprKind::BoolOp: {
      const auto *boolOp = e.as<BoolOpExpr>();
      line(depth, boolOp->op == BoolOpExpr::Op::And ? "BoolOp and" : "BoolOp or", e.loc);
      exprs(boolOp->values, depth + 1);
      return;
    }
    case ExprKind::Compare: {
      const auto *compare = e.as<CompareExpr>();
      std::string ops;
      for (CompareOperator op : compare->ops)
        ops += std::string(ops.empty() ? "" : ", ") + spelling(op);
      line(depth, "Compare " + ops, e.loc);
      expr(*compare->left, depth + 1);
      exprs(compare->comparators, depth + 1);
      return;
    }
    case ExprKind::IfExp: {
      const auto *ifExp = e.as<IfExpExpr>();
      line(depth, "IfExp", e.loc);
      expr(*ifExp->test, depth + 1);
      expr(*ifExp->body, depth + 1);
      expr(*ifExp->orelse, depth + 1);
      return;
    }
    case ExprKind::Call: {
      const auto *call = e.as<CallExpr>();
      line(depth, "Call", e.loc);
      expr(*call->func, depth + 1);
      exprs(call->args, depth + 1);
      for (const Keyword &keyword : call->keywords) {
        line(depth + 1, "Keyword " + keyword.name, keyword.loc);
        expr(*keyword.value, depth + 2);
      }
      return;
    }
    case ExprKind::Subscript: {
      const auto *subscript = e.as<SubscriptExpr>();
      line(depth, "Subscript", e.loc);
      expr(*subscript->value, depth + 1);
      expr(*subscript->index, depth + 1);
      return;
    }
    case ExprKind::Slice: {
      const auto *slice = e.as<SliceExpr>();
      line(depth, "Slice", e.loc);
      labelled(depth + 1, "Lower", slice->lower.get());
      labelled(depth + 1, "Upper", slice->upper.get());
      labelled(depth + 1, "Step", slice->step.get());
      return;
    }
    case ExprKind::Attribute: {
      const auto *attribute = e.as<AttributeExpr>();
      line(depth, "Attribute " + attribute->attr, e.loc);
      expr(*attribute->value, depth + 1);
      return;
    }
    case ExprKind::Tuple:
      line(depth, "Tuple", e.loc);
      exprs(e.as<TupleExpr>()->elts, depth + 1);
      return;
    case ExprKind::List:
      line(depth, "List", e.loc);
      exprs(e.as<ListExpr>()->elts, depth + 1);
      return;
    case ExprKind::Starred: {
      const auto *starred = e.as<StarredExpr>();
      line(depth, starred->mapping ? "Starred **" : "Starred *", e.loc);
      expr(*starred->value, depth + 1);
      return;
    }
    }
  }
};

} // namespace

std::string dumpAST(const Module &module) {
  Dumper dumper;
  dumper.statements(module.body, 0);
  return std::move(dumper.text);
}

} // namespace kaji::frontend
