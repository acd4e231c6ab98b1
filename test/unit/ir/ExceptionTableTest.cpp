// The exception table both GPU backends number their reports from: reporting raise ops and,
// under bounds checks, checked array accesses, in module order, numbered from 1.
#include "TestIR.h"

#include "kaji/ir/ExceptionTable.h"

#include <vector>

namespace {

using namespace kaji::ir;

constexpr const char *kModule = R"(device @check(%x: i64) -> i64 {
^entry:
  %zero = const 0 : i64
  %bad = cmp lt %x, %zero : bool
  cond_br %bad, ^fail, ^ok
^fail:
  raise "ValueError: negative"
^ok:
  ret %x : i64
}
kernel @k(%a: array<i64, 1, any>) {
^entry:
  %zero = const 0 : i64
  %v = load %a[%zero] : i64
  %bad = cmp gt %v, %zero : bool
  cond_br %bad, ^quiet, ^done
^quiet:
  raise
^done:
  ret
}
)";

std::vector<const Operation *> operationsOf(const Module &module, Opcode opcode) {
  std::vector<const Operation *> found;
  for (const auto &function : module.functions())
    for (const auto &block : function->blocks())
      for (const auto &op : block->operations())
        if (op->opcode() == opcode)
          found.push_back(op.get());
  return found;
}

TEST(ExceptionTable, ListsReportingRaisesAndCheckedAccessesInModuleOrder) {
  auto module = test::parse(kModule);
  std::vector<const Operation *> raises = operationsOf(*module, Opcode::Raise);
  const Operation *load = operationsOf(*module, Opcode::Load).at(0);
  ASSERT_EQ(raises.size(), 2u);

  std::vector<RaiseSite> unchecked = exceptionTable(*module, false);
  ASSERT_EQ(unchecked.size(), 1u); // the quiet raise reports nothing
  EXPECT_EQ(unchecked[0].op, raises[0]);
  EXPECT_EQ(unchecked[0].exception, "ValueError: negative");
  EXPECT_EQ(unchecked[0].site, "test.kir:7:3: in 'check'");

  std::vector<RaiseSite> checked = exceptionTable(*module, true);
  ASSERT_EQ(checked.size(), 2u);
  EXPECT_EQ(checked[1].op, load);
  EXPECT_TRUE(checked[1].indexError);
}

TEST(ExceptionTable, NumbersAreTableEntriesFromOne) {
  auto module = test::parse(kModule);
  for (bool boundsChecked : {false, true}) {
    ExceptionNumbers numbers(*module, boundsChecked);
    std::vector<RaiseSite> table = exceptionTable(*module, boundsChecked);
    for (size_t i = 0; i < table.size(); ++i)
      EXPECT_EQ(numbers.of(*table[i].op), uint32_t(i + 1));
  }
}

TEST(ExceptionTable, ACheckedAsyncCopyHasAnIndexAndAMisalignmentEntry) {
  auto module = test::parse(R"(kernel @stage(%x: array<f32, 1, C>) {
^entry:
  %tile = shared_array [64] : array<f32, 1, C, shared>
  async_copy %tile, %x, 16
  ret
}
)");
  const Operation *copy = operationsOf(*module, Opcode::AsyncCopy).at(0);
  EXPECT_TRUE(exceptionTable(*module, false).empty());
  std::vector<RaiseSite> checked = exceptionTable(*module, true);
  ASSERT_EQ(checked.size(), 2u);
  EXPECT_EQ(checked[0].op, copy);
  EXPECT_TRUE(checked[0].indexError);
  EXPECT_EQ(checked[1].op, copy);
  EXPECT_FALSE(checked[1].indexError);
  EXPECT_EQ(checked[1].exception, "ValueError: an asynchronous copy of 16 bytes needs its source "
                                  "and destination aligned to 16 bytes");
  ExceptionNumbers numbers(*module, true);
  EXPECT_EQ(numbers.of(*copy), 1u);
  EXPECT_EQ(numbers.misalignment(*copy), 2u);
}

TEST(ExceptionTable, ACheckedWarpgroupMmaHasAnIndexAndALayoutEntry) {
  auto module = test::parse(R"(kernel @product(%c: array<f32, 2, C>) {
^entry:
  %a = shared_array [64, 64] : array<f16, 2, C, shared>
  %b = shared_array [32, 64] : array<f16, 2, C, shared>
  %acc = fragment : fragment<acc, m64n32k16, f32>
  warpgroup_mma %acc, %a, %b
  ret
}
)");
  const Operation *mma = operationsOf(*module, Opcode::WarpgroupMma).at(0);
  EXPECT_TRUE(exceptionTable(*module, false).empty());
  std::vector<RaiseSite> checked = exceptionTable(*module, true);
  ASSERT_EQ(checked.size(), 2u);
  EXPECT_TRUE(checked[0].indexError);
  EXPECT_EQ(checked[1].op, mma);
  EXPECT_EQ(checked[1].exception,
            "ValueError: cuda.wgmma.mma_async reads matrices whose rows are 128 bytes apart and "
            "whose elements are contiguous, in groups of 8 rows that start on 1024-byte "
            "boundaries");
  EXPECT_EQ(ExceptionNumbers(*module, true).misalignment(*mma), 2u);
}

} // namespace
