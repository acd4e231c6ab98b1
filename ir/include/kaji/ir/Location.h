// Source locations and the one error type every compiler stage throws.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

namespace kaji::ir {

// A point in the user's file. line and col are 1-based; line 0 means "unknown".
struct Location {
  std::shared_ptr<const std::string> file;
  unsigned line = 0;
  unsigned col = 0;

  bool known() const { return line != 0; }
  std::string fileName() const { return file ? *file : std::string("<unknown>"); }
};

// Thrown by any stage on bad user input. The driver renders it with the source
// line and a caret (see frontend/Diagnostics.h); it never escapes as a crash.
class CompileError : public std::runtime_error {
public:
  CompileError(Location loc, std::string message)
      : std::runtime_error(message), loc_(std::move(loc)) {}
  const Location &location() const { return loc_; }

private:
  Location loc_;
};

} // namespace kaji::ir
