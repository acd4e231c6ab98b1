#include "linked_module.h"

#include "kaji/driver/Toolkit.h"
#include "kaji/runtime/Linker.h"
#include "kaji/runtime/NvJitLink.h"

#include <algorithm>
#include <cstddef>
#include <fstream>
#include <iterator>
#include <mutex>
#include <span>
#include <sstream>
#include <stdexcept>

namespace kaji::python {

namespace {

std::mutex includeDirectoriesLock;
std::vector<std::string> includeDirectories;

std::string readFile(const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  if (!file)
    throw std::runtime_error("cannot read '" + path + "', a file to link into the kernel");
  return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

bool endsWith(const std::string &path, std::string_view suffix) {
  return path.size() > suffix.size() &&
         path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The link input of the file `path`: a .cu file compiled by NVRTC for `arch` (to LTO-IR with
// `lto`, else to PTX), any other file as it is.
runtime::LinkInput fileInput(const std::string &path, const std::string &arch, bool lto) {
  std::string contents = readFile(path);
  if (!endsWith(path, ".cu"))
    return {runtime::linkInputType(path), path, std::move(contents)};
  return {lto ? runtime::CU_JIT_INPUT_NVVM : runtime::CU_JIT_INPUT_PTX, path,
          driver::compileCudaSource(contents, path, arch,
                                    lto ? driver::DeviceCodeFormat::LtoIr
                                        : driver::DeviceCodeFormat::Ptx,
                                    cudaIncludeDirectories())};
}

// LTO-IR files, and CUDA C++ (which NVRTC compiles to LTO-IR), join link-time optimisation.
bool joinsLinkTimeOptimisation(const std::string &path) {
  return endsWith(path, ".ltoir") || endsWith(path, ".cu");
}

} // namespace

std::vector<std::string> cudaIncludeDirectories() {
  std::lock_guard<std::mutex> guard(includeDirectoriesLock);
  return includeDirectories;
}

void setCudaIncludeDirectories(std::vector<std::string> directories) {
  std::lock_guard<std::mutex> guard(includeDirectoriesLock);
  includeDirectories = std::move(directories);
}

std::string linkedCubin(const std::string &ptx, const std::string &kernel, const std::string &arch,
                        const std::vector<std::string> &files) {
  bool lto = std::any_of(files.begin(), files.end(),
                         [](const std::string &path) { return endsWith(path, ".ltoir"); });
  std::vector<runtime::LinkInput> inputs{{runtime::CU_JIT_INPUT_PTX, kernel + ".ptx", ptx}};
  for (const std::string &path : files)
    inputs.push_back(fileInput(path, arch, lto));
  return lto ? runtime::linkWithNvJitLink(inputs, arch) : runtime::linkCubin(inputs);
}

runtime::Module loadLinkedModule(const std::string &ptx, const std::string &kernel,
                                 const std::string &arch, const std::vector<std::string> &files) {
  std::string cubin = linkedCubin(ptx, kernel, arch, files);
  return runtime::Module::loadCubin(std::as_bytes(std::span(cubin.data(), cubin.size())));
}

LtoLinkedPtx ltoLinkedPtx(const std::string &ltoIr, const std::string &kernel,
                          const std::string &arch, const std::vector<std::string> &files,
                          bool fastMath) {
  LtoLinkedPtx linked;
  std::vector<runtime::LinkInput> inputs{{runtime::CU_JIT_INPUT_NVVM, kernel + ".ltoir", ltoIr}};
  for (const std::string &path : files) {
    if (joinsLinkTimeOptimisation(path))
      inputs.push_back(fileInput(path, arch, /*lto=*/true));
    else
      linked.notLtoIr.push_back(path);
  }
  linked.ptx = driver::rewriteNvvmPtxForPtxas(runtime::linkLtoIrToPtx(inputs, arch), fastMath);
  return linked;
}

runtime::Module loadLtoLinkedModule(const std::string &ltoIr, const std::string &kernel,
                                    const std::string &arch, const std::vector<std::string> &files,
                                    bool fastMath) {
  LtoLinkedPtx linked = ltoLinkedPtx(ltoIr, kernel, arch, files, fastMath);
  if (linked.notLtoIr.empty())
    return runtime::Module::loadPtx(linked.ptx);
  std::vector<runtime::LinkInput> inputs{{runtime::CU_JIT_INPUT_PTX, kernel + ".ptx", linked.ptx}};
  for (const std::string &path : linked.notLtoIr)
    inputs.push_back(fileInput(path, arch, /*lto=*/false));
  std::string cubin = runtime::linkWithNvJitLink(inputs, arch);
  return runtime::Module::loadCubin(std::as_bytes(std::span(cubin.data(), cubin.size())));
}

} // namespace kaji::python
