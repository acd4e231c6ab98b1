// Blocks with arguments become phis; loops and branches survive to valid PTX.
#include "CodegenTestSupport.h"

#include "kaji/ir/Verifier.h"

#include <regex>

using namespace kaji;
using namespace kaji::codegen;
using namespace kaji::codegen::test;

namespace {

// out[0] = sum(x[k] for k in range(x.shape[0])), with (k, total) carried as block
// arguments of the loop header.
void addSumLoop(ir::Module &module) {
  ir::Type vector = ir::Type::array(ir::ScalarKind::Float32, 1, ir::Layout::Any);
  auto [function, b] =
      addFunction(module, "sum", ir::Function::Kind::Kernel, {vector, vector}, {"out", "x"});
  ir::Value *out = function->entry()->argument(0);
  ir::Value *x = function->entry()->argument(1);
  ir::Block *header = function->addBlock();
  ir::Value *k = header->addArgument(kI64);
  ir::Value *total = header->addArgument(kF32);
  ir::Block *body = function->addBlock();
  ir::Block *exit = function->addBlock();
  ir::Value *finalTotal = exit->addArgument(kF32);

  ir::Value *n = arrayDim(b, x, 0);
  b.br(header, {b.intConstant(kI64, 0), b.floatConstant(kF32, 0.0)});
  b.setBlock(header);
  b.condBr(b.cmp(ir::CmpPredicate::Lt, k, n), body, {}, exit, {total});
  b.setBlock(body);
  ir::Value *next = b.binary(ir::Opcode::Add, k, b.intConstant(kI64, 1));
  b.br(header, {next, b.binary(ir::Opcode::Add, total, load(b, x, {k}))});
  b.setBlock(exit);
  store(b, finalTotal, out, {b.intConstant(kI64, 0)});
  b.ret();
  ir::verify(module);
}

} // namespace

TEST(ControlFlow, LoopBlockArgumentsBecomePhis) {
  ir::Module module;
  addSumLoop(module);
  PTXOptions unoptimized;
  unoptimized.optLevel = 0;
  std::string llvmIR = emitLLVMIR(module, unoptimized);
  EXPECT_EQ(countOccurrences(llvmIR, " = phi i64 "), 1u) << llvmIR;
  EXPECT_EQ(countOccurrences(llvmIR, " = phi float "), 2u) << llvmIR;
  for (unsigned level : {0u, 3u}) {
    PTXOptions options;
    options.optLevel = level;
    std::string ptx = emitPTX(module, options);
    EXPECT_NE(ptx.find("bra"), std::string::npos) << ptx;
    EXPECT_TRUE(std::regex_search(ptx, std::regex("add(\\.rn)?\\.f32"))) << ptx;
    expectPTXAssembles(ptx);
  }
}

TEST(ControlFlow, ConditionalBranchToOneBlockWithDifferentArguments) {
  ir::Module module;
  ir::Type vector = ir::Type::array(ir::ScalarKind::Int32, 1, ir::Layout::C);
  auto [function, b] =
      addFunction(module, "choose", ir::Function::Kind::Kernel, {vector, kBool}, {"out", "c"});
  ir::Block *join = function->addBlock();
  ir::Value *chosen = join->addArgument(kI32);
  b.condBr(function->entry()->argument(1), join, {b.intConstant(kI32, 7)}, join,
           {b.intConstant(kI32, 9)});
  b.setBlock(join);
  store(b, chosen, function->entry()->argument(0), {b.intConstant(kI64, 0)});
  b.ret();
  ir::verify(module);
  std::string llvmIR = emitLLVMIR(module, PTXOptions{});
  EXPECT_NE(llvmIR.find("select i1"), std::string::npos) << llvmIR;
  expectPTXAssembles(emitPTX(module, PTXOptions{}));
}
