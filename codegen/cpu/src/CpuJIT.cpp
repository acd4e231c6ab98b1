#include "CpuJIT.h"

#include "CompilerRuntimeBuiltins.h"
#include "CpuObjectCompiler.h"

#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ObjectTransformLayer.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/Module.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Object/ObjectFile.h>
#include <llvm/Support/DataExtractor.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/TargetParser/Host.h>

#include <atomic>
#include <cstdlib>
#include <map>
#include <stdexcept>

namespace kaji::codegen {
namespace {

template <class T> T orThrow(llvm::Expected<T> value, const char *what) {
  if (!value)
    throw std::runtime_error(std::string(what) + ": " + llvm::toString(value.takeError()));
  return std::move(*value);
}

void orThrow(llvm::Error error, const char *what) {
  if (error)
    throw std::runtime_error(std::string(what) + ": " + llvm::toString(std::move(error)));
}

llvm::CodeGenOptLevel codeGenLevel(unsigned optLevel) {
  static const llvm::CodeGenOptLevel levels[] = {
      llvm::CodeGenOptLevel::None, llvm::CodeGenOptLevel::Less, llvm::CodeGenOptLevel::Default,
      llvm::CodeGenOptLevel::Aggressive};
  return levels[optLevel];
}

// KAJI_HOST_CPU names an LLVM CPU model to compile for instead of this machine's (`x86-64`
// is the baseline without F16C or AVX), so code paths that only older CPUs take are testable
// anywhere.
llvm::orc::JITTargetMachineBuilder cpuModelBuilder(const char *cpu) {
  llvm::Triple triple(llvm::sys::getProcessTriple());
  std::string error;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple.str(), error);
  if (!target)
    throw std::runtime_error("cannot find LLVM's target for the host: " + error);
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget(
      target->createMCSubtargetInfo(triple.str(), "", ""));
  if (!subtarget || !subtarget->isCPUStringValid(cpu))
    throw std::runtime_error(std::string("KAJI_HOST_CPU=") + cpu +
                             " is not a CPU that LLVM knows for " + triple.str());
  llvm::orc::JITTargetMachineBuilder builder(triple);
  builder.setCPU(cpu);
  return builder;
}

// The host CPU by name and features, so LLVM vectorises with every extension it has. Floats
// round after every operation, bit for bit as NumPy and Numba's CPU target: a * b + c becomes
// an fma only where fast math marked both instructions `contract` (FPOpFusion::Standard).
llvm::orc::JITTargetMachineBuilder hostMachineBuilder(unsigned optLevel) {
  const char *cpuModel = std::getenv("KAJI_HOST_CPU");
  auto builder = cpuModel && *cpuModel ? cpuModelBuilder(cpuModel)
                                       : orThrow(llvm::orc::JITTargetMachineBuilder::detectHost(),
                                                 "cannot describe the host CPU for LLVM");
  builder.setCodeGenOptLevel(codeGenLevel(optLevel));
  // LLVM 19's x86 backend computes wrong float16 results with AVX512-FP16's instructions: two
  // programs of the differential ran wrong on a Sapphire Rapids host and with
  // KAJI_HOST_CPU=sapphirerapids, right with x86-64-v4 (AVX-512 without FP16). float16 is
  // then converted with F16C around float32 arithmetic, as on every other x86 CPU.
  if (builder.getTargetTriple().isX86()) {
    builder.getFeatures().AddFeature("avx512fp16", false);
    // AVX512-BF16's and AVX-NE-CONVERT's float32 -> bfloat16 conversions flush subnormals to
    // zero (VCVTNEPS2BF16 ignores MXCSR), where ml_dtypes keeps them: without them LLVM calls
    // __truncsfbf2 (CompilerRuntimeBuiltins.cpp), which rounds subnormals too.
    builder.getFeatures().AddFeature("avx512bf16", false);
    builder.getFeatures().AddFeature("avxneconvert", false);
  }
  builder.getOptions().AllowFPOpFusion = llvm::FPOpFusion::Standard;
  // Fibers get stacks sized from these (CpuKernel::stackBytes).
  builder.getOptions().EmitStackSizeSection = true;
  return builder;
}

// The sum of the frame sizes in an object's .stack_sizes section: entries of a function
// address (8 bytes, relocated) and its frame size (ULEB128).
llvm::Expected<uint64_t> totalFrameBytes(llvm::MemoryBufferRef object) {
  auto file = llvm::object::ObjectFile::createObjectFile(object);
  if (!file)
    return file.takeError();
  uint64_t total = 0;
  for (const llvm::object::SectionRef &section : (*file)->sections()) {
    llvm::Expected<llvm::StringRef> name = section.getName();
    if (!name)
      return name.takeError();
    if (*name != ".stack_sizes")
      continue;
    llvm::Expected<llvm::StringRef> contents = section.getContents();
    if (!contents)
      return contents.takeError();
    llvm::DataExtractor data(*contents, (*file)->isLittleEndian(), 8);
    llvm::DataExtractor::Cursor cursor(0);
    while (cursor && cursor.tell() < contents->size()) {
      data.getAddress(cursor);
      total += data.getULEB128(cursor);
    }
    if (!cursor)
      return cursor.takeError();
  }
  return total;
}

llvm::orc::SymbolMap runtimeBuiltinSymbols(llvm::orc::LLJIT &jit) {
  llvm::orc::SymbolMap symbols;
  for (const RuntimeBuiltin &builtin : compilerRuntimeBuiltins())
    symbols[jit.mangleAndIntern(builtin.name)] = {llvm::orc::ExecutorAddr::fromPtr(builtin.address),
                                                  llvm::JITSymbolFlags::Exported |
                                                      llvm::JITSymbolFlags::Callable};
  return symbols;
}

} // namespace

struct CpuJIT::State {
  std::unique_ptr<llvm::orc::LLJIT> jit;
  llvm::orc::JITDylib *runtimeBuiltins = nullptr;
  std::string triple;
  std::mutex machinesLock;
  struct Machine {
    std::unique_ptr<llvm::TargetMachine> machine;
    std::mutex lock;
  };
  Machine machines[4];
  std::atomic<uint64_t> nextLibrary{0};
  // totalFrameBytes of each object the JIT linked, by its buffer's name, until load() takes it.
  std::mutex frameBytesLock;
  std::map<std::string, uint64_t> frameBytes;
};

CpuJIT &CpuJIT::instance() {
  static CpuJIT *jit = new CpuJIT();
  return *jit;
}

CpuJIT::CpuJIT() : state_(std::make_unique<State>()) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  state_->jit = orThrow(
      llvm::orc::LLJITBuilder()
          .setJITTargetMachineBuilder(hostMachineBuilder(3))
          .setCompileFunctionCreator(
              [](llvm::orc::JITTargetMachineBuilder builder)
                  -> llvm::Expected<std::unique_ptr<llvm::orc::IRCompileLayer::IRCompiler>> {
                return std::make_unique<CpuObjectCompiler>(std::move(builder));
              })
          .setSupportConcurrentCompilation(true)
          .create(),
      "cannot create LLVM's ORC JIT for the host");
  state_->triple = state_->jit->getTargetTriple().str();
  // Failures reach the caller as exceptions from load(); ORC's default reporter would also
  // print them.
  state_->jit->getExecutionSession().setErrorReporter(llvm::consumeError);
  llvm::Expected<llvm::orc::JITDylib &> builtins =
      state_->jit->createJITDylib("kaji.runtime-builtins");
  if (!builtins)
    throw std::runtime_error("cannot create the JIT library of runtime builtins: " +
                             llvm::toString(builtins.takeError()));
  state_->runtimeBuiltins = &*builtins;
  State &state = *state_;
  state_->jit->getObjTransformLayer().setTransform(
      [&state](std::unique_ptr<llvm::MemoryBuffer> object)
          -> llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> {
        llvm::Expected<uint64_t> frames = totalFrameBytes(object->getMemBufferRef());
        if (!frames)
          return frames.takeError();
        std::lock_guard<std::mutex> guard(state.frameBytesLock);
        state.frameBytes[object->getBufferIdentifier().str()] = *frames;
        return object;
      });
  orThrow(state_->runtimeBuiltins->define(
              llvm::orc::absoluteSymbols(runtimeBuiltinSymbols(*state_->jit))),
          "cannot define the runtime builtins in the JIT");
}

CpuJIT::~CpuJIT() = default;

const llvm::DataLayout &CpuJIT::dataLayout() const { return state_->jit->getDataLayout(); }

const std::string &CpuJIT::triple() const { return state_->triple; }

std::pair<llvm::TargetMachine *, std::unique_lock<std::mutex>>
CpuJIT::targetMachine(unsigned optLevel) {
  if (optLevel > 3)
    throw std::runtime_error("optimisation level " + std::to_string(optLevel) +
                             " is out of range 0..3");
  State::Machine &entry = state_->machines[optLevel];
  {
    std::lock_guard<std::mutex> guard(state_->machinesLock);
    if (!entry.machine)
      entry.machine = orThrow(hostMachineBuilder(optLevel).createTargetMachine(),
                              "cannot create a TargetMachine for the host");
  }
  return {entry.machine.get(), std::unique_lock<std::mutex>(entry.lock)};
}

CpuJIT::LoadedCode CpuJIT::load(std::unique_ptr<llvm::Module> module,
                                std::unique_ptr<llvm::LLVMContext> context,
                                const std::string &symbol) {
  llvm::orc::LLJIT &jit = *state_->jit;
  llvm::orc::ExecutionSession &session = jit.getExecutionSession();
  std::string name = "kaji.host." + std::to_string(state_->nextLibrary++);
  llvm::Expected<llvm::orc::JITDylib &> created = jit.createJITDylib(name);
  if (!created)
    throw std::runtime_error("cannot create a JIT library for a host kernel: " +
                             llvm::toString(created.takeError()));
  llvm::orc::JITDylib &library = *created;
  // ORC names the module's object after it (SimpleCompiler): how its frame sizes are found.
  module->setModuleIdentifier(name);
  const std::string objectName = name + "-jitted-objectbuffer";
  // Removing the library frees the kernel's code; nothing else refers to it.
  std::shared_ptr<const void> owner(&library, [&session](const void *library) {
    llvm::consumeError(
        session.removeJITDylib(*static_cast<llvm::orc::JITDylib *>(const_cast<void *>(library))));
  });
  library.addToLinkOrder(*state_->runtimeBuiltins);
  // libm (sinf, ...) and memcpy/memset resolve to this process's definitions.
  library.addGenerator(orThrow(llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
                                   jit.getDataLayout().getGlobalPrefix()),
                               "cannot search this process for the math library"));
  orThrow(
      jit.addIRModule(library, llvm::orc::ThreadSafeModule(std::move(module), std::move(context))),
      "cannot add a host kernel to the JIT");
  LoadedCode loaded;
  loaded.owner = std::move(owner);
  auto address = orThrow(jit.lookup(library, symbol), "cannot compile a host kernel");
  loaded.entry = address.toPtr<abi::CpuKernelEntry>();
  std::lock_guard<std::mutex> guard(state_->frameBytesLock);
  auto frames = state_->frameBytes.find(objectName);
  if (frames == state_->frameBytes.end())
    throw std::logic_error("the JIT linked no object named " + objectName +
                           ", so the kernel's stack frames are unknown");
  loaded.frameBytes = frames->second;
  state_->frameBytes.erase(frames);
  return loaded;
}

} // namespace kaji::codegen
