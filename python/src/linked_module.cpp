#include "linked_module.h"

#include "kaji/codegen/cuda/CudaCodegen.h"
#include "kaji/runtime/Linker.h"

#include <cstddef>
#include <fstream>
#include <iterator>
#include <span>
#include <sstream>
#include <stdexcept>

namespace kaji::python {

namespace {

std::string readFile(const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  if (!file)
    throw std::runtime_error("cannot read '" + path + "', a file to link into the kernel");
  return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

bool isCudaSource(const std::string &path) {
  return path.size() > 3 && path.compare(path.size() - 3, 3, ".cu") == 0;
}

} // namespace

runtime::Module loadLinkedModule(const std::string &ptx, const std::string &kernel,
                                 const std::string &arch, const std::vector<std::string> &files) {
  std::vector<runtime::LinkInput> inputs{{runtime::CU_JIT_INPUT_PTX, kernel + ".ptx", ptx}};
  for (const std::string &path : files) {
    std::string contents = readFile(path);
    if (isCudaSource(path))
      inputs.push_back({runtime::CU_JIT_INPUT_PTX, path,
                        codegen::cuda::compileCudaSource(contents, path, arch)});
    else
      inputs.push_back({runtime::linkInputType(path), path, std::move(contents)});
  }
  std::string cubin = runtime::linkCubin(inputs);
  return runtime::Module::loadCubin(std::as_bytes(std::span(cubin.data(), cubin.size())));
}

} // namespace kaji::python
