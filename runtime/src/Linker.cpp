#include "kaji/runtime/Linker.h"

#include "kaji/runtime/Context.h"
#include "kaji/runtime/CudaDriver.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <stdexcept>

namespace kaji::runtime {

namespace {

constexpr std::size_t kLinkLogBytes = 16 * 1024;

bool endsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// Destroys the link state on every path; the cubin it hands out lives as long as the state.
struct LinkState {
  const CudaDriverApi &api;
  CUlinkState handle = nullptr;
  ~LinkState() {
    if (handle)
      api.cuLinkDestroy(handle);
  }
};

} // namespace

CUjitInputType linkInputType(std::string_view fileName) {
  if (endsWith(fileName, ".ptx"))
    return CU_JIT_INPUT_PTX;
  if (endsWith(fileName, ".cubin"))
    return CU_JIT_INPUT_CUBIN;
  if (endsWith(fileName, ".fatbin"))
    return CU_JIT_INPUT_FATBINARY;
  if (endsWith(fileName, ".o"))
    return CU_JIT_INPUT_OBJECT;
  if (endsWith(fileName, ".a"))
    return CU_JIT_INPUT_LIBRARY;
  if (endsWith(fileName, ".ltoir"))
    return CU_JIT_INPUT_NVVM;
  throw std::invalid_argument("cannot link '" + std::string(fileName) +
                              "': the linkers take .ptx, .cubin, .fatbin, .o, .a and .ltoir "
                              "files");
}

void checkLinkInputs(const std::vector<LinkInput> &inputs) {
  if (inputs.empty())
    throw std::invalid_argument("nothing to link");
  for (const LinkInput &input : inputs)
    if (input.data.empty())
      throw std::invalid_argument("cannot link '" + input.name + "': it is empty");
}

std::string linkCubin(const std::vector<LinkInput> &inputs) {
  checkLinkInputs(inputs);
  for (const LinkInput &input : inputs)
    if (input.type == CU_JIT_INPUT_NVVM)
      throw std::invalid_argument("cannot link '" + input.name +
                                  "' with the driver's linker: LTO-IR is linked by nvJitLink");
  const CudaDriver &driver = CudaDriver::get();
  const CudaDriverApi &api = driver.api();
  if (!api.cuLinkCreate || !api.cuLinkAddData || !api.cuLinkComplete || !api.cuLinkDestroy)
    throw std::runtime_error("the CUDA driver has no linker (cuLinkCreate_v2): device functions "
                             "from other files cannot be linked");
  makeCurrent(selectedDevice());

  std::string errorLog(kLinkLogBytes, '\0');
  std::array<CUjit_option, 2> options = {CU_JIT_ERROR_LOG_BUFFER,
                                         CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  // The driver takes the size in the pointer slot itself.
  std::array<void *, 2> values = {errorLog.data(), reinterpret_cast<void *>(kLinkLogBytes)};
  auto failure = [&](CUresult result, const char *call, const std::string &input) {
    std::string log(errorLog.c_str());
    std::string detail = (input.empty() ? "" : "linking '" + input + "'") +
                         (log.empty() ? "" : (input.empty() ? "" : ": ") + log);
    return driver.error(result, call, detail);
  };
  LinkState state{api};
  if (CUresult result =
          api.cuLinkCreate(unsigned(options.size()), options.data(), values.data(), &state.handle);
      result != CUDA_SUCCESS)
    throw failure(result, "cuLinkCreate", "");
  for (const LinkInput &input : inputs) {
    // PTX is text the linker reads up to its NUL, which std::string keeps after data().
    std::size_t size = input.data.size() + (input.type == CU_JIT_INPUT_PTX ? 1 : 0);
    if (CUresult result =
            api.cuLinkAddData(state.handle, input.type, const_cast<char *>(input.data.c_str()),
                              size, input.name.c_str(), 0, nullptr, nullptr);
        result != CUDA_SUCCESS)
      throw failure(result, "cuLinkAddData", input.name);
  }
  void *cubin = nullptr;
  std::size_t bytes = 0;
  if (CUresult result = api.cuLinkComplete(state.handle, &cubin, &bytes); result != CUDA_SUCCESS)
    throw failure(result, "cuLinkComplete", "");
  return std::string(static_cast<const char *>(cubin), bytes);
}

} // namespace kaji::runtime
