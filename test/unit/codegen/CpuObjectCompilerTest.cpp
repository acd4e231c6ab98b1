// Which modules the host JIT gives its optimising code generator: past a function of
// kLargestOptimisedFunctionBlocks blocks the unoptimising one runs, and blocks that end in
// `unreachable` (each loop's Ctrl-C hook) do not count.
#include "CpuObjectCompiler.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <gtest/gtest.h>

using namespace kaji::codegen;

namespace {

// void f(i1 %c): `passing` blocks in a chain to a return, and from each of the first
// `ending` of them a side way to a block of its own that ends in `unreachable`.
std::unique_ptr<llvm::Module> chain(llvm::LLVMContext &context, unsigned passing, unsigned ending) {
  auto module = std::make_unique<llvm::Module>("chain", context);
  llvm::IRBuilder<> builder(context);
  auto *function = llvm::Function::Create(
      llvm::FunctionType::get(builder.getVoidTy(), {builder.getInt1Ty()}, false),
      llvm::GlobalValue::ExternalLinkage, "f", *module);
  std::vector<llvm::BasicBlock *> blocks;
  for (unsigned i = 0; i < passing; ++i)
    blocks.push_back(llvm::BasicBlock::Create(context, "", function));
  for (unsigned i = 0; i < passing; ++i) {
    builder.SetInsertPoint(blocks[i]);
    if (i + 1 == passing) {
      builder.CreateRetVoid();
    } else if (i < ending) {
      auto *side = llvm::BasicBlock::Create(context, "", function);
      builder.CreateCondBr(function->getArg(0), side, blocks[i + 1]);
      builder.SetInsertPoint(side);
      builder.CreateUnreachable();
    } else {
      builder.CreateBr(blocks[i + 1]);
    }
  }
  return module;
}

TEST(CpuObjectCompiler, FunctionsUpToTheLimitAreOptimised) {
  llvm::LLVMContext context;
  EXPECT_TRUE(compilesOptimised(*chain(context, kLargestOptimisedFunctionBlocks, 0)));
  EXPECT_FALSE(compilesOptimised(*chain(context, kLargestOptimisedFunctionBlocks + 1, 0)));
}

TEST(CpuObjectCompiler, BlocksEndingInUnreachableAreNotCounted) {
  llvm::LLVMContext context;
  auto module = chain(context, kLargestOptimisedFunctionBlocks, 200);
  ASSERT_EQ(module->getFunction("f")->size(), kLargestOptimisedFunctionBlocks + 200);
  EXPECT_TRUE(compilesOptimised(*module));
}

} // namespace
