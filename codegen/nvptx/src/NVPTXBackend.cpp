#include "kaji/codegen/nvptx/NVPTXCodegen.h"

namespace kaji::codegen {
namespace {

class NVPTXBackend final : public GpuBackend {
public:
  std::string emitPTX(const ir::Module &module, const PTXOptions &options,
                      CodegenTimings *timings) const override {
    return codegen::emitPTX(module, options, timings);
  }

  std::string entryName(const ir::Function &kernel) const override { return kernel.name(); }
};

} // namespace

const GpuBackend &nvptxBackend() {
  static const NVPTXBackend backend;
  return backend;
}

} // namespace kaji::codegen
