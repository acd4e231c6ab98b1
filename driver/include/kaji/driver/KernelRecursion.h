// The device functions a GPU module's kernels may call recursively, carried in its PTX as
// comments (as the exception table is, KernelExceptions.h), so that the disk cache keeps them
// too. A GPU thread's stack is the driver's CU_LIMIT_STACK_SIZE (1 KiB by default) and
// unchecked: recursion past it is an illegal address, which whoever reports that failure can
// then attribute to these functions.
#pragma once

#include "kaji/ir/IR.h"

#include <string>
#include <string_view>
#include <vector>

namespace kaji::driver {

// `// kaji.recursive <function> <line>` for each function the kernels named by `entryNames`
// reach that may call itself (ir::recursiveFunctions), each once; empty when none does.
std::string recursionComments(const ir::Module &module, const std::vector<std::string> &entryNames);

// What recursionComments wrote into `ptx`: "'<function>' (line <line>)" for each.
std::vector<std::string> readRecursiveFunctions(std::string_view ptx);

} // namespace kaji::driver
