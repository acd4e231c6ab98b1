// The compile options a kernel's @jit(...) decorator states, read from its source as
// kaji-compile sees it (literal values only), and how they combine with the command line.
#pragma once

#include "CommandLine.h"

#include "kaji/frontend/AST.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace kaji::tools {

template <class T> struct Stated {
  T value;
  ir::Location loc; // the keyword's value in the decorator
};

struct DecoratorOptions {
  std::optional<Stated<bool>> fastMath, lineInfo, debug, boundsCheck;
  std::optional<Stated<unsigned>> optLevel, maxRegisters;
  std::optional<Stated<std::array<unsigned, 3>>> launchBounds; // threads, blocks/SM, cluster
  // "FILE:LINE:COL: warning: ..." for each stated option the output cannot honour.
  std::vector<std::string> warnings;
};

// The options of `decorator` (a call of jit), for a compile with the command line `cl`.
// `device`, `inline` and `forceinline` are the frontend's (frontend::environmentFromModule).
DecoratorOptions readDecoratorOptions(const frontend::CallExpr &decorator, const CommandLine &cl);

// One kernel of the output with its decorator's options.
struct KernelOptions {
  std::string name;
  DecoratorOptions options;
};

// The options every kernel of one output is compiled with: the command line's where it gives
// them, else the decorators'. Kernels in one output share their options; one that states a
// value the others do not share gets a warning in `warnings` and the default.
CommandLine applyDecoratorOptions(const CommandLine &cl, const std::vector<KernelOptions> &kernels,
                                  std::vector<std::string> &warnings);

} // namespace kaji::tools
