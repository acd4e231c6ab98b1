// A CUDA toolkit library kaji opens with dlopen (NVRTC, nvJitLink): kaji links nothing of the
// toolkit, so it imports, compiles with LLVM and runs cpu kernels without one, and finds the
// library the user has wherever it is. Header-only: libkaji (NVRTC, codegen/nvrtc) and the
// runtime (nvJitLink) are built and shipped apart, so neither links the other for it.
#pragma once

#include "kaji/abi/CudaToolkit.h"

#include <algorithm>
#include <cstdlib>
#include <dlfcn.h>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace kaji::abi {

struct ToolkitLibrarySearch {
  // The start of the file names looked for: "libnvrtc.so" finds libnvrtc.so.13 and
  // libnvrtc.so, not libnvrtc-builtins.so.
  std::string filePrefix;
  // A variable naming the library's path; when set, that path is the only candidate.
  std::string overrideVariable;
  // Directories searched after the toolkit's lib64 (inCudaToolkit; the Python package adds the
  // NVIDIA wheel's).
  std::vector<std::string> extraDirectories;
  // Tried last, by the dynamic loader's own search.
  std::vector<std::string> sonames;
  // Why a library that loads but lacks an entry point is passed over ("an NVRTC entry point
  // kaji needs (CUDA 11.1 or newer)").
  std::string lacking;
};

struct OpenedToolkitLibrary {
  void *handle = nullptr; // kept open for the life of the process
  std::string path;
};

namespace toolkit_library_detail {

// libPREFIX* files of `directory`, the most specific name first (libnvrtc.so.13 before
// libnvrtc.so).
inline std::vector<std::string> librariesIn(const std::filesystem::path &directory,
                                            const std::string &filePrefix) {
  std::vector<std::string> found;
  std::error_code error;
  for (const auto &entry : std::filesystem::directory_iterator(directory, error)) {
    std::string name = entry.path().filename().string();
    if (name.rfind(filePrefix, 0) == 0)
      found.push_back(entry.path().string());
  }
  std::sort(found.begin(), found.end(), [](const std::string &a, const std::string &b) {
    return a.size() > b.size() || (a.size() == b.size() && a > b);
  });
  return found;
}

inline std::vector<std::string> candidates(const ToolkitLibrarySearch &search,
                                           std::vector<std::string> &searched) {
  if (const char *explicitPath = std::getenv(search.overrideVariable.c_str());
      explicitPath && *explicitPath) {
    searched.push_back("$" + search.overrideVariable + "=" + explicitPath);
    return {explicitPath};
  }
  std::vector<std::string> directories;
  for (const std::filesystem::path &directory : inCudaToolkit("lib64"))
    directories.push_back(directory.string());
  directories.insert(directories.end(), search.extraDirectories.begin(),
                     search.extraDirectories.end());
  std::vector<std::string> paths;
  for (const std::string &directory : directories) {
    searched.push_back(directory);
    for (std::string &path : librariesIn(directory, search.filePrefix))
      paths.push_back(std::move(path));
  }
  for (const std::string &soname : search.sonames) {
    searched.push_back(soname);
    paths.push_back(soname);
  }
  return paths;
}

} // namespace toolkit_library_detail

// Opens the first candidate that loads and of which `bindEntryPoints` finds every entry point
// it needs. Without one, calls `unavailable` (which throws) with where it looked and the last
// error.
inline OpenedToolkitLibrary
openToolkitLibrary(const ToolkitLibrarySearch &search,
                   const std::function<bool(void *handle)> &bindEntryPoints,
                   const std::function<void(const std::string &)> &unavailable) {
  std::vector<std::string> searched;
  std::string lastError;
  for (const std::string &path : toolkit_library_detail::candidates(search, searched)) {
    void *library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!library) {
      const char *message = dlerror();
      lastError = message ? message : "";
      continue;
    }
    if (!bindEntryPoints(library)) {
      lastError = path + " lacks " + search.lacking;
      dlclose(library);
      continue;
    }
    return OpenedToolkitLibrary{library, path};
  }
  std::string where;
  for (const std::string &place : searched)
    where += (where.empty() ? "searched " : ", ") + place;
  unavailable(where + (lastError.empty() ? "" : " (last error: " + lastError + ")"));
  throw std::logic_error("openToolkitLibrary: `unavailable` returned");
}

// A toolkit library's entry points (`Loaded`), loaded on first use by `load`, which is given
// the search directories added so far. A failure is not remembered, so installing the library
// (or adding a search directory) later in the process works. Thread-safe.
template <class Loaded> class LazyToolkitLibrary {
public:
  using Load = Loaded (*)(const std::vector<std::string> &extraDirectories);
  explicit LazyToolkitLibrary(Load load) : load_(load) {}

  void addSearchDirectory(const std::string &directory) {
    std::lock_guard<std::mutex> guard(lock_);
    if (std::find(extraDirectories_.begin(), extraDirectories_.end(), directory) ==
        extraDirectories_.end())
      extraDirectories_.push_back(directory);
  }

  const Loaded &get() {
    std::lock_guard<std::mutex> guard(lock_);
    if (!loaded_)
      loaded_ = std::make_unique<Loaded>(load_(extraDirectories_));
    return *loaded_;
  }

private:
  Load load_;
  std::mutex lock_;
  std::vector<std::string> extraDirectories_;
  std::unique_ptr<Loaded> loaded_;
};

// `entry` = the library's `symbol`; false when it has none.
template <class F> bool bindEntryPoint(void *library, F &entry, const char *symbol) {
  entry = reinterpret_cast<F>(dlsym(library, symbol));
  return entry != nullptr;
}

} // namespace kaji::abi
