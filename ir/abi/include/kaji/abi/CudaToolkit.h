// Where the CUDA toolkit is: the one search for every file kaji takes from it (NVRTC and
// nvJitLink under lib64/, ptxas and nvdisasm under bin/, libdevice under nvvm/libdevice/).
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace kaji::abi {

// The toolkit directories to look in, in order: those the variables name (each when set),
// then the default install.
inline constexpr const char *kCudaToolkitVariables[] = {"CUDA_HOME", "CUDA_PATH"};
inline constexpr const char *kDefaultCudaToolkit = "/usr/local/cuda";

inline std::vector<std::filesystem::path> cudaToolkitRoots() {
  std::vector<std::filesystem::path> roots;
  for (const char *variable : kCudaToolkitVariables)
    if (const char *root = std::getenv(variable); root && *root)
      roots.emplace_back(root);
  roots.emplace_back(kDefaultCudaToolkit);
  return roots;
}

// `relative` under each of cudaToolkitRoots(), in the same order.
inline std::vector<std::filesystem::path> inCudaToolkit(const std::filesystem::path &relative) {
  std::vector<std::filesystem::path> paths;
  for (const std::filesystem::path &root : cudaToolkitRoots())
    paths.push_back(root / relative);
  return paths;
}

// The search as text for an error message, e.g. "$CUDA_HOME/bin, $CUDA_PATH/bin,
// /usr/local/cuda/bin": the variables by name, whether set or not.
inline std::string cudaToolkitSearchText(const std::string &relative) {
  std::string text;
  for (const char *variable : kCudaToolkitVariables)
    text.append("$").append(variable).append("/").append(relative).append(", ");
  return text.append(kDefaultCudaToolkit).append("/").append(relative);
}

} // namespace kaji::abi
