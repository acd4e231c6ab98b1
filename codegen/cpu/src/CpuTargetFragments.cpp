// CpuTarget's matrix fragments: calls of the helpers of CpuMatrixFragments.h, every thread
// holding its warp's whole matrix.
#include "CpuMatrixFragments.h"
#include "CpuTarget.h"

#include "kaji/ir/MatrixFragments.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

namespace kaji::codegen {

namespace {

void copyMatrix(llvm::IRBuilderBase &builder, const char *helper, const ir::Type &fragment,
                llvm::Value *first, llvm::Value *second, llvm::Value *ldm,
                ir::MatrixLayout layout) {
  auto [rows, columns] = ir::fragmentMatrixExtents(fragment);
  llvm::Module &module = *builder.GetInsertBlock()->getModule();
  llvm::Type *i32 = builder.getInt32Ty();
  llvm::FunctionCallee copy =
      module.getOrInsertFunction(helper, builder.getVoidTy(), builder.getPtrTy(),
                                 builder.getPtrTy(), builder.getInt64Ty(), i32, i32, i32, i32);
  builder.CreateCall(copy, {first, second, ldm, builder.getInt32(rows), builder.getInt32(columns),
                            builder.getInt32(ir::byteSize(fragment.scalarKind())),
                            builder.getInt32(layout == ir::MatrixLayout::Col)});
}

} // namespace

unsigned CpuTarget::fragmentLength(llvm::LLVMContext &, const ir::Type &fragment) const {
  auto [rows, columns] = ir::fragmentMatrixExtents(fragment);
  return rows * columns;
}

// The warp's threads meet before each load and store of a fragment (the kernel runs a fiber
// per thread, CpuEmitter.cpp), as the GPU's warp loads and stores together: so no thread's
// store of a matrix comes before another's load of it (`load c; mma; store c`).
void CpuTarget::emitFragmentLoad(llvm::IRBuilderBase &builder, const ir::Type &fragment,
                                 llvm::Value *storage, llvm::Value *matrix, ir::MemorySpace,
                                 llvm::Value *ldm, ir::MatrixLayout layout) const {
  emitWarpSync(builder, builder.getInt32(~0u));
  copyMatrix(builder, kFragmentLoadHelper, fragment, storage, matrix, ldm, layout);
}

void CpuTarget::emitFragmentStore(llvm::IRBuilderBase &builder, const ir::Type &fragment,
                                  llvm::Value *storage, llvm::Value *matrix, ir::MemorySpace,
                                  llvm::Value *ldm, ir::MatrixLayout layout) const {
  emitWarpSync(builder, builder.getInt32(~0u));
  copyMatrix(builder, kFragmentStoreHelper, fragment, matrix, storage, ldm, layout);
}

void CpuTarget::emitFragmentMma(llvm::IRBuilderBase &builder, const ir::Type &accumulator,
                                const ir::Type &a, const ir::Type &, llvm::Value *d,
                                llvm::Value *aStorage, llvm::Value *bStorage,
                                llvm::Value *c) const {
  ir::MatrixShapeExtents extents = ir::extentsOf(accumulator.matrixShape());
  llvm::Module &module = *builder.GetInsertBlock()->getModule();
  llvm::Type *ptr = builder.getPtrTy(), *i32 = builder.getInt32Ty();
  llvm::FunctionCallee mma = module.getOrInsertFunction(
      kFragmentMmaHelper, builder.getVoidTy(), ptr, ptr, ptr, ptr, i32, i32, i32, i32, i32);
  builder.CreateCall(mma, {d, aStorage, bStorage, c, builder.getInt32(extents.m),
                           builder.getInt32(extents.n), builder.getInt32(extents.k),
                           builder.getInt32(uint32_t(a.scalarKind())),
                           builder.getInt32(uint32_t(accumulator.scalarKind()))});
}

// Each thread computes its own elements from shared memory at once (kaji_warpgroup_mma): its
// group is done when it commits.
void CpuTarget::emitWarpgroupMma(llvm::IRBuilderBase &builder, const ir::Type &accumulator,
                                 llvm::Value *storage, llvm::Value *a, llvm::Value *b,
                                 ir::ScalarKind input, llvm::Value *thread) const {
  llvm::Module &module = *builder.GetInsertBlock()->getModule();
  llvm::Type *ptr = builder.getPtrTy(), *i32 = builder.getInt32Ty();
  llvm::FunctionCallee mma = module.getOrInsertFunction(
      kWarpgroupMmaHelper, builder.getVoidTy(), ptr, ptr, ptr, i32, i32, builder.getInt64Ty());
  builder.CreateCall(mma, {storage, a, b, builder.getInt32(uint32_t(accumulator.matrixShape())),
                           builder.getInt32(uint32_t(input)), thread});
}

} // namespace kaji::codegen
