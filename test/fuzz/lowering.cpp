// Fuzzes source → kaji IR the way kaji-compile runs it, up to the IR it hands to LLVM
// (KernelInput.h), without LLVM; and the lowered IR must round-trip through the printer
// (IRRoundTrip.h). Code generation is the codegen target's.
#include "IRRoundTrip.h"
#include "KernelInput.h"

using namespace kaji;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (std::optional<fuzz::LoweredKernel> lowered =
          fuzz::lowerKernel(fuzz::splitKernelInput(fuzz::inputText(data, size))))
    fuzz::checkRoundTrips(lowered->module);
  return 0;
}
