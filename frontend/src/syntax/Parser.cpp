#include "kaji/frontend/Parser.h"

#include "Limits.h"

#include "kaji/frontend/Lexer.h"

#include <algorithm>
#include <optional>
#include <set>
#include <unordered_map>

namespace kaji::frontend {
namespace {

using ir::CompileError;

// kMaxExpressionNesting (Limits.h) bounds both the parser's recursion and the nesting of
// every expression tree, so that the recursive passes over the AST stay shallow.
// Blocks nest at most 100 deep (the lexer's indentation limit); `elif` chains
// become nested IfStmts and count against this limit too.
constexpr unsigned kMaxStatementNesting = 1000;

[[noreturn]] void fail(const Location &loc, std::string message) {
  throw CompileError(loc, std::move(message));
}

// Builds messages by appending: GCC 12 warns falsely (-Wrestrict, bug 105329)
// about `"literal" + std::string` temporaries.
std::string concat(std::initializer_list<std::string_view> parts) {
  std::string out;
  for (std::string_view part : parts)
    out += part;
  return out;
}

std::string unsupported(std::string_view what) {
  return concat({"'", what, "' is not supported in kaji kernels"});
}

struct OperatorSpelling {
  std::string_view spelling;
  BinaryOperator op;
};
constexpr OperatorSpelling kAugmentedOperators[] = {
    {"+=", BinaryOperator::Add},       {"-=", BinaryOperator::Sub},
    {"*=", BinaryOperator::Mul},       {"/=", BinaryOperator::Div},
    {"//=", BinaryOperator::FloorDiv}, {"%=", BinaryOperator::Mod},
    {"**=", BinaryOperator::Pow},      {"@=", BinaryOperator::MatMul},
    {"<<=", BinaryOperator::LShift},   {">>=", BinaryOperator::RShift},
    {"&=", BinaryOperator::BitAnd},    {"|=", BinaryOperator::BitOr},
    {"^=", BinaryOperator::BitXor}};

// The left-associative binary operators, loosest-binding level first.
const std::initializer_list<OperatorSpelling> kBinaryLevels[] = {
    {{"|", BinaryOperator::BitOr}},
    {{"^", BinaryOperator::BitXor}},
    {{"&", BinaryOperator::BitAnd}},
    {{"<<", BinaryOperator::LShift}, {">>", BinaryOperator::RShift}},
    {{"+", BinaryOperator::Add}, {"-", BinaryOperator::Sub}},
    {{"*", BinaryOperator::Mul},
     {"/", BinaryOperator::Div},
     {"//", BinaryOperator::FloorDiv},
     {"%", BinaryOperator::Mod},
     {"@", BinaryOperator::MatMul}}};
constexpr size_t kBinaryLevelCount = std::size(kBinaryLevels);

// What an expression is called in "cannot assign to ..." messages.
std::string describe(const Expr &e) {
  switch (e.kind) {
  case ExprKind::Call:
    return "function call";
  case ExprKind::IntLiteral:
  case ExprKind::FloatLiteral:
  case ExprKind::StringLiteral:
    return "literal";
  case ExprKind::BoolLiteral:
    return e.as<BoolLiteralExpr>()->value ? "True" : "False";
  case ExprKind::NoneLiteral:
    return "None";
  case ExprKind::Compare:
    return "comparison";
  case ExprKind::IfExp:
    return "conditional expression";
  case ExprKind::Tuple:
    return "tuple";
  case ExprKind::List:
    return "list";
  default:
    return "expression";
  }
}

class Parser {
public:
  explicit Parser(std::vector<Token> tokens) : tokens_(std::move(tokens)) {}

  void parseFile(Module &module) {
    while (!at(TokenKind::EndOfFile)) {
      heights_.clear();
      size_t start = pos_;
      try {
        parseStatement(module.body);
      } catch (const CompileError &error) {
        expressionDepth_ = 0;
        statementNesting_ = 0;
        pos_ = start;
        module.unparsed.push_back({definedFunctionName(), atOp("@"), error});
        skipTopLevelStatement();
      }
    }
  }

private:
  std::vector<Token> tokens_;
  size_t pos_ = 0;
  unsigned expressionDepth_ = 0;
  unsigned statementNesting_ = 0;
  // Height of every expression built so far whose height exceeds 1.
  std::unordered_map<const Expr *, unsigned> heights_;

  class ExpressionDepthGuard {
  public:
    ExpressionDepthGuard(Parser &parser, const Location &loc) : depth_(parser.expressionDepth_) {
      if (++depth_ > kMaxExpressionNesting)
        fail(loc, kExpressionNestingError);
    }
    ~ExpressionDepthGuard() { --depth_; }
    ExpressionDepthGuard(const ExpressionDepthGuard &) = delete;
    ExpressionDepthGuard &operator=(const ExpressionDepthGuard &) = delete;

  private:
    unsigned &depth_;
  };

  // The name a top-level statement starting here defines, past any decorator lines.
  std::string definedFunctionName() const {
    size_t i = pos_;
    while (tokens_[i].is(TokenKind::Operator, "@")) {
      while (tokens_[i].kind != TokenKind::Newline && tokens_[i].kind != TokenKind::EndOfFile)
        ++i;
      if (tokens_[i].kind == TokenKind::Newline)
        ++i;
    }
    if (tokens_[i].is(TokenKind::Keyword, "def") && tokens_[i + 1].kind == TokenKind::Name)
      return tokens_[i + 1].text;
    return "";
  }

  // Moves past the top-level statement starting here: its logical lines, decorators
  // included, and the indented block that follows.
  void skipTopLevelStatement() {
    while (!at(TokenKind::EndOfFile)) {
      bool decorator = atOp("@");
      while (!at(TokenKind::Newline) && !at(TokenKind::EndOfFile))
        next();
      if (at(TokenKind::Newline))
        next();
      if (at(TokenKind::Indent)) {
        unsigned depth = 0;
        do {
          if (at(TokenKind::Indent))
            ++depth;
          else if (at(TokenKind::Dedent))
            --depth;
          next();
        } while (depth > 0 && !at(TokenKind::EndOfFile));
        return;
      }
      if (!decorator)
        return;
    }
  }

  // ---- tokens ----
  const Token &peek(size_t ahead = 0) const {
    return tokens_[std::min(pos_ + ahead, tokens_.size() - 1)];
  }
  const Token &next() {
    const Token &token = tokens_[pos_];
    if (pos_ + 1 < tokens_.size())
      ++pos_;
    return token;
  }
  bool at(TokenKind kind) const { return peek().kind == kind; }
  bool atOp(std::string_view op, size_t ahead = 0) const {
    return peek(ahead).is(TokenKind::Operator, op);
  }
  bool atKeyword(std::string_view keyword, size_t ahead = 0) const {
    return peek(ahead).is(TokenKind::Keyword, keyword);
  }
  bool acceptOp(std::string_view op) {
    if (!atOp(op))
      return false;
    next();
    return true;
  }
  bool acceptKeyword(std::string_view keyword) {
    if (!atKeyword(keyword))
      return false;
    next();
    return true;
  }
  void expectOp(std::string_view op, const char *message = "invalid syntax") {
    if (!atOp(op))
      fail(peek().loc, message);
    next();
  }
  std::string expectName() {
    if (!at(TokenKind::Name))
      invalidSyntax();
    return next().text;
  }
  [[noreturn]] void invalidSyntax() const {
    const Token &token = peek();
    if (token.kind == TokenKind::EndOfFile)
      fail(token.loc, "unexpected end of file");
    if (token.kind == TokenKind::Indent)
      fail(token.loc, "unexpected indent");
    fail(token.loc, "invalid syntax");
  }

  static bool startsExpression(const Token &token) {
    switch (token.kind) {
    case TokenKind::Name:
    case TokenKind::Int:
    case TokenKind::Float:
    case TokenKind::String:
      return true;
    case TokenKind::Keyword:
      return token.text == "not" || token.text == "True" || token.text == "False" ||
             token.text == "None" || token.text == "lambda" || token.text == "await" ||
             token.text == "yield";
    case TokenKind::Operator:
      return token.text == "(" || token.text == "[" || token.text == "{" || token.text == "-" ||
             token.text == "+" || token.text == "~" || token.text == "..." || token.text == "*" ||
             token.text == "**";
    default:
      return false;
    }
  }

  // ---- expression heights ----
  unsigned heightOf(const Expr *e) const {
    if (!e)
      return 0;
    auto it = heights_.find(e);
    return it == heights_.end() ? 1 : it->second;
  }

  unsigned childHeight(const Expr &e) const {
    if (const auto *bin = e.as<BinOpExpr>()) {
      // An lhs that is a BinOp continues this node's chain, which is one level.
      unsigned lhsHeight = heightOf(bin->lhs.get());
      return std::max(bin->lhs->kind == ExprKind::BinOp ? lhsHeight - 1 : lhsHeight,
                      heightOf(bin->rhs.get()));
    }
    unsigned height = 0;
    forEachChild(e, [&](const Expr &child) { height = std::max(height, heightOf(&child)); });
    return height;
  }

  // Builds an expression node, rejecting trees nested deeper than kMaxExpressionNesting:
  // loops (`x.a.b.c...`) build tall trees without deep recursion. The height of a node is
  // its nesting, which a left-leaning chain of BinOps (`a+b+c+...`) adds one to.
  template <class T, class... Args> ExprPtr make(Args &&...args) {
    auto node = std::make_unique<T>(std::forward<Args>(args)...);
    unsigned height = 1 + childHeight(*node);
    if (height > kMaxExpressionNesting)
      fail(node->loc, kExpressionNestingError);
    if (height > 1)
      heights_[node.get()] = height;
    return node;
  }

  // ---- statements ----
  void parseStatement(Body &out) {
    const Token &token = peek();
    if (token.kind == TokenKind::Indent)
      fail(token.loc, "unexpected indent");
    if (token.kind == TokenKind::Keyword) {
      const std::string &word = token.text;
      if (word == "def") {
        out.push_back(parseFunctionDef({}));
        return;
      }
      if (word == "if") {
        out.push_back(parseIf());
        return;
      }
      if (word == "for") {
        out.push_back(parseFor());
        return;
      }
      if (word == "while") {
        out.push_back(parseWhile());
        return;
      }
      if (word == "class" || word == "with" || word == "try" || word == "async")
        fail(token.loc, unsupported(word));
    }
    if (atOp("@")) {
      out.push_back(parseDecorated());
      return;
    }
    if (isMatchStatement())
      fail(token.loc, unsupported("match"));
    parseSimpleStatements(out);
  }

  // `match` is a soft keyword: a line starting with it is a match statement when
  // it ends with ':', which no simple statement can.
  bool isMatchStatement() const {
    if (!peek().is(TokenKind::Name, "match"))
      return false;
    size_t i = pos_;
    while (i + 1 < tokens_.size() && tokens_[i + 1].kind != TokenKind::Newline)
      ++i;
    return tokens_[i].is(TokenKind::Operator, ":");
  }

  void parseSimpleStatements(Body &out) {
    while (true) {
      out.push_back(parseSmallStatement());
      if (!acceptOp(";") || at(TokenKind::Newline))
        break;
    }
    if (!at(TokenKind::Newline))
      invalidSyntax();
    next();
  }

  StmtPtr parseSmallStatement() {
    const Token &token = peek();
    Location start = token.loc;
    if (token.kind == TokenKind::Keyword) {
      const std::string &word = token.text;
      if (word == "pass") {
        next();
        return std::make_unique<PassStmt>(start);
      }
      if (word == "break") {
        next();
        return std::make_unique<BreakStmt>(start);
      }
      if (word == "continue") {
        next();
        return std::make_unique<ContinueStmt>(start);
      }
      if (word == "return") {
        next();
        ExprPtr value = startsExpression(peek()) ? parseTestList() : nullptr;
        return std::make_unique<ReturnStmt>(start, std::move(value));
      }
      if (word == "import")
        return parseImport();
      if (word == "from")
        return parseFromImport();
      if (word == "raise")
        return parseRaise();
      if (word == "assert")
        return parseAssert();
      if (word == "global" || word == "nonlocal" || word == "del")
        fail(start, unsupported(word));
    }
    return parseExpressionStatement();
  }

  StmtPtr parseRaise() {
    Location start = next().loc;
    if (!startsExpression(peek()))
      return std::make_unique<RaiseStmt>(start, nullptr);
    ExprPtr exception = parseTest();
    if (peek().kind == TokenKind::Keyword && peek().text == "from")
      fail(peek().loc, "'raise ... from ...' is not supported in kernels");
    return std::make_unique<RaiseStmt>(start, std::move(exception));
  }

  StmtPtr parseAssert() {
    Location start = next().loc;
    ExprPtr test = parseTest();
    ExprPtr message = acceptOp(",") ? parseTest() : nullptr;
    return std::make_unique<AssertStmt>(start, std::move(test), std::move(message));
  }

  StmtPtr parseExpressionStatement() {
    Location start = peek().loc;
    ExprPtr first = parseTestList();
    if (atOp("=")) {
      std::vector<ExprPtr> parts;
      parts.push_back(std::move(first));
      while (acceptOp("="))
        parts.push_back(parseTestList());
      ExprPtr value = std::move(parts.back());
      parts.pop_back();
      for (const ExprPtr &target : parts)
        checkAssignable(*target);
      return std::make_unique<AssignStmt>(start, std::move(parts), std::move(value));
    }
    for (const OperatorSpelling &aug : kAugmentedOperators) {
      if (!atOp(aug.spelling))
        continue;
      if (!isSingleTarget(*first))
        fail(first->loc, concat({"'", describe(*first),
                                 "' is an illegal expression for augmented assignment"}));
      next();
      ExprPtr value = parseTestList();
      return std::make_unique<AugAssignStmt>(start, std::move(first), aug.op, std::move(value));
    }
    if (atOp(":")) {
      if (first->kind == ExprKind::Tuple)
        fail(first->loc, "only single target (not tuple) can be annotated");
      if (!isSingleTarget(*first))
        fail(first->loc, "illegal target for annotation");
      next();
      ExprPtr annotation = parseTest();
      ExprPtr value = acceptOp("=") ? parseTestList() : nullptr;
      return std::make_unique<AnnAssignStmt>(start, std::move(first), std::move(annotation),
                                             std::move(value));
    }
    return std::make_unique<ExprStmt>(start, std::move(first));
  }

  static bool isSingleTarget(const Expr &e) {
    return e.kind == ExprKind::Name || e.kind == ExprKind::Attribute ||
           e.kind == ExprKind::Subscript;
  }

  void checkAssignable(const Expr &e) const {
    if (isSingleTarget(e))
      return;
    const std::vector<ExprPtr> *elements = nullptr;
    if (const auto *tuple = e.as<TupleExpr>())
      elements = &tuple->elts;
    else if (const auto *list = e.as<ListExpr>())
      elements = &list->elts;
    if (!elements)
      fail(e.loc, concat({"cannot assign to ", describe(e)}));
    for (const ExprPtr &element : *elements)
      checkAssignable(*element);
  }

  StmtPtr parseImport() {
    auto stmt = std::make_unique<ImportStmt>(next().loc);
    do {
      ImportAlias alias;
      alias.loc = peek().loc;
      alias.name = parseDottedName();
      if (acceptKeyword("as"))
        alias.asName = expectName();
      stmt->names.push_back(std::move(alias));
    } while (acceptOp(","));
    return stmt;
  }

  StmtPtr parseFromImport() {
    auto stmt = std::make_unique<ImportFromStmt>(next().loc);
    if (atOp(".") || atOp("..."))
      fail(peek().loc, "relative imports are not supported in kaji kernels");
    stmt->module = parseDottedName();
    if (!acceptKeyword("import"))
      invalidSyntax();
    if (atOp("*"))
      fail(peek().loc, unsupported("from ... import *"));
    bool parenthesised = acceptOp("(");
    while (true) {
      ImportAlias alias;
      alias.loc = peek().loc;
      alias.name = expectName();
      if (acceptKeyword("as"))
        alias.asName = expectName();
      stmt->names.push_back(std::move(alias));
      if (!acceptOp(","))
        break;
      if (parenthesised && atOp(")"))
        break;
      if (!parenthesised && at(TokenKind::Newline))
        fail(peek().loc, "trailing comma not allowed without surrounding parentheses");
    }
    if (parenthesised)
      expectOp(")");
    return stmt;
  }

  std::string parseDottedName() {
    std::string name = expectName();
    while (acceptOp("."))
      name += concat({".", expectName()});
    return name;
  }

  StmtPtr parseDecorated() {
    std::vector<ExprPtr> decorators;
    while (acceptOp("@")) {
      heights_.clear();
      decorators.push_back(parseTest());
      if (!at(TokenKind::Newline))
        invalidSyntax();
      next();
    }
    if (atKeyword("def"))
      return parseFunctionDef(std::move(decorators));
    if (atKeyword("class") || atKeyword("async"))
      fail(peek().loc, unsupported(peek().text));
    invalidSyntax();
  }

  StmtPtr parseFunctionDef(std::vector<ExprPtr> decorators) {
    auto fn = std::make_unique<FunctionDefStmt>(next().loc);
    fn->decorators = std::move(decorators);
    fn->name = expectName();
    expectOp("(", "expected '('");
    std::set<std::string, std::less<>> seen;
    bool sawDefault = false;
    while (!atOp(")")) {
      if (atOp("*") || atOp("**"))
        fail(peek().loc, "variadic parameters ('*args', '**kwargs' and bare '*') are not "
                         "supported in kaji kernels");
      if (atOp("/"))
        fail(peek().loc, "positional-only parameters ('/') are not supported in kaji kernels");
      Parameter param;
      param.loc = peek().loc;
      param.name = expectName();
      if (!seen.insert(param.name).second)
        fail(param.loc, concat({"duplicate argument '", param.name, "' in function definition"}));
      if (acceptOp(":"))
        param.annotation = parseTest();
      if (acceptOp("=")) {
        param.defaultValue = parseTest();
        sawDefault = true;
      } else if (sawDefault) {
        fail(param.loc, "non-default argument follows default argument");
      }
      fn->params.push_back(std::move(param));
      if (!acceptOp(","))
        break;
    }
    expectOp(")");
    if (acceptOp("->"))
      fn->returns = parseTest();
    fn->body = parseBlock("function definition", fn->loc);
    return fn;
  }

  void enterNesting(const Location &loc) {
    if (++statementNesting_ > kMaxStatementNesting)
      fail(loc, "statements nested too deeply ('elif' branches count as nesting)");
  }

  // `: NEWLINE INDENT statements DEDENT`, or simple statements on the header's line.
  Body parseBlock(const std::string &what, const Location &header) {
    expectOp(":", "expected ':'");
    Body body;
    if (!at(TokenKind::Newline)) {
      parseSimpleStatements(body);
      return body;
    }
    next();
    if (!at(TokenKind::Indent))
      fail(peek().loc, concat({"expected an indented block after ", what, " on line ",
                               std::to_string(header.line)}));
    next();
    enterNesting(header);
    while (!at(TokenKind::Dedent) && !at(TokenKind::EndOfFile))
      parseStatement(body);
    next();
    --statementNesting_;
    return body;
  }

  StmtPtr parseIf() {
    auto stmt = std::make_unique<IfStmt>(next().loc);
    stmt->test = parseTest();
    stmt->body = parseBlock("'if' statement", stmt->loc);
    IfStmt *tail = stmt.get();
    unsigned elifs = 0;
    while (atKeyword("elif")) {
      enterNesting(peek().loc);
      ++elifs;
      heights_.clear();
      auto elif = std::make_unique<IfStmt>(next().loc);
      elif->test = parseTest();
      elif->body = parseBlock("'elif' statement", elif->loc);
      IfStmt *inner = elif.get();
      tail->orelse.push_back(std::move(elif));
      tail = inner;
    }
    if (atKeyword("else")) {
      Location elseLoc = next().loc;
      tail->orelse = parseBlock("'else' statement", elseLoc);
    }
    statementNesting_ -= elifs;
    return stmt;
  }

  Body parseElse() {
    if (!atKeyword("else"))
      return {};
    Location elseLoc = next().loc;
    return parseBlock("'else' statement", elseLoc);
  }

  StmtPtr parseFor() {
    auto stmt = std::make_unique<ForStmt>(next().loc);
    stmt->target = parseTargetList();
    checkAssignable(*stmt->target);
    if (!acceptKeyword("in"))
      invalidSyntax();
    stmt->iter = parseTestList();
    stmt->body = parseBlock("'for' statement", stmt->loc);
    stmt->orelse = parseElse();
    return stmt;
  }

  StmtPtr parseWhile() {
    auto stmt = std::make_unique<WhileStmt>(next().loc);
    stmt->test = parseTest();
    stmt->body = parseBlock("'while' statement", stmt->loc);
    stmt->orelse = parseElse();
    return stmt;
  }

  // The target of `for`: bitwise-or expressions, so that `in` is left alone.
  ExprPtr parseTargetList() {
    Location start = peek().loc;
    ExprPtr first = parseBinary(0);
    if (!atOp(","))
      return first;
    std::vector<ExprPtr> elements;
    elements.push_back(std::move(first));
    while (acceptOp(",") && !atKeyword("in"))
      elements.push_back(parseBinary(0));
    return make<TupleExpr>(start, std::move(elements));
  }

  // ---- expressions ----
  ExprPtr parseTestList() {
    Location start = peek().loc;
    ExprPtr first = parseTest();
    if (!atOp(","))
      return first;
    std::vector<ExprPtr> elements;
    elements.push_back(std::move(first));
    while (acceptOp(",") && startsExpression(peek()))
      elements.push_back(parseTest());
    return make<TupleExpr>(start, std::move(elements));
  }

  ExprPtr parseTest() {
    Location start = peek().loc;
    ExpressionDepthGuard guard(*this, start);
    if (atKeyword("lambda"))
      fail(start, unsupported("lambda"));
    ExprPtr value = parseBoolOp(BoolOpExpr::Op::Or);
    if (acceptKeyword("if")) {
      ExprPtr test = parseBoolOp(BoolOpExpr::Op::Or);
      if (!acceptKeyword("else"))
        fail(peek().loc, "expected 'else' after 'if' expression");
      ExprPtr orelse = parseTest();
      value = make<IfExpExpr>(start, std::move(test), std::move(value), std::move(orelse));
    }
    if (atOp(":="))
      fail(peek().loc, unsupported(":="));
    return value;
  }

  ExprPtr parseBoolOp(BoolOpExpr::Op op) {
    bool isOr = op == BoolOpExpr::Op::Or;
    std::string_view keyword = isOr ? "or" : "and";
    auto operand = [&] { return isOr ? parseBoolOp(BoolOpExpr::Op::And) : parseNotTest(); };
    Location start = peek().loc;
    ExprPtr first = operand();
    if (!atKeyword(keyword))
      return first;
    std::vector<ExprPtr> values;
    values.push_back(std::move(first));
    while (acceptKeyword(keyword))
      values.push_back(operand());
    return make<BoolOpExpr>(start, op, std::move(values));
  }

  ExprPtr parseNotTest() {
    Location start = peek().loc;
    if (!acceptKeyword("not"))
      return parseComparison();
    ExpressionDepthGuard guard(*this, start);
    ExprPtr operand = parseNotTest();
    return make<UnaryOpExpr>(start, UnaryOperator::Not, std::move(operand));
  }

  std::optional<CompareOperator> acceptComparisonOperator() {
    static constexpr std::pair<std::string_view, CompareOperator> symbols[] = {
        {"==", CompareOperator::Eq},  {"!=", CompareOperator::NotEq}, {"<", CompareOperator::Lt},
        {"<=", CompareOperator::LtE}, {">", CompareOperator::Gt},     {">=", CompareOperator::GtE}};
    for (const auto &[spelling, op] : symbols)
      if (acceptOp(spelling))
        return op;
    if (acceptKeyword("in"))
      return CompareOperator::In;
    if (atKeyword("not") && atKeyword("in", 1)) {
      next();
      next();
      return CompareOperator::NotIn;
    }
    if (acceptKeyword("is"))
      return acceptKeyword("not") ? CompareOperator::IsNot : CompareOperator::Is;
    return std::nullopt;
  }

  ExprPtr parseComparison() {
    Location start = peek().loc;
    ExprPtr left = parseBinary(0);
    std::vector<CompareOperator> ops;
    std::vector<ExprPtr> comparators;
    while (auto op = acceptComparisonOperator()) {
      ops.push_back(*op);
      comparators.push_back(parseBinary(0));
    }
    if (ops.empty())
      return left;
    return make<CompareExpr>(start, std::move(left), std::move(ops), std::move(comparators));
  }

  std::optional<BinaryOperator> acceptBinaryOperator(size_t level) {
    for (const OperatorSpelling &candidate : kBinaryLevels[level])
      if (acceptOp(candidate.spelling))
        return candidate.op;
    return std::nullopt;
  }

  ExprPtr parseBinary(size_t level) {
    auto operand = [&] {
      return level + 1 < kBinaryLevelCount ? parseBinary(level + 1) : parseFactor();
    };
    Location start = peek().loc;
    ExprPtr lhs = operand();
    while (auto op = acceptBinaryOperator(level)) {
      ExprPtr rhs = operand();
      lhs = make<BinOpExpr>(start, *op, std::move(lhs), std::move(rhs));
    }
    return lhs;
  }

  ExprPtr parseFactor() {
    Location start = peek().loc;
    std::optional<UnaryOperator> op;
    if (atOp("-"))
      op = UnaryOperator::Minus;
    else if (atOp("+"))
      op = UnaryOperator::Plus;
    else if (atOp("~"))
      op = UnaryOperator::Invert;
    if (!op)
      return parsePower();
    next();
    ExpressionDepthGuard guard(*this, start);
    ExprPtr operand = parseFactor();
    return make<UnaryOpExpr>(start, *op, std::move(operand));
  }

  // `**` binds tighter than a unary operator on its left and is right-associative:
  // `-2**2` is -(2**2), `2**-1` is 2**(-1), `a**b**c` is a**(b**c).
  ExprPtr parsePower() {
    Location start = peek().loc;
    ExprPtr base = parseTrailers();
    if (!atOp("**"))
      return base;
    ExpressionDepthGuard guard(*this, peek().loc);
    next();
    ExprPtr exponent = parseFactor();
    return make<BinOpExpr>(start, BinaryOperator::Pow, std::move(base), std::move(exponent));
  }

  ExprPtr parseTrailers() {
    Location start = peek().loc;
    ExprPtr e = parseAtom();
    while (true) {
      if (acceptOp("(")) {
        e = parseCall(start, std::move(e));
      } else if (acceptOp("[")) {
        ExprPtr index = parseSubscriptList();
        expectOp("]");
        e = make<SubscriptExpr>(start, std::move(e), std::move(index));
      } else if (acceptOp(".")) {
        std::string attr = expectName();
        e = make<AttributeExpr>(start, std::move(e), std::move(attr));
      } else {
        return e;
      }
    }
  }

  ExprPtr parseCall(const Location &start, ExprPtr func) {
    std::vector<ExprPtr> args;
    std::vector<Keyword> keywords;
    while (!atOp(")")) {
      if (atOp("*") || atOp("**")) {
        Location loc = peek().loc;
        bool mapping = next().text == "**";
        args.push_back(make<StarredExpr>(loc, parseTest(), mapping));
      } else if (at(TokenKind::Name) && atOp("=", 1)) {
        Keyword keyword;
        keyword.loc = peek().loc;
        keyword.name = next().text;
        next();
        keyword.value = parseTest();
        for (const Keyword &other : keywords)
          if (other.name == keyword.name)
            fail(keyword.loc, concat({"keyword argument repeated: ", keyword.name}));
        keywords.push_back(std::move(keyword));
      } else {
        if (!keywords.empty())
          fail(peek().loc, "positional argument follows keyword argument");
        ExprPtr arg = parseTest();
        if (atOp("="))
          fail(arg->loc, "expression cannot contain assignment, perhaps you meant \"==\"?");
        rejectComprehension();
        args.push_back(std::move(arg));
      }
      if (!acceptOp(","))
        break;
    }
    expectOp(")");
    return make<CallExpr>(start, std::move(func), std::move(args), std::move(keywords));
  }

  void rejectComprehension() const {
    if (atKeyword("for") || atKeyword("async"))
      fail(peek().loc, "comprehensions and generator expressions are not supported in kaji "
                       "kernels");
  }

  ExprPtr parseSubscriptList() {
    Location start = peek().loc;
    ExprPtr first = parseSubscriptItem();
    if (!atOp(","))
      return first;
    std::vector<ExprPtr> elements;
    elements.push_back(std::move(first));
    while (acceptOp(",") && !atOp("]"))
      elements.push_back(parseSubscriptItem());
    return make<TupleExpr>(start, std::move(elements));
  }

  ExprPtr parseSubscriptItem() {
    Location start = peek().loc;
    ExprPtr lower;
    if (!atOp(":")) {
      lower = parseTest();
      if (!atOp(":"))
        return lower;
    }
    next();
    auto endsPart = [&] { return atOp(":") || atOp("]") || atOp(","); };
    ExprPtr upper = endsPart() ? nullptr : parseTest();
    ExprPtr step;
    if (acceptOp(":") && !atOp("]") && !atOp(","))
      step = parseTest();
    return make<SliceExpr>(start, std::move(lower), std::move(upper), std::move(step));
  }

  ExprPtr parseAtom() {
    const Token &token = peek();
    switch (token.kind) {
    case TokenKind::Name:
      next();
      return make<NameExpr>(token.loc, token.text);
    case TokenKind::Int:
      next();
      return make<IntLiteralExpr>(token.loc, token.intValue);
    case TokenKind::Float:
      next();
      return make<FloatLiteralExpr>(token.loc, token.floatValue, token.imaginary);
    case TokenKind::String: {
      std::string value;
      while (at(TokenKind::String))
        value += next().text;
      return make<StringLiteralExpr>(token.loc, std::move(value));
    }
    case TokenKind::Keyword:
      return parseKeywordAtom();
    case TokenKind::Operator:
      return parseOperatorAtom();
    case TokenKind::Unsupported:
      fail(token.loc, token.text);
    default:
      invalidSyntax();
    }
  }

  ExprPtr parseKeywordAtom() {
    const Token &token = next();
    if (token.text == "True" || token.text == "False")
      return make<BoolLiteralExpr>(token.loc, token.text == "True");
    if (token.text == "None")
      return make<NoneLiteralExpr>(token.loc);
    if (token.text == "lambda" || token.text == "await" || token.text == "yield")
      fail(token.loc, unsupported(token.text));
    fail(token.loc, "invalid syntax");
  }

  ExprPtr parseOperatorAtom() {
    const Token &token = peek();
    if (token.text == "(")
      return parseParenthesised();
    if (token.text == "[")
      return parseList();
    if (token.text == "{")
      fail(token.loc, "dict and set displays are not supported in kaji kernels");
    if (token.text == "...")
      fail(token.loc, unsupported("..."));
    if (token.text == "*" || token.text == "**")
      fail(token.loc, "starred expressions ('*') are not supported in kaji kernels");
    invalidSyntax();
  }

  ExprPtr parseParenthesised() {
    Location start = next().loc;
    if (acceptOp(")"))
      return make<TupleExpr>(start, std::vector<ExprPtr>{});
    ExprPtr first = parseTest();
    rejectComprehension();
    if (acceptOp(")"))
      return first;
    if (!atOp(","))
      invalidSyntax();
    std::vector<ExprPtr> elements;
    elements.push_back(std::move(first));
    while (acceptOp(",") && !atOp(")"))
      elements.push_back(parseTest());
    expectOp(")");
    return make<TupleExpr>(start, std::move(elements));
  }

  ExprPtr parseList() {
    Location start = next().loc;
    std::vector<ExprPtr> elements;
    while (!atOp("]")) {
      elements.push_back(parseTest());
      if (elements.size() == 1)
        rejectComprehension();
      if (!acceptOp(","))
        break;
    }
    expectOp("]");
    return make<ListExpr>(start, std::move(elements));
  }
};

} // namespace

std::shared_ptr<Module> parseModule(const SourceFile &source, TopLevelErrors errors) {
  auto module = std::make_shared<Module>();
  module->file = source.name;
  Parser(tokenize(source)).parseFile(*module);
  if (errors == TopLevelErrors::Throw && !module->unparsed.empty())
    throw module->unparsed.front().error;
  return module;
}

} // namespace kaji::frontend
