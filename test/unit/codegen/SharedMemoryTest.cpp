// Shared arrays, barriers and atomics.
#include "CodegenTestSupport.h"

#include "kaji/ir/Verifier.h"

using namespace kaji;
using namespace kaji::codegen;
using namespace kaji::codegen::test;

namespace {

// tile = shared f32[4, 32]; tile[ty, tx] = x[i]; syncthreads();
// atomic add(total, 0, tile[3 - ty, tx]); atomic add(counts, 0, 1) on a shared counter.
ir::Module reductionModule() {
  ir::Module module;
  ir::Type vector = ir::Type::array(ir::ScalarKind::Float32, 1, ir::Layout::C);
  ir::Type counters = ir::Type::array(ir::ScalarKind::Int32, 1, ir::Layout::C);
  auto [function, b] = addFunction(module, "reduce", ir::Function::Kind::Kernel,
                                   {vector, vector, counters}, {"total", "x", "counts"});
  ir::Value *total = function->entry()->argument(0);
  ir::Value *x = function->entry()->argument(1);
  ir::Value *counts = function->entry()->argument(2);
  ir::Type tileType =
      ir::Type::array(ir::ScalarKind::Float32, 2, ir::Layout::C, ir::MemorySpace::Shared);
  ir::Value *tile =
      b.create(ir::Opcode::SharedArray, tileType, {}, std::vector<int64_t>{4, 32})->result();
  ir::Type counterType =
      ir::Type::array(ir::ScalarKind::Int32, 1, ir::Layout::C, ir::MemorySpace::Shared);
  ir::Value *counter =
      b.create(ir::Opcode::SharedArray, counterType, {}, std::vector<int64_t>{1})->result();
  ir::Value *tx = b.cast(b.specialReg(ir::SpecialReg::ThreadIdx, 0), kI64);
  ir::Value *ty = b.cast(b.specialReg(ir::SpecialReg::ThreadIdx, 1), kI64);
  ir::Value *zero = b.intConstant(kI64, 0);
  store(b, load(b, x, {globalThreadIndex(b)}), tile, {ty, tx});
  b.create(ir::Opcode::Barrier, ir::Type());
  ir::Value *mirrored = b.binary(ir::Opcode::Sub, b.intConstant(kI64, 3), ty);
  b.create(ir::Opcode::Atomic, kF32, {total, load(b, tile, {mirrored, tx}), zero},
           ir::AtomicOperationKind::Add);
  ir::Value *one = b.intConstant(kI32, 1);
  ir::Value *before =
      b.create(ir::Opcode::Atomic, kI32, {counter, one, zero}, ir::AtomicOperationKind::Add)
          ->result();
  b.create(ir::Opcode::Atomic, kI32, {counts, before, zero}, ir::AtomicOperationKind::Add);
  b.ret();
  ir::verify(module);
  return module;
}

} // namespace

TEST(SharedMemory, SharedArraysAreAddressSpace3Globals) {
  std::string llvmIR = emitLLVMIR(reductionModule(), PTXOptions{});
  EXPECT_NE(llvmIR.find("addrspace(3) global [128 x float] undef"), std::string::npos) << llvmIR;
  EXPECT_NE(llvmIR.find("@reduce.shared1 = internal addrspace(3) global [1 x i32] undef"),
            std::string::npos)
      << llvmIR;
  EXPECT_NE(llvmIR.find("@llvm.nvvm.barrier0()"), std::string::npos) << llvmIR;
  EXPECT_NE(llvmIR.find("atomicrmw fadd ptr addrspace(1)"), std::string::npos) << llvmIR;
  EXPECT_NE(llvmIR.find("atomicrmw add ptr addrspace(3)"), std::string::npos) << llvmIR;
  EXPECT_NE(llvmIR.find("monotonic"), std::string::npos) << llvmIR;
}

TEST(SharedMemory, PTXHasSharedStorageBarrierAndAtomics) {
  std::string ptx = emitPTX(reductionModule(), PTXOptions{});
  EXPECT_NE(ptx.find(".shared .align 16 .b8"), std::string::npos) << ptx;
  EXPECT_NE(ptx.find("[512]"), std::string::npos) << "4 x 32 floats:\n" << ptx;
  EXPECT_NE(ptx.find("bar.sync"), std::string::npos) << ptx;
  EXPECT_NE(ptx.find("atom.global.add.f32"), std::string::npos) << ptx;
  EXPECT_NE(ptx.find("atom.shared.add.u32"), std::string::npos) << ptx;
  expectPTXAssembles(ptx);
}
