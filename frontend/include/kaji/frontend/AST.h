// Abstract syntax tree of the kernel subset of Python. Every node carries the
// file:line:col of its first character. Nodes are owned by their parent through
// unique_ptr; the parser returns a Module that owns everything.
#pragma once

#include "kaji/ir/Location.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kaji::frontend {

using ir::Location;

enum class ExprKind : uint8_t {
  Name,
  IntLiteral,
  FloatLiteral,
  BoolLiteral,
  NoneLiteral,
  StringLiteral,
  BinOp,
  UnaryOp,
  BoolOp,
  Compare,
  IfExp,
  Call,
  Subscript,
  Slice,
  Attribute,
  Tuple,
  List,
  Starred,
};

struct Expr {
  Expr(ExprKind k, Location l) : kind(k), loc(std::move(l)) {}
  virtual ~Expr() = default;
  ExprKind kind;
  Location loc;

  // Checked downcast: `if (auto *call = e->as<CallExpr>())`.
  template <class T> T *as() { return kind == T::Kind ? static_cast<T *>(this) : nullptr; }
  template <class T> const T *as() const {
    return kind == T::Kind ? static_cast<const T *>(this) : nullptr;
  }
};
using ExprPtr = std::unique_ptr<Expr>;

struct NameExpr : Expr {
  static constexpr ExprKind Kind = ExprKind::Name;
  NameExpr(Location l, std::string n) : Expr(Kind, std::move(l)), id(std::move(n)) {}
  std::string id;
};

// Non-negative: a leading minus is a UnaryOp. Literals above UINT64_MAX are a parse error.
struct IntLiteralExpr : Expr {
  static constexpr ExprKind Kind = ExprKind::IntLiteral;
  IntLiteralExpr(Location l, uint64_t v) : Expr(Kind, std::move(l)), value(v) {}
  uint64_t value;
};

struct FloatLiteralExpr : Expr {
  static constexpr ExprKind Kind = ExprKind::FloatLiteral;
  FloatLiteralExpr(Location l, double v, bool imaginary = false)
      : Expr(Kind, std::move(l)), value(v), imaginary(imaginary) {}
  double value;
  bool imaginary; // `2.5j`: the value times 1j
};

struct BoolLiteralExpr : Expr {
  static constexpr ExprKind Kind = ExprKind::BoolLiteral;
  BoolLiteralExpr(Location l, bool v) : Expr(Kind, std::move(l)), value(v) {}
  bool value;
};

struct NoneLiteralExpr : Expr {
  static constexpr ExprKind Kind = ExprKind::NoneLiteral;
  explicit NoneLiteralExpr(Location l) : Expr(Kind, std::move(l)) {}
};

// Adjacent literals are already concatenated; escapes are decoded.
struct StringLiteralExpr : Expr {
  static constexpr ExprKind Kind = ExprKind::StringLiteral;
  StringLiteralExpr(Location l, std::string v) : Expr(Kind, std::move(l)), value(std::move(v)) {}
  std::string value;
};

enum class BinaryOperator : uint8_t {
  Add,
  Sub,
  Mul,
  Div,
  FloorDiv,
  Mod,
  Pow,
  MatMul,
  LShift,
  RShift,
  BitAnd,
  BitOr,
  BitXor,
};
const char *spelling(BinaryOperator op); // "+", "//", ...

struct BinOpExpr : Expr {
  static constexpr ExprKind Kind = ExprKind::BinOp;
  BinOpExpr(Location l, BinaryOperator o, ExprPtr a, ExprPtr b)
      : Expr(Kind, std::move(l)), op(o), lhs(std::move(a)), rhs(std::move(b)) {}
  // Frees a left-leaning chain (`a + b + c + ...`) in a loop: the implicit destructor would
  // nest one call per term.
  ~BinOpExpr() override;
  BinaryOperator op;
  ExprPtr lhs, rhs;
};

// The operations of the left-leaning chain that ends in `last`: `a + b - c * d + e` is the
// tree (((a + b) - c * d) + e), whose chain is [a + b, ... - c * d, ... + e]. The first
// operation's lhs is no BinOp; each later one's lhs is the operation before it. Passes over
// the tree walk a chain in a loop rather than recursing into `lhs`, so that their stack
// depth does not grow with the number of terms (docs/language.md, "Limits").
std::vector<const BinOpExpr *> leftChain(const BinOpExpr &last);

enum class UnaryOperator : uint8_t { Not, Invert, Plus, Minus };
const char *spelling(UnaryOperator op); // "not", "~", "+", "-"

struct UnaryOpExpr : Expr {
  static constexpr ExprKind Kind = ExprKind::UnaryOp;
  UnaryOpExpr(Location l, UnaryOperator o, ExprPtr e)
      : Expr(Kind, std::move(l)), op(o), operand(std::move(e)) {}
  UnaryOperator op;
  ExprPtr operand;
};

// `a and b and c` is one node with three values.
struct BoolOpExpr : Expr {
  static constexpr ExprKind Kind = ExprKind::BoolOp;
  enum class Op : uint8_t { And, Or };
  BoolOpExpr(Location l, Op o, std::vector<ExprPtr> v)
      : Expr(Kind, std::move(l)), op(o), values(std::move(v)) {}
  Op op;
  std::vector<ExprPtr> values;
};

enum class CompareOperator : uint8_t { Eq, NotEq, Lt, LtE, Gt, GtE, Is, IsNot, In, NotIn };
const char *spelling(CompareOperator op); // "==", "is not", ...

// `a < b <= c`: left = a, ops = {<, <=}, comparators = {b, c}.
struct CompareExpr : Expr {
  static constexpr ExprKind Kind = ExprKind::Compare;
  CompareExpr(Location l, ExprPtr left, std::vector<CompareOperator> o, std::vector<ExprPtr> c)
      : Expr(Kind, std::move(l)), left(std::move(left)), ops(std::move(o)),
        comparators(std::move(c)) {}
  ExprPtr left;
  std::vector<CompareOperator> ops;
  std::vector<ExprPtr> comparators;
};

// `body if test else orelse`
struct IfExpExpr : Expr {
  static constexpr ExprKind Kind = ExprKind::IfExp;
  IfExpExpr(Location l, ExprPtr t, ExprPtr b, ExprPtr e)
      : Expr(Kind, std::move(l)), test(std::move(t)), body(std::move(b)), orelse(std::move(e)) {}
  ExprPtr test, body, orelse;
};

struct Keyword {
  Location loc;
  std::string name;
  ExprPtr value;
};

struct CallExpr : Expr {
  static constexpr ExprKind Kind = ExprKind::Call;
  CallExpr(Location l, ExprPtr f, std::vector<ExprPtr> a, std::vector<Keyword> k)
      : Expr(Kind, std::move(l)), func(std::move(f)), args(std::move(a)), keywords(std::move(k)) {}
  ExprPtr func;
  std::vector<ExprPtr> args;
  std::vector<Keyword> keywords;
};

// `a[i]`; `a[i, j]` has a TupleExpr index; `a[1:n]` has a SliceExpr index.
struct SubscriptExpr : Expr {
  static constexpr ExprKind Kind = ExprKind::Subscript;
  SubscriptExpr(Location l, ExprPtr v, ExprPtr i)
      : Expr(Kind, std::move(l)), value(std::move(v)), index(std::move(i)) {}
  ExprPtr value, index;
};

// `lower:upper:step`, each part optional (null).
struct SliceExpr : Expr {
  static constexpr ExprKind Kind = ExprKind::Slice;
  SliceExpr(Location l, ExprPtr lo, ExprPtr hi, ExprPtr st)
      : Expr(Kind, std::move(l)), lower(std::move(lo)), upper(std::move(hi)), step(std::move(st)) {}
  ExprPtr lower, upper, step;
};

struct AttributeExpr : Expr {
  static constexpr ExprKind Kind = ExprKind::Attribute;
  AttributeExpr(Location l, ExprPtr v, std::string a)
      : Expr(Kind, std::move(l)), value(std::move(v)), attr(std::move(a)) {}
  ExprPtr value;
  std::string attr;
};

struct TupleExpr : Expr {
  static constexpr ExprKind Kind = ExprKind::Tuple;
  TupleExpr(Location l, std::vector<ExprPtr> e) : Expr(Kind, std::move(l)), elts(std::move(e)) {}
  std::vector<ExprPtr> elts;
};

struct ListExpr : Expr {
  static constexpr ExprKind Kind = ExprKind::List;
  ListExpr(Location l, std::vector<ExprPtr> e) : Expr(Kind, std::move(l)), elts(std::move(e)) {}
  std::vector<ExprPtr> elts;
};

// `*value` or `**value` (`mapping`) as a call's argument: Python's argument unpacking, which
// kernels do not run, though a kernel's decorator may hold one (`@cuda.jit(*signatures)`).
struct StarredExpr : Expr {
  static constexpr ExprKind Kind = ExprKind::Starred;
  StarredExpr(Location l, ExprPtr v, bool m)
      : Expr(Kind, std::move(l)), value(std::move(v)), mapping(m) {}
  ExprPtr value;
  bool mapping;
};

// Python source text of an expression, normalised (`x[i] * 2.0`), for diagnostics.
std::string unparse(const Expr &expr);

// Calls `visit` on each direct sub-expression of `expr` in source order (the parts a slice
// leaves out are none). Passes over whole trees walk with a stack of their own, not by
// recursing: a chain of thousands of `+` is that deep (leftChain).
void forEachChild(const Expr &expr, const std::function<void(const Expr &)> &visit);

enum class StmtKind : uint8_t {
  FunctionDef,
  Assign,
  AugAssign,
  AnnAssign,
  If,
  For,
  While,
  Break,
  Continue,
  Return,
  Pass,
  ExprStmt,
  Import,
  ImportFrom,
  Raise,
  Assert,
};

struct Stmt {
  Stmt(StmtKind k, Location l) : kind(k), loc(std::move(l)) {}
  virtual ~Stmt() = default;
  StmtKind kind;
  Location loc;

  template <class T> T *as() { return kind == T::Kind ? static_cast<T *>(this) : nullptr; }
  template <class T> const T *as() const {
    return kind == T::Kind ? static_cast<const T *>(this) : nullptr;
  }
};
using StmtPtr = std::unique_ptr<Stmt>;
using Body = std::vector<StmtPtr>;

struct Parameter {
  Location loc;
  std::string name;
  ExprPtr annotation;   // may be null
  ExprPtr defaultValue; // may be null
};

struct FunctionDefStmt : Stmt {
  static constexpr StmtKind Kind = StmtKind::FunctionDef;
  explicit FunctionDefStmt(Location l) : Stmt(Kind, std::move(l)) {}
  std::string name;
  std::vector<ExprPtr> decorators; // `@kaji.jit("sig")` is a CallExpr
  std::vector<Parameter> params;
  ExprPtr returns; // may be null
  Body body;
};

// `a = b = value`: targets = {a, b}. A target may be a TupleExpr (unpacking).
struct AssignStmt : Stmt {
  static constexpr StmtKind Kind = StmtKind::Assign;
  AssignStmt(Location l, std::vector<ExprPtr> t, ExprPtr v)
      : Stmt(Kind, std::move(l)), targets(std::move(t)), value(std::move(v)) {}
  std::vector<ExprPtr> targets;
  ExprPtr value;
};

struct AugAssignStmt : Stmt {
  static constexpr StmtKind Kind = StmtKind::AugAssign;
  AugAssignStmt(Location l, ExprPtr t, BinaryOperator o, ExprPtr v)
      : Stmt(Kind, std::move(l)), target(std::move(t)), op(o), value(std::move(v)) {}
  ExprPtr target;
  BinaryOperator op;
  ExprPtr value;
};

// `x: float32 = 0.0`; value may be null.
struct AnnAssignStmt : Stmt {
  static constexpr StmtKind Kind = StmtKind::AnnAssign;
  AnnAssignStmt(Location l, ExprPtr t, ExprPtr a, ExprPtr v)
      : Stmt(Kind, std::move(l)), target(std::move(t)), annotation(std::move(a)),
        value(std::move(v)) {}
  ExprPtr target, annotation, value;
};

// `elif` is an IfStmt alone in orelse.
struct IfStmt : Stmt {
  static constexpr StmtKind Kind = StmtKind::If;
  explicit IfStmt(Location l) : Stmt(Kind, std::move(l)) {}
  ExprPtr test;
  Body body, orelse;
};

struct ForStmt : Stmt {
  static constexpr StmtKind Kind = StmtKind::For;
  explicit ForStmt(Location l) : Stmt(Kind, std::move(l)) {}
  ExprPtr target, iter;
  Body body, orelse;
};

struct WhileStmt : Stmt {
  static constexpr StmtKind Kind = StmtKind::While;
  explicit WhileStmt(Location l) : Stmt(Kind, std::move(l)) {}
  ExprPtr test;
  Body body, orelse;
};

struct BreakStmt : Stmt {
  static constexpr StmtKind Kind = StmtKind::Break;
  explicit BreakStmt(Location l) : Stmt(Kind, std::move(l)) {}
};

struct ContinueStmt : Stmt {
  static constexpr StmtKind Kind = StmtKind::Continue;
  explicit ContinueStmt(Location l) : Stmt(Kind, std::move(l)) {}
};

struct ReturnStmt : Stmt {
  static constexpr StmtKind Kind = StmtKind::Return;
  ReturnStmt(Location l, ExprPtr v) : Stmt(Kind, std::move(l)), value(std::move(v)) {}
  ExprPtr value; // may be null
};

struct PassStmt : Stmt {
  static constexpr StmtKind Kind = StmtKind::Pass;
  explicit PassStmt(Location l) : Stmt(Kind, std::move(l)) {}
};

struct ExprStmt : Stmt {
  static constexpr StmtKind Kind = StmtKind::ExprStmt;
  ExprStmt(Location l, ExprPtr v) : Stmt(Kind, std::move(l)), value(std::move(v)) {}
  ExprPtr value;
};

// `raise ValueError("message")`, `raise ValueError`; a bare `raise` has no exception.
struct RaiseStmt : Stmt {
  static constexpr StmtKind Kind = StmtKind::Raise;
  RaiseStmt(Location l, ExprPtr e) : Stmt(Kind, std::move(l)), exception(std::move(e)) {}
  ExprPtr exception; // may be null
};

// `assert test` or `assert test, message`
struct AssertStmt : Stmt {
  static constexpr StmtKind Kind = StmtKind::Assert;
  AssertStmt(Location l, ExprPtr t, ExprPtr m)
      : Stmt(Kind, std::move(l)), test(std::move(t)), message(std::move(m)) {}
  ExprPtr test;
  ExprPtr message; // may be null
};

struct ImportAlias {
  Location loc;
  std::string name;   // dotted: "numpy", "os.path"
  std::string asName; // empty when there is no `as`
};

// `import numpy as np, math`
struct ImportStmt : Stmt {
  static constexpr StmtKind Kind = StmtKind::Import;
  explicit ImportStmt(Location l) : Stmt(Kind, std::move(l)) {}
  std::vector<ImportAlias> names;
};

// `from kaji import cuda, jit as j`
struct ImportFromStmt : Stmt {
  static constexpr StmtKind Kind = StmtKind::ImportFrom;
  explicit ImportFromStmt(Location l) : Stmt(Kind, std::move(l)) {}
  std::string module; // dotted; relative imports are a parse error
  std::vector<ImportAlias> names;
};

// A top-level statement the parser could not read. A file's host code (f-strings,
// classes, `with` ...) must not stop its kernels from compiling, so the error is
// reported only when something needs the statement: the function it defines, or
// the whole module (`--emit ast`).
struct UnparsedStatement {
  std::string functionName; // the `def`'s name; empty for other statements
  bool decorated = false;   // a `def` with decorators, such as a kernel's @jit
  ir::CompileError error;
};

struct Module {
  std::shared_ptr<const std::string> file;
  Body body;
  std::vector<UnparsedStatement> unparsed;
};

} // namespace kaji::frontend
