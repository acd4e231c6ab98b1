// The specialization cache: a launch's key (where it runs, its argument types and tuple
// structure), the kernel each key launches, compiled for its arch and loaded on its device
// (or compiled for the host) on a miss, once per signature and device.
#include "dispatcher.h"

#include "kaji/abi/KernelABI.h"
#include "kaji/runtime/Context.h"
#include "kaji/runtime/Device.h"

#include <algorithm>
#include <limits>
#include <optional>

namespace kaji::python {

namespace {

// The key's first entry for host specializations (devices are numbered from 0).
constexpr uint32_t cpuKey = std::numeric_limits<uint32_t>::max();

uint32_t typeCode(const ir::Type &type) {
  return uint32_t(type.kind()) | uint32_t(type.scalarKind()) << 2 | uint32_t(type.layout()) << 6 |
         uint32_t(type.memorySpace()) << 8 | uint32_t(type.ndim()) << 10;
}

// A namedtuple's class and fields in a specialization key, exactly.
void appendText(std::vector<uint32_t> &key, const std::string &text) {
  key.push_back(uint32_t(text.size()));
  for (char c : text)
    key.push_back(uint32_t(static_cast<unsigned char>(c)));
}

// A type passed as a value; below it, a leaf (0) or a tuple (its element count + 1).
constexpr uint32_t kTypeValueKey = 1u << 31;

void appendStructure(std::vector<uint32_t> &key, const frontend::ParameterStructure &structure) {
  if (structure.typeValue) {
    key.push_back(kTypeValueKey | uint32_t(*structure.typeValue));
    return;
  }
  key.push_back(structure.tuple ? uint32_t(structure.elements.size()) + 1 : 0);
  if (!structure.tuple)
    return;
  appendText(key, structure.tupleClass);
  for (const std::string &field : structure.fields)
    appendText(key, field);
  for (const frontend::ParameterStructure &element : structure.elements)
    appendStructure(key, element);
}

size_t slotCount(const std::vector<ir::Type> &params) {
  size_t count = 0;
  for (const ir::Type &param : params)
    count += param.isArray() ? 1 + 2 * param.ndim() : param.isComplex() ? 2 : 1;
  return count;
}

} // namespace

// The newest target LLVM 19's NVPTX backend knows is sm_90; newer GPUs JIT its PTX.
std::string archFor(runtime::ComputeCapability capability) {
  return "sm_" + std::to_string(std::min(capability.major * 10 + capability.minor, 90));
}

ParameterBuffer::ParameterBuffer(const std::vector<ir::Type> &paramTypes)
    : slots(slotCount(paramTypes)) {
  for (uint64_t &slot : slots)
    params.push_back(&slot);
}

size_t Dispatcher::TypesHash::operator()(const std::vector<uint32_t> &key) const {
  size_t hash = 0xcbf29ce484222325ull;
  for (uint32_t code : key)
    hash = (hash ^ code) * 0x100000001b3ull;
  return hash;
}

const Dispatcher::Key &Dispatcher::keyOf(uint32_t where, const std::vector<Argument> &arguments) {
  keyScratch_.clear();
  keyScratch_.push_back(where);
  for (const Argument &argument : arguments) {
    keyScratch_.push_back(typeCode(argument.type));
    // Records are interned: the address names the layout for the life of the process.
    if (auto record = reinterpret_cast<uintptr_t>(argument.type.record())) {
      keyScratch_.push_back(uint32_t(record));
      keyScratch_.push_back(uint32_t(uint64_t(record) >> 32));
    }
  }
  for (const frontend::ParameterStructure &parameter : structureScratch_)
    appendStructure(keyScratch_, parameter);
  return keyScratch_;
}

LoadedKernel &Dispatcher::specialization(std::vector<Argument> &arguments) {
  int device = runtime::selectedDevice();
  const Key &scratchKey = keyOf(uint32_t(device), arguments);
  if (lastLaunched_ && scratchKey == lastLaunchedKey_)
    return *lastLaunched_;
  if (auto found = launchCache_.find(scratchKey); found != launchCache_.end()) {
    lastLaunchedKey_ = scratchKey;
    lastLaunched_ = found->second;
    return *found->second;
  }
  Key key = keyScratch_; // compiling may run Python that launches, reusing the scratch key
  std::string arch = archFor(runtime::Device::get(device).computeCapability());
  LoadedKernel &loadedKernel = load(compiled(launchTypes(arguments), arch), device);
  launchCache_.emplace(std::move(key), &loadedKernel);
  return loadedKernel;
}

CpuSpecialization &Dispatcher::cpuSpecialization(const std::vector<Argument> &arguments) {
  if (auto found = cpuLaunchCache_.find(keyOf(cpuKey, arguments)); found != cpuLaunchCache_.end())
    return *found->second;
  Key key = keyScratch_; // compiling may run Python that launches, reusing the scratch key
  CpuSpecialization &specialization = compiledForCpu(launchTypes(arguments));
  cpuLaunchCache_.emplace(std::move(key), &specialization);
  return specialization;
}

CpuSpecialization &Dispatcher::compiledForCpu(const frontend::Signature &params) {
  for (const auto &kernel : cpuCompiled_)
    if (kernel->paramTypes == params.params && kernel->structure == params.structure)
      return *kernel;
  CapturedObjects captured;
  codegen::CpuKernel kernel = compileCpuKernel(kernel_, params, settings_, &captured);
  cpuCompiled_.push_back(std::make_unique<CpuSpecialization>(
      CpuSpecialization{params.params, params.structure, std::move(kernel),
                        ParameterBuffer(params.params), std::move(captured)}));
  return *cpuCompiled_.back();
}

const CompiledKernel &Dispatcher::compiled(const frontend::Signature &params,
                                           const std::string &arch) {
  for (const auto &kernel : compiled_)
    if (kernel->arch == arch && kernel->paramTypes == params.params &&
        kernel->structure == params.structure)
      return *kernel;
  driver::CompileRequest settings = settings_;
  settings.ptx.arch = arch;
  // The directory is looked up at each compile, so KAJI_CACHE_DIR set later still counts.
  std::optional<driver::DiskCache> diskCache;
  if (diskCache_)
    settings.diskCache = &diskCache.emplace(driver::DiskCache::defaultDirectory());
  CapturedObjects captured;
  driver::CompiledModule module = compileKernel(kernel_, params, settings, &captured);
  const driver::CompiledKernelInfo &info = module.kernels.at(0);
  ExceptionTable exceptions = module.exceptions.empty()
                                  ? nullptr
                                  : std::make_shared<const std::vector<driver::ReportedException>>(
                                        std::move(module.exceptions));
  std::vector<std::string> recursive;
  for (const driver::RecursiveFunction &function : info.recursiveFunctions)
    recursive.push_back("'" + function.name + "' (line " + std::to_string(function.line) + ")");
  compiled_.push_back(std::make_unique<CompiledKernel>(CompiledKernel{
      arch, params.params, params.structure, std::move(module.ptx), std::move(module.ltoIr),
      info.entryName, info.cooperative, std::move(recursive), std::move(exceptions),
      linkFilesOf(module), std::move(captured)}));
  return *compiled_.back();
}

std::vector<std::string> Dispatcher::linkFilesOf(const driver::CompiledModule &module) const {
  std::vector<std::string> linkFiles = linkFiles_;
  for (const std::string &file : module.linkFiles)
    if (std::find(linkFiles.begin(), linkFiles.end(), file) == linkFiles.end())
      linkFiles.push_back(file);
  return linkFiles;
}

LoadedKernel &Dispatcher::load(const CompiledKernel &compiled, int device) {
  for (const auto &kernel : loaded_)
    if (kernel->compiled == &compiled && kernel->function.device() == device)
      return *kernel;
  runtime::Module module =
      !compiled.ltoIr.empty() ? loadLtoLinkedModule(compiled.ltoIr, name(), compiled.arch,
                                                    compiled.linkFiles, settings_.ptx.fastMath)
      : compiled.linkFiles.empty()
          ? runtime::Module::loadPtx(compiled.ptx)
          : loadLinkedModule(compiled.ptx, name(), compiled.arch, compiled.linkFiles);
  runtime::Function function = module.function(compiled.entry);
  if (sharedCarveout_)
    function.setPreferredSharedCarveout(*sharedCarveout_);
  // Only code that reports defines the slot and the record: where the optimizer removed every
  // report (or every index error), there is none to read.
  auto defined = [&](const char *symbol) -> runtime::CUdeviceptr {
    if (!compiled.exceptions)
      return 0;
    std::optional<runtime::Module::Global> global = module.findGlobal(symbol);
    return global ? global->address : 0;
  };
  ExceptionSlot exceptionSlot{defined(abi::kExceptionSlotSymbol), defined(abi::kIndexErrorSymbol),
                              defined(abi::kRaisingThreadSymbol)};
  // Built in place: a LoadedKernel is not movable (its destructor disarms its slot).
  auto kernel = std::unique_ptr<LoadedKernel>(new LoadedKernel{&compiled,
                                                               std::move(module),
                                                               function,
                                                               ParameterBuffer(compiled.paramTypes),
                                                               0,
                                                               std::nullopt,
                                                               {},
                                                               exceptionSlot});
  loaded_.push_back(std::move(kernel));
  return *loaded_.back();
}

} // namespace kaji::python
