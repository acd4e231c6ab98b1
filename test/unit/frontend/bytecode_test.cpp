// translateBytecode on small code objects written out as CPython 3.12's `dis` lists them.
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
  code.name = "f";
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
  EXPECT_NE(errorOf(code).find("CPython 3.11 and 3.12, not 3.10"), std::string::npos)
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

} // namespace
} // namespace kaji::frontend
