// Wall time of the phases of one backend's compile, which kaji-compile --time and the
// compile-latency benchmark report.
#pragma once

namespace kaji::codegen {

// In milliseconds. A backend without one of the phases leaves it 0.
struct CodegenTimings {
  double lowerMs = 0;    // kaji IR → the backend's input (LLVM IR with libdevice, CUDA C++)
  double optimizeMs = 0; // LLVM's O-level pipeline
  double emitMs = 0;     // instruction selection and printing, or NVRTC
};

} // namespace kaji::codegen
