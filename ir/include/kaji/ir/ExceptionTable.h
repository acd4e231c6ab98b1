// The exceptions a module's kernels can report (raise ops with an exception, docs/ir.md, and
// under bounds checks every array access). A GPU thread that raises one leaves its number in
// the module's exception slot and exits; the host reads the slot after the launch and looks the
// number up in this table. Both the backends and the driver build the table with
// exceptionTable(), so the numbers agree.
#pragma once

#include "kaji/ir/IR.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace kaji::ir {

struct RaiseSite {
  const Operation *op;
  std::string site;      // "file.py:12:9: in 'kernel'": where, in which function
  std::string exception; // the op's attribute: "Class" or "Class: message"
  // An array access out of range (exception "IndexError"): the message is made at run time
  // from the index the thread left in the module's kIndexErrorSymbol.
  bool indexError = false;
};

// The module's reporting raise ops and, when `boundsChecked`, its bounds-checked array
// accesses (checksIndex), in module order (functions, blocks, operations); the number of entry
// i is i + 1 (0 is "no exception"). Bounds-checked, an op that checksAlignment has a second
// entry right after its index error's: the ValueError of misalignmentException.
std::vector<RaiseSite> exceptionTable(const Module &module, bool boundsChecked = false);

// Each entry's number in exceptionTable(module, boundsChecked), by its op, as a backend emits
// them: the table is built at the first lookup.
class ExceptionNumbers {
public:
  ExceptionNumbers(const Module &module, bool boundsChecked)
      : module_(module), boundsChecked_(boundsChecked) {}
  // The number (1..) of `op`, a reporting raise op or, when bounds checked, a checked access.
  uint32_t of(const Operation &op);
  // The number of a bounds-checked op's misalignment entry (checksAlignment).
  uint32_t misalignment(const Operation &op) { return of(op) + 1; }

private:
  const Module &module_;
  bool boundsChecked_;
  std::unordered_map<const Operation *, uint32_t> numbers_;
};

// Whether `op` indexes an array, which a bounds-checked lowering checks: array_index, and
// load, store, atomic and atomic_cas of an array of one or more dimensions; or a fragment's
// elements (fragment_get, fragment_set); or the span an async_copy reads and writes, or the
// matrices a warpgroup_mma reads.
bool checksIndex(const Operation &op);

// Whether a bounds-checked `op` also checks the alignment of the memory it reads: an async_copy
// (its addresses aligned to the bytes it copies) and a warpgroup_mma (its matrices' rows 128
// bytes apart, in 1024-byte-aligned groups of 8).
bool checksAlignment(const Operation &op);

// The exception of an op's misalignment entry: "ValueError: an asynchronous copy of N bytes
// needs its source and destination aligned to N bytes", or warpgroup_mma's.
std::string misalignmentException(const Operation &op);

// "file.py:12:9: in 'name'", as index errors and exceptions name where they happened.
std::string raiseSiteText(const Location &location, const std::string &function);

} // namespace kaji::ir
