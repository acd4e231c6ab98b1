#include "NVPTXTarget.h"

#include "kaji/codegen/GpuArchitecture.h"

#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace kaji::codegen {
namespace {

// LLVM picks the oldest PTX ISA that knows the architecture (6.0 for sm_70, 5.0 for sm_60),
// which lacks the warp-synchronous instructions those GPUs run (shfl.sync, vote.sync and
// bar.warp.sync need 6.0, activemask 6.2). nvcc has emitted 6.2 or newer for every
// architecture since CUDA 10.0, so kaji asks for at least that; newer architectures keep
// LLVM's (higher) choice, the feature only raises the version. sm_75 to sm_79 get at least
// 7.0 (LLVM picks 6.3 for sm_75), which tanh.approx needs (ApproximateTanh.h) and nvcc has
// emitted since CUDA 11.0.
const char *minimumPTXVersion(std::string_view arch) {
  return smNumber(arch).value_or(0) >= 75 ? "+ptx70" : "+ptx62";
}

struct CachedMachine {
  std::unique_ptr<llvm::TargetMachine> machine;
  std::mutex lock;
};

const llvm::Target &nvptxLLVMTarget() {
  static std::once_flag initialized;
  std::call_once(initialized, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(kNVPTXTriple, error);
  if (!target)
    throw std::runtime_error("LLVM's NVPTX backend is unavailable: " + error);
  return *target;
}

llvm::CodeGenOptLevel codeGenLevel(unsigned optLevel) {
  switch (optLevel) {
  case 0:
    return llvm::CodeGenOptLevel::None;
  case 1:
    return llvm::CodeGenOptLevel::Less;
  case 2:
    return llvm::CodeGenOptLevel::Default;
  default:
    return llvm::CodeGenOptLevel::Aggressive;
  }
}

std::string knownArchitectures(const llvm::MCSubtargetInfo &info) {
  std::string names;
  for (const llvm::SubtargetSubTypeKV &processor : info.getAllProcessorDescriptions())
    names += (names.empty() ? "" : ", ") + std::string(processor.Key);
  return names;
}

std::unique_ptr<llvm::MCSubtargetInfo> subtargetInfo() {
  return std::unique_ptr<llvm::MCSubtargetInfo>(
      nvptxLLVMTarget().createMCSubtargetInfo(kNVPTXTriple, "sm_52", ""));
}

std::unique_ptr<llvm::TargetMachine> createMachine(const std::string &arch, unsigned optLevel) {
  const llvm::Target &target = nvptxLLVMTarget();
  std::unique_ptr<llvm::MCSubtargetInfo> info = subtargetInfo();
  if (!smNumber(arch) || !info->isCPUStringValid(arch))
    throw std::runtime_error("unknown GPU architecture '" + arch +
                             "'; LLVM's NVPTX backend knows: " + knownArchitectures(*info));
  llvm::TargetOptions options;
  // Contract a * b + c into fma where the operations are marked `contract`
  // (Target::contractsMultiplyAdd), as numba-cuda (NVVM's -fma=1 default) and nvcc
  // (-fmad=true) do by default. Fast would leave every operation LLVM did not fuse without a
  // rounding modifier, free for ptxas to rewrite beyond fusing: an H100 multiplied -inf by
  // float(False) as a select (0, not NaN) and scaled x * x * 0.5 in one multiply (2**127 for
  // x = 2**64, not inf). Standard emits those as mul.rn and add.rn.
  options.AllowFPOpFusion = llvm::FPOpFusion::Standard;
  return std::unique_ptr<llvm::TargetMachine>(
      target.createTargetMachine(kNVPTXTriple, arch, minimumPTXVersion(arch), options, std::nullopt,
                                 std::nullopt, codeGenLevel(optLevel)));
}

} // namespace

bool isNewerThanNVPTXKnows(const std::string &arch) {
  // Asked before every compile: LLVM's list is read once.
  static const unsigned newestKnown = [] {
    unsigned newest = 0;
    for (const llvm::SubtargetSubTypeKV &processor : subtargetInfo()->getAllProcessorDescriptions())
      newest = std::max(newest, smNumber(processor.Key).value_or(0));
    return newest;
  }();
  std::optional<unsigned> number = smNumber(arch);
  return number && *number > newestKnown;
}

SharedTargetMachine nvptxTargetMachine(const std::string &arch, unsigned optLevel) {
  if (optLevel > 3)
    throw std::runtime_error("optimisation level " + std::to_string(optLevel) +
                             " is out of range 0..3");
  static std::mutex cacheLock;
  static std::map<std::pair<std::string, unsigned>, std::unique_ptr<CachedMachine>> cache;
  std::lock_guard<std::mutex> guard(cacheLock);
  auto &entry = cache[{arch, optLevel}];
  if (!entry) {
    auto created = std::make_unique<CachedMachine>();
    created->machine = createMachine(arch, optLevel);
    entry = std::move(created);
  }
  return {*entry->machine, entry->lock};
}

} // namespace kaji::codegen
