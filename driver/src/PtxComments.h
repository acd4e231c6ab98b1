// Data a GPU module carries in its PTX as `// kaji.<kind> ...` comment lines, so that whatever
// holds the PTX (a specialization, the disk cache) holds the data too.
#pragma once

#include <string_view>
#include <vector>

namespace kaji::driver {

// The text after `prefix` of each line of `ptx` that starts with it, in order.
inline std::vector<std::string_view> ptxCommentLines(std::string_view ptx,
                                                     std::string_view prefix) {
  std::vector<std::string_view> lines;
  for (size_t at = ptx.find(prefix); at != std::string_view::npos; at = ptx.find(prefix, at + 1))
    if (at == 0 || ptx[at - 1] == '\n') {
      std::string_view line = ptx.substr(at + prefix.size());
      lines.push_back(line.substr(0, line.find('\n')));
    }
  return lines;
}

} // namespace kaji::driver
