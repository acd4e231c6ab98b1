// What a dispatcher answers about its kernel without launching it: the signatures compiled so
// far, each stage of the kernel for a signature, its SASS and resource usage, the limit of a
// cooperative grid, the signature a launch compiles for, the block size forall() takes.
#include "dispatcher.h"

#include "integers.h"

#include "kaji/driver/Language.h"
#include "kaji/driver/SassDisassembler.h"
#include "kaji/runtime/Context.h"
#include "kaji/runtime/CpuExecutor.h"
#include "kaji/runtime/CudaDriver.h"
#include "kaji/runtime/Device.h"

#include <algorithm>

namespace kaji::python {

std::string signatureText(const std::vector<ir::Type> &params,
                          const std::vector<frontend::ParameterStructure> &structure) {
  return driver::signatureString(frontend::Signature{ir::Type::voidType(), params, structure});
}

std::vector<std::string> Dispatcher::signatures() const {
  std::vector<std::string> result;
  auto add = [&result](const std::vector<ir::Type> &paramTypes,
                       const std::vector<frontend::ParameterStructure> &structure) {
    std::string text = signatureText(paramTypes, structure);
    if (std::find(result.begin(), result.end(), text) == result.end())
      result.push_back(std::move(text));
  };
  for (const auto &kernel : compiled_)
    add(kernel->paramTypes, kernel->structure);
  for (const auto &kernel : cpuCompiled_)
    add(kernel->paramTypes, kernel->structure);
  return result;
}

std::string Dispatcher::inspect(const std::string &signature, driver::Stage stage,
                                const std::string &arch) const {
  // PTX needs no GPU, so every kernel has it, whatever its target: what it would run on one.
  driver::CompileRequest settings = settings_;
  if (stage == driver::Stage::PTX || stage == driver::Stage::CudaCpp)
    settings.target = driver::Target::CUDA;
  if (!arch.empty())
    settings.ptx.arch = arch;
  return emitKernelStage(kernel_, parameterTypes(signature), stage, settings);
}

std::vector<std::pair<std::string, std::string>>
Dispatcher::localVariableTypes(const std::string &signature) const {
  return python::localVariableTypes(kernel_, parameterTypes(signature), settings_);
}

driver::ExportedDeviceFunction
Dispatcher::exportDeviceFunction(const std::string &signature, bool resultDeclared,
                                 std::string symbol, ir::Function::Export abi, driver::Stage stage,
                                 const std::string &arch) const {
  frontend::Signature parsed = parseSignatureText(signature, /*kernel=*/false);
  if (parsed.parameters().size() != parameterNames_.size())
    throw py::type_error("device function '" + name() + "' takes " +
                         std::to_string(parameterNames_.size()) + " arguments but the signature '" +
                         signature + "' has " + std::to_string(parsed.parameters().size()));
  driver::CompileRequest settings = settings_;
  settings.target = driver::Target::CUDA;
  if (!arch.empty())
    settings.ptx.arch = arch;
  driver::DeviceFunctionExport how{std::move(symbol), abi, std::nullopt};
  if (resultDeclared)
    how.result = parsed.returnType;
  return emitDeviceFunction(kernel_, parsed, how, stage, settings);
}

LtoLinkedPtx Dispatcher::ltoPtx(const std::string &signature, const std::string &arch) const {
  if (!settings_.lto)
    throw std::runtime_error("LTO is not enabled");
  driver::CompileRequest settings = settings_;
  settings.target = driver::Target::CUDA;
  if (!arch.empty())
    settings.ptx.arch = arch;
  return ltoLinked(compileKernel(kernel_, parameterTypes(signature), settings), settings);
}

LtoLinkedPtx Dispatcher::ltoLinked(const driver::CompiledModule &module,
                                   const driver::CompileRequest &settings) const {
  return ltoLinkedPtx(module.ltoIr, name(), settings.ptx.arch, linkFilesOf(module),
                      settings.ptx.fastMath);
}

std::string Dispatcher::sass(const std::string &signature) const {
  std::string ptx = inspect(signature, driver::Stage::PTX);
  return driver::disassembleSass(
      driver::assemblePTX(ptx, settings_.ptx.arch, settings_.ptx.optLevel));
}

driver::ResourceUsage Dispatcher::resourceUsage(const std::string &signature) {
  frontend::Signature params = parameterTypes(signature);
  if (target() == driver::Target::CUDA && runtime::CudaDriver::available() &&
      runtime::Device::count() > 0) {
    int device = runtime::selectedDevice();
    std::string arch = archFor(runtime::Device::get(device).computeCapability());
    const runtime::Function &function = load(compiled(params, arch), device).function;
    driver::ResourceUsage usage;
    usage.registersPerThread = function.attribute(runtime::CU_FUNC_ATTRIBUTE_NUM_REGS);
    usage.sharedBytesPerBlock = function.attribute(runtime::CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
    usage.localBytesPerThread = function.attribute(runtime::CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES);
    usage.constBytes = function.attribute(runtime::CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES);
    usage.maxThreadsPerBlock = function.maxThreadsPerBlock();
    return usage;
  }
  driver::CompileRequest settings = settings_;
  settings.target = driver::Target::CUDA;
  driver::CompiledModule module = compileKernel(kernel_, params, settings);
  std::string ptx = settings.lto ? ltoLinked(module, settings).ptx : module.ptx;
  return driver::ptxasResourceUsage(ptx, module.kernels.at(0).entryName, settings.ptx.arch,
                                    settings.ptx.optLevel);
}

bool Dispatcher::cooperative(const std::string &signature) {
  frontend::Signature params = parameterTypes(signature);
  if (target() == driver::Target::CUDA && runtime::CudaDriver::available() &&
      runtime::Device::count() > 0)
    return compiled(params,
                    archFor(runtime::Device::get(runtime::selectedDevice()).computeCapability()))
        .cooperative;
  driver::CompileRequest settings = settings_;
  settings.target = driver::Target::CUDA;
  return compileKernel(kernel_, params, settings).kernels.at(0).cooperative;
}

int64_t Dispatcher::maxCooperativeGridBlocks(const std::string &signature, int64_t blockThreads,
                                             int64_t dynamicSharedBytes) {
  if (blockThreads < 1 || blockThreads > 1024)
    throw py::value_error("a block has 1 to 1024 threads, not " + std::to_string(blockThreads));
  if (dynamicSharedBytes < 0)
    throw py::value_error("dynsmemsize must not be negative");
  if (target() == driver::Target::CPU)
    return int64_t(runtime::CpuExecutor::kMaxCooperativeBlocks);
  int device = runtime::selectedDevice();
  std::string arch = archFor(runtime::Device::get(device).computeCapability());
  return load(compiled(parameterTypes(signature), arch), device)
      .function.maxCooperativeGridBlocks(int(blockThreads), size_t(dynamicSharedBytes));
}

std::string Dispatcher::signatureFor(const py::tuple &args) {
  frontend::Signature types = launchTypes(readArguments(args));
  return signatureText(types.params, types.structure);
}

int Dispatcher::occupancyBlockSize(const py::tuple &args, py::handle sharedmem) {
  int64_t sharedBytes = readInt64(sharedmem, "sharedmem");
  if (sharedBytes < 0)
    throw py::value_error("sharedmem must not be negative");
  std::vector<Argument> arguments = readArguments(args);
  // The cpu executor runs a block's threads as one vectorised loop, or as fibers with a stack
  // each: 256 keeps both efficient.
  if (target() == driver::Target::CPU)
    return 256;
  return specialization(arguments).function.occupancyBlockSize(size_t(sharedBytes));
}

} // namespace kaji::python
