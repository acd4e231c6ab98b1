// The names of GPU architectures both GPU backends take: sm_XX, and the architecture- and
// family-specific sm_XXa and sm_XXf.
#pragma once

#include <optional>
#include <string_view>

namespace kaji::codegen {

// The XX of sm_XX, sm_XXa or sm_XXf (90 for "sm_90a"); nothing for another name.
std::optional<unsigned> smNumber(std::string_view arch);

} // namespace kaji::codegen
