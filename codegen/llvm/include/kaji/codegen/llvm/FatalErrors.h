// LLVM reports what it cannot compile (an intrinsic the target lacks, ...) with
// report_fatal_error, which aborts the process: the Python interpreter with it. kaji installs
// handlers that throw instead, so that such a failure is an ordinary compile error.
#pragma once

#include <stdexcept>

namespace kaji::codegen {

// What LLVM's fatal-error handler throws; the message is LLVM's reason.
class BackendError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

// Installs the throwing handlers once per process; safe to call from any thread.
void installFatalErrorHandlers();

} // namespace kaji::codegen
