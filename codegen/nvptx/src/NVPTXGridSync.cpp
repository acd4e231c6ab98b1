// The grid-wide barrier of a cooperative launch, as CUDA's cooperative groups build it: the
// block's threads meet at a block barrier; one thread per block adds to a counter in global
// memory, block 0 adding 2^31 - (blocks - 1) and every other block 1, so the counter's top
// bit flips exactly when the last block arrives; each waits for the flip and the block meets
// again. The counter's low bits come back to where they were, so it needs no reset between
// syncs or launches; cuLaunchCooperativeKernel guarantees every block is resident, without
// which waiting blocks would starve the ones still to arrive.
#include "NVPTXTarget.h"

#include "kaji/abi/KernelABI.h"
#include "kaji/ir/Reachability.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Module.h>

namespace kaji::codegen {
namespace {

constexpr unsigned kGlobalAddressSpace = 1;
constexpr uint32_t kTopBit = 0x80000000u;

// The module's counter: zero when the module is loaded.
llvm::GlobalVariable *gridBarrierCounter(llvm::Module &module) {
  if (llvm::GlobalVariable *counter = module.getNamedGlobal(abi::kGridBarrierSymbol))
    return counter;
  llvm::Type *i32 = llvm::Type::getInt32Ty(module.getContext());
  auto *counter = new llvm::GlobalVariable(
      module, i32, false, llvm::GlobalValue::InternalLinkage, llvm::ConstantInt::get(i32, 0),
      abi::kGridBarrierSymbol, nullptr, llvm::GlobalValue::NotThreadLocal, kGlobalAddressSpace);
  counter->setAlignment(llvm::Align(4));
  return counter;
}

} // namespace

void NVPTXTarget::emitGridSync(llvm::IRBuilderBase &builder) const {
  llvm::LLVMContext &context = builder.getContext();
  llvm::Function *function = builder.GetInsertBlock()->getParent();
  llvm::GlobalVariable *counter = gridBarrierCounter(*function->getParent());
  auto reg = [&](ir::SpecialReg::Kind kind, uint8_t dim) {
    return emitSpecialReg(builder, ir::SpecialReg{kind, dim});
  };
  auto allZero = [&](ir::SpecialReg::Kind kind) {
    llvm::Value *any = builder.CreateOr(builder.CreateOr(reg(kind, 0), reg(kind, 1)), reg(kind, 2));
    return builder.CreateICmpEQ(any, builder.getInt32(0));
  };
  auto *arrive = llvm::BasicBlock::Create(context, "grid_sync.arrive", function);
  auto *spin = llvm::BasicBlock::Create(context, "grid_sync.spin", function);
  auto *arrived = llvm::BasicBlock::Create(context, "grid_sync.arrived", function);
  auto *join = llvm::BasicBlock::Create(context, "grid_sync.join", function);

  emitBarrier(builder);
  builder.CreateCondBr(allZero(ir::SpecialReg::ThreadIdx), arrive, join);

  builder.SetInsertPoint(arrive);
  llvm::Value *blocks = builder.CreateMul(
      builder.CreateMul(reg(ir::SpecialReg::GridDim, 0), reg(ir::SpecialReg::GridDim, 1)),
      reg(ir::SpecialReg::GridDim, 2));
  llvm::Value *firstBlockAdds =
      builder.CreateSub(builder.getInt32(kTopBit), builder.CreateSub(blocks, builder.getInt32(1)));
  llvm::Value *increment =
      builder.CreateSelect(allZero(ir::SpecialReg::BlockIdx), firstBlockAdds, builder.getInt32(1));
  // The block's writes before the sync are visible to the grid before its arrival is.
  builder.CreateIntrinsic(llvm::Intrinsic::nvvm_membar_gl, {}, {});
  llvm::Value *old = builder.CreateAtomicRMW(llvm::AtomicRMWInst::Add, counter, increment,
                                             llvm::Align(4), llvm::AtomicOrdering::Monotonic);
  builder.CreateBr(spin);

  builder.SetInsertPoint(spin);
  llvm::LoadInst *current = builder.CreateAlignedLoad(builder.getInt32Ty(), counter, llvm::Align(4),
                                                      true, "grid_sync.counter");
  llvm::Value *flipped = builder.CreateICmpNE(
      builder.CreateAnd(builder.CreateXor(old, current), builder.getInt32(kTopBit)),
      builder.getInt32(0));
  builder.CreateCondBr(flipped, arrived, spin);

  builder.SetInsertPoint(arrived);
  // And the other blocks' writes are visible to this one after it.
  builder.CreateIntrinsic(llvm::Intrinsic::nvvm_membar_gl, {}, {});
  builder.CreateBr(join);

  builder.SetInsertPoint(join);
  emitBarrier(builder);
}

} // namespace kaji::codegen
