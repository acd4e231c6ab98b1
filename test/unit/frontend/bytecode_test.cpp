// translateBytecode on small code objects written out as CPython 3.12's `dis` lists them
// (3.11's and 3.13's where a test says so).
#include "kaji/frontend/Bytecode.h"
#include "kaji/frontend/Parser.h"

#include <gtest/gtest.h>

namespace kaji::frontend {
namespace {

BytecodeConstant none() { return {}; }

BytecodeConstant integer(uint64_t value) {
  BytecodeConstant constant;
  constant.kind = BytecodeConstant::Kind::Int;
  constant.magnitude = value;
  return constant;
}

// def f(x, y): (CPython 3.12) with `instructions` as its body, each on line 2 onwards.
CodeObject function(std::vector<BytecodeInstruction> instructions) {
  CodeObject code;
  code.pythonMinor = 12;
  code.name = std::string("f"); // not a literal: GCC 12 warns -Wrestrict wrongly
  code.fileName = "<string>";
  code.firstLine = 1;
  code.argCount = 2;
  code.varNames = {"x", "y"};
  code.constants = {none(), integer(1)};
  unsigned offset = 0;
  for (BytecodeInstruction &instruction : instructions) {
    instruction.offset = offset;
    offset += 2;
    if (!instruction.line)
      instruction.line = 2;
    instruction.column = 5;
  }
  code.instructions = std::move(instructions);
  return code;
}

BytecodeInstruction op(std::string name, int64_t arg = 0, std::string text = "",
                       int64_t target = -1, unsigned line = 0) {
  BytecodeInstruction instruction;
  instruction.opname = std::move(name);
  instruction.arg = arg;
  instruction.argText = std::move(text);
  instruction.jumpTarget = target;
  instruction.line = line;
  return instruction;
}

std::string translated(const CodeObject &code) { return dumpAST(*translateBytecode(code)); }

std::string errorOf(const CodeObject &code) {
  try {
    translateBytecode(code);
  } catch (const ir::CompileError &error) {
    return error.location().fileName() + ":" + std::to_string(error.location().line) + ": " +
           error.what();
  }
  return "no error";
}

TEST(BytecodeTranslation, StraightLineCodeBecomesStatements) {
  std::string ast = translated(
      function({op("RESUME"), op("LOAD_FAST", 0, "x"), op("LOAD_CONST", 1), op("BINARY_OP", 0, "+"),
                op("STORE_FAST", 1, "y"), op("LOAD_FAST", 1, "y"), op("RETURN_VALUE")}));
  EXPECT_NE(ast.find("FunctionDef f"), std::string::npos) << ast;
  EXPECT_NE(ast.find("Param y"), std::string::npos) << ast;
  EXPECT_NE(ast.find("BinOp +"), std::string::npos) << ast;
  EXPECT_NE(ast.find("Return"), std::string::npos) << ast;
}

TEST(BytecodeTranslation, ConditionalJumpBecomesIfElse) {
  // if x: y = 1
  // else: y = x
  // return y
  std::string ast = translated(
      function({op("LOAD_FAST", 0, "x"), op("POP_JUMP_IF_FALSE", 0, "", 10), op("LOAD_CONST", 1),
                op("STORE_FAST", 1, "y"), op("JUMP_FORWARD", 0, "", 14), op("LOAD_FAST", 0, "x"),
                op("STORE_FAST", 1, "y"), op("LOAD_FAST", 1, "y"), op("RETURN_VALUE")}));
  size_t test = ast.find("If");
  size_t otherwise = ast.find("Else");
  ASSERT_NE(test, std::string::npos) << ast;
  ASSERT_NE(otherwise, std::string::npos) << ast;
  EXPECT_LT(ast.find("Int 1"), otherwise) << ast;
  EXPECT_GT(ast.find("Return"), otherwise) << ast;
}

TEST(BytecodeTranslation, CopiedConditionIsAValueAnd) {
  // return x and y
  std::string ast = translated(
      function({op("LOAD_FAST", 0, "x"), op("COPY", 1), op("POP_JUMP_IF_FALSE", 0, "", 10),
                op("POP_TOP"), op("LOAD_FAST", 1, "y"), op("RETURN_VALUE")}));
  EXPECT_NE(ast.find("BoolOp and"), std::string::npos) << ast;
}

TEST(BytecodeTranslation, UnknownPythonVersionIsAnError) {
  CodeObject code = function({op("LOAD_CONST", 0), op("RETURN_VALUE")});
  code.pythonMinor = 10;
  EXPECT_NE(errorOf(code).find("CPython 3.11 to 3.13, not 3.10"), std::string::npos)
      << errorOf(code);
}

TEST(BytecodeTranslation, ExceptionTableIsAnError) {
  CodeObject code = function({op("LOAD_CONST", 0), op("RETURN_VALUE")});
  code.hasExceptionTable = true;
  EXPECT_NE(errorOf(code).find("cannot compile 'try' or 'with' in 'f'"), std::string::npos)
      << errorOf(code);
}

TEST(BytecodeTranslation, UnsupportedInstructionNamesTheConstructAtItsLine) {
  std::string error =
      errorOf(function({op("LOAD_CONST", 0), op("YIELD_VALUE", 0, "", -1, 7), op("RETURN_VALUE")}));
  EXPECT_EQ(error.rfind("<string>:7: kaji cannot compile 'yield' in 'f' from bytecode", 0), 0u)
      << error;
  EXPECT_NE(error.find("define the kernel in a file"), std::string::npos) << error;
}

TEST(BytecodeTranslation, JumpBetweenInstructionsIsAnError) {
  std::string error =
      errorOf(function({op("JUMP_FORWARD", 0, "", 3), op("LOAD_CONST", 0), op("RETURN_VALUE")}));
  EXPECT_NE(error.find("cannot compile a jump into an instruction"), std::string::npos) << error;
}

size_t occurrences(const std::string &text, const std::string &word) {
  size_t count = 0;
  for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1))
    ++count;
  return count;
}

TEST(BytecodeTranslation, ConditionalExpressionAsAConditionIsOne) {
  // return x if (a if b else c) else y
  CodeObject code = function(
      {op("LOAD_FAST", 1, "b"), op("POP_JUMP_IF_FALSE", 0, "", 10), op("LOAD_FAST", 0, "a"),
       op("POP_JUMP_IF_FALSE", 0, "", 18), op("JUMP_FORWARD", 0, "", 14), op("LOAD_FAST", 2, "c"),
       op("POP_JUMP_IF_FALSE", 0, "", 18), op("LOAD_FAST", 3, "x"), op("JUMP_FORWARD", 0, "", 20),
       op("LOAD_FAST", 4, "y"), op("RETURN_VALUE")});
  code.argCount = 5;
  code.varNames = {"a", "b", "c", "x", "y"};
  std::string ast = translated(code);
  EXPECT_EQ(occurrences(ast, "IfExp"), 2u) << ast;
  EXPECT_EQ(occurrences(ast, "Return"), 1u) << ast;
}

TEST(BytecodeTranslation, Python311JumpThreadedPastATestGoesBackOntoIt) {
  // return y and (b or c) and x: CPython 3.11 makes `b`, when true, jump past the `and`
  // test of `b or c`.
  CodeObject code = function({op("LOAD_FAST", 4, "y"), op("JUMP_IF_FALSE_OR_POP", 0, "", 14),
                              op("LOAD_FAST", 1, "b"), op("POP_JUMP_FORWARD_IF_TRUE", 0, "", 12),
                              op("LOAD_FAST", 2, "c"), op("JUMP_IF_FALSE_OR_POP", 0, "", 14),
                              op("LOAD_FAST", 3, "x"), op("RETURN_VALUE")});
  code.pythonMinor = 11;
  code.argCount = 5;
  code.varNames = {"a", "b", "c", "x", "y"};
  std::string ast = translated(code);
  EXPECT_EQ(occurrences(ast, "BoolOp and"), 1u) << ast;
  EXPECT_EQ(occurrences(ast, "BoolOp or"), 1u) << ast;
  EXPECT_EQ(occurrences(ast, "If"), 0u) << ast;
}

// A complex constant reaches the translation by its type; its parts come with the load.
CodeObject returningComplex(std::string parts) {
  BytecodeConstant complex;
  complex.kind = BytecodeConstant::Kind::Unsupported;
  complex.text = "complex";
  CodeObject code = function({op("LOAD_CONST", 2, std::move(parts)), op("RETURN_VALUE")});
  code.constants.push_back(complex);
  return code;
}

TEST(BytecodeTranslation, ComplexConstantsAreWrittenAsTheirSourceIs) {
  // return -1j: CPython folds it into (-0.0, -1.0).
  std::string ast = translated(returningComplex("-0.0 -1.0"));
  EXPECT_NE(ast.find("UnaryOp -"), std::string::npos) << ast;
  EXPECT_NE(ast.find("Float 1.0j"), std::string::npos) << ast;
  // return 1.5 - 2j
  ast = translated(returningComplex("1.5 -2.0"));
  EXPECT_NE(ast.find("BinOp -"), std::string::npos) << ast;
  EXPECT_NE(ast.find("Float 1.5"), std::string::npos) << ast;
  EXPECT_NE(ast.find("Float 2.0j"), std::string::npos) << ast;
  // (0.0, -0.0) has no exact written form.
  EXPECT_NE(errorOf(returningComplex("0.0 -0.0")).find("zero parts have opposite signs"),
            std::string::npos);
}

TEST(BytecodeTranslation, StoreAttrAssignsTheAttribute) {
  // x.r = y
  std::string ast = translated(function({op("LOAD_FAST", 1, "y"), op("LOAD_FAST", 0, "x"),
                                         op("STORE_ATTR", 0, "r"), op("RETURN_CONST", 0)}));
  EXPECT_NE(ast.find("Assign"), std::string::npos) << ast;
  EXPECT_NE(ast.find("Attribute r"), std::string::npos) << ast;
}

TEST(BytecodeTranslation, ExtendedArgBeforeForIterIsPartOfIt) {
  // for x in y: pass, where the jump back lands on FOR_ITER's EXTENDED_ARG.
  std::string ast =
      translated(function({op("LOAD_FAST", 1, "y"), op("GET_ITER"), op("EXTENDED_ARG"),
                           op("FOR_ITER", 0, "", 12), op("STORE_FAST", 0, "x"),
                           op("JUMP_BACKWARD", 0, "", 4), op("END_FOR"), op("RETURN_CONST", 0)}));
  EXPECT_EQ(occurrences(ast, "For"), 1u) << ast;
}

TEST(BytecodeTranslation, Python312WhileEndingALoopBodyIsAWhileLoop) {
  // for j in y:
  //     k = 1
  //     while k < x:
  //         k += 1
  // CPython 3.12 jumps from the test before the `while` and from the one at its bottom
  // straight back to the `for`.
  auto then = [](std::vector<BytecodeInstruction> code,
                 const std::vector<BytecodeInstruction> &more) {
    code.insert(code.end(), more.begin(), more.end());
    return code;
  };
  std::vector<BytecodeInstruction> kBelowX = {op("LOAD_FAST", 3, "k"), op("LOAD_FAST", 0, "x"),
                                              op("COMPARE_OP", 0, "<")};
  std::vector<BytecodeInstruction> code = {op("LOAD_FAST", 1, "y"),   op("GET_ITER"),
                                           op("FOR_ITER", 0, "", 42), op("STORE_FAST", 2, "j"),
                                           op("LOAD_CONST", 1),       op("STORE_FAST", 3, "k")};
  code =
      then(then(code, kBelowX), {op("POP_JUMP_IF_TRUE", 0, "", 22), op("JUMP_BACKWARD", 0, "", 4),
                                 op("LOAD_FAST", 3, "k"), op("LOAD_CONST", 1),
                                 op("BINARY_OP", 0, "+="), op("STORE_FAST", 3, "k")});
  code = then(then(code, kBelowX),
              {op("POP_JUMP_IF_FALSE", 0, "", 40), op("JUMP_BACKWARD", 0, "", 22),
               op("JUMP_BACKWARD", 0, "", 4), op("END_FOR"), op("RETURN_CONST", 0)});
  std::string ast = translated(function(std::move(code)));
  EXPECT_EQ(occurrences(ast, "While"), 1u) << ast;
  EXPECT_EQ(occurrences(ast, "If"), 0u) << ast;
  EXPECT_EQ(occurrences(ast, "Break"), 0u) << ast;
  EXPECT_EQ(occurrences(ast, "Continue"), 0u) << ast;
}

TEST(BytecodeTranslation, Python312ForEndingALoopBodyBreaksToTheJumpAfterIt) {
  // for j in y:
  //     for k in y:
  //         if x:
  //             break
  // CPython 3.12 sends the inner `break` straight back to the outer `for`.
  std::string ast = translated(function(
      {op("LOAD_FAST", 1, "y"), op("GET_ITER"), op("FOR_ITER", 0, "", 30), op("STORE_FAST", 2, "j"),
       op("LOAD_FAST", 1, "y"), op("GET_ITER"), op("FOR_ITER", 0, "", 26), op("STORE_FAST", 3, "k"),
       op("LOAD_FAST", 0, "x"), op("POP_JUMP_IF_TRUE", 0, "", 22), op("JUMP_BACKWARD", 0, "", 12),
       op("POP_TOP"), op("JUMP_BACKWARD", 0, "", 4), op("END_FOR"), op("JUMP_BACKWARD", 0, "", 4),
       op("END_FOR"), op("RETURN_CONST", 0)}));
  EXPECT_EQ(occurrences(ast, "For"), 2u) << ast;
  EXPECT_EQ(occurrences(ast, "Break"), 1u) << ast;
  EXPECT_EQ(occurrences(ast, "Continue"), 0u) << ast;
}

TEST(BytecodeTranslation, Python312WhileBeforeAnElseBreaksToTheJumpAfterIt) {
  // if x:
  //     while y:
  //         if x:
  //             break
  // else:
  //     x = 1
  // CPython 3.12 sends the test before the loop and the `break` straight past the `else`.
  std::string ast = translated(function(
      {op("LOAD_FAST", 0, "x"), op("POP_JUMP_IF_FALSE", 0, "", 22), op("LOAD_FAST", 1, "y"),
       op("POP_JUMP_IF_FALSE", 0, "", 26), op("LOAD_FAST", 0, "x"),
       op("POP_JUMP_IF_FALSE", 0, "", 14), op("JUMP_FORWARD", 0, "", 26), op("LOAD_FAST", 1, "y"),
       op("POP_JUMP_IF_FALSE", 0, "", 20), op("JUMP_BACKWARD", 0, "", 8),
       op("JUMP_FORWARD", 0, "", 26), op("LOAD_CONST", 1), op("STORE_FAST", 0, "x"),
       op("RETURN_CONST", 0)}));
  EXPECT_EQ(occurrences(ast, "While"), 1u) << ast;
  EXPECT_EQ(occurrences(ast, "Break"), 1u) << ast;
  EXPECT_EQ(occurrences(ast, "Else"), 1u) << ast;
  EXPECT_EQ(occurrences(ast, "Continue"), 0u) << ast;
}

TEST(BytecodeTranslation, Python312ExtendedArgBeforeALoopsExitIsPartOfIt) {
  // for j in y:
  //     while x:
  //         if y:
  //             break
  // with the jump back to the `for` far enough to take an EXTENDED_ARG.
  std::string ast = translated(function(
      {op("LOAD_FAST", 1, "y"), op("GET_ITER"), op("EXTENDED_ARG"), op("FOR_ITER", 0, "", 32),
       op("STORE_FAST", 2, "j"), op("LOAD_FAST", 0, "x"), op("POP_JUMP_IF_TRUE", 0, "", 16),
       op("JUMP_BACKWARD", 0, "", 4), op("LOAD_FAST", 1, "y"), op("POP_JUMP_IF_FALSE", 0, "", 22),
       op("JUMP_BACKWARD", 0, "", 4), op("LOAD_FAST", 0, "x"), op("POP_JUMP_IF_FALSE", 0, "", 28),
       op("JUMP_BACKWARD", 0, "", 16), op("EXTENDED_ARG"), op("JUMP_BACKWARD", 0, "", 4),
       op("END_FOR"), op("RETURN_CONST", 0)}));
  EXPECT_EQ(occurrences(ast, "For"), 1u) << ast;
  EXPECT_EQ(occurrences(ast, "While"), 1u) << ast;
  EXPECT_EQ(occurrences(ast, "Break"), 1u) << ast;
  EXPECT_EQ(occurrences(ast, "Continue"), 0u) << ast;
}

// def f(x, y):
//     for i in range(y):
//         a, b = x[i], y
//         if a < b:
//             x[i] = min(a, b, key=y)
//     while a < b:
//         a = a + 1
//     return not a
// as CPython 3.12 and 3.13 compile it, with the offsets renumbered two apart.
CodeObject loopsAndCallsOf(unsigned pythonMinor, std::vector<BytecodeInstruction> instructions) {
  BytecodeConstant key;
  key.kind = BytecodeConstant::Kind::String;
  key.text = "key";
  BytecodeConstant keywords;
  keywords.kind = BytecodeConstant::Kind::Tuple;
  keywords.elements = {key};
  CodeObject code = function(std::move(instructions));
  code.pythonMinor = pythonMinor;
  code.varNames = {"x", "y", "i", "a", "b"};
  code.constants = {none(), keywords, integer(1)};
  return code;
}

TEST(BytecodeTranslation, Python313TranslatesAs312) {
  // 3.13 loads a callable's NULL after it, pairs local loads and stores, names a call's
  // keywords by a constant on the stack (CALL_KW), converts a test's operand by TO_BOOL and
  // ends a `for` loop by END_FOR, POP_TOP.
  CodeObject python312 = loopsAndCallsOf(12, {op("RESUME", 0),
                                              op("LOAD_GLOBAL", 1, "range"),
                                              op("LOAD_FAST", 1, "y"),
                                              op("CALL", 1),
                                              op("GET_ITER"),
                                              op("FOR_ITER", 32, "", 56),
                                              op("STORE_FAST", 2, "i"),
                                              op("LOAD_FAST", 0, "x"),
                                              op("LOAD_FAST", 2, "i"),
                                              op("BINARY_SUBSCR"),
                                              op("LOAD_FAST", 1, "y"),
                                              op("STORE_FAST", 4, "b"),
                                              op("STORE_FAST", 3, "a"),
                                              op("LOAD_FAST", 3, "a"),
                                              op("LOAD_FAST", 4, "b"),
                                              op("COMPARE_OP", 2, "<"),
                                              op("POP_JUMP_IF_TRUE", 1, "", 36),
                                              op("JUMP_BACKWARD", 16, "", 10),
                                              op("LOAD_GLOBAL", 3, "min"),
                                              op("LOAD_FAST", 3, "a"),
                                              op("LOAD_FAST", 4, "b"),
                                              op("LOAD_FAST", 1, "y"),
                                              op("KW_NAMES", 1, "('key',)"),
                                              op("CALL", 3),
                                              op("LOAD_FAST", 0, "x"),
                                              op("LOAD_FAST", 2, "i"),
                                              op("STORE_SUBSCR"),
                                              op("JUMP_BACKWARD", 34, "", 10),
                                              op("END_FOR"),
                                              op("LOAD_FAST_CHECK", 3, "a"),
                                              op("LOAD_FAST_CHECK", 4, "b"),
                                              op("COMPARE_OP", 2, "<"),
                                              op("POP_JUMP_IF_FALSE", 11, "", 84),
                                              op("LOAD_FAST", 3, "a"),
                                              op("LOAD_CONST", 2, "1"),
                                              op("BINARY_OP", 0, "+"),
                                              op("STORE_FAST", 3, "a"),
                                              op("LOAD_FAST", 3, "a"),
                                              op("LOAD_FAST", 4, "b"),
                                              op("COMPARE_OP", 2, "<"),
                                              op("POP_JUMP_IF_FALSE", 1, "", 84),
                                              op("JUMP_BACKWARD", 11, "", 66),
                                              op("LOAD_FAST", 3, "a"),
                                              op("UNARY_NOT"),
                                              op("RETURN_VALUE")});
  CodeObject python313 = loopsAndCallsOf(13, {op("RESUME", 0),
                                              op("LOAD_GLOBAL", 1, "range"),
                                              op("LOAD_FAST", 1, "y"),
                                              op("CALL", 1),
                                              op("GET_ITER"),
                                              op("FOR_ITER", 27, "", 46),
                                              op("STORE_FAST", 2, "i"),
                                              op("LOAD_FAST_LOAD_FAST", 2, "x, i"),
                                              op("BINARY_SUBSCR"),
                                              op("LOAD_FAST", 1, "y"),
                                              op("STORE_FAST_STORE_FAST", 67, "b, a"),
                                              op("LOAD_FAST_LOAD_FAST", 52, "a, b"),
                                              op("COMPARE_OP", 18, "<"),
                                              op("POP_JUMP_IF_TRUE", 2, "", 30),
                                              op("JUMP_BACKWARD", 15, "", 10),
                                              op("LOAD_GLOBAL", 3, "min"),
                                              op("LOAD_FAST_LOAD_FAST", 52, "a, b"),
                                              op("LOAD_FAST", 1, "y"),
                                              op("LOAD_CONST", 1, "('key',)"),
                                              op("CALL_KW", 3),
                                              op("LOAD_FAST_LOAD_FAST", 2, "x, i"),
                                              op("STORE_SUBSCR"),
                                              op("JUMP_BACKWARD", 29, "", 10),
                                              op("END_FOR"),
                                              op("POP_TOP"),
                                              op("LOAD_FAST_CHECK", 3, "a"),
                                              op("LOAD_FAST_CHECK", 4, "b"),
                                              op("COMPARE_OP", 18, "<"),
                                              op("POP_JUMP_IF_FALSE", 12, "", 74),
                                              op("LOAD_FAST", 3, "a"),
                                              op("LOAD_CONST", 2, "1"),
                                              op("BINARY_OP", 0, "+"),
                                              op("STORE_FAST", 3, "a"),
                                              op("LOAD_FAST_LOAD_FAST", 52, "a, b"),
                                              op("COMPARE_OP", 18, "<"),
                                              op("POP_JUMP_IF_FALSE", 2, "", 74),
                                              op("JUMP_BACKWARD", 12, "", 58),
                                              op("LOAD_FAST", 3, "a"),
                                              op("TO_BOOL"),
                                              op("UNARY_NOT"),
                                              op("RETURN_VALUE")});
  std::string ast = translated(python312);
  EXPECT_EQ(occurrences(ast, "For"), 1u) << ast;
  EXPECT_EQ(occurrences(ast, "While"), 1u) << ast;
  EXPECT_EQ(occurrences(ast, "Keyword key"), 1u) << ast;
  EXPECT_EQ(translated(python313), ast);
}

TEST(BytecodeTranslation, Python313WhileBeforeAnElseBreaksToTheJumpAfterIt) {
  // The test of Python312WhileBeforeAnElseBreaksToTheJumpAfterIt as 3.13 compiles it: the
  // test before the loop goes to the jump after it, not past the `else`.
  CodeObject code = function(
      {op("LOAD_FAST", 0, "x"), op("TO_BOOL"), op("POP_JUMP_IF_FALSE", 0, "", 28),
       op("LOAD_FAST", 1, "y"), op("TO_BOOL"), op("POP_JUMP_IF_FALSE", 0, "", 26),
       op("LOAD_FAST", 0, "x"), op("TO_BOOL"), op("POP_JUMP_IF_FALSE", 0, "", 20),
       op("JUMP_FORWARD", 0, "", 32), op("LOAD_FAST", 1, "y"), op("POP_JUMP_IF_FALSE", 0, "", 26),
       op("JUMP_BACKWARD", 0, "", 12), op("JUMP_FORWARD", 0, "", 32), op("LOAD_CONST", 1),
       op("STORE_FAST", 0, "x"), op("RETURN_CONST", 0)});
  code.pythonMinor = 13;
  std::string ast = translated(code);
  EXPECT_EQ(occurrences(ast, "While"), 1u) << ast;
  EXPECT_EQ(occurrences(ast, "Break"), 1u) << ast;
  EXPECT_EQ(occurrences(ast, "Else"), 1u) << ast;
  EXPECT_EQ(occurrences(ast, "Continue"), 0u) << ast;
}

TEST(BytecodeTranslation, Python313ToBoolAloneIsNotNot) {
  // return not (not x), which CPython 3.13 folds into TO_BOOL; before a jump or `not` the
  // TO_BOOL is the conversion those make themselves.
  CodeObject alone = function({op("LOAD_FAST", 0, "x"), op("TO_BOOL"), op("RETURN_VALUE")});
  alone.pythonMinor = 13;
  std::string ast = translated(alone);
  EXPECT_EQ(occurrences(ast, "UnaryOp not"), 2u) << ast;
  CodeObject negated =
      function({op("LOAD_FAST", 0, "x"), op("TO_BOOL"), op("UNARY_NOT"), op("RETURN_VALUE")});
  negated.pythonMinor = 13;
  ast = translated(negated);
  EXPECT_EQ(occurrences(ast, "UnaryOp not"), 1u) << ast;
}

TEST(BytecodeTranslation, ArmsEndingInCopiesOfTheReturnAreOneConditionalValue) {
  // r = g(x if y else y)
  // return r
  // CPython 3.12 copies the call, the store and the return into both arms.
  std::vector<BytecodeInstruction> tail = {
      op("CALL", 1, "", -1, 2), op("STORE_FAST", 2, "r", -1, 2), op("LOAD_FAST", 2, "r", -1, 3),
      op("RETURN_VALUE", 0, "", -1, 3)};
  std::vector<BytecodeInstruction> code = {op("LOAD_GLOBAL", 1, "g"), op("LOAD_FAST", 1, "y"),
                                           op("POP_JUMP_IF_FALSE", 0, "", 16),
                                           op("LOAD_FAST", 0, "x")};
  code.insert(code.end(), tail.begin(), tail.end());
  code.push_back(op("LOAD_FAST", 1, "y"));
  code.insert(code.end(), tail.begin(), tail.end());
  CodeObject function312 = function(std::move(code));
  function312.varNames = {"x", "y", "r"};
  std::string ast = translated(function312);
  EXPECT_EQ(occurrences(ast, "IfExp"), 1u) << ast;
  EXPECT_EQ(occurrences(ast, "Return"), 1u) << ast;
  EXPECT_EQ(occurrences(ast, "If"), 1u) << ast; // the IfExp's: no `if` statement
}

} // namespace
} // namespace kaji::frontend
