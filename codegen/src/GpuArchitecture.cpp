#include "kaji/codegen/GpuArchitecture.h"

#include <algorithm>
#include <string>

namespace kaji::codegen {

std::optional<unsigned> smNumber(std::string_view arch) {
  if (!arch.starts_with("sm_"))
    return std::nullopt;
  arch.remove_prefix(3);
  if (arch.ends_with('a') || arch.ends_with('f'))
    arch.remove_suffix(1);
  if (arch.empty() || arch.size() > 4 ||
      !std::all_of(arch.begin(), arch.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  return unsigned(std::stoul(std::string(arch)));
}

} // namespace kaji::codegen
