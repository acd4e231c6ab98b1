// The compiler-runtime helpers that LLVM's host code calls where the CPU has no instruction
// (half and bfloat16 conversions, 128-bit division, powi), and the matrix fragment operations
// (CpuMatrixFragments.h), defined inside libkaji. Host kernels
// resolve them here, not in whatever the process happened to load: libgcc's copies are
// hidden inside the libraries that link them, and which ones LLVM calls depends on the CPU.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace kaji::codegen {

struct RuntimeBuiltin {
  std::string_view name;
  const void *address;
};

// Every helper the host JIT offers, by its libcall name.
const std::vector<RuntimeBuiltin> &compilerRuntimeBuiltins();

// IEEE binary16 conversions, rounding to nearest even, NaN payloads kept (exposed for tests).
uint16_t halfFromDouble(double value);
double doubleFromHalf(uint16_t half);
// bfloat16 from a double (or a float, which converts exactly), the same way.
uint16_t bfloat16FromDouble(double value);

} // namespace kaji::codegen
