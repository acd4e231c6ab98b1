// The NVPTX implementation of Target, and the TargetMachines that compile for it.
#pragma once

#include "kaji/codegen/llvm/Target.h"

#include "kaji/codegen/nvptx/NVPTXCodegen.h"

#include <mutex>
#include <string>

namespace llvm {
class TargetMachine;
}

namespace kaji::codegen {

inline constexpr const char *kNVPTXTriple = "nvptx64-nvidia-cuda";

class NVPTXTarget final : public Target {
public:
  unsigned addressSpace(ir::MemorySpace space) const override;
  bool linksCudaDeviceCode() const override { return true; }
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
  bool placesMmaElements() const override { return true; }
  bool loadsMatrixRows() const override { return true; }
  void emitMatrixRowsLoad(llvm::IRBuilderBase &builder, const ir::Type &fragment,
                          llvm::Value *storage, llvm::Value *matrix, llvm::Value *ldm,
                          ir::MatrixLayout layout) const override;
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
  void emitWarpgroupCommit(llvm::IRBuilderBase &builder) const override;
  void emitWarpgroupWait(llvm::IRBuilderBase &builder, unsigned pending,
                         llvm::ArrayRef<WarpgroupAccumulator> accumulators) const override;
  void emitSharedWritesToWarpgroupFence(llvm::IRBuilderBase &builder) const override;
  llvm::Value *emitSharedStorage(llvm::IRBuilderBase &builder, llvm::Type *storage,
                                 uint64_t alignment, const std::string &name) const override;
  DynamicShared emitDynamicShared(llvm::IRBuilderBase &builder, uint64_t alignment) const override;
  void emitIndexError(llvm::IRBuilderBase &builder, const ir::Location &location,
                      const std::string &function, llvm::Value *axis, llvm::Value *index,
                      llvm::Value *extent, bool indexIsUnsigned, uint32_t number) const override;
  bool indexErrorEndsThread() const override { return true; }
  void emitRaise(llvm::IRBuilderBase &builder, const ir::Location &location,
                 const std::string &function, const std::string &exception,
                 uint32_t number) const override;
  llvm::Value *emitFloatToInteger(llvm::IRBuilderBase &builder, llvm::Value *value,
                                  llvm::Type *toType, bool toSigned) const override;
  llvm::Value *emitFloatChoice(llvm::IRBuilderBase &builder, llvm::Value *condition,
                               llvm::Value *ifTrue, llvm::Value *ifFalse) const override;
  std::string mathFunctionSymbol(std::string_view name, ir::ScalarKind kind,
                                 bool approximate) const override;
  llvm::Value *emitLibdevice(llvm::IRBuilderBase &builder, const ir::LibdeviceFunction &function,
                             size_t value, llvm::ArrayRef<llvm::Value *> args,
                             const ir::Location &location) const override;
  void markKernel(llvm::Function &kernel) const override;
  void linkMathLibrary(llvm::Module &module, bool fastMath) const override;
};

// Adds `limits` to every kernel of `module` (those markKernel marked) as the NVVM
// annotations the NVPTX backend prints as `.maxntid`, `.minnctapersm`, `.maxclusterrank` and
// `.maxnreg`.
void annotateKernelLimits(llvm::Module &module, const KernelLimits &limits);

// A TargetMachine shared by every compilation for one (arch, optimisation level). LLVM
// does not promise that one TargetMachine can drive two pipelines at once, so whoever
// runs passes with it holds `lock`.
struct SharedTargetMachine {
  llvm::TargetMachine &machine;
  std::mutex &lock;
};

// Created on first use and kept for the life of the process. Throws std::runtime_error
// if `arch` is not an sm_XX that LLVM's NVPTX backend knows, or optLevel > 3.
SharedTargetMachine nvptxTargetMachine(const std::string &arch, unsigned optLevel);

} // namespace kaji::codegen
