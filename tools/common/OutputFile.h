// Writing a tool's output, with every failure reported: a full device accepts the bytes into
// a buffer and fails only when it is flushed or closed, so those results are checked too.
#pragma once

#include <string>
#include <string_view>

namespace kaji::tools {

// Writes `text` to the file `path`, or to standard output when `path` is empty. Returns ""
// on success, else why not: "cannot write 'out.ptx': No space left on device".
std::string writeOutput(const std::string &path, std::string_view text);

} // namespace kaji::tools
