// The architecture to assemble PTX text for, which the driver's ptxas and the runtime's
// nvJitLink both ask: an sm_XXa target (the backends compile wgmma for sm_90a) is assembled
// for sm_XXa, which ptxas refuses to assemble for plain sm_XX.
#pragma once

#include <string>
#include <string_view>

namespace kaji::abi {

// `arch` ("sm_90"), or "sm_90a" where `ptx` has `.target sm_90a`.
inline std::string ptxAssemblyArchitecture(std::string_view ptx, const std::string &arch) {
  std::string specific = arch + "a";
  size_t target = ptx.find(".target ");
  if (target == std::string_view::npos)
    return arch;
  std::string_view named = ptx.substr(target + 8);
  named = named.substr(0, named.find_first_of(", \r\n"));
  return named == specific ? specific : arch;
}

} // namespace kaji::abi
