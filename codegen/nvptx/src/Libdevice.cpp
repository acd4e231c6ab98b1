#include "Libdevice.h"

#include "kaji/abi/CudaToolkit.h"
#include "kaji/codegen/nvptx/NVPTXCodegen.h"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/Module.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Transforms/IPO/Internalize.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <vector>

namespace kaji::codegen {
namespace {

constexpr const char *kLibdevicePath = "nvvm/libdevice/libdevice.10.bc";

std::vector<std::string> libdeviceCandidates() {
  std::vector<std::string> candidates;
  for (const std::filesystem::path &path : abi::inCudaToolkit(kLibdevicePath))
    candidates.push_back(path.string());
  return candidates;
}

// The file's bytes, read once per process: parsing is lazy and per compilation, but the
// ~500 KB read is not repeated.
const llvm::MemoryBuffer &libdeviceBytes(const std::string &path) {
  static std::mutex lock;
  static std::map<std::string, std::unique_ptr<llvm::MemoryBuffer>> buffers;
  std::lock_guard<std::mutex> guard(lock);
  auto &buffer = buffers[path];
  if (!buffer) {
    auto read = llvm::MemoryBuffer::getFile(path);
    if (!read)
      throw std::runtime_error("cannot read libdevice at " + path + ": " +
                               read.getError().message());
    buffer = std::move(*read);
  }
  return *buffer;
}

} // namespace

std::string findLibdevice() {
  for (const std::string &candidate : libdeviceCandidates()) {
    std::error_code error;
    if (std::filesystem::is_regular_file(candidate, error))
      return candidate;
  }
  return {};
}

void linkLibdevice(llvm::Module &module) {
  std::string path = findLibdevice();
  if (path.empty()) {
    std::string searched;
    for (const std::string &candidate : libdeviceCandidates())
      searched += (searched.empty() ? "" : ", ") + candidate;
    throw std::runtime_error("the kernel calls a math function from libdevice, but "
                             "libdevice.10.bc was not found (searched: " +
                             searched + "); set CUDA_HOME to the CUDA toolkit");
  }
  auto libdevice =
      llvm::getLazyBitcodeModule(libdeviceBytes(path).getMemBufferRef(), module.getContext());
  if (!libdevice)
    throw std::runtime_error("cannot parse libdevice at " + path + ": " +
                             llvm::toString(libdevice.takeError()));
  (*libdevice)->setTargetTriple(module.getTargetTriple());
  (*libdevice)->setDataLayout(module.getDataLayout());
  bool failed = llvm::Linker::linkModules(
      module, std::move(*libdevice), llvm::Linker::LinkOnlyNeeded,
      [](llvm::Module &linked, const llvm::StringSet<> &fromLibdevice) {
        llvm::internalizeModule(linked, [&](const llvm::GlobalValue &value) {
          return !value.hasName() || !fromLibdevice.count(value.getName());
        });
      });
  if (failed)
    throw std::runtime_error("linking libdevice from " + path + " failed");
}

} // namespace kaji::codegen
