// The exception table of a GPU module (ir/ExceptionTable.h) carried in its PTX as comments,
// so that whatever holds the PTX — the in-memory specialization, the disk cache — holds the
// table too. A thread that raises leaves its entry's number (1..) in the module's
// ir::kExceptionSlotSymbol; whoever reads the slot after the launch finds the entry here.
#pragma once

#include "kaji/ir/IR.h"

#include <string>
#include <string_view>
#include <vector>

namespace kaji::driver {

struct ReportedException {
  std::string site;      // "file.py:12:9: in 'kernel'"
  std::string exception; // "Class" or "Class: message"
  // An index out of range (ir::RaiseSite::indexError): the message comes from the module's
  // ir::kIndexErrorSymbol record.
  bool indexError = false;
};

// `// kaji.exception <site>\t<exception>` per entry of ir::exceptionTable(module,
// boundsChecked), in table order (tabs, newlines and backslashes escaped), with `\tindex`
// appended for an index error; empty when it has none.
std::string exceptionTableComments(const ir::Module &module, bool boundsChecked);

// The table exceptionTableComments wrote into `ptx`; entry i has number i + 1.
std::vector<ReportedException> readExceptionTable(std::string_view ptx);

} // namespace kaji::driver
