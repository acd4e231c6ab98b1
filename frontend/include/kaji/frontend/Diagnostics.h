// Renders a CompileError the way compilers do:
//   file.py:4:13: error: message
//       out[i] = a * x[i] + y
//                ^
#pragma once

#include "kaji/frontend/Source.h"
#include "kaji/ir/Location.h"

#include <string>
#include <vector>

namespace kaji::frontend {

// Looks the source line up in `sources` (by file name, honouring firstLine and
// columnOffset), else reads it from the file on disk, else prints no source line.
std::string renderDiagnostic(const ir::CompileError &error,
                             const std::vector<const SourceFile *> &sources);

} // namespace kaji::frontend
