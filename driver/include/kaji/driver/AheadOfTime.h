// Kernels compiled ahead of time for programs without Python, kaji or LLVM: a fatbin (a cubin
// per architecture and the newest architecture's PTX, for GPUs newer than any of them) and a C
// launcher for it, a header and a source file that load the fatbin through the CUDA driver API
// on first use and launch. docs/building.md, "Kernels ahead of time", shows the API.
#pragma once

#include "kaji/driver/Compiler.h"

#include <string>
#include <vector>

namespace kaji::driver {

struct AheadOfTimeFiles {
  std::string header; // <name>.h
  std::string source; // <name>.c, the fatbin embedded
  std::string fatbin; // <name>.fatbin, the same bytes
};

// Compiles `request`'s kernels (Target::CUDA) for each of `archs` ("sm_80", ...; request.ptx.arch
// is ignored) and writes the launcher of module `name`, a C identifier that prefixes every
// symbol of the launcher. Throws ir::CompileError for errors in the kernels, std::invalid_argument
// for a parameter an ahead-of-time launcher cannot take (a tuple, a record or vector array, a C
// pointer) or a bad name or architecture list, and std::runtime_error when the toolkit's ptxas or
// fatbinary is missing or fails.
AheadOfTimeFiles emitAheadOfTime(CompileRequest request, const std::vector<std::string> &archs,
                                 const std::string &name);

} // namespace kaji::driver
