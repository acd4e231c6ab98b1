// What the fuzz targets report as a finding besides crashes, hangs, leaks and sanitizer
// errors: a broken invariant that the compiler would not notice itself.
#pragma once

#include "kaji/ir/Location.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace kaji::fuzz {

// Aborts, so that libFuzzer saves the input as a crash artifact; `detail` is what a
// reader of the log needs to see the broken invariant without rerunning.
[[noreturn]] inline void reportFinding(std::string_view invariant, std::string_view detail) {
  std::fprintf(stderr, "\n=== kaji fuzz finding: %.*s\n%.*s\n", int(invariant.size()),
               invariant.data(), int(detail.size()), detail.data());
  std::abort();
}

// An error the compiler threw where it must not have, for a finding's detail.
inline std::string describe(const ir::CompileError &error) {
  const ir::Location &loc = error.location();
  return loc.fileName() + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.col) + ": " +
         error.what();
}

inline std::string_view inputText(const uint8_t *data, size_t size) {
  return {reinterpret_cast<const char *>(data), size};
}

} // namespace kaji::fuzz
