#include "NVPTXTarget.h"

#include "Libdevice.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>

namespace kaji::codegen {
namespace {

// The NVPTX backend's address spaces (NVPTXAddrSpace in LLVM).
constexpr unsigned kGenericAddressSpace = 0;
constexpr unsigned kGlobalAddressSpace = 1;
constexpr unsigned kSharedAddressSpace = 3;

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

void NVPTXTarget::emitFence(llvm::IRBuilderBase &builder, const std::string &scope) const {
  llvm::Intrinsic::ID membar = scope == "block"    ? llvm::Intrinsic::nvvm_membar_cta
                               : scope == "device" ? llvm::Intrinsic::nvvm_membar_gl
                                                   : llvm::Intrinsic::nvvm_membar_sys;
  builder.CreateIntrinsic(membar, {}, {});
}

llvm::Value *NVPTXTarget::emitSharedStorage(llvm::IRBuilderBase &builder, llvm::Type *storage,
                                            uint64_t alignment, const std::string &name) const {
  // Shared memory cannot be initialised: the NVPTX backend requires an undef initializer.
  auto *global = new llvm::GlobalVariable(*builder.GetInsertBlock()->getModule(), storage, false,
                                          llvm::GlobalValue::InternalLinkage,
                                          llvm::UndefValue::get(storage), name, nullptr,
                                          llvm::GlobalValue::NotThreadLocal, kSharedAddressSpace);
  global->setAlignment(llvm::Align(alignment));
  return global;
}

void NVPTXTarget::emitIndexError(llvm::IRBuilderBase &builder, const ir::Location &,
                                 const std::string &, llvm::Value *, llvm::Value *,
                                 llvm::Value *) const {
  // A GPU thread has nowhere to report to; trapping aborts the launch with an error the
  // driver returns.
  builder.CreateIntrinsic(llvm::Intrinsic::trap, {}, {});
}

std::string NVPTXTarget::mathFunctionSymbol(std::string_view name, ir::ScalarKind kind) const {
  return "__nv_" + std::string(name) + (kind == ir::ScalarKind::Float32 ? "f" : "");
}

void NVPTXTarget::markKernel(llvm::Function &kernel) const {
  llvm::LLVMContext &context = kernel.getContext();
  llvm::Metadata *annotation[] = {
      llvm::ValueAsMetadata::get(&kernel), llvm::MDString::get(context, "kernel"),
      llvm::ValueAsMetadata::get(llvm::ConstantInt::get(llvm::Type::getInt32Ty(context), 1))};
  kernel.getParent()
      ->getOrInsertNamedMetadata("nvvm.annotations")
      ->addOperand(llvm::MDNode::get(context, annotation));
}

void NVPTXTarget::linkMathLibrary(llvm::Module &module, bool fastMath) const {
  // libdevice asks __nvvm_reflect("__CUDA_FTZ") whether to flush denormals; NVVMReflect
  // answers from this flag.
  module.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", fastMath ? 1 : 0);
  for (const llvm::Function &function : module)
    if (function.isDeclaration() && function.getName().starts_with("__nv_")) {
      linkLibdevice(module);
      return;
    }
}

} // namespace kaji::codegen
