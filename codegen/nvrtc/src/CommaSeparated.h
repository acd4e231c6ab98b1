// "a, b, c": argument, parameter and initialiser lists of the emitted C++.
#pragma once

#include <string>
#include <vector>

namespace kaji::codegen::nvrtc {

inline std::string commaSeparated(const std::vector<std::string> &items) {
  std::string text;
  for (const std::string &item : items) {
    if (!text.empty())
      text += ", ";
    text += item;
  }
  return text;
}

} // namespace kaji::codegen::nvrtc
