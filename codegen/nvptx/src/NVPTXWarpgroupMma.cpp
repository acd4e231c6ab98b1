// NVPTXTarget's warpgroup multiply-accumulate: PTX's wgmma instructions as inline assembly (LLVM
// 19 has no intrinsic for wgmma.mma_async), the accumulator's registers passed in and out so that
// ptxas sees one register per element from multiply to wait. Each call is convergent: the four
// warps of a warpgroup must all run it.
#include "NVPTXTarget.h"
#include "WarpgroupFences.h"

#include "kaji/codegen/PtxFragments.h"
#include "kaji/ir/MatrixFragments.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InlineAsm.h>

#include <string>
#include <vector>

namespace kaji::codegen {

namespace {

llvm::CallInst *emitAsm(llvm::IRBuilderBase &builder, llvm::Type *result,
                        llvm::ArrayRef<llvm::Value *> args, const std::string &text,
                        const std::string &constraints) {
  std::vector<llvm::Type *> parameters;
  for (llvm::Value *arg : args)
    parameters.push_back(arg->getType());
  auto *type = llvm::FunctionType::get(result, parameters, false);
  llvm::CallInst *call =
      builder.CreateCall(llvm::InlineAsm::get(type, text, constraints, true), args);
  call->setConvergent();
  return call;
}

// The descriptor of the matrix whose first element `matrix` points at, in shared memory (address
// space `shared`).
llvm::Value *descriptor(llvm::IRBuilderBase &builder, llvm::Value *matrix, unsigned shared) {
  if (matrix->getType()->getPointerAddressSpace() != shared)
    matrix = builder.CreateAddrSpaceCast(matrix, builder.getPtrTy(shared));
  llvm::Value *address = builder.CreatePtrToInt(matrix, builder.getInt64Ty());
  return builder.CreateOr(builder.CreateLShr(builder.CreateAnd(address, 0x3FFFF), 4),
                          builder.getInt64(kWarpgroupDescriptorBits));
}

// "=f,=f,...," for `count` outputs and ",0,1,..." for the inputs tied to them.
std::string tiedFloats(unsigned count, bool outputs) {
  std::string text;
  for (unsigned i = 0; i < count; ++i) {
    if (i)
      text += ',';
    text += outputs ? std::string("=f") : std::to_string(i);
  }
  return text;
}

std::vector<llvm::Value *> loadElements(llvm::IRBuilderBase &builder, llvm::Value *storage,
                                        unsigned count) {
  std::vector<llvm::Value *> values;
  for (unsigned i = 0; i < count; ++i)
    values.push_back(builder.CreateLoad(
        builder.getFloatTy(), builder.CreateConstGEP1_32(builder.getFloatTy(), storage, i)));
  return values;
}

void storeElements(llvm::IRBuilderBase &builder, llvm::Value *results, llvm::Value *storage,
                   unsigned count) {
  for (unsigned i = 0; i < count; ++i)
    builder.CreateStore(builder.CreateExtractValue(results, {i}),
                        builder.CreateConstGEP1_32(builder.getFloatTy(), storage, i));
}

llvm::Type *elementsType(llvm::IRBuilderBase &builder, unsigned count) {
  return llvm::StructType::get(builder.getContext(),
                               std::vector<llvm::Type *>(count, builder.getFloatTy()));
}

} // namespace

void NVPTXTarget::emitWarpgroupMma(llvm::IRBuilderBase &builder, const ir::Type &accumulator,
                                   llvm::Value *storage, llvm::Value *a, llvm::Value *b,
                                   ir::ScalarKind input, llvm::Value *) const {
  // The fence orders the thread's earlier accesses to the accumulator before the multiply; the
  // fences between multiplies that follow one another are removed after optimization
  // (WarpgroupFences.h).
  emitAsm(builder, builder.getVoidTy(), {}, kWarpgroupFence, "~{memory}");
  unsigned count = ir::placedElements(accumulator);
  std::string registers;
  for (unsigned i = 0; i < count; ++i)
    registers.append(i ? ", $" : "$").append(std::to_string(i));
  // scale-d 1: d += a x b; the operands' scales 1 and neither transposed (both K-major).
  std::string text = "{\n.reg .pred p;\nsetp.ne.b32 p, $" + std::to_string(count + 2) + ", 0;\n" +
                     ptxWarpgroupMma(accumulator, input) + " {" + registers + "}, $" +
                     std::to_string(count) + ", $" + std::to_string(count + 1) +
                     ", p, 1, 1, 0, 0;\n}";
  unsigned shared = addressSpace(ir::MemorySpace::Shared);
  std::vector<llvm::Value *> args{descriptor(builder, a, shared), descriptor(builder, b, shared),
                                  builder.getInt32(1)};
  for (llvm::Value *value : loadElements(builder, storage, count))
    args.push_back(value);
  llvm::CallInst *results =
      emitAsm(builder, elementsType(builder, count), args, text,
              tiedFloats(count, true) + ",l,l,r," + tiedFloats(count, false) + ",~{memory}");
  storeElements(builder, results, storage, count);
}

void NVPTXTarget::emitWarpgroupCommit(llvm::IRBuilderBase &builder) const {
  emitAsm(builder, builder.getVoidTy(), {}, "wgmma.commit_group.sync.aligned;", "~{memory}");
}

// After the wait each accumulator passes through an empty statement that reads and writes it,
// so that no read of an element moves above the wait.
void NVPTXTarget::emitWarpgroupWait(llvm::IRBuilderBase &builder, unsigned pending,
                                    llvm::ArrayRef<WarpgroupAccumulator> accumulators) const {
  emitAsm(builder, builder.getVoidTy(), {},
          "wgmma.wait_group.sync.aligned " + std::to_string(pending) + ";", "~{memory}");
  for (const WarpgroupAccumulator &accumulator : accumulators) {
    unsigned count = ir::placedElements(accumulator.type);
    llvm::CallInst *results = emitAsm(builder, elementsType(builder, count),
                                      loadElements(builder, accumulator.storage, count), "",
                                      tiedFloats(count, true) + "," + tiedFloats(count, false));
    storeElements(builder, results, accumulator.storage, count);
  }
}

void NVPTXTarget::emitSharedWritesToWarpgroupFence(llvm::IRBuilderBase &builder) const {
  emitAsm(builder, builder.getVoidTy(), {}, "fence.proxy.async.shared::cta;", "~{memory}");
}

} // namespace kaji::codegen
