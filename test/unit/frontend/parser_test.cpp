#include "kaji/frontend/Parser.h"

#include "ParseTestSupport.h"

#include <gtest/gtest.h>

#include <random>

using namespace kaji::frontend;
using kaji::frontend::test::describeError;
using kaji::frontend::test::dump;
using kaji::frontend::test::makeSource;

namespace {

// Fully parenthesised prefix form of an expression, to check grouping.
std::string sexpr(const Expr &e) {
  auto list = [](const std::vector<ExprPtr> &elements) {
    std::string out;
    for (const ExprPtr &element : elements)
      out.append(" ").append(sexpr(*element));
    return out;
  };
  switch (e.kind) {
  case ExprKind::BinOp: {
    const auto *bin = e.as<BinOpExpr>();
    return std::string("(") + spelling(bin->op) + " " + sexpr(*bin->lhs) + " " + sexpr(*bin->rhs) +
           ")";
  }
  case ExprKind::UnaryOp:
    return std::string("(") + spelling(e.as<UnaryOpExpr>()->op) + " " +
           sexpr(*e.as<UnaryOpExpr>()->operand) + ")";
  case ExprKind::BoolOp:
    return std::string("(") + (e.as<BoolOpExpr>()->op == BoolOpExpr::Op::And ? "and" : "or") +
           list(e.as<BoolOpExpr>()->values) + ")";
  case ExprKind::Compare: {
    const auto *compare = e.as<CompareExpr>();
    std::string out = "(cmp " + sexpr(*compare->left);
    for (size_t i = 0; i < compare->ops.size(); ++i)
      out += std::string(" ") + spelling(compare->ops[i]) + " " + sexpr(*compare->comparators[i]);
    return out + ")";
  }
  case ExprKind::IfExp:
    return "(if " + sexpr(*e.as<IfExpExpr>()->test) + " " + sexpr(*e.as<IfExpExpr>()->body) + " " +
           sexpr(*e.as<IfExpExpr>()->orelse) + ")";
  case ExprKind::Call:
    return "(call " + sexpr(*e.as<CallExpr>()->func) + list(e.as<CallExpr>()->args) + ")";
  case ExprKind::Subscript:
    return "(sub " + sexpr(*e.as<SubscriptExpr>()->value) + " " +
           sexpr(*e.as<SubscriptExpr>()->index) + ")";
  case ExprKind::Slice: {
    const auto *slice = e.as<SliceExpr>();
    auto part = [](const ExprPtr &p) { return p ? sexpr(*p) : std::string("_"); };
    return "(slice " + part(slice->lower) + " " + part(slice->upper) + " " + part(slice->step) +
           ")";
  }
  case ExprKind::Attribute:
    return "(. " + sexpr(*e.as<AttributeExpr>()->value) + " " + e.as<AttributeExpr>()->attr + ")";
  case ExprKind::Tuple:
    return "(tuple" + list(e.as<TupleExpr>()->elts) + ")";
  case ExprKind::List:
    return "(list" + list(e.as<ListExpr>()->elts) + ")";
  default:
    return unparse(e);
  }
}

const Expr &onlyExpression(const Module &module) {
  const auto *stmt = module.body.at(0)->as<ExprStmt>();
  if (!stmt)
    throw std::runtime_error("not an expression statement");
  return *stmt->value;
}

std::string grouping(const std::string &expression) {
  auto module = parseModule(makeSource(expression + "\n"));
  return sexpr(onlyExpression(*module));
}

std::string roundTrip(const std::string &expression) {
  auto module = parseModule(makeSource(expression + "\n"));
  return unparse(onlyExpression(*module));
}

TEST(Parser, ArithmeticPrecedence) {
  EXPECT_EQ(grouping("a + b * c - d"), "(- (+ a (* b c)) d)");
  EXPECT_EQ(grouping("a * b / c // d % e @ f"), "(@ (% (// (/ (* a b) c) d) e) f)");
  EXPECT_EQ(grouping("a | b ^ c & d << e + f"), "(| a (^ b (& c (<< d (+ e f)))))");
  EXPECT_EQ(grouping("a >> b << c"), "(<< (>> a b) c)");
  EXPECT_EQ(grouping("(a + b) * c"), "(* (+ a b) c)");
}

TEST(Parser, PowerAndUnary) {
  EXPECT_EQ(grouping("-2**2"), "(- (** 2 2))");
  EXPECT_EQ(grouping("2**-1"), "(** 2 (- 1))");
  EXPECT_EQ(grouping("a**b**c"), "(** a (** b c))");
  EXPECT_EQ(grouping("-a * ~b + +c"), "(+ (* (- a) (~ b)) (+ c))");
  EXPECT_EQ(grouping("- - a"), "(- (- a))");
  EXPECT_EQ(grouping("a.b**2"), "(** (. a b) 2)");
}

TEST(Parser, BooleanAndConditional) {
  EXPECT_EQ(grouping("a or b and not c or d"), "(or a (and b (not c)) d)");
  EXPECT_EQ(grouping("not a == b"), "(not (cmp a == b))");
  EXPECT_EQ(grouping("x if a or b else y if c else z"), "(if (or a b) x (if c y z))");
  EXPECT_EQ(grouping("a and b and c"), "(and a b c)");
}

TEST(Parser, ChainedComparisons) {
  EXPECT_EQ(grouping("a < b <= c"), "(cmp a < b <= c)");
  EXPECT_EQ(grouping("a is not b is c"), "(cmp a is not b is c)");
  EXPECT_EQ(grouping("a not in b in c != d"), "(cmp a not in b in c != d)");
  EXPECT_EQ(grouping("a == b > c >= d"), "(cmp a == b > c >= d)");
  EXPECT_EQ(grouping("a | b < c"), "(cmp (| a b) < c)");
}

TEST(Parser, TrailersSubscriptsAndSlices) {
  EXPECT_EQ(grouping("f(a)(b).c[d]"), "(sub (. (call (call f a) b) c) d)");
  EXPECT_EQ(grouping("a[i, j]"), "(sub a (tuple i j))");
  EXPECT_EQ(grouping("a[i,]"), "(sub a (tuple i))");
  EXPECT_EQ(grouping("a[1:n:2]"), "(sub a (slice 1 n 2))");
  EXPECT_EQ(grouping("a[:]"), "(sub a (slice _ _ _))");
  EXPECT_EQ(grouping("a[::2]"), "(sub a (slice _ _ 2))");
  EXPECT_EQ(grouping("a[:n, ::1]"), "(sub a (tuple (slice _ n _) (slice _ _ 1)))");
  EXPECT_EQ(grouping("a[1:]"), "(sub a (slice 1 _ _))");
}

TEST(Parser, CallArguments) {
  auto module = parseModule(makeSource("f(a, b + 1, key=2, other=x)\n"));
  const auto *call = onlyExpression(*module).as<CallExpr>();
  ASSERT_NE(call, nullptr);
  ASSERT_EQ(call->args.size(), 2u);
  ASSERT_EQ(call->keywords.size(), 2u);
  EXPECT_EQ(call->keywords[0].name, "key");
  EXPECT_EQ(call->keywords[1].name, "other");
  EXPECT_EQ(unparse(*call->keywords[1].value), "x");
  EXPECT_EQ(call->keywords[1].loc.col, 20u);
  EXPECT_EQ(grouping("f()"), "(call f)");
  EXPECT_EQ(grouping("f(a,)"), "(call f a)");
}

TEST(Parser, TuplesListsAndLiterals) {
  EXPECT_EQ(grouping("(a, b)"), "(tuple a b)");
  EXPECT_EQ(grouping("()"), "(tuple)");
  EXPECT_EQ(grouping("(a,)"), "(tuple a)");
  EXPECT_EQ(grouping("a, b,"), "(tuple a b)");
  EXPECT_EQ(grouping("[1, 2.5, 'x', True, False, None]"), "(list 1 2.5 'x' True False None)");
  EXPECT_EQ(grouping("[]"), "(list)");
  EXPECT_EQ(grouping("'a' 'b'  \"c\""), "'abc'");
}

TEST(Parser, NodeLocationsAreFirstCharacters) {
  auto module = parseModule(makeSource("x = (a + b) * c\n"));
  const auto *assign = module->body[0]->as<AssignStmt>();
  ASSERT_NE(assign, nullptr);
  EXPECT_EQ(assign->value->loc.col, 5u);                        // the '('
  EXPECT_EQ(assign->value->as<BinOpExpr>()->lhs->loc.col, 6u);  // a + b
  EXPECT_EQ(assign->value->as<BinOpExpr>()->rhs->loc.col, 15u); // c
  EXPECT_EQ(*assign->value->loc.file, "k.py");
  EXPECT_EQ(*module->file, "k.py");
}

TEST(Parser, Assignments) {
  auto module = parseModule(makeSource("a = b = 0\na, b = b, a\n[x, (y, z)] = t\n"));
  const auto *chained = module->body[0]->as<AssignStmt>();
  ASSERT_NE(chained, nullptr);
  EXPECT_EQ(chained->targets.size(), 2u);
  EXPECT_EQ(unparse(*chained->value), "0");
  const auto *swap = module->body[1]->as<AssignStmt>();
  ASSERT_NE(swap, nullptr);
  EXPECT_EQ(sexpr(*swap->targets[0]), "(tuple a b)");
  EXPECT_EQ(sexpr(*swap->value), "(tuple b a)");
  EXPECT_EQ(sexpr(*module->body[2]->as<AssignStmt>()->targets[0]), "(list x (tuple y z))");
}

TEST(Parser, AugmentedAssignmentsCoverEveryOperator) {
  const std::pair<const char *, BinaryOperator> cases[] = {
      {"+=", BinaryOperator::Add},       {"-=", BinaryOperator::Sub},
      {"*=", BinaryOperator::Mul},       {"/=", BinaryOperator::Div},
      {"//=", BinaryOperator::FloorDiv}, {"%=", BinaryOperator::Mod},
      {"**=", BinaryOperator::Pow},      {"@=", BinaryOperator::MatMul},
      {"<<=", BinaryOperator::LShift},   {">>=", BinaryOperator::RShift},
      {"&=", BinaryOperator::BitAnd},    {"|=", BinaryOperator::BitOr},
      {"^=", BinaryOperator::BitXor}};
  for (const auto &[spellingText, op] : cases) {
    auto module = parseModule(makeSource(std::string("x[i] ") + spellingText + " 2\n"));
    const auto *aug = module->body[0]->as<AugAssignStmt>();
    ASSERT_NE(aug, nullptr) << spellingText;
    EXPECT_EQ(aug->op, op) << spellingText;
    EXPECT_EQ(std::string(spelling(aug->op)) + "=", spellingText);
  }
}

TEST(Parser, AnnotatedAssignment) {
  auto module = parseModule(makeSource("x: float32 = 0.0\ny: int\n"));
  const auto *ann = module->body[0]->as<AnnAssignStmt>();
  ASSERT_NE(ann, nullptr);
  EXPECT_EQ(unparse(*ann->annotation), "float32");
  EXPECT_EQ(unparse(*ann->value), "0.0");
  EXPECT_EQ(module->body[1]->as<AnnAssignStmt>()->value, nullptr);
}

TEST(Parser, FunctionDefinitions) {
  auto module = parseModule(makeSource("@kaji.jit\n"
                                       "@cuda.jit(\"void(float32[:])\")\n"
                                       "@jit(device=True)\n"
                                       "def f(a, b: int = 1, c=2,) -> float:\n"
                                       "    \"\"\"doc\"\"\"\n"
                                       "    return a\n"));
  const auto *fn = module->body[0]->as<FunctionDefStmt>();
  ASSERT_NE(fn, nullptr);
  EXPECT_EQ(fn->name, "f");
  EXPECT_EQ(fn->loc.line, 4u);
  ASSERT_EQ(fn->decorators.size(), 3u);
  EXPECT_EQ(unparse(*fn->decorators[0]), "kaji.jit");
  EXPECT_EQ(unparse(*fn->decorators[1]), "cuda.jit('void(float32[:])')");
  EXPECT_EQ(unparse(*fn->decorators[2]), "jit(device=True)");
  ASSERT_EQ(fn->params.size(), 3u);
  EXPECT_EQ(fn->params[0].annotation, nullptr);
  EXPECT_EQ(unparse(*fn->params[1].annotation), "int");
  EXPECT_EQ(unparse(*fn->params[1].defaultValue), "1");
  EXPECT_EQ(fn->params[2].name, "c");
  EXPECT_EQ(unparse(*fn->returns), "float");
  ASSERT_EQ(fn->body.size(), 2u);
  EXPECT_EQ(fn->body[0]->as<ExprStmt>()->value->as<StringLiteralExpr>()->value, "doc");
  EXPECT_NE(fn->body[1]->as<ReturnStmt>(), nullptr);
}

TEST(Parser, ControlFlow) {
  EXPECT_EQ(dump("if a:\n    pass\nelif b:\n    break\nelse:\n    continue\n"),
            "If <1:1>\n"
            "  Name a <1:4>\n"
            "  Pass <2:5>\n"
            "  Else\n"
            "    If <3:1>\n"
            "      Name b <3:6>\n"
            "      Break <4:5>\n"
            "      Else\n"
            "        Continue <6:5>\n");
  EXPECT_EQ(dump("for i, j in a, b:\n    pass\nelse:\n    pass\n"), "For <1:1>\n"
                                                                    "  Tuple <1:5>\n"
                                                                    "    Name i <1:5>\n"
                                                                    "    Name j <1:8>\n"
                                                                    "  Tuple <1:13>\n"
                                                                    "    Name a <1:13>\n"
                                                                    "    Name b <1:16>\n"
                                                                    "  Pass <2:5>\n"
                                                                    "  Else\n"
                                                                    "    Pass <4:5>\n");
  EXPECT_EQ(dump("while x: x -= 1; return\n"), "While <1:1>\n"
                                               "  Name x <1:7>\n"
                                               "  AugAssign -= <1:10>\n"
                                               "    Name x <1:10>\n"
                                               "    Int 1 <1:15>\n"
                                               "  Return <1:18>\n");
}

TEST(Parser, Imports) {
  EXPECT_EQ(dump("import numpy as np, os.path\nfrom kaji import (cuda, jit as j,)\n"),
            "Import <1:1>\n"
            "  Alias numpy as np <1:8>\n"
            "  Alias os.path <1:21>\n"
            "ImportFrom kaji <2:1>\n"
            "  Alias cuda <2:19>\n"
            "  Alias jit as j <2:25>\n");
}

TEST(Parser, DumpShowsExpressionDetails) {
  EXPECT_EQ(dump("r = f(-x[1:], k=a if b else None)\n"), "Assign <1:1>\n"
                                                         "  Name r <1:1>\n"
                                                         "  Call <1:5>\n"
                                                         "    Name f <1:5>\n"
                                                         "    UnaryOp - <1:7>\n"
                                                         "      Subscript <1:8>\n"
                                                         "        Name x <1:8>\n"
                                                         "        Slice <1:10>\n"
                                                         "          Lower\n"
                                                         "            Int 1 <1:10>\n"
                                                         "    Keyword k <1:15>\n"
                                                         "      IfExp <1:17>\n"
                                                         "        Name b <1:22>\n"
                                                         "        Name a <1:17>\n"
                                                         "        None <1:29>\n");
  EXPECT_EQ(dump("x: int = [a < b, not c, 'q', 2.5, (), a or b]\n"), "AnnAssign <1:1>\n"
                                                                     "  Name x <1:1>\n"
                                                                     "  Annotation\n"
                                                                     "    Name int <1:4>\n"
                                                                     "  List <1:10>\n"
                                                                     "    Compare < <1:11>\n"
                                                                     "      Name a <1:11>\n"
                                                                     "      Name b <1:15>\n"
                                                                     "    UnaryOp not <1:18>\n"
                                                                     "      Name c <1:22>\n"
                                                                     "    String 'q' <1:25>\n"
                                                                     "    Float 2.5 <1:30>\n"
                                                                     "    Tuple <1:35>\n"
                                                                     "    BoolOp or <1:39>\n"
                                                                     "      Name a <1:39>\n"
                                                                     "      Name b <1:44>\n");
}

TEST(Parser, UnparseParenthesisesByPrecedence) {
  EXPECT_EQ(roundTrip("x[i]*2.0"), "x[i] * 2.0");
  EXPECT_EQ(roundTrip("(a+b)*c"), "(a + b) * c");
  EXPECT_EQ(roundTrip("a+(b*c)"), "a + b * c");
  EXPECT_EQ(roundTrip("a-(b-c)"), "a - (b - c)");
  EXPECT_EQ(roundTrip("(a-b)-c"), "a - b - c");
  EXPECT_EQ(roundTrip("(-2)**2"), "(-2) ** 2");
  EXPECT_EQ(roundTrip("-2**2"), "-2 ** 2");
  EXPECT_EQ(roundTrip("(a**b)**c"), "(a ** b) ** c");
  EXPECT_EQ(roundTrip("a**b**c"), "a ** b ** c");
  EXPECT_EQ(roundTrip("not (a and b)"), "not (a and b)");
  EXPECT_EQ(roundTrip("(a or b) and c"), "(a or b) and c");
  EXPECT_EQ(roundTrip("(a < b) < c"), "(a < b) < c");
  EXPECT_EQ(roundTrip("(x if c else y) + 1"), "(x if c else y) + 1");
  EXPECT_EQ(roundTrip("f(a, b=1)[1:n:2, ::1].y"), "f(a, b=1)[1:n:2, ::1].y");
  EXPECT_EQ(roundTrip("a[i,]"), "a[i,]");
  EXPECT_EQ(roundTrip("(1,)"), "(1,)");
  EXPECT_EQ(roundTrip("1 .real"), "1 .real");
  EXPECT_EQ(roundTrip("[1e-05, 1.0, 1e16, 1e400]"), "[1e-05, 1.0, 1e+16, 1e309]");
  EXPECT_EQ(roundTrip("\"it's\" '\\n'"), "\"it's\\n\"");
  EXPECT_EQ(roundTrip("a is not b not in c"), "a is not b not in c");
  EXPECT_EQ(roundTrip("(a, b)"), "(a, b)");
  EXPECT_EQ(roundTrip("-(-a)"), "--a");
}

TEST(Parser, SyntaxErrors) {
  EXPECT_EQ(describeError("x = \n"), "1:4: invalid syntax");
  EXPECT_EQ(describeError("x y\n"), "1:3: invalid syntax");
  EXPECT_EQ(describeError("if x\n    pass\n"), "1:5: expected ':'");
  EXPECT_EQ(describeError("def f()\n    pass\n"), "1:8: expected ':'");
  EXPECT_EQ(describeError("def f:\n    pass\n"), "1:6: expected '('");
  EXPECT_EQ(describeError("else:\n    pass\n"), "1:1: invalid syntax");
  EXPECT_EQ(describeError("x = a if b\n"), "1:11: expected 'else' after 'if' expression");
  EXPECT_EQ(describeError("(a b)\n"), "1:4: invalid syntax");
  EXPECT_EQ(describeError("for x y:\n    pass\n"), "1:7: invalid syntax");
  EXPECT_EQ(describeError("x = a +\n"), "1:8: invalid syntax");
  EXPECT_EQ(describeError("@kaji.jit\nx = 1\n"), "2:1: invalid syntax");
}

TEST(Parser, IndentationErrors) {
  EXPECT_EQ(describeError("  x = 1\n"), "1:3: unexpected indent");
  EXPECT_EQ(describeError("x = 1\n    y = 2\n"), "2:5: unexpected indent");
  EXPECT_EQ(describeError("def f():\n    x = 1\n        y = 2\n"), "3:9: unexpected indent");
  EXPECT_EQ(describeError("if a:\n\n\nx = 3\n"),
            "4:1: expected an indented block after 'if' statement on line 1");
  EXPECT_EQ(describeError("def f():\n    for i in r:\n    pass\n"),
            "3:5: expected an indented block after 'for' statement on line 2");
  EXPECT_EQ(describeError("while a:\n# c\n"),
            "1:9: expected an indented block after 'while' statement on line 1");
  EXPECT_EQ(describeError("def f():\n"),
            "1:9: expected an indented block after function definition on line 1");
  EXPECT_EQ(describeError("if a:\n    pass\nelse:\nx\n"),
            "4:1: expected an indented block after 'else' statement on line 3");
  EXPECT_EQ(describeError("if a:\n    pass\nelif b:\nx\n"),
            "4:1: expected an indented block after 'elif' statement on line 3");
}

TEST(Parser, InvalidTargets) {
  EXPECT_EQ(describeError("f() = 1\n"), "1:1: cannot assign to function call");
  EXPECT_EQ(describeError("a, 1 = x\n"), "1:4: cannot assign to literal");
  EXPECT_EQ(describeError("a + b = x\n"), "1:1: cannot assign to expression");
  EXPECT_EQ(describeError("a = b < c = 2\n"), "1:5: cannot assign to comparison");
  EXPECT_EQ(describeError("None = 1\n"), "1:1: cannot assign to None");
  EXPECT_EQ(describeError("for f() in x:\n    pass\n"), "1:5: cannot assign to function call");
  EXPECT_EQ(describeError("a, b += 1\n"),
            "1:1: 'tuple' is an illegal expression for augmented assignment");
  EXPECT_EQ(describeError("a, b: int\n"), "1:1: only single target (not tuple) can be annotated");
  EXPECT_EQ(describeError("f(): int\n"), "1:1: illegal target for annotation");
}

TEST(Parser, ParameterAndArgumentErrors) {
  EXPECT_EQ(describeError("def f(a, a):\n    pass\n"),
            "1:10: duplicate argument 'a' in function definition");
  EXPECT_EQ(describeError("def f(a=1, b):\n    pass\n"),
            "1:12: non-default argument follows default argument");
  EXPECT_EQ(describeError("def f(*args):\n    pass\n"),
            "1:7: variadic parameters ('*args', '**kwargs' and bare '*') are not supported in "
            "kaji kernels");
  EXPECT_EQ(describeError("def f(a, /):\n    pass\n"),
            "1:10: positional-only parameters ('/') are not supported in kaji kernels");
  EXPECT_EQ(describeError("f(a=1, b)\n"), "1:8: positional argument follows keyword argument");
  EXPECT_EQ(describeError("f(a=1, a=2)\n"), "1:8: keyword argument repeated: a");
  EXPECT_EQ(describeError("f(a.b=1)\n"),
            "1:3: expression cannot contain assignment, perhaps you meant \"==\"?");
}

// Argument unpacking parses (a kernel's decorator may hold it); lowering rejects it.
TEST(Parser, ArgumentUnpackingParses) { EXPECT_EQ(roundTrip("f(*a, **b.c)"), "f(*a, **b.c)"); }

TEST(Parser, UnsupportedConstructsAreRejectedAtTheKeyword) {
  const std::pair<const char *, const char *> cases[] = {
      {"class A:\n    pass\n", "1:1: 'class' is not supported in kaji kernels"},
      {"x = lambda: 1\n", "1:5: 'lambda' is not supported in kaji kernels"},
      {"with a:\n    pass\n", "1:1: 'with' is not supported in kaji kernels"},
      {"try:\n    pass\nexcept:\n    pass\n", "1:1: 'try' is not supported in kaji kernels"},
      {"raise E from F\n", "1:9: 'raise ... from ...' is not supported in kernels"},
      {"del x\n", "1:1: 'del' is not supported in kaji kernels"},
      {"def f():\n    global g\n", "2:5: 'global' is not supported in kaji kernels"},
      {"def f():\n    nonlocal g\n", "2:5: 'nonlocal' is not supported in kaji kernels"},
      {"def f():\n    yield 1\n", "2:5: 'yield' is not supported in kaji kernels"},
      {"def f():\n    x = await g\n", "2:9: 'await' is not supported in kaji kernels"},
      {"async def f():\n    pass\n", "1:1: 'async' is not supported in kaji kernels"},
      {"@jit\nasync def f():\n    pass\n", "2:1: 'async' is not supported in kaji kernels"},
      {"@jit\nclass A:\n    pass\n", "2:1: 'class' is not supported in kaji kernels"},
      {"match x:\n    case 1:\n        pass\n", "1:1: 'match' is not supported in kaji kernels"},
      {"if (n := 10) > 5:\n    pass\n", "1:7: ':=' is not supported in kaji kernels"},
      {"x = ...\n", "1:5: '...' is not supported in kaji kernels"},
      {"x = {1: 2}\n", "1:5: dict and set displays are not supported in kaji kernels"},
      {"x = [i for i in r]\n",
       "1:8: comprehensions and generator expressions are not supported in kaji kernels"},
      {"x = sum(i for i in r)\n",
       "1:11: comprehensions and generator expressions are not supported in kaji kernels"},
      {"a, *b = x\n", "1:4: starred expressions ('*') are not supported in kaji kernels"},
      {"from . import x\n", "1:6: relative imports are not supported in kaji kernels"},
      {"from m import *\n", "1:15: 'from ... import *' is not supported in kaji kernels"},
  };
  for (const auto &[source, expected] : cases)
    EXPECT_EQ(describeError(source), expected) << source;
  // `match` stays an ordinary name elsewhere.
  EXPECT_EQ(grouping("match(x)[1:2]"), "(sub (call match x) (slice 1 2 _))");
}

TEST(Parser, NestingLimits) {
  const std::string tooDeepMessage =
      "expression nested too deeply (more than 200 levels of parentheses, operands and calls; a "
      "chain such as a + b + c counts as one level)";
  auto messageOf = [](const std::string &source) {
    std::string error = describeError(source);
    return error.substr(error.find(": ") + 2);
  };
  std::string deep(199, '(');
  deep += "x" + std::string(199, ')');
  EXPECT_EQ(grouping(deep), "x");
  std::string tooDeep(300, '(');
  tooDeep += "x" + std::string(300, ')');
  EXPECT_EQ(messageOf(tooDeep + "\n"), tooDeepMessage);
  EXPECT_EQ(describeError(std::string(100000, '-') + "x\n"), "1:200: " + tooDeepMessage);
  EXPECT_EQ(describeError("x = " + std::string(100000, '~') + "x\n"), "1:204: " + tooDeepMessage);
  EXPECT_EQ(describeError(std::string(100000, '[') + std::string(100000, ']') + "\n"),
            "1:201: " + tooDeepMessage);
  std::string attributes = "x";
  for (int i = 0; i < 100000; ++i)
    attributes += ".a";
  EXPECT_EQ(describeError(attributes + "\n"), "1:1: " + tooDeepMessage);
  std::string power = "x";
  for (int i = 0; i < 100000; ++i)
    power += "**x";
  EXPECT_EQ(messageOf(power + "\n"), tooDeepMessage);
}

// A left-leaning chain is one level of nesting however long: every pass walks it in a loop.
TEST(Parser, LongChainsAreOneLevel) {
  std::string chain = "x";
  for (int i = 0; i < 100000; ++i)
    chain += i % 2 ? "+x" : "-x*y";
  auto module = parseModule(makeSource(chain + "\n"));
  ASSERT_EQ(module->body.size(), 1u);
  // Two chains, one inside parentheses as the first operand of the other, are one chain.
  std::string chain150 = "x";
  for (int i = 0; i < 150; ++i)
    chain150 += "+x";
  EXPECT_NO_THROW(parseModule(makeSource("(" + chain150 + ")" + chain150.substr(1) + "\n")));
  // A chain in a right operand is a level deeper: 198 parentheses around chains still fit.
  std::string nested = "x";
  for (int i = 0; i < 198; ++i)
    nested = "x - (" + nested + " + x + x)";
  EXPECT_NO_THROW(parseModule(makeSource(nested + "\n")));
  EXPECT_EQ(grouping("a - b + c * d - e"), "(- (+ (- a b) (* c d)) e)");
  EXPECT_EQ(roundTrip("(a - b) * c - (d + e) ** f ** g + h"),
            "(a - b) * c - (d + e) ** f ** g + h");
  EXPECT_EQ(roundTrip("(a + b) * c * (d - e)"), "(a + b) * c * (d - e)");
  EXPECT_EQ(roundTrip("((a ** b) ** c) ** d"), "((a ** b) ** c) ** d");
  EXPECT_EQ(roundTrip("((a | b) & c) << d"), "((a | b) & c) << d");
}

TEST(Parser, LongElifChainsAreBounded) {
  std::string source = "if a:\n    pass\n";
  for (int i = 0; i < 900; ++i)
    source += "elif a:\n    pass\n";
  auto module = parseModule(makeSource(source));
  EXPECT_EQ(module->body.size(), 1u);
  for (int i = 0; i < 100000; ++i)
    source += "elif a:\n    pass\n";
  EXPECT_EQ(describeError(source).substr(describeError(source).find(": ") + 2),
            "statements nested too deeply ('elif' branches count as nesting)");
}

TEST(Parser, LargeInputsParseInLinearTime) {
  // Quadratic behaviour would take minutes here; linear takes milliseconds.
  std::string source = "def f(a):\n";
  for (int i = 0; i < 100000; ++i)
    source += "    a[" + std::to_string(i) + "] = a[0] * 2.0 + 'x' 'y'  # note\n";
  EXPECT_EQ(parseModule(makeSource(source))->body[0]->as<FunctionDefStmt>()->body.size(), 100000u);
  std::string strings = "x = " + std::string(100000 * 3, ' ');
  for (int i = 0; i < 100000; ++i)
    strings += "'ab' ";
  EXPECT_EQ(parseModule(makeSource(strings))->body.size(), 1u);
  std::string args = "f(";
  for (int i = 0; i < 200000; ++i)
    args += "a, ";
  args += ")\n";
  EXPECT_EQ(onlyExpression(*parseModule(makeSource(args))).as<CallExpr>()->args.size(), 200000u);
}

// A kernel using most of the grammar, for the robustness tests below.
const char *kSampleKernel = R"py(import math
from kaji import cuda, jit as j

@cuda.jit("void(float32[:], float32, float32[:, ::1])")
def kernel(out, a: float, x, n=10) -> None:
    """Docstring with 'quotes'."""
    i, j = cuda.grid(2)
    if i < x.shape[0] and not (j >= n or i is None):
        acc = 0.0
        for k in range(0, n, 2):
            acc += x[i, k] ** 2 if k % 2 == 0 else -x[i, k:k + 1][0]
        else:
            acc = acc // 3
        while acc > 1e-3:  # halve
            acc /= 2; continue
        out[i] = math.sqrt(acc) * a + \
            0x_ff - 0o7 + 0b1 + 1_000.5
    elif i == -1:
        pass
    else:
        return
)py";

TEST(Parser, SampleKernelParses) {
  auto module = parseModule(makeSource(kSampleKernel));
  EXPECT_EQ(module->body.size(), 3u);
}

TEST(Parser, EveryPrefixOfAKernelParsesOrThrowsCompileError) {
  std::string sample = kSampleKernel;
  for (size_t length = 0; length <= sample.size(); ++length) {
    try {
      parseModule(makeSource(sample.substr(0, length)));
    } catch (const kaji::ir::CompileError &error) {
      EXPECT_TRUE(error.location().known()) << "prefix " << length << ": " << error.what();
    }
  }
}

TEST(Parser, RandomInputsParseOrThrowCompileError) {
  std::mt19937 random(12345);
  const std::string alphabet = "abc_019 \t\n\\'\"#()[]{}:;,.=+-*/%<>!&|^~@jexob\r\xC3\xA9";
  std::string sample = kSampleKernel;
  for (int iteration = 0; iteration < 3000; ++iteration) {
    std::string text;
    if (iteration % 3 == 0) {
      std::uniform_int_distribution<int> byte(0, 255);
      for (int i = 0; i < 64; ++i)
        text += static_cast<char>(byte(random));
    } else if (iteration % 3 == 1) {
      std::uniform_int_distribution<size_t> pick(0, alphabet.size() - 1);
      for (int i = 0; i < 80; ++i)
        text += alphabet[pick(random)];
    } else {
      // Mutate the sample kernel: delete, duplicate or replace a few characters.
      text = sample;
      std::uniform_int_distribution<size_t> position(0, text.size() - 1);
      std::uniform_int_distribution<size_t> pick(0, alphabet.size() - 1);
      for (int edit = 0; edit < 3; ++edit) {
        size_t at = position(random) % text.size();
        switch (edit) {
        case 0:
          text.erase(at, 1);
          break;
        case 1:
          text.insert(at, 1, alphabet[pick(random)]);
          break;
        default:
          text[at] = alphabet[pick(random)];
        }
      }
    }
    try {
      auto module = parseModule(makeSource(text));
      EXPECT_NO_THROW(dumpAST(*module));
    } catch (const kaji::ir::CompileError &) {
    }
  }
}

} // namespace
