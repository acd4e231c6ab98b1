#include "kaji/ir/Builder.h"
#include "kaji/ir/Constants.h"
#include "kaji/ir/Printer.h"
#include "kaji/ir/Verifier.h"

#include <gtest/gtest.h>

using namespace kaji::ir;

TEST(Builder, BuildsAVerifiedKernel) {
  Module module;
  Type f32 = Type::scalar(ScalarKind::Float32);
  Type arr = Type::array(ScalarKind::Float32, 1, Layout::C);
  auto *f = module.addFunction(std::make_unique<Function>(
      "k", Function::Kind::Kernel, std::vector<Type>{arr, f32}, Type(), Location{}));
  f->paramNames() = {"out", "a"};
  Builder b(f->entry());
  Block *body = f->addBlock();
  Block *exit = f->addBlock();
  Value *tid = b.specialReg(SpecialReg::ThreadIdx, 0);
  Value *i = b.cast(tid, Type::scalar(ScalarKind::Int64));
  EXPECT_EQ(b.cast(i, i->type()), i);
  Value *n = b.create(Opcode::ArrayDim, Type::scalar(ScalarKind::Int64), {f->entry()->argument(0)},
                      int64_t(0))
                 ->result();
  b.condBr(b.cmp(CmpPredicate::Lt, i, n), body, {}, exit, {});
  b.setBlock(body);
  Value *two = b.floatConstant(f32, 2.0);
  b.create(Opcode::Store, Type(),
           {b.binary(Opcode::Mul, f->entry()->argument(1), two), f->entry()->argument(0), i});
  b.br(exit);
  b.setBlock(exit);
  b.ret();
  EXPECT_NO_THROW(verify(module));
  EXPECT_NE(printModule(module).find("%3 = cmp lt %1, %2 : i64"), std::string::npos)
      << printModule(module);
}

TEST(Builder, ConstantsAreCanonical) {
  Function f("f", Function::Kind::Device, {}, Type(), Location{});
  Builder b(f.entry());
  EXPECT_EQ(intConstant(b.intConstant(Type::scalar(ScalarKind::UInt8), 300)), 44);
  EXPECT_EQ(intConstant(b.intConstant(Type::scalar(ScalarKind::Int8), 200)), -56);
  EXPECT_EQ(intConstant(b.intConstant(Type::scalar(ScalarKind::UInt32), -1)), 4294967295);
  EXPECT_EQ(floatConstant(b.floatConstant(Type::scalar(ScalarKind::Float32), 0.1)), double(0.1f));
  EXPECT_EQ(intConstant(b.boolConstant(true)), 1);
}

TEST(Builder, RecordsLocations) {
  Function f("f", Function::Kind::Device, {}, Type(), Location{});
  Builder b(f.entry());
  b.setLocation(Location{std::make_shared<const std::string>("k.py"), 3, 5});
  Value *c = b.boolConstant(false);
  EXPECT_EQ(c->definingOp()->location().line, 3u);
  EXPECT_EQ(c->definingOp()->parent(), f.entry());
}

TEST(Block, ReplaceAndAppendOperationsOfMoveOwnershipAndParents) {
  Function function("k", Function::Kind::Kernel, {}, Type(), {});
  Block *entry = function.entry();
  Block *other = function.addBlock();
  Builder builder(entry);
  Value *one = builder.intConstant(Type::scalar(ScalarKind::Int32), 1);
  builder.setBlock(other);
  builder.intConstant(Type::scalar(ScalarKind::Int32), 2);
  builder.ret();
  auto two = std::make_unique<Operation>(Opcode::Constant, Type::scalar(ScalarKind::Int32),
                                         std::vector<Value *>{}, int64_t(2), Location());
  Operation *replacement = two.get();
  auto old = entry->replace(0, std::move(two));
  EXPECT_EQ(old->result(), one);
  EXPECT_EQ(old->parent(), nullptr);
  EXPECT_EQ(replacement->parent(), entry);
  entry->appendOperationsOf(*other);
  EXPECT_TRUE(other->operations().empty());
  ASSERT_EQ(entry->operations().size(), 3u);
  for (const auto &op : entry->operations())
    EXPECT_EQ(op->parent(), entry);
  EXPECT_EQ(entry->terminator()->opcode(), Opcode::Return);
}
