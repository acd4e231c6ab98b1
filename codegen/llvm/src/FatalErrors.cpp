#include "kaji/codegen/llvm/FatalErrors.h"

#include <llvm/Support/ErrorHandling.h>

#include <mutex>
#include <new>
#include <string>

namespace kaji::codegen {

void installFatalErrorHandlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::install_fatal_error_handler([](void *, const char *reason, bool) {
      throw BackendError(std::string("LLVM cannot compile this code: ") + reason);
    });
    llvm::install_bad_alloc_error_handler(
        [](void *, const char *, bool) { throw std::bad_alloc(); });
  });
}

} // namespace kaji::codegen
