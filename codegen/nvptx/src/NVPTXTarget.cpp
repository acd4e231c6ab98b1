#include "NVPTXTarget.h"

#include "Libdevice.h"
#include "NVVMReflect.h"
#include "kaji/abi/KernelABI.h"
#include "kaji/codegen/llvm/LibdeviceLowering.h"

#include "kaji/ir/ExceptionTable.h"

#include <algorithm>
#include <iterator>

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>

#include <utility>
#include <vector>

namespace kaji::codegen {
namespace {

// The NVPTX backend's address spaces (NVPTXAddrSpace in LLVM).
constexpr unsigned kGenericAddressSpace = 0;
constexpr unsigned kGlobalAddressSpace = 1;
constexpr unsigned kSharedAddressSpace = 3;
constexpr unsigned kConstantAddressSpace = 4;

constexpr llvm::Intrinsic::ID kSpecialRegisters[4][3] = {
    {llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x, llvm::Intrinsic::nvvm_read_ptx_sreg_tid_y,
     llvm::Intrinsic::nvvm_read_ptx_sreg_tid_z},
    {llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x, llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_y,
     llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_z},
    {llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_x, llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_y,
     llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_z},
    {llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x, llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_y,
     llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_z},
};

constexpr const char *kSpecialRegisterNames[4] = {"tid", "ctaid", "ntid", "nctaid"};

} // namespace

unsigned NVPTXTarget::addressSpace(ir::MemorySpace space) const {
  switch (space) {
  case ir::MemorySpace::Global:
    return kGlobalAddressSpace;
  case ir::MemorySpace::Shared:
    return kSharedAddressSpace;
  case ir::MemorySpace::Constant:
    return kConstantAddressSpace;
  case ir::MemorySpace::Local:
    // Thread-local arrays are allocas, which NVPTX addresses generically until its
    // own passes infer the local space.
    return kGenericAddressSpace;
  }
  return kGenericAddressSpace;
}

llvm::Value *NVPTXTarget::emitSpecialReg(llvm::IRBuilderBase &builder, ir::SpecialReg reg) const {
  return builder.CreateIntrinsic(kSpecialRegisters[reg.kind][reg.dim], {}, {}, nullptr,
                                 std::string(kSpecialRegisterNames[reg.kind]) + "." +
                                     char('x' + reg.dim));
}

void NVPTXTarget::emitBarrier(llvm::IRBuilderBase &builder) const {
  builder.CreateIntrinsic(llvm::Intrinsic::nvvm_barrier0, {}, {});
}

llvm::Value *NVPTXTarget::emitBarrierReduce(llvm::IRBuilderBase &builder,
                                            ir::BarrierReduction reduction,
                                            llvm::Value *predicate) const {
  llvm::Intrinsic::ID reduce =
      reduction == ir::BarrierReduction::Count ? llvm::Intrinsic::nvvm_barrier0_popc
      : reduction == ir::BarrierReduction::And ? llvm::Intrinsic::nvvm_barrier0_and
                                               : llvm::Intrinsic::nvvm_barrier0_or;
  return builder.CreateIntrinsic(reduce, {}, {builder.CreateZExt(predicate, builder.getInt32Ty())});
}

void NVPTXTarget::emitNanosleep(llvm::IRBuilderBase &builder, llvm::Value *nanoseconds) const {
  builder.CreateIntrinsic(llvm::Intrinsic::nvvm_nanosleep, {}, {nanoseconds});
}

// cp.async: 16 bytes bypass L1 (.cg), as CUTLASS copies its tiles; 4 and 8 bytes have only .ca.
void NVPTXTarget::emitAsyncCopy(llvm::IRBuilderBase &builder, llvm::Value *destination,
                                llvm::Value *source, unsigned bytes) const {
  llvm::Intrinsic::ID copy = bytes == 16  ? llvm::Intrinsic::nvvm_cp_async_cg_shared_global_16
                             : bytes == 8 ? llvm::Intrinsic::nvvm_cp_async_ca_shared_global_8
                                          : llvm::Intrinsic::nvvm_cp_async_ca_shared_global_4;
  builder.CreateIntrinsic(copy, {}, {destination, source});
}

void NVPTXTarget::emitAsyncCommit(llvm::IRBuilderBase &builder) const {
  builder.CreateIntrinsic(llvm::Intrinsic::nvvm_cp_async_commit_group, {}, {});
}

void NVPTXTarget::emitAsyncWait(llvm::IRBuilderBase &builder, unsigned pending) const {
  builder.CreateIntrinsic(llvm::Intrinsic::nvvm_cp_async_wait_group, {},
                          {builder.getInt32(pending)});
}

void NVPTXTarget::emitWarpSync(llvm::IRBuilderBase &builder, llvm::Value *mask) const {
  builder.CreateIntrinsic(llvm::Intrinsic::nvvm_bar_warp_sync, {}, {mask});
}

namespace {

// shfl.sync moves 32 bits; a 64-bit value goes as its two halves.
llvm::Value *shuffle(llvm::IRBuilderBase &builder, ir::WarpCollectiveKind collective,
                     llvm::Value *mask, llvm::Value *value, llvm::Value *operand) {
  using Collective = ir::WarpCollectiveKind;
  llvm::Intrinsic::ID id =
      collective == Collective::ShflIdx    ? llvm::Intrinsic::nvvm_shfl_sync_idx_i32
      : collective == Collective::ShflUp   ? llvm::Intrinsic::nvvm_shfl_sync_up_i32
      : collective == Collective::ShflDown ? llvm::Intrinsic::nvvm_shfl_sync_down_i32
                                           : llvm::Intrinsic::nvvm_shfl_sync_bfly_i32;
  // The clamp operand: lanes past 31 (up: below 0) read their own value.
  llvm::Value *clamp = builder.getInt32(collective == Collective::ShflUp ? 0 : 0x1f);
  llvm::Type *type = value->getType();
  unsigned bits = type->getPrimitiveSizeInBits();
  llvm::Value *word = builder.CreateBitCast(value, builder.getIntNTy(bits));
  auto move = [&](llvm::Value *half) {
    return builder.CreateIntrinsic(id, {}, {mask, half, operand, clamp});
  };
  if (bits == 32)
    return builder.CreateBitCast(move(word), type);
  llvm::Value *low = move(builder.CreateTrunc(word, builder.getInt32Ty()));
  llvm::Value *high = move(builder.CreateTrunc(builder.CreateLShr(word, 32), builder.getInt32Ty()));
  llvm::Value *joined =
      builder.CreateOr(builder.CreateShl(builder.CreateZExt(high, builder.getInt64Ty()), 32),
                       builder.CreateZExt(low, builder.getInt64Ty()));
  return builder.CreateBitCast(joined, type);
}

} // namespace

llvm::Value *NVPTXTarget::emitWarpCollective(llvm::IRBuilderBase &builder,
                                             ir::WarpCollectiveKind collective, llvm::Value *mask,
                                             llvm::Value *value, llvm::Value *operand,
                                             llvm::Type *resultType, const ir::Location &) const {
  using llvm::Intrinsic::ID;
  using Collective = ir::WarpCollectiveKind;
  switch (collective) {
  case Collective::ActiveMask:
    return builder.CreateIntrinsic(llvm::Intrinsic::nvvm_activemask, {}, {});
  case Collective::Ballot:
    return builder.CreateIntrinsic(llvm::Intrinsic::nvvm_vote_ballot_sync, {}, {mask, value});
  case Collective::All:
  case Collective::Any:
  case Collective::Eq: {
    ID vote = collective == Collective::All   ? llvm::Intrinsic::nvvm_vote_all_sync
              : collective == Collective::Any ? llvm::Intrinsic::nvvm_vote_any_sync
                                              : llvm::Intrinsic::nvvm_vote_uni_sync;
    return builder.CreateZExt(builder.CreateIntrinsic(vote, {}, {mask, value}), resultType);
  }
  case Collective::MatchAny: {
    unsigned bits = value->getType()->getPrimitiveSizeInBits();
    ID match = bits == 32 ? llvm::Intrinsic::nvvm_match_any_sync_i32
                          : llvm::Intrinsic::nvvm_match_any_sync_i64;
    return builder.CreateIntrinsic(match, {},
                                   {mask, builder.CreateBitCast(value, builder.getIntNTy(bits))});
  }
  case Collective::MatchAll: { // {mask, predicate}: the mask is 0 where the predicate is false
    unsigned bits = value->getType()->getPrimitiveSizeInBits();
    ID match = bits == 32 ? llvm::Intrinsic::nvvm_match_all_sync_i32p
                          : llvm::Intrinsic::nvvm_match_all_sync_i64p;
    llvm::Value *matched = builder.CreateIntrinsic(
        match, {}, {mask, builder.CreateBitCast(value, builder.getIntNTy(bits))});
    return builder.CreateExtractValue(matched, 0);
  }
  case Collective::ShflIdx:
  case Collective::ShflUp:
  case Collective::ShflDown:
  case Collective::ShflXor:
    return shuffle(builder, collective, mask, value, operand);
  }
  llvm_unreachable("a warp collective WarpCollectives.def does not list");
}

// In constant memory, where Numba puts print's format strings (a kernel's
// get_const_mem_size counts them).
llvm::Value *NVPTXTarget::emitCString(llvm::IRBuilderBase &builder, const std::string &text) const {
  llvm::Value *global = builder.CreateGlobalString(text, "kaji.str", kConstantAddressSpace,
                                                   builder.GetInsertBlock()->getModule());
  return builder.CreateAddrSpaceCast(global, builder.getPtrTy(kGenericAddressSpace));
}

// CUDA's printf is vprintf(format, buffer): the arguments packed in a local buffer, each at
// an offset aligned to its size.
void NVPTXTarget::emitPrintf(llvm::IRBuilderBase &builder, llvm::Value *format,
                             llvm::ArrayRef<llvm::Value *> args) const {
  llvm::Module *module = builder.GetInsertBlock()->getModule();
  llvm::Type *pointer = builder.getPtrTy(kGenericAddressSpace);
  llvm::Value *buffer = llvm::ConstantPointerNull::get(llvm::cast<llvm::PointerType>(pointer));
  if (!args.empty()) {
    llvm::SmallVector<llvm::Type *, 8> fields;
    for (llvm::Value *arg : args)
      fields.push_back(arg->getType());
    llvm::StructType *layout = llvm::StructType::get(builder.getContext(), fields);
    llvm::Function *function = builder.GetInsertBlock()->getParent();
    llvm::IRBuilder<> entry(&function->getEntryBlock(), function->getEntryBlock().begin());
    llvm::AllocaInst *slots = entry.CreateAlloca(layout, nullptr, "printf.args");
    for (unsigned i = 0; i < args.size(); ++i)
      builder.CreateStore(args[i], builder.CreateStructGEP(layout, slots, i));
    buffer = slots;
  }
  llvm::FunctionCallee vprintf = module->getOrInsertFunction(
      "vprintf", llvm::FunctionType::get(builder.getInt32Ty(), {pointer, pointer}, false));
  builder.CreateCall(vprintf, {format, buffer});
}

void NVPTXTarget::emitFence(llvm::IRBuilderBase &builder, ir::FenceScope scope) const {
  llvm::Intrinsic::ID membar = scope == ir::FenceScope::Block    ? llvm::Intrinsic::nvvm_membar_cta
                               : scope == ir::FenceScope::Device ? llvm::Intrinsic::nvvm_membar_gl
                                                                 : llvm::Intrinsic::nvvm_membar_sys;
  builder.CreateIntrinsic(membar, {}, {});
}

namespace {

// The PTX register an `bits`-bit access moves: 8-bit values travel in 16-bit registers,
// which ld.b8 and st.b8 take.
struct CacheAccessRegister {
  llvm::Type *type;
  const char *constraint;
};

CacheAccessRegister cacheAccessRegister(llvm::IRBuilderBase &builder, unsigned bits) {
  if (bits <= 16)
    return {builder.getInt16Ty(), "h"};
  if (bits == 32)
    return {builder.getInt32Ty(), "r"};
  return {builder.getInt64Ty(), "l"};
}

std::string cacheAccess(const char *access, ir::CacheOperator op, unsigned bits) {
  return std::string(access) + ".global." + std::string(ir::attributeName(op)) + ".b" +
         std::to_string(bits);
}

} // namespace

// ld.global.OP.bN by inline assembly (LLVM's NVPTX backend has no cache operators): it may
// read any memory, so it stays ordered with the accesses around it.
llvm::Value *NVPTXTarget::emitCachedLoad(llvm::IRBuilderBase &builder, llvm::Type *type,
                                         llvm::Value *address, uint64_t,
                                         ir::CacheOperator op) const {
  unsigned bits = type->getPrimitiveSizeInBits();
  CacheAccessRegister reg = cacheAccessRegister(builder, bits);
  auto *load = llvm::InlineAsm::get(llvm::FunctionType::get(reg.type, {address->getType()}, false),
                                    cacheAccess("ld", op, bits) + " $0, [$1];",
                                    std::string("=") + reg.constraint + ",l,~{memory}", true);
  llvm::Value *bitsRead = builder.CreateCall(load, {address});
  llvm::Type *sameWidth = builder.getIntNTy(bits);
  return builder.CreateBitCast(builder.CreateTrunc(bitsRead, sameWidth), type);
}

void NVPTXTarget::emitCachedStore(llvm::IRBuilderBase &builder, llvm::Value *value,
                                  llvm::Value *address, uint64_t, ir::CacheOperator op) const {
  unsigned bits = value->getType()->getPrimitiveSizeInBits();
  CacheAccessRegister reg = cacheAccessRegister(builder, bits);
  llvm::Value *asBits =
      builder.CreateZExt(builder.CreateBitCast(value, builder.getIntNTy(bits)), reg.type);
  auto *store = llvm::InlineAsm::get(
      llvm::FunctionType::get(builder.getVoidTy(), {address->getType(), reg.type}, false),
      cacheAccess("st", op, bits) + " [$0], $1;", std::string("l,") + reg.constraint + ",~{memory}",
      true);
  builder.CreateCall(store, {address, asBits});
}

// Every shared array starts on a 16-byte boundary, the widest access there (a 16-byte cp.async,
// four 32-bit lanes): a tile of bytes staged by 16-byte copies needs no alignment= of its own.
constexpr uint64_t kSharedAlignment = 16;

llvm::Value *NVPTXTarget::emitSharedStorage(llvm::IRBuilderBase &builder, llvm::Type *storage,
                                            uint64_t alignment, const std::string &name) const {
  // Shared memory cannot be initialised: the NVPTX backend requires an undef initializer.
  auto *global = new llvm::GlobalVariable(*builder.GetInsertBlock()->getModule(), storage, false,
                                          llvm::GlobalValue::InternalLinkage,
                                          llvm::UndefValue::get(storage), name, nullptr,
                                          llvm::GlobalValue::NotThreadLocal, kSharedAddressSpace);
  global->setAlignment(llvm::Align(std::max(alignment, kSharedAlignment)));
  return global;
}

// `.extern .shared .align N .b8 kaji_dynamic_shared[]`, one per module, aligned to the most
// any of its arrays asks for; the size is the %dynamic_smem_size register, which NVVM has no
// intrinsic for.
Target::DynamicShared NVPTXTarget::emitDynamicShared(llvm::IRBuilderBase &builder,
                                                     uint64_t alignment) const {
  llvm::Module &module = *builder.GetInsertBlock()->getModule();
  auto *storage = llvm::ArrayType::get(builder.getInt8Ty(), 0);
  llvm::GlobalVariable *global = module.getNamedGlobal("kaji_dynamic_shared");
  if (!global)
    global = new llvm::GlobalVariable(module, storage, false, llvm::GlobalValue::ExternalLinkage,
                                      nullptr, "kaji_dynamic_shared", nullptr,
                                      llvm::GlobalValue::NotThreadLocal, kSharedAddressSpace);
  if (global->getAlign().valueOrOne().value() < std::max(alignment, kSharedAlignment))
    global->setAlignment(llvm::Align(std::max(alignment, kSharedAlignment)));
  auto *readSize = llvm::InlineAsm::get(llvm::FunctionType::get(builder.getInt32Ty(), false),
                                        "mov.u32 $0, %dynamic_smem_size;", "=r", false);
  llvm::CallInst *size = builder.CreateCall(readSize, {}, "dynamic_smem_size");
  size->setDoesNotAccessMemory();
  return {global, builder.CreateZExt(size, builder.getInt64Ty(), "dynamic_shared.bytes")};
}

namespace {

// A module-scope variable in global memory, zero at module load, which the host finds by name.
llvm::GlobalVariable *deviceGlobal(llvm::Module &module, const char *name, llvm::Type *type) {
  if (llvm::GlobalVariable *existing = module.getNamedGlobal(name))
    return existing;
  return new llvm::GlobalVariable(module, type, false, llvm::GlobalValue::ExternalLinkage,
                                  llvm::Constant::getNullValue(type), name, nullptr,
                                  llvm::GlobalValue::NotThreadLocal, kGlobalAddressSpace);
}

// As Numba: the first thread to report leaves its exception's number in the module's slot,
// which the host reads after the launch. Returns whether this thread was the first.
llvm::Value *claimExceptionSlot(llvm::IRBuilderBase &builder, uint32_t number) {
  llvm::Module &module = *builder.GetInsertBlock()->getModule();
  llvm::Value *exchange = builder.CreateAtomicCmpXchg(
      deviceGlobal(module, abi::kExceptionSlotSymbol, builder.getInt32Ty()), builder.getInt32(0),
      builder.getInt32(number), llvm::MaybeAlign(4), llvm::AtomicOrdering::Monotonic,
      llvm::AtomicOrdering::Monotonic);
  return builder.CreateExtractValue(exchange, 1, "exception.first");
}

// The thread that won the slot leaves its threadIdx and blockIdx in the module's
// kRaisingThreadSymbol, for the exception's message.
void recordRaisingThread(llvm::IRBuilderBase &builder, const NVPTXTarget &target) {
  auto *fields = llvm::ArrayType::get(builder.getInt32Ty(), abi::kRaisingThreadFields);
  storeRaisingThread(
      builder, target,
      deviceGlobal(*builder.GetInsertBlock()->getModule(), abi::kRaisingThreadSymbol, fields));
}

// `exit`, not `trap`: a trap would end the context, and the exception must reach Python with
// the context intact. Terminates the block.
void exitThread(llvm::IRBuilderBase &builder) {
  auto *exit = llvm::InlineAsm::get(llvm::FunctionType::get(builder.getVoidTy(), false), "exit;",
                                    "~{memory}", true);
  builder.CreateCall(exit, {});
  builder.CreateUnreachable();
}

} // namespace

// The index error's number in the slot, as a raise's; the first thread also leaves what the
// message needs in the module's kIndexErrorSymbol. Then the thread exits.
void NVPTXTarget::emitIndexError(llvm::IRBuilderBase &builder, const ir::Location &,
                                 const std::string &, llvm::Value *axis, llvm::Value *index,
                                 llvm::Value *extent, bool indexIsUnsigned, uint32_t number) const {
  llvm::Function *function = builder.GetInsertBlock()->getParent();
  auto *record = llvm::BasicBlock::Create(builder.getContext(), "index_error.record", function);
  auto *done = llvm::BasicBlock::Create(builder.getContext(), "index_error.exit", function);
  builder.CreateCondBr(claimExceptionSlot(builder, number), record, done);
  builder.SetInsertPoint(record);
  auto *fields = llvm::ArrayType::get(builder.getInt64Ty(), abi::kIndexErrorFields);
  llvm::GlobalVariable *payload =
      deviceGlobal(*function->getParent(), abi::kIndexErrorSymbol, fields);
  std::pair<abi::IndexErrorField, llvm::Value *> values[] = {
      {abi::kIndexErrorAxis, axis},
      {abi::kIndexErrorIndex, index},
      {abi::kIndexErrorExtent, extent},
      {abi::kIndexErrorUnsigned, builder.getInt64(indexIsUnsigned)}};
  for (auto [field, value] : values)
    builder.CreateStore(value, builder.CreateConstInBoundsGEP2_32(fields, payload, 0, field));
  recordRaisingThread(builder, *this);
  builder.CreateBr(done);
  builder.SetInsertPoint(done);
  exitThread(builder);
}

void NVPTXTarget::emitRaise(llvm::IRBuilderBase &builder, const ir::Location &, const std::string &,
                            const std::string &exception, uint32_t number) const {
  if (!exception.empty()) {
    llvm::Function *function = builder.GetInsertBlock()->getParent();
    auto *record = llvm::BasicBlock::Create(builder.getContext(), "raise.record", function);
    auto *done = llvm::BasicBlock::Create(builder.getContext(), "raise.exit", function);
    builder.CreateCondBr(claimExceptionSlot(builder, number), record, done);
    builder.SetInsertPoint(record);
    recordRaisingThread(builder, *this);
    builder.CreateBr(done);
    builder.SetInsertPoint(done);
  }
  exitThread(builder);
}

// PTX's cvt.rzi to an integer type already saturates and gives 0 for NaN, so one cvt is
// llvm.fpto[su]i.sat. LLVM 19 expands the intrinsic instead, for an unsigned result into
// max.f64(x, 0) and min.f64 with the type's maximum before the cvt; ptxas (CUDA 13.0, sm_90)
// then moved that max before a min.f64(x, 1.0) the kernel computed, as if x were never NaN:
// for x = NaN, PTX's min gives 1.0 and the conversion 1, the reordered code 0 (program
// differential, seed 1013 #272 on the H100). Narrower results clamp the 32-bit one as integers.
llvm::Value *NVPTXTarget::emitFloatToInteger(llvm::IRBuilderBase &builder, llvm::Value *value,
                                             llvm::Type *toType, bool toSigned) const {
  // One saturating cvt.rzi, as inline assembly: LLVM's NVPTX InstCombine turns the
  // llvm.nvvm.d2i.rz-style intrinsics into fptosi, whose out-of-range result is poison, so
  // `int16(float64(x))` of a large int64 x folded to a truncation of x. LLVM's own
  // fptosi.sat expands to max/min clamps, which ptxas reordered with a kernel's min (NaN lost,
  // program differential seed 1013 #272).
  unsigned width = toType->getIntegerBitWidth();
  bool fromDouble = value->getType()->isDoubleTy();
  bool to64 = width == 64;
  llvm::Type *resultType = to64 ? builder.getInt64Ty() : builder.getInt32Ty();
  std::string instruction = std::string("cvt.rzi.") + (toSigned ? "s" : "u") +
                            (to64 ? "64" : "32") + (fromDouble ? ".f64" : ".f32") + " $0, $1;";
  std::string constraints = std::string(to64 ? "=l" : "=r") + (fromDouble ? ",d" : ",f");
  auto *convert =
      llvm::InlineAsm::get(llvm::FunctionType::get(resultType, {value->getType()}, false),
                           instruction, constraints, false);
  llvm::Value *converted = builder.CreateCall(convert, {value});
  // PTX gives NaN as 0, which is kaji's rule too; the select keeps that explicit.
  converted = builder.CreateSelect(builder.CreateFCmpUNO(value, value),
                                   llvm::ConstantInt::get(resultType, 0), converted);
  if (width >= 32)
    return converted;
  llvm::Type *wide = converted->getType();
  if (toSigned) {
    llvm::Value *below = builder.CreateBinaryIntrinsic(
        llvm::Intrinsic::smin, converted,
        llvm::ConstantInt::get(wide, llvm::APInt::getSignedMaxValue(width).sext(32)));
    converted = builder.CreateBinaryIntrinsic(
        llvm::Intrinsic::smax, below,
        llvm::ConstantInt::get(wide, llvm::APInt::getSignedMinValue(width).sext(32)));
  } else {
    converted = builder.CreateBinaryIntrinsic(
        llvm::Intrinsic::umin, converted,
        llvm::ConstantInt::get(wide, llvm::APInt::getMaxValue(width).zext(32)));
  }
  return builder.CreateTrunc(converted, toType);
}

// NVPTX's instruction selection turns select(b < a, b, a) into min.f64 (also a select between
// the bits, once InstCombine folds the bitcasts), which gives -0.0 for Python's min(0.0, -0.0)
// (0.0; H100 differential): the choice is one selp in inline assembly. 16-bit floats are
// chosen as their bits.
llvm::Value *NVPTXTarget::emitFloatChoice(llvm::IRBuilderBase &builder, llvm::Value *condition,
                                          llvm::Value *ifTrue, llvm::Value *ifFalse) const {
  llvm::Type *floatType = ifTrue->getType();
  unsigned width = floatType->getPrimitiveSizeInBits();
  llvm::Type *registerType = width == 16 ? builder.getInt16Ty() : floatType;
  const char *kind = width == 16 ? "b16" : width == 32 ? "f32" : "f64";
  std::string constraint = width == 16 ? "h" : width == 32 ? "f" : "d";
  std::string instruction = std::string("{\n\t.reg .pred p;\n\tsetp.ne.b32 p, $3, 0;\n\tselp.") +
                            kind + " $0, $1, $2, p;\n\t}";
  auto *select = llvm::InlineAsm::get(
      llvm::FunctionType::get(registerType, {registerType, registerType, builder.getInt32Ty()},
                              false),
      instruction, "=" + constraint + "," + constraint + "," + constraint + ",r", false);
  llvm::Value *chosen =
      builder.CreateCall(select, {builder.CreateBitCast(ifTrue, registerType),
                                  builder.CreateBitCast(ifFalse, registerType),
                                  builder.CreateZExt(condition, builder.getInt32Ty())});
  return builder.CreateBitCast(chosen, floatType);
}

std::string NVPTXTarget::mathFunctionSymbol(std::string_view name, ir::ScalarKind kind,
                                            bool approximate) const {
  // libdevice's __nv_fast_NAMEf: the hardware's approximate sin, cos, ex2, lg2 and tanh
  // (sin.approx, lg2.approx, ..., tanh.approx on sm_75 and newer: ApproximateTanh.h), as
  // CUDA's --use_fast_math and Numba's fastmath=True pick.
  static constexpr std::string_view kApproximateFloat32[] = {
      "sin", "cos", "tan", "tanh", "exp", "exp10", "log", "log2", "log10", "pow"};
  bool float32 = kind == ir::ScalarKind::Float32;
  bool fast = approximate && float32 &&
              std::find(std::begin(kApproximateFloat32), std::end(kApproximateFloat32), name) !=
                  std::end(kApproximateFloat32);
  return (fast ? "__nv_fast_" : "__nv_") + std::string(name) + (float32 ? "f" : "");
}

llvm::Value *NVPTXTarget::emitLibdevice(llvm::IRBuilderBase &builder,
                                        const ir::LibdeviceFunction &function, size_t value,
                                        llvm::ArrayRef<llvm::Value *> args,
                                        const ir::Location &) const {
  return emitLibdeviceCall(builder, "__nv_" + std::string(function.name), function, value, args);
}

namespace {

// !{ptr @kernel, !"name", i32 value} in nvvm.annotations.
void annotate(llvm::Function &kernel, const char *name, unsigned value) {
  llvm::LLVMContext &context = kernel.getContext();
  llvm::Metadata *annotation[] = {
      llvm::ValueAsMetadata::get(&kernel), llvm::MDString::get(context, name),
      llvm::ValueAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(context), value))};
  kernel.getParent()
      ->getOrInsertNamedMetadata("nvvm.annotations")
      ->addOperand(llvm::MDNode::get(context, annotation));
}

} // namespace

void NVPTXTarget::markKernel(llvm::Function &kernel) const { annotate(kernel, "kernel", 1); }

void annotateKernelLimits(llvm::Module &module, const KernelLimits &limits) {
  llvm::NamedMDNode *annotations = module.getNamedMetadata("nvvm.annotations");
  if (!annotations)
    return;
  std::vector<llvm::Function *> kernels;
  for (llvm::MDNode *annotation : annotations->operands())
    if (annotation->getNumOperands() == 3)
      if (auto *key = llvm::dyn_cast<llvm::MDString>(annotation->getOperand(1));
          key && key->getString() == "kernel")
        if (auto *function =
                llvm::mdconst::dyn_extract_or_null<llvm::Function>(annotation->getOperand(0)))
          kernels.push_back(function);
  const std::pair<const char *, unsigned> entries[] = {
      {"maxntidx", limits.maxThreadsPerBlock},
      {"minctasm", limits.minBlocksPerMultiprocessor},
      {"maxclusterrank", limits.maxBlocksPerCluster},
      {"maxnreg", limits.maxRegisters}};
  for (llvm::Function *kernel : kernels)
    for (const auto &[name, value] : entries)
      if (value != 0)
        annotate(*kernel, name, value);
}

void NVPTXTarget::linkMathLibrary(llvm::Module &module, bool fastMath) const {
  // libdevice asks __nvvm_reflect("__CUDA_FTZ") whether to flush denormals; NVVMReflect
  // answers from this flag.
  module.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", fastMath ? 1 : 0);
  for (const llvm::Function &function : module)
    if (function.isDeclaration() && function.getName().starts_with("__nv_")) {
      linkLibdevice(module);
      // It asks "__CUDA_PREC_SQRT" too, whether __nv_sqrtf and what calls it (hypotf,
      // norm3df, ...) round correctly; LLVM 19's NVVMReflect answers 0 to it, the approximate
      // root. nvcc and NVVM answer 1 unless math is fast: so does kaji.
      answerReflect(module, "__CUDA_PREC_SQRT", fastMath ? 0 : 1);
      return;
    }
}

} // namespace kaji::codegen
