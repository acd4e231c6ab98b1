#include "kaji/ir/Passes.h"
#include "TestIR.h"

#include <stdexcept>

using namespace kaji::ir;
using namespace kaji::ir::test;

namespace {

// Parses, verifies, runs `pipeline`, verifies again and prints.
std::string run(std::string_view text, std::string_view pipeline) {
  auto module = parse(text);
  verify(*module);
  runPipeline(*module, pipeline);
  verify(*module);
  return printModule(*module);
}

} // namespace

TEST(Passes, DceRemovesUnusedPureOpsAndUnreachableBlocks) {
  EXPECT_EQ(run(R"(kernel @k(%a: array<f32, 1, C>, %i: i64) {
^bb0:
  %x = load %a[%i] : f32
  %y = add %x, %x : f32
  %s = shared_array [4] : array<f32, 1, C, shared>
  store %x, %a[%i]
  ret
^dead:
  br ^dead
})",
                "dce"),
            R"(kernel @k(%a: array<f32, 1, C>, %i: i64) {
^bb0:
  %0 = load %a[%i] : f32
  store %0, %a[%i]
  ret
}
)");
}

TEST(Passes, CseMergesDominatedDuplicatesButNotLoads) {
  EXPECT_EQ(run(R"(device @f(%a: array<f32, 1, C>, %i: i64, %c: bool) -> f32 {
^bb0:
  %x = load %a[%i] : f32
  %y = load %a[%i] : f32
  %s = add %x, %y : f32
  cond_br %c, ^bb1, ^bb2
^bb1:
  %t = add %x, %y : f32
  %u = mul %t, %s : f32
  ret %u : f32
^bb2:
  %v = add %x, %y : f32
  ret %v : f32
})",
                "cse"),
            R"(device @f(%a: array<f32, 1, C>, %i: i64, %c: bool) -> f32 {
^bb0:
  %0 = load %a[%i] : f32
  %1 = load %a[%i] : f32
  %2 = add %0, %1 : f32
  cond_br %c, ^bb1, ^bb2
^bb1:
  %3 = mul %2, %2 : f32
  ret %3 : f32
^bb2:
  ret %2 : f32
}
)");
}

TEST(Passes, CseKeepsNegativeZeroApart) {
  std::string out = run(R"(device @f() -> f64 {
^bb0:
  %a = const 0.0 : f64
  %b = const -0.0 : f64
  %c = add %a, %b : f64
  ret %c : f64
})",
                        "cse");
  EXPECT_NE(out.find("const -0.0"), std::string::npos) << out;
}

TEST(Passes, SimplifyCfgFoldsConstantBranchesAndMergesBlocks) {
  EXPECT_EQ(run(R"(device @f(%x: i32) -> i32 {
^bb0:
  %t = const true : bool
  cond_br %t, ^bb1(%x : i32), ^bb2
^bb1(%y: i32):
  %z = add %y, %y : i32
  ret %z : i32
^bb2:
  ret %x : i32
})",
                "simplify-cfg"),
            R"(device @f(%x: i32) -> i32 {
^bb0:
  %0 = const true : bool
  %1 = add %x, %x : i32
  ret %1 : i32
}
)");
}

TEST(Passes, SimplifyCfgRemovesTrivialLoopArguments) {
  // %n2 always receives %n: the frontend's SSA construction creates such arguments.
  EXPECT_EQ(run(R"(device @f(%n: i64) -> i64 {
^bb0:
  %zero = const 0 : i64
  br ^head(%zero, %n : i64, i64)
^head(%i: i64, %n2: i64):
  %c = cmp lt %i, %n2 : i64
  cond_br %c, ^body, ^exit
^body:
  %one = const 1 : i64
  %next = add %i, %one : i64
  br ^head(%next, %n2 : i64, i64)
^exit:
  ret %i : i64
})",
                "simplify-cfg"),
            R"(device @f(%n: i64) -> i64 {
^bb0:
  %0 = const 0 : i64
  br ^bb1(%0 : i64)
^bb1(%1: i64):
  %2 = cmp lt %1, %n : i64
  cond_br %2, ^bb2, ^bb3
^bb2:
  %3 = const 1 : i64
  %4 = add %1, %3 : i64
  br ^bb1(%4 : i64)
^bb3:
  ret %1 : i64
}
)");
}

TEST(Passes, DefaultPipelineFoldsAStraightLineKernel) {
  EXPECT_EQ(run(R"(device @f() -> i32 {
^bb0:
  %a = const 7 : i32
  %b = const -2 : i32
  %q = floordiv %a, %b : i32
  %c = cmp lt %q, %a : i32
  cond_br %c, ^bb1(%q : i32), ^bb2(%a : i32)
^bb1(%x: i32):
  br ^bb3(%x : i32)
^bb2(%y: i32):
  br ^bb3(%y : i32)
^bb3(%r: i32):
  ret %r : i32
})",
                defaultPipeline()),
            R"(device @f() -> i32 {
^bb0:
  %0 = const -4 : i32
  ret %0 : i32
}
)");
}

TEST(Passes, UnknownPassNameIsAnError) {
  Module module;
  EXPECT_THROW(runPipeline(module, "fold,frob"), std::invalid_argument);
  EXPECT_THROW(runPipeline(module, "fold,,dce"), std::invalid_argument);
  EXPECT_NO_THROW(runPipeline(module, "fold, dce"));
}
