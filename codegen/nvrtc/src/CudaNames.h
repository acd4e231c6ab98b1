// Names in the emitted CUDA C++: which identifiers kaji may give a Python name, and fresh
// names for everything else.
#pragma once

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace kaji::codegen::nvrtc {

// An identifier that is not a C++ keyword, not a name the prelude or CUDA defines (i32,
// threadIdx, ...), not reserved to the implementation (leading underscore) and not kaji's
// (starting with "kaji") and not a math function the emitted code may call.
bool isUsableIdentifier(const std::string &name);

// The names taken in one function.
class NameTable {
public:
  // Takes every one of `names` if each is usable and free; otherwise takes none.
  bool claimAll(const std::vector<std::string> &names);
  // `prefix` followed by the first number that makes a free name, which it takes.
  std::string fresh(const std::string &prefix);

private:
  std::unordered_set<std::string> taken_;
  std::unordered_map<std::string, unsigned> next_; // per prefix
};

} // namespace kaji::codegen::nvrtc
