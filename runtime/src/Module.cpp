#include "kaji/runtime/Module.h"

#include "kaji/runtime/Context.h"
#include "kaji/runtime/CudaDriver.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <utility>
#include <vector>

namespace kaji::runtime {

namespace {

// Big enough for the JIT's report on any kernel kaji generates; longer logs are cut, not lost
// as errors.
constexpr std::size_t kJitLogBytes = 16 * 1024;

std::string logText(const std::vector<char> &buffer, void *reportedBytes) {
  auto bytes = std::min(static_cast<std::size_t>(reinterpret_cast<std::uintptr_t>(reportedBytes)),
                        buffer.size());
  std::string text(buffer.data(), strnlen(buffer.data(), bytes));
  while (!text.empty() && (text.back() == '\n' || text.back() == '\0'))
    text.pop_back();
  return text;
}

std::string driverVersionText(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

bool hasPrefix(std::span<const std::byte> image, std::span<const unsigned char> prefix) {
  return image.size() >= prefix.size() &&
         std::memcmp(image.data(), prefix.data(), prefix.size()) == 0;
}

} // namespace

Module Module::loadPtx(const std::string &ptx) {
  if (ptx.empty())
    throw std::invalid_argument("cannot load a module from empty PTX text");
  return load(ptx.c_str(), "PTX");
}

Module Module::loadCubin(std::span<const std::byte> image) {
  // cuModuleLoadDataEx is given no size: it trusts the image's own headers, so anything that is
  // not recognisably a cubin or a fatbinary is refused before it reaches the driver.
  static constexpr std::array<unsigned char, 4> elfMagic = {0x7f, 'E', 'L', 'F'};
  static constexpr std::array<unsigned char, 4> fatbinMagic = {0x50, 0xed, 0x55, 0xba};
  if (!hasPrefix(image, elfMagic) && !hasPrefix(image, fatbinMagic))
    throw std::invalid_argument("cannot load a module from " + std::to_string(image.size()) +
                                " bytes that are neither a cubin (ELF) nor a fatbinary image");
  return load(image.data(), "cubin");
}

Module Module::load(const void *image, const char *what) {
  const CudaDriver &driver = CudaDriver::get();
  int device = selectedDevice();
  makeCurrent(device);

  std::vector<char> errorLog(kJitLogBytes, '\0');
  std::vector<char> infoLog(kJitLogBytes, '\0');
  std::array<CUjit_option, 4> options = {CU_JIT_ERROR_LOG_BUFFER,
                                         CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_INFO_LOG_BUFFER,
                                         CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES};
  // The driver takes sizes in the pointer slots themselves and writes back the bytes it used.
  std::array<void *, 4> values = {errorLog.data(), reinterpret_cast<void *>(kJitLogBytes),
                                  infoLog.data(), reinterpret_cast<void *>(kJitLogBytes)};
  CUmodule handle = nullptr;
  CUresult result = driver.api().cuModuleLoadDataEx(&handle, image, options.size(), options.data(),
                                                    values.data());
  if (result != CUDA_SUCCESS) {
    std::string detail;
    if (std::string log = logText(errorLog, values[1]); !log.empty())
      detail = std::string(what) + " JIT error log:\n" + log;
    if (result == CUDA_ERROR_UNSUPPORTED_PTX_VERSION)
      detail += (detail.empty() ? "" : "\n") + std::string("the installed driver supports CUDA ") +
                driverVersionText(driver.version()) +
                "; PTX of a newer ISA version needs a newer NVIDIA driver";
    driver.raise(result, "cuModuleLoadDataEx", std::move(detail));
  }
  return Module(handle, device, driver, logText(infoLog, values[3]));
}

Module::Module(CUmodule handle, int device, const CudaDriver &driver, std::string jitInfoLog)
    : handle_(handle), device_(device), driver_(&driver), jitInfoLog_(std::move(jitInfoLog)) {}

Module::Module(Module &&other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)), device_(other.device_),
      driver_(other.driver_), jitInfoLog_(std::move(other.jitInfoLog_)) {}

Module &Module::operator=(Module &&other) noexcept {
  if (this != &other) {
    unload();
    handle_ = std::exchange(other.handle_, nullptr);
    device_ = other.device_;
    driver_ = other.driver_;
    jitInfoLog_ = std::move(other.jitInfoLog_);
  }
  return *this;
}

Module::~Module() { unload(); }

void Module::unload() noexcept {
  // A destructor cannot report failure; at process exit the driver may already be gone
  // (CUDA_ERROR_DEINITIALIZED), and the module goes with it.
  if (handle_ && detail::tryMakeCurrent(device_))
    driver_->api().cuModuleUnload(handle_);
  handle_ = nullptr;
}

Function Module::function(const std::string &entry) const {
  CUfunction function = nullptr;
  CUresult result = driver_->api().cuModuleGetFunction(&function, handle_, entry.c_str());
  if (result != CUDA_SUCCESS)
    driver_->raise(result, "cuModuleGetFunction", "no kernel named '" + entry + "' in the module");
  return Function(function, device_, *driver_, entry);
}

Module::Global Module::global(const std::string &name) const {
  std::optional<Global> found = findGlobal(name);
  if (!found)
    driver_->raise(CUDA_ERROR_NOT_FOUND, "cuModuleGetGlobal",
                   "no module-scope variable named '" + name + "' in the module");
  return *found;
}

std::optional<Module::Global> Module::findGlobal(const std::string &name) const {
  Global found{};
  CUresult result =
      driver_->api().cuModuleGetGlobal(&found.address, &found.bytes, handle_, name.c_str());
  if (result == CUDA_ERROR_NOT_FOUND)
    return std::nullopt;
  if (result != CUDA_SUCCESS)
    driver_->raise(result, "cuModuleGetGlobal", "cannot look up '" + name + "' in the module");
  return found;
}

} // namespace kaji::runtime
