// What a GPU compile hands its launcher: the PTX and, as data beside it, what launching and
// reporting need to know of each kernel (entry name, cooperative launch, recursion) and of the
// module (the exception table). The disk cache stores the whole record, so a cached kernel
// launches and reports exactly as a freshly compiled one.
#pragma once

#include "kaji/codegen/CodegenTimings.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kaji::driver {

// An entry of the module's exception table (ir/ExceptionTable.h). A thread that raises leaves
// its entry's number (index + 1) in the module's ir::kExceptionSlotSymbol; whoever reads the
// slot after the launch finds the entry here.
struct ReportedException {
  std::string site;      // "file.py:12:9: in 'kernel'"
  std::string exception; // "Class" or "Class: message"
  // An index out of range (ir::RaiseSite::indexError): the message comes from the module's
  // ir::kIndexErrorSymbol record.
  bool indexError = false;

  bool operator==(const ReportedException &) const = default;
};

// A device function a kernel may call recursively (ir::recursiveFunctions). A GPU thread's stack
// is the driver's CU_LIMIT_STACK_SIZE (1 KiB by default) and unchecked: recursion past it is an
// illegal address, which whoever reports that failure can then attribute to these functions.
struct RecursiveFunction {
  std::string name;
  unsigned line = 0; // of its definition

  bool operator==(const RecursiveFunction &) const = default;
};

struct CompiledKernelInfo {
  std::string entryName; // the PTX entry point
  // It reaches a grid sync (ir::usesGridSync): every block must be resident at once, so it is
  // launched with cuLaunchCooperativeKernel.
  bool cooperative = false;
  std::vector<RecursiveFunction> recursiveFunctions; // in the order first reached

  bool operator==(const CompiledKernelInfo &) const = default;
};

struct CompileTimings {
  double frontendMs = 0; // Sema + IRGen + verifier + kaji passes
  codegen::CodegenTimings codegen;
};

struct CompiledModule {
  std::string ptx; // empty when the module is ltoIr
  // CompileRequest::lto: the module's LTO-IR, which nvJitLink links (-lto) with the LTO-IR
  // of linkFiles before it loads.
  std::string ltoIr;
  std::vector<CompiledKernelInfo> kernels;   // in request order
  std::vector<ReportedException> exceptions; // entry i has number i + 1
  // The files defining the CUDA C++ functions the kernels call (cuda.declare_device's link=),
  // each once: what the module must be linked with before it loads.
  std::vector<std::string> linkFiles;
  CompileTimings timings;
  bool fromDiskCache = false; // read from the request's disk cache, not compiled
};

// The record as the disk cache stores it: a line-based text, the PTX (or the LTO-IR) last. Timings
// and fromDiskCache are not stored.
std::string serializeCompiledModule(const CompiledModule &module);

// What serializeCompiledModule wrote, or nothing if `text` is not such a record or does not hold
// `kernelCount` kernels.
std::optional<CompiledModule> deserializeCompiledModule(std::string_view text, size_t kernelCount);

} // namespace kaji::driver
