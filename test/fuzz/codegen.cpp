// Fuzzes source → kaji IR → LLVM IR → PTX and host LLVM IR at -O0: the lowering of every
// kaji operation for both targets, with and without the GPU's bounds checks, and LLVM's NVPTX
// instruction selection. As in the driver,
// LLVM's fatal errors throw codegen::BackendError (the driver reports it as a compile error
// at the kernel), so the expected answers to a bad input are that and a CompileError; any
// other exception (e.g. "codegen produced invalid LLVM IR"), a crash or an abort is a finding.
//
// Input: a first line `sm_XX KERNEL SIGNATURE`, then the Python source; the rest of the
// header is KernelInput.h's. Architectures LLVM does not know are skipped, not fuzzed.
#include "KernelInput.h"

#include "kaji/codegen/cpu/CpuCodegen.h"
#include "kaji/codegen/llvm/FatalErrors.h"
#include "kaji/codegen/nvptx/NVPTXCodegen.h"

using namespace kaji;

namespace {

bool knownArch(std::string_view arch) {
  static const std::string_view archs[] = {"sm_50", "sm_52", "sm_60", "sm_61", "sm_70",
                                           "sm_75", "sm_80", "sm_86", "sm_89", "sm_90"};
  return std::find(std::begin(archs), std::end(archs), arch) != std::end(archs);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  codegen::installFatalErrorHandlers();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text = fuzz::inputText(data, size);
  size_t space = std::min(text.find(' '), text.size());
  codegen::PTXOptions ptx;
  ptx.arch = text.substr(0, space);
  ptx.optLevel = 0;
  // The GPU's bounds checks (off by default there) for half of the inputs; the host lowering
  // checks every index, as the cpu target does.
  ptx.boundsCheck = size % 2 == 1;
  if (!knownArch(ptx.arch))
    return 0;
  // With the architecture, as the driver lowers for the cuda target: Sema rejects builtins
  // the GPU lacks before LLVM would.
  std::optional<fuzz::LoweredKernel> lowered =
      fuzz::lowerKernel(fuzz::splitKernelInput(text.substr(std::min(space + 1, text.size()))),
                        {.gpuArch = std::string(ptx.arch)});
  if (!lowered)
    return 0;
  // Without the CUDA toolkit's libdevice there is no PTX to make; the host half still runs.
  static const bool haveLibdevice = !codegen::findLibdevice().empty();
  try {
    if (haveLibdevice)
      codegen::emitPTX(lowered->module, ptx);
    codegen::emitCpuLLVMIR(lowered->module, lowered->entryName, {.optLevel = 0});
  } catch (const ir::CompileError &) {
  } catch (const codegen::BackendError &) {
  }
  return 0;
}
