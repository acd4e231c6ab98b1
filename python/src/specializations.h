// What a dispatcher keeps of each kernel it compiled: the PTX for one target and argument
// types, that PTX loaded on a device with its parameter buffer and the shape it last launched
// with, and the host code of the cpu target.
#pragma once

#include "compilation.h"
#include "kernel_exceptions.h"

#include "kaji/runtime/Launch.h"
#include "kaji/runtime/Module.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kaji::python {

// Grid, block and dynamic shared memory as the user wrote them, checked only against the
// device at launch.
struct LaunchShape {
  runtime::Extent3 grid{1, 1, 1};
  runtime::Extent3 block{1, 1, 1};
  int64_t sharedBytes = 0;
  bool operator==(const LaunchShape &) const = default;
};

// The PTX of one kernel for one target and argument types.
struct CompiledKernel {
  std::string arch;
  std::vector<ir::Type> paramTypes;                    // the leaves of the parameters
  std::vector<frontend::ParameterStructure> structure; // tuples among them; empty: none
  std::string ptx;                                     // empty when the kernel is ltoIr
  std::string ltoIr; // lto=True: the kernel's LTO-IR, linked with linkFiles when it loads
  std::string entry;
  // It synchronizes its grid (cuda.cg): launched with cuLaunchCooperativeKernel.
  bool cooperative = false;
  // The device functions it may call recursively, as "'f' (line 3)".
  std::vector<std::string> recursiveFunctions;
  // What its raise ops report (debug=True); null when it has none.
  ExceptionTable exceptions;
  // What its module is linked with: the kernel's own files (jit's link=), then those of the
  // CUDA C++ functions it calls (driver::CompiledModule::linkFiles), each once.
  std::vector<std::string> linkFiles;
  CapturedObjects captured;
};

// The preallocated parameter buffer of one specialization.
struct ParameterBuffer {
  std::vector<uint64_t> slots; // one 8-byte slot per flattened parameter
  std::vector<void *> params;  // cuLaunchKernel's pointers, one into each slot
  explicit ParameterBuffer(const std::vector<ir::Type> &paramTypes);
};

// A CompiledKernel loaded on one device, with its preallocated parameter buffer.
struct LoadedKernel {
  const CompiledKernel *compiled;
  runtime::Module module;
  runtime::Function function;
  ParameterBuffer buffer;
  int64_t sharedBytesOptedIn = 0;
  // The shape of the last launch, validated against the kernel, and what it converted to:
  // a launch with the same shape is not validated again.
  std::optional<LaunchShape> lastShape;
  runtime::LaunchConfig lastConfig;
  // The module's exception slot, armed at each launch; 0s when the kernel raises nothing.
  ExceptionSlot exceptionSlot;

  // A kernel dropped after a launch (its dispatcher collected) must not leave the slot armed:
  // the next sync point would read the unloaded module's memory.
  ~LoadedKernel() {
    if (exceptionSlot.slot)
      disarmExceptionSlot(exceptionSlot);
  }
};

// A kernel compiled for and loaded into this process (the cpu target).
struct CpuSpecialization {
  std::vector<ir::Type> paramTypes;
  std::vector<frontend::ParameterStructure> structure;
  codegen::CpuKernel kernel;
  ParameterBuffer buffer;
  CapturedObjects captured;
};

} // namespace kaji::python
