// The host (CPU) implementation of Target, and the entry function the CPU executor calls.
//
// Every lowered function takes one implicit parameter, a first-class struct
//   { [3 x i32] tid, [3 x i32] ctaid, [3 x i32] ntid, [3 x i32] nctaid, ptr shared,
//     ptr context, i64 global_x }
// passed by value, so that after inlining into the entry's thread loop `tid.x` is the loop's
// induction variable and LLVM can vectorise over threads. `context` is the
// abi::CpuLaunchContext, read for the barrier and index-error callbacks. `global_x` is
// `ctaid.x * ntid.x + tid.x`, which the kernel's own spelling of it reads instead
// (GlobalThreadIndex.h).
#pragma once

#include "kaji/codegen/llvm/Target.h"

#include <llvm/ADT/ArrayRef.h>

#include <cstdint>
#include <unordered_map>

namespace llvm {
class AllocaInst;
class CallInst;
class StructType;
} // namespace llvm

namespace kaji::codegen {

// What emitBarrier leaves in a lowered function: a call of this declaration, which
// splitAtBarriers (BarrierRegions.h) turns into the end of a loop over the block's threads, or
// CpuTarget::lowerBarrierMarkers into the executor's barrier.
inline constexpr const char *kBarrierMarker = "kaji.cpu.barrier";

class CpuTarget final : public Target {
public:
  llvm::Type *implicitParameterType(llvm::LLVMContext &context) const override;
  unsigned addressSpace(ir::MemorySpace space) const override;
  llvm::Value *emitSpecialReg(llvm::IRBuilderBase &builder, ir::SpecialReg reg) const override;
  void emitBarrier(llvm::IRBuilderBase &builder) const override;
  void emitGridSync(llvm::IRBuilderBase &builder) const override;
  void emitFence(llvm::IRBuilderBase &builder, ir::FenceScope scope) const override;
  llvm::Value *emitCachedLoad(llvm::IRBuilderBase &builder, llvm::Type *type, llvm::Value *address,
                              uint64_t alignment, ir::CacheOperator op) const override;
  void emitCachedStore(llvm::IRBuilderBase &builder, llvm::Value *value, llvm::Value *address,
                       uint64_t alignment, ir::CacheOperator op) const override;
  llvm::Value *emitBarrierReduce(llvm::IRBuilderBase &builder, ir::BarrierReduction reduction,
                                 llvm::Value *predicate) const override;
  void emitWarpSync(llvm::IRBuilderBase &builder, llvm::Value *mask) const override;
  void emitNanosleep(llvm::IRBuilderBase &builder, llvm::Value *nanoseconds) const override;
  void emitAsyncCopy(llvm::IRBuilderBase &builder, llvm::Value *destination, llvm::Value *source,
                     unsigned bytes) const override;
  void emitAsyncCommit(llvm::IRBuilderBase &builder) const override;
  void emitAsyncWait(llvm::IRBuilderBase &builder, unsigned pending) const override;
  llvm::Value *emitCString(llvm::IRBuilderBase &builder, const std::string &text) const override;
  void emitPrintf(llvm::IRBuilderBase &builder, llvm::Value *format,
                  llvm::ArrayRef<llvm::Value *> args) const override;
  llvm::Value *emitWarpCollective(llvm::IRBuilderBase &builder, ir::WarpCollectiveKind collective,
                                  llvm::Value *mask, llvm::Value *value, llvm::Value *operand,
                                  llvm::Type *resultType, const ir::Location &site) const override;
  unsigned fragmentLength(llvm::LLVMContext &context, const ir::Type &fragment) const override;
  void emitFragmentLoad(llvm::IRBuilderBase &builder, const ir::Type &fragment,
                        llvm::Value *storage, llvm::Value *matrix, ir::MemorySpace space,
                        llvm::Value *ldm, ir::MatrixLayout layout) const override;
  void emitFragmentStore(llvm::IRBuilderBase &builder, const ir::Type &fragment,
                         llvm::Value *storage, llvm::Value *matrix, ir::MemorySpace space,
                         llvm::Value *ldm, ir::MatrixLayout layout) const override;
  void emitFragmentMma(llvm::IRBuilderBase &builder, const ir::Type &accumulator, const ir::Type &a,
                       const ir::Type &b, llvm::Value *d, llvm::Value *aStorage,
                       llvm::Value *bStorage, llvm::Value *c) const override;
  void emitWarpgroupMma(llvm::IRBuilderBase &builder, const ir::Type &accumulator,
                        llvm::Value *storage, llvm::Value *a, llvm::Value *b, ir::ScalarKind input,
                        llvm::Value *thread) const override;
  bool placesMmaElements() const override { return false; }
  bool loadsMatrixRows() const override { return false; }
  void emitMatrixRowsLoad(llvm::IRBuilderBase &, const ir::Type &, llvm::Value *, llvm::Value *,
                          llvm::Value *, ir::MatrixLayout) const override {}
  void emitWarpgroupCommit(llvm::IRBuilderBase &) const override {}
  void emitWarpgroupWait(llvm::IRBuilderBase &, unsigned,
                         llvm::ArrayRef<WarpgroupAccumulator>) const override {}
  void emitSharedWritesToWarpgroupFence(llvm::IRBuilderBase &) const override {}
  llvm::Value *emitSharedStorage(llvm::IRBuilderBase &builder, llvm::Type *storage,
                                 uint64_t alignment, const std::string &name) const override;
  DynamicShared emitDynamicShared(llvm::IRBuilderBase &builder, uint64_t alignment) const override;
  void emitIndexError(llvm::IRBuilderBase &builder, const ir::Location &location,
                      const std::string &function, llvm::Value *axis, llvm::Value *index,
                      llvm::Value *extent, bool indexIsUnsigned, uint32_t number) const override;
  bool indexErrorEndsThread() const override { return false; }
  void emitRaise(llvm::IRBuilderBase &builder, const ir::Location &location,
                 const std::string &function, const std::string &exception,
                 uint32_t number) const override;
  llvm::Value *emitFloatChoice(llvm::IRBuilderBase &builder, llvm::Value *condition,
                               llvm::Value *ifTrue, llvm::Value *ifFalse) const override;
  llvm::Value *emitFloatToInteger(llvm::IRBuilderBase &builder, llvm::Value *value,
                                  llvm::Type *toType, bool toSigned) const override;
  std::string mathFunctionSymbol(std::string_view name, ir::ScalarKind kind,
                                 bool approximate) const override;
  llvm::Value *emitLibdevice(llvm::IRBuilderBase &builder, const ir::LibdeviceFunction &function,
                             size_t value, llvm::ArrayRef<llvm::Value *> args,
                             const ir::Location &location) const override;
  void markKernel(llvm::Function &kernel) const override;
  void linkMathLibrary(llvm::Module &module, bool fastMath) const override;

  // Bytes of block-shared memory the SharedArray ops lowered so far occupy, rounded up to
  // where the dynamic shared memory starts when the module has some.
  uint64_t staticSharedBytes() const;
  // Fixes where the dynamic shared memory starts, once every function is lowered.
  void finishSharedLayout(llvm::Module &module) const;
  // Makes every barrier (emitBarrier's kBarrierMarker calls) the executor's fiber barrier,
  // for a kernel whose threads run as fibers.
  void lowerBarrierMarkers(llvm::Module &module) const;
  // Makes every loop in which a thread waits for another (spinLoopHeaders) yield to the
  // block's other threads at each iteration, once every function is lowered. Returns whether
  // there was such a loop: the kernel's threads must then run as fibers.
  bool addSpinYields(llvm::Module &module) const;

private:
  // Calls the CpuLaunchContext callback number `field` (`name` in the IR) with the
  // executor and `arguments`.
  llvm::CallInst *callExecutor(llvm::IRBuilderBase &builder, unsigned field, const char *name,
                               llvm::Type *resultType,
                               llvm::ArrayRef<llvm::Value *> arguments) const;
  // A frame slot holding the calling thread's coordinates, as the executor's raiseException
  // and indexError read them (abi::CpuRaisingThread).
  llvm::Value *raisingThread(llvm::IRBuilderBase &builder) const;

  // Shared arrays are laid out one after another in the block's shared memory as they are
  // lowered; the lowering only sees a const Target.
  mutable uint64_t sharedBytes_ = 0;
  // The dynamic shared memory follows the static arrays, aligned to the largest alignment a
  // dynamic_shared_array asked for (0: the module has none).
  mutable uint64_t dynamicAlignment_ = 0;
  // Each function's frame slot for the raising thread's coordinates (raisingThread()).
  mutable std::unordered_map<const llvm::Function *, llvm::AllocaInst *> raisingThreadSlots_;
};

} // namespace kaji::codegen
