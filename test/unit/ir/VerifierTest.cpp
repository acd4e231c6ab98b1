#include "TestIR.h"

using namespace kaji::ir;
using namespace kaji::ir::test;

TEST(Verifier, AcceptsLoopWithBlockArguments) {
  EXPECT_EQ(verifyError(R"(device @sum(%n: i64) -> i64 {
^bb0:
  %zero = const 0 : i64
  br ^head(%zero, %zero : i64, i64)
^head(%i: i64, %acc: i64):
  %c = cmp lt %i, %n : i64
  cond_br %c, ^body, ^exit
^body:
  %one = const 1 : i64
  %next = add %i, %one : i64
  %acc2 = add %acc, %i : i64
  br ^head(%next, %acc2 : i64, i64)
^exit:
  ret %acc : i64
})"),
            "");
}

TEST(Verifier, RejectsEachClassOfBrokenIR) {
  struct Case {
    std::string_view
        body; // the entry block of `device @f(%a: i32, %x: f32, %arr: array<f32, 1, C>)`
    std::string_view error;
  };
  const Case cases[] = {
      {"%0 = add %a, %x : i32\n  ret", "'add' operand #1 has type f32, expected i32"},
      {"%0 = add %a : i32\n  ret", "'add' expects 2 operands, got 1"},
      {"%0 = shl %x, %x : f32\n  ret", "'shl' is not defined on type f32"},
      {"%0 = cmp lt %a, %x : i32\n  ret", "'cmp' operand #1 has type f32, expected i32"},
      {"%0 = const 300 : i8\n  ret", "'const' value 300 is out of range for i8"},
      {"%0 = const 0.1 : f32\n  ret", "'const' value is not representable in f32"},
      {"%0 = select %a, %a, %a : i32\n  ret", "'select' operand #0 has type i32, expected bool"},
      {"%0 = cast %arr : array<f32, 1, C> to i32\n  ret",
       "'cast' converts scalars only, not array<f32, 1, C> to i32"},
      {"%0 = math sqrt(%a) : i32\n  ret", "'math' sqrt needs a floating-point operand, got i32"},
      {"%0 = math isnan(%x) : f32\n  ret", "'math' isnan returns bool, not f32"},
      {"%0 = sreg tid.x : i64\n  ret", "'sreg' result must be i32, not i64"},
      {"%0 = array_dim %arr, 1 : i64\n  ret",
       "'array_dim' dimension 1 is out of range for array<f32, 1, C>"},
      {"%0 = load %arr[%a] : f32\n  ret",
       "'load' operand #1 has type i32, expected an index, i64 or u64"},
      {"%0 = load %arr[] : f32\n  ret", "'load' indexes a 1-dimensional array with 0 indices"},
      {"%0 = load %arr[%a] : i32\n  ret", "'load' result type i32 does not match element type f32"},
      {"store %a, %arr[%a]\n  ret", "'store' operand #0 has type i32, expected f32"},
      {"%0 = shared_array [4] : array<f32, 1, C>\n  ret",
       "'shared_array' result must be a C-layout shared array, not array<f32, 1, C>"},
      {"%0 = shared_array [0] : array<f32, 1, C, shared>\n  ret",
       "'shared_array' extents must be positive, got 0"},
      {"%0 = local_array [65536, 16385] : array<f32, 2, C, local>\n  ret",
       "'local_array' takes more than 4294967296 bytes"},
      {"%0 = shared_array [2147483648, 2147483648] : array<u8, 2, C, shared>\n  ret",
       "'shared_array' takes more than 4294967296 bytes"},
      {"%0 = call @nothere() : i32\n  ret", "'call' calls unknown function @nothere"},
      {"%0 = call @g(%x) : f32\n  ret", "'call' operand #0 has type f32, expected i32"},
      {"%0 = call @g() : f32\n  ret", "'call' passes 0 arguments to @g, which takes 1"},
      {"%0 = call @g(%a) : i32\n  ret",
       "'call' result type i32 does not match @g's return type f32"},
      {"call @k()\n  ret", "'call' calls kernel @k; only device functions can be called"},
      {"ret %a : i32", "'ret' returns a value from @f, which returns void"},
      {"%0 = const 1 : i32", "'const' ends a block but is not a terminator (br, cond_br or ret)"},
      {"ret\n  ret", "'ret' is a terminator but is not the last operation of its block"},
      {"cond_br %a, ^bb1, ^bb1\n^bb1:\n  ret", "'cond_br' operand #0 has type i32, expected bool"},
      {"br ^bb1\n^bb1(%y: i32):\n  ret", "'br' passes 0 arguments to ^bb1, which takes 1"},
      {"br ^bb1(%x : f32)\n^bb1(%y: i32):\n  ret",
       "'br' successor #0 argument #0 has type f32, but ^bb1 expects i32"},
      {"br ^bb0", "'br' branches to the entry block, which cannot have predecessors"},
      {"%c = const true : bool\n  cond_br %c, ^bb1, ^bb2\n^bb1:\n  %v = add %a, %a : i32\n  br "
       "^bb2\n^bb2:\n  %w = add %v, %v : i32\n  ret",
       "'add' operand #0 is not dominated by its definition"},
      {"%v = add %w, %w : i32\n  %w = add %a, %a : i32\n  ret",
       "'add' operand #0 is not dominated by its definition"},
  };
  for (const Case &c : cases) {
    std::string text = "device @f(%a: i32, %x: f32, %arr: array<f32, 1, C>) {\n^bb0:\n  " +
                       std::string(c.body) +
                       "\n}\ndevice @g(%p: i32) -> f32 {\n^bb0:\n  %r = const 1.0 : f32\n  ret "
                       "%r : f32\n}\nkernel @k() {\n^bb0:\n  ret\n}\n";
    std::string error = verifyError(text);
    EXPECT_NE(error.find(c.error), std::string::npos) << "got: " << error << "\nfor:\n" << text;
  }
}

TEST(Verifier, ErrorPointsAtTheOperation) {
  EXPECT_EQ(verifyError("kernel @k(%a: i32) {\n^bb0:\n  %0 = neg %a : i64\n  ret\n}"),
            "3:3: 'neg' operand #0 has type i32, expected i64");
}

TEST(Verifier, KernelsReturnVoid) {
  EXPECT_EQ(verifyError("kernel @k() -> i32 {\n^bb0:\n  %0 = const 1 : i32\n  ret %0 : i32\n}"),
            "1:1: kernel @k must return void, not i32");
}

TEST(Verifier, EmptyBlockNeedsTerminator) {
  EXPECT_NE(verifyError("kernel @k() {\n^bb0:\n  br ^bb1\n^bb1:\n}").find("is empty"),
            std::string::npos);
}

TEST(Verifier, UnreachableBlocksAreNotCheckedForDominance) {
  EXPECT_EQ(verifyError(R"(kernel @k() {
^bb0:
  ret
^bb1:
  %1 = add %0, %0 : i32
  br ^bb2
^bb2:
  %0 = const 1 : i32
  br ^bb1
})"),
            "");
}

// No parsed function lacks its entry block (the parser makes one for the parameters), but a
// module built or transformed by hand can. The check precedes every other, so the call of
// @g from @k, verified first, never reads the parameters of a function without a body.
TEST(Verifier, FunctionsHaveABody) {
  auto module = parse("kernel @k() {\n^bb0:\n  call @g()\n  ret\n}\n"
                      "device @g() {\n^bb0:\n  ret\n}\n");
  module->lookup("g")->blocks().clear();
  EXPECT_EQ(errorOf([&] { verify(*module); }),
            "6:1: function @g has no body; it needs an entry block");
}
