#include "CpuTarget.h"

#include "CpuLaunchLayout.h"
#include "CpuSpinLoops.h"
#include "kaji/codegen/llvm/LibdeviceLowering.h"

#include "kaji/ir/ExceptionTable.h"

#include "kaji/abi/CpuKernelABI.h"
#include "kaji/abi/KernelABI.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <cstddef>

namespace kaji::codegen {
namespace {

// The executor's operation computing a warp collective.
abi::WarpOp warpOp(ir::WarpCollectiveKind collective) {
  using Collective = ir::WarpCollectiveKind;
  using abi::WarpOp;
  switch (collective) {
  case Collective::ShflIdx:
    return WarpOp::ShuffleIndex;
  case Collective::ShflUp:
    return WarpOp::ShuffleUp;
  case Collective::ShflDown:
    return WarpOp::ShuffleDown;
  case Collective::ShflXor:
    return WarpOp::ShuffleXor;
  case Collective::Ballot:
    return WarpOp::Ballot;
  case Collective::All:
    return WarpOp::All;
  case Collective::Any:
    return WarpOp::Any;
  case Collective::Eq:
    return WarpOp::Equal;
  case Collective::MatchAny:
    return WarpOp::MatchAny;
  case Collective::MatchAll:
    return WarpOp::MatchAll;
  case Collective::ActiveMask:
    return WarpOp::ActiveMask;
  }
  llvm_unreachable("a warp collective WarpCollectives.def does not list");
}

constexpr const char *kRsqrtPrefix = "kaji.host.rsqrt";
// Where the dynamic shared memory starts in the block's shared memory: a constant whose
// value finishSharedLayout sets once every static shared array has its place.
constexpr const char *kDynamicSharedOffset = "kaji.dynamic_shared_offset";

static_assert(abi::kSharedMemoryAlignment == uint64_t(ir::kMaxArrayAlignment),
              "the executor's shared memory must be aligned as much as an array may ask");

} // namespace

llvm::Type *CpuTarget::implicitParameterType(llvm::LLVMContext &context) const {
  return implicitType(context);
}

unsigned CpuTarget::addressSpace(ir::MemorySpace) const { return 0; }

llvm::Value *CpuTarget::emitSpecialReg(llvm::IRBuilderBase &builder, ir::SpecialReg reg) const {
  static constexpr const char *names[] = {"tid", "ctaid", "ntid", "nctaid"};
  return builder.CreateExtractValue(implicitArgument(builder), {unsigned(reg.kind), reg.dim},
                                    std::string(names[reg.kind]) + "." + char('x' + reg.dim));
}

// Every scope is this process's memory on the host: one sequentially consistent fence.
void CpuTarget::emitFence(llvm::IRBuilderBase &builder, ir::FenceScope) const {
  builder.CreateFence(llvm::AtomicOrdering::SequentiallyConsistent);
}

// The host has no cache operators: the access is a plain one.
llvm::Value *CpuTarget::emitCachedLoad(llvm::IRBuilderBase &builder, llvm::Type *type,
                                       llvm::Value *address, uint64_t alignment,
                                       ir::CacheOperator) const {
  return builder.CreateAlignedLoad(type, address, llvm::Align(alignment));
}

void CpuTarget::emitCachedStore(llvm::IRBuilderBase &builder, llvm::Value *value,
                                llvm::Value *address, uint64_t alignment, ir::CacheOperator) const {
  builder.CreateAlignedStore(value, address, llvm::Align(alignment));
}

void CpuTarget::emitBarrier(llvm::IRBuilderBase &builder) const {
  llvm::Module &module = *builder.GetInsertBlock()->getModule();
  builder.CreateCall(module.getOrInsertFunction(kBarrierMarker, builder.getVoidTy()));
}

void CpuTarget::lowerBarrierMarkers(llvm::Module &module) const {
  llvm::Function *marker = module.getFunction(kBarrierMarker);
  if (!marker)
    return;
  while (!marker->use_empty()) {
    auto *call = llvm::cast<llvm::CallInst>(marker->user_back());
    llvm::IRBuilder<> builder(call);
    callExecutor(builder, kBarrier, "barrier", builder.getVoidTy(), {});
    call->eraseFromParent();
  }
  marker->eraseFromParent();
}

void CpuTarget::emitGridSync(llvm::IRBuilderBase &builder) const {
  callExecutor(builder, kGridBarrier, "grid_barrier", builder.getVoidTy(), {});
}

llvm::Value *CpuTarget::emitBarrierReduce(llvm::IRBuilderBase &builder,
                                          ir::BarrierReduction reduction,
                                          llvm::Value *predicate) const {
  abi::BlockReduceOp op = reduction == ir::BarrierReduction::Count ? abi::BlockReduceOp::Count
                          : reduction == ir::BarrierReduction::And ? abi::BlockReduceOp::And
                                                                   : abi::BlockReduceOp::Or;
  return callExecutor(
      builder, kBlockReduce, "block_reduce", builder.getInt32Ty(),
      {builder.getInt32(uint32_t(op)), builder.CreateZExt(predicate, builder.getInt32Ty())});
}

llvm::Value *CpuTarget::emitCString(llvm::IRBuilderBase &builder, const std::string &text) const {
  return builder.CreateGlobalString(text, "kaji.str");
}

// printf, then fflush(NULL) so the kernel's lines come out in order with the program's own.
void CpuTarget::emitPrintf(llvm::IRBuilderBase &builder, llvm::Value *format,
                           llvm::ArrayRef<llvm::Value *> args) const {
  llvm::Module *module = builder.GetInsertBlock()->getModule();
  llvm::Type *pointer = builder.getPtrTy();
  llvm::FunctionCallee printf = module->getOrInsertFunction(
      "printf", llvm::FunctionType::get(builder.getInt32Ty(), {pointer}, true));
  llvm::SmallVector<llvm::Value *, 8> operands{format};
  operands.append(args.begin(), args.end());
  builder.CreateCall(printf, operands);
  llvm::FunctionCallee fflush = module->getOrInsertFunction(
      "fflush", llvm::FunctionType::get(builder.getInt32Ty(), {pointer}, false));
  builder.CreateCall(fflush, {llvm::ConstantPointerNull::get(builder.getPtrTy())});
}

// The block's threads take turns on one OS thread: a sleeping thread lets the others run, as
// the thread it waits for may be one of them.
void CpuTarget::emitNanosleep(llvm::IRBuilderBase &builder, llvm::Value *) const {
  callExecutor(builder, kYield, "yield", builder.getVoidTy(), {});
}

// A thread's copy is done before its next statement: every wait finds its groups complete. The
// copy assumes no alignment: a misaligned one runs here as the GPU would not, but never faults.
void CpuTarget::emitAsyncCopy(llvm::IRBuilderBase &builder, llvm::Value *destination,
                              llvm::Value *source, unsigned bytes) const {
  builder.CreateMemCpy(destination, llvm::MaybeAlign(), source, llvm::MaybeAlign(), bytes);
}

void CpuTarget::emitAsyncCommit(llvm::IRBuilderBase &) const {}

void CpuTarget::emitAsyncWait(llvm::IRBuilderBase &, unsigned) const {}

void CpuTarget::emitWarpSync(llvm::IRBuilderBase &builder, llvm::Value *mask) const {
  callExecutor(builder, kWarpBarrier, "warp_barrier", builder.getVoidTy(), {mask});
}

llvm::Value *CpuTarget::emitWarpCollective(llvm::IRBuilderBase &builder,
                                           ir::WarpCollectiveKind collective, llvm::Value *mask,
                                           llvm::Value *value, llvm::Value *operand,
                                           llvm::Type *resultType, const ir::Location &site) const {
  using abi::WarpOp;

  llvm::Type *i64 = builder.getInt64Ty();
  // The value travels as its bits, zero-extended to 64.
  llvm::Value *bits = builder.getInt64(0);
  if (value) {
    unsigned width = value->getType()->getPrimitiveSizeInBits();
    bits = builder.CreateZExt(builder.CreateBitCast(value, builder.getIntNTy(width)), i64);
  }
  WarpOp op = warpOp(collective);
  // activemask's operand is its call site (CpuKernelABI.h), which also keeps LLVM from
  // merging the calls of two branches into one.
  if (op == WarpOp::ActiveMask)
    operand = builder.getInt32(abi::activeMaskSite(site.line, site.col));
  llvm::Value *result =
      callExecutor(builder, kWarpCollective, "warp_collective", i64,
                   {builder.getInt32(uint32_t(op)), mask ? mask : builder.getInt32(0), bits,
                    operand ? operand : builder.getInt32(0)});
  unsigned width = resultType->getPrimitiveSizeInBits();
  return builder.CreateBitCast(builder.CreateTrunc(result, builder.getIntNTy(width)), resultType);
}

llvm::CallInst *CpuTarget::callExecutor(llvm::IRBuilderBase &builder, unsigned field,
                                        const char *name, llvm::Type *resultType,
                                        llvm::ArrayRef<llvm::Value *> arguments) const {
  llvm::Value *context = contextPointer(builder);
  llvm::Type *pointer = builder.getPtrTy();
  llvm::Value *callback = loadContextField(builder, context, ContextField(field), pointer, name);
  llvm::Value *executor = loadContextField(builder, context, kExecutor, pointer, "executor");
  llvm::SmallVector<llvm::Value *, 5> operands{executor};
  llvm::SmallVector<llvm::Type *, 5> types{pointer};
  for (llvm::Value *argument : arguments) {
    operands.push_back(argument);
    types.push_back(argument->getType());
  }
  return builder.CreateCall(llvm::FunctionType::get(resultType, types, false), callback, operands);
}

llvm::Value *CpuTarget::emitSharedStorage(llvm::IRBuilderBase &builder, llvm::Type *storage,
                                          uint64_t alignment, const std::string &name) const {
  const llvm::DataLayout &layout = builder.GetInsertBlock()->getModule()->getDataLayout();
  uint64_t offset = (sharedBytes_ + alignment - 1) / alignment * alignment;
  sharedBytes_ = offset + layout.getTypeAllocSize(storage);
  llvm::Value *base =
      builder.CreateExtractValue(implicitArgument(builder), kImplicitShared, "shared");
  return builder.CreateInBoundsGEP(builder.getInt8Ty(), base, builder.getInt64(offset), name);
}

Target::DynamicShared CpuTarget::emitDynamicShared(llvm::IRBuilderBase &builder,
                                                   uint64_t alignment) const {
  dynamicAlignment_ = std::max(dynamicAlignment_, alignment);
  llvm::Module &module = *builder.GetInsertBlock()->getModule();
  llvm::Type *i64 = builder.getInt64Ty();
  auto *offsetGlobal =
      llvm::cast<llvm::GlobalVariable>(module.getOrInsertGlobal(kDynamicSharedOffset, i64));
  llvm::Value *offset = builder.CreateLoad(i64, offsetGlobal, "dynamic_shared.offset");
  llvm::Value *base =
      builder.CreateExtractValue(implicitArgument(builder), kImplicitShared, "shared");
  llvm::Value *total =
      loadContextField(builder, contextPointer(builder), kSharedBytes, i64, "shared.bytes");
  // A launch provides at least the static bytes, so the difference does not wrap.
  return {builder.CreateInBoundsGEP(builder.getInt8Ty(), base, offset, "dynamic_shared"),
          builder.CreateNUWSub(total, offset, "dynamic_shared.bytes")};
}

uint64_t CpuTarget::staticSharedBytes() const {
  if (dynamicAlignment_ == 0)
    return sharedBytes_;
  return (sharedBytes_ + dynamicAlignment_ - 1) / dynamicAlignment_ * dynamicAlignment_;
}

void CpuTarget::finishSharedLayout(llvm::Module &module) const {
  llvm::GlobalVariable *offset = module.getNamedGlobal(kDynamicSharedOffset);
  if (!offset)
    return;
  offset->setInitializer(llvm::ConstantInt::get(offset->getValueType(), staticSharedBytes()));
  offset->setConstant(true);
  offset->setLinkage(llvm::GlobalValue::InternalLinkage);
}

// The raising thread's coordinates in a frame slot, abi::CpuRaisingThread, for the executor to
// read: one slot per function, which every report of it fills. A slot per report, once the
// kernel is inlined into the thread loop, is a pair of lifetime markers per report in the loop,
// which stay after the reports are gone from its checked-free copy and count against unrolling
// the vectorised loop. The x coordinates are recorded as the global index, which is all a
// thread of a loop across blocks holds (GlobalThreadIndex.h); the executor divides them out.
llvm::Value *CpuTarget::raisingThread(llvm::IRBuilderBase &builder) const {
  llvm::Type *i32 = builder.getInt32Ty();
  auto *fields = llvm::StructType::get(builder.getInt64Ty(), llvm::ArrayType::get(i32, 2),
                                       llvm::ArrayType::get(i32, 2));
  static_assert(sizeof(abi::CpuRaisingThread) == 24 && alignof(abi::CpuRaisingThread) == 8 &&
                    offsetof(abi::CpuRaisingThread, threadYZ) == 8 &&
                    offsetof(abi::CpuRaisingThread, blockYZ) == 16,
                "abi::CpuRaisingThread no longer matches the record's LLVM type");
  llvm::Function *function = builder.GetInsertBlock()->getParent();
  llvm::AllocaInst *&record = raisingThreadSlots_[function];
  if (!record) {
    llvm::IRBuilder<> entry(&function->getEntryBlock(), function->getEntryBlock().begin());
    record = entry.CreateAlloca(fields, nullptr, "raising_thread");
  }
  builder.CreateStore(builder.CreateExtractValue(implicitArgument(builder), kImplicitGlobalX),
                      builder.CreateStructGEP(fields, record, 0));
  for (unsigned dim = 1; dim < 3; ++dim) {
    for (auto [kind, field] :
         {std::pair{ir::SpecialReg::ThreadIdx, 1u}, std::pair{ir::SpecialReg::BlockIdx, 2u}})
      builder.CreateStore(emitSpecialReg(builder, {kind, uint8_t(dim)}),
                          builder.CreateConstInBoundsGEP2_32(
                              fields->getElementType(field),
                              builder.CreateStructGEP(fields, record, field), 0, dim - 1));
  }
  return record;
}

void CpuTarget::emitIndexError(llvm::IRBuilderBase &builder, const ir::Location &location,
                               const std::string &function, llvm::Value *axis, llvm::Value *index,
                               llvm::Value *extent, bool indexIsUnsigned, uint32_t) const {
  llvm::Value *siteText =
      builder.CreateGlobalString(ir::raiseSiteText(location, function), "kaji.index_site");
  callExecutor(
      builder, kIndexError, "index_error", builder.getVoidTy(),
      {siteText, raisingThread(builder), axis, index, extent, builder.getInt32(indexIsUnsigned)})
      ->addFnAttr(llvm::Attribute::Cold);
}

// The thread returns from the function that raised: a kernel's thread is then done; a device
// function's caller goes on with a zero result, and the launch reports the exception.
void CpuTarget::emitRaise(llvm::IRBuilderBase &builder, const ir::Location &location,
                          const std::string &function, const std::string &exception,
                          uint32_t) const {
  if (!exception.empty()) {
    llvm::Value *site =
        builder.CreateGlobalString(ir::raiseSiteText(location, function), "kaji.raise_site");
    llvm::Value *text = builder.CreateGlobalString(exception, "kaji.exception");
    callExecutor(builder, kRaiseException, "raise_exception", builder.getVoidTy(),
                 {site, raisingThread(builder), text})
        ->addFnAttr(llvm::Attribute::Cold);
  }
  llvm::Type *result = builder.GetInsertBlock()->getParent()->getReturnType();
  if (result->isVoidTy())
    builder.CreateRetVoid();
  else
    builder.CreateRet(llvm::Constant::getNullValue(result));
}

llvm::Value *CpuTarget::emitFloatChoice(llvm::IRBuilderBase &builder, llvm::Value *condition,
                                        llvm::Value *ifTrue, llvm::Value *ifFalse) const {
  return builder.CreateSelect(condition, ifTrue, ifFalse);
}

llvm::Value *CpuTarget::emitFloatToInteger(llvm::IRBuilderBase &builder, llvm::Value *value,
                                           llvm::Type *toType, bool toSigned) const {
  auto intrinsic = toSigned ? llvm::Intrinsic::fptosi_sat : llvm::Intrinsic::fptoui_sat;
  return builder.CreateIntrinsic(intrinsic, {toType, value->getType()}, {value});
}

std::string CpuTarget::mathFunctionSymbol(std::string_view name, ir::ScalarKind kind, bool) const {
  std::string suffix = kind == ir::ScalarKind::Float32 ? "f" : "";
  // libm has no rsqrt; linkMathLibrary defines it.
  if (name == "rsqrt")
    return kRsqrtPrefix + suffix;
  return std::string(name) + suffix;
}

llvm::Value *CpuTarget::emitLibdevice(llvm::IRBuilderBase &builder,
                                      const ir::LibdeviceFunction &function, size_t value,
                                      llvm::ArrayRef<llvm::Value *> args,
                                      const ir::Location &location) const {
  std::string name(function.name);
  switch (function.host) {
  case ir::LibdeviceHost::Libm:
    return emitLibdeviceCall(builder, name, function, value, args);
  case ir::LibdeviceHost::Fast:
    return emitLibdeviceCall(builder, name.substr(std::string_view("fast_").size()), function,
                             value, args);
  case ir::LibdeviceHost::Own:
    return emitOwnLibdevice(builder, function, args);
  case ir::LibdeviceHost::None:
    break;
  }
  throw ir::CompileError(location, "cuda.libdevice." + name +
                                       " has no implementation on the cpu target (it compiles "
                                       "for the cuda target only)");
}

void CpuTarget::markKernel(llvm::Function &kernel) const {
  // The launchable symbol is the entry CpuEntry.h adds; the kernel itself is inlined
  // into it, so its body runs inside the loop over threads.
  kernel.setLinkage(llvm::GlobalValue::InternalLinkage);
  kernel.addFnAttr(llvm::Attribute::AlwaysInline);
}

void CpuTarget::linkMathLibrary(llvm::Module &module, bool) const {
  for (llvm::Function &function : module) {
    if (!function.isDeclaration() || !function.getName().starts_with(kRsqrtPrefix))
      continue;
    function.setLinkage(llvm::GlobalValue::InternalLinkage);
    llvm::IRBuilder<> builder(llvm::BasicBlock::Create(module.getContext(), "entry", &function));
    llvm::Value *x = function.getArg(0);
    llvm::Value *root = builder.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, x);
    builder.CreateRet(builder.CreateFDiv(llvm::ConstantFP::get(x->getType(), 1.0), root));
  }
}

bool CpuTarget::addSpinYields(llvm::Module &module) const {
  bool added = false;
  for (llvm::Function &function : module)
    for (llvm::BasicBlock *header : spinLoopHeaders(function)) {
      llvm::IRBuilder<> builder(&*header->getFirstInsertionPt());
      callExecutor(builder, kYield, "yield", builder.getVoidTy(), {});
      added = true;
    }
  return added;
}

} // namespace kaji::codegen
