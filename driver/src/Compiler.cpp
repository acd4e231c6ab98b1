#include "kaji/driver/Compiler.h"

#include "kaji/driver/Version.h"

#include "kaji/codegen/llvm/FatalErrors.h"
#include "kaji/codegen/nvptx/NVPTXCodegen.h"
#include "kaji/codegen/nvrtc/NvrtcCodegen.h"
#include "kaji/driver/PtxAssembler.h"
#include "kaji/frontend/Lowering.h"
#include "kaji/ir/ExceptionTable.h"
#include "kaji/ir/Passes.h"
#include "kaji/ir/Printer.h"
#include "kaji/ir/Reachability.h"
#include "kaji/ir/Verifier.h"

#include <chrono>
#include <optional>
#include <stdexcept>

namespace kaji::driver {
namespace {

double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

struct LoweredModule {
  ir::Module module;
  std::vector<std::string> entryNames;
};

// What the frontend checks the request's code for on `target`.
frontend::LoweringOptions loweringOptions(const CompileRequest &request, Target target) {
  frontend::LoweringOptions options;
  if (target == Target::CUDA)
    options.gpuArch = request.ptx.arch;
  options.reportExceptions = target == Target::CPU || request.debug;
  bool fastMath = target == Target::CUDA ? request.ptx.fastMath : request.cpu.fastMath;
  options.divisionByZeroRaises = request.debug && !fastMath;
  return options;
}

// Lowers the request's kernels for `target` (which compileCpu() chooses itself).
LoweredModule lower(const CompileRequest &request, Target target) {
  frontend::LoweringOptions options = loweringOptions(request, target);
  LoweredModule lowered;
  for (const KernelSpec &kernel : request.kernels) {
    ir::Function *f =
        request.exported
            ? frontend::exportDeviceFunction(kernel.function, kernel.argTypes,
                                             request.exported->result, request.exported->symbol,
                                             request.exported->abi, lowered.module, options)
            : frontend::lowerFunction(kernel.function, kernel.argTypes, ir::Function::Kind::Kernel,
                                      lowered.module, options, kernel.structure);
    lowered.entryNames.push_back(f->name());
  }
  ir::verify(lowered.module);
  codegen::installFatalErrorHandlers();
  if (request.optimizeIR) {
    ir::runPipeline(lowered.module, ir::defaultPipeline());
    ir::verify(lowered.module);
  }
  return lowered;
}

// Runs a backend on `lowered`, reporting what LLVM cannot compile at the first
// kernel's definition: LLVM's reason names no source line.
template <class Stage> auto inBackend(const LoweredModule &lowered, Stage stage) {
  try {
    return stage();
  } catch (const codegen::BackendError &error) {
    throw ir::CompileError(lowered.module.lookup(lowered.entryNames.front())->location(),
                           error.what());
  }
}

LoweredModule lowerTimed(const CompileRequest &request, Target target, CompileTimings &timings) {
  auto start = std::chrono::steady_clock::now();
  LoweredModule lowered = lower(request, target);
  timings.frontendMs = millisecondsSince(start);
  return lowered;
}

const codegen::GpuBackend &gpuBackend(Backend backend) {
  return backend == Backend::NVRTC ? codegen::nvrtc::nvrtcBackend() : codegen::nvptxBackend();
}

// The GPU code of `lowered` by the request's backend: PTX, or a cubin.
std::string emitGpuCode(const CompileRequest &request, const LoweredModule &lowered, bool cubin,
                        codegen::CodegenTimings *timings) {
  std::string ptx = inBackend(lowered, [&] {
    return gpuBackend(request.backend).emitPTX(lowered.module, request.ptx, timings);
  });
  return cubin ? assemblePTX(ptx, request.ptx.arch, request.ptx.optLevel) : ptx;
}

// NVRTC's LTO-IR of `lowered`: the nvrtc backend's CUDA C++ compiled with -dlto.
std::string emitLtoIr(const CompileRequest &request, const LoweredModule &lowered,
                      codegen::CodegenTimings *timings) {
  if (request.backend != Backend::NVRTC)
    throw std::invalid_argument("LLVM's NVPTX backend makes no LTO-IR: LTO-IR (lto=True) is "
                                "made by the nvrtc backend");
  return inBackend(lowered, [&] {
    return codegen::nvrtc::compileWithNvrtcToLtoIr(lowered.module, request.ptx, timings);
  });
}

// LLVM 19's NVPTX backend knows the GPUs up to sm_90a; the nvrtc backend compiles for the
// newer ones (sm_100, sm_120, ...), which kaji runs on too.
bool llvmCannotTarget(const CompileRequest &request) {
  return request.target == Target::CUDA && request.backend == Backend::LLVM &&
         codegen::isNewerThanNVPTXKnows(request.ptx.arch);
}

CompileRequest withNvrtc(const CompileRequest &request) {
  try {
    codegen::nvrtc::nvrtcInfo();
  } catch (const codegen::nvrtc::NvrtcUnavailable &unavailable) {
    throw std::runtime_error("unknown GPU architecture '" + request.ptx.arch +
                             "' for LLVM's NVPTX backend, which knows GPUs up to sm_90a; the nvrtc "
                             "backend compiles for newer ones, but " +
                             unavailable.what());
  }
  CompileRequest resolved = request;
  resolved.backend = Backend::NVRTC;
  return resolved;
}

CompiledModule compileUncached(const CompileRequest &request) {
  CompiledModule compiled;
  LoweredModule lowered = lowerTimed(request, Target::CUDA, compiled.timings);
  if (request.lto)
    compiled.ltoIr = emitLtoIr(request, lowered, &compiled.timings.codegen);
  else
    compiled.ptx = emitGpuCode(request, lowered, false, &compiled.timings.codegen);
  const ir::Module &module = lowered.module;
  for (const std::string &name : lowered.entryNames) {
    const ir::Function &kernel = *module.lookup(name);
    CompiledKernelInfo &info = compiled.kernels.emplace_back();
    info.entryName = gpuBackend(request.backend).entryName(kernel);
    info.cooperative = ir::usesGridSync(module, kernel);
    for (const ir::Function *function : ir::recursiveFunctions(module, kernel))
      info.recursiveFunctions.push_back({function->name(), function->location().line});
  }
  for (const ir::RaiseSite &entry : ir::exceptionTable(module, request.ptx.boundsCheck))
    compiled.exceptions.push_back({entry.site, entry.exception, entry.indexError});
  compiled.linkFiles = lowered.module.linkFiles();
  return compiled;
}

} // namespace

const char *backendName(Backend backend) { return backend == Backend::NVRTC ? "nvrtc" : "llvm"; }

std::optional<Backend> backendFromName(std::string_view name) {
  if (name == "llvm")
    return Backend::LLVM;
  if (name == "nvrtc")
    return Backend::NVRTC;
  return std::nullopt;
}

std::shared_ptr<const frontend::Module> parse(const frontend::SourceFile &source,
                                              frontend::TopLevelErrors errors) {
  return frontend::parseModule(source, errors);
}

frontend::FunctionRef findFunction(std::shared_ptr<const frontend::Module> module,
                                   std::string_view name,
                                   std::shared_ptr<const frontend::Environment> env) {
  for (const frontend::StmtPtr &stmt : module->body) {
    if (auto *def = stmt->as<frontend::FunctionDefStmt>(); def && def->name == name) {
      frontend::FunctionRef ref;
      ref.module = module;
      ref.def = def;
      ref.env = std::move(env);
      ref.isDevice = false;
      return ref;
    }
  }
  for (const frontend::UnparsedStatement &unparsed : module->unparsed)
    if (unparsed.functionName == name)
      throw unparsed.error;
  throw std::invalid_argument("no function named '" + std::string(name) + "' in " +
                              (module->file ? *module->file : std::string("<source>")));
}

CompiledModule compile(const CompileRequest &request) {
  if (request.target != Target::CUDA)
    throw std::invalid_argument("compile() produces PTX for Target::CUDA; use compileCpu() "
                                "for Target::CPU");
  if (llvmCannotTarget(request))
    return compile(withNvrtc(request));
  if (!request.diskCache)
    return compileUncached(request);
  CacheKey key = cacheKey(request);
  std::optional<CompiledModule> cached;
  request.diskCache->load(key, [&](std::string_view payload) {
    cached = deserializeCompiledModule(payload, request.kernels.size());
    return cached.has_value();
  });
  if (cached)
    return std::move(*cached);
  CompiledModule compiled = compileUncached(request);
  request.diskCache->store(key, serializeCompiledModule(compiled));
  return compiled;
}

CpuCompiledModule compileCpu(const CompileRequest &request) {
  CpuCompiledModule compiled;
  LoweredModule lowered = lowerTimed(request, Target::CPU, compiled.timings);
  codegen::CodegenTimings &total = compiled.timings.codegen;
  for (const std::string &name : lowered.entryNames) {
    codegen::CodegenTimings timings;
    compiled.kernels.push_back(inBackend(lowered, [&] {
      return codegen::compileCpuKernel(lowered.module, name, request.cpu, &timings);
    }));
    total.lowerMs += timings.lowerMs;
    total.optimizeMs += timings.optimizeMs;
    total.emitMs += timings.emitMs;
  }
  return compiled;
}

namespace {

std::string emitLoweredStage(const CompileRequest &request, const LoweredModule &lowered,
                             Stage stage) {
  if (stage == Stage::CudaCpp)
    return codegen::nvrtc::emitCUDA(lowered.module, request.ptx.boundsCheck);
  if (stage == Stage::LtoIr)
    return emitLtoIr(request, lowered, nullptr);
  if (stage == Stage::PTX || stage == Stage::Cubin)
    return emitGpuCode(request, lowered, stage == Stage::Cubin, nullptr);
  return inBackend(lowered, [&] {
    switch (stage) {
    case Stage::IR:
      return ir::printModule(lowered.module);
    case Stage::LLVM:
      if (request.target == Target::CPU) {
        std::string text;
        for (const std::string &name : lowered.entryNames)
          text += codegen::emitCpuLLVMIR(lowered.module, name, request.cpu);
        return text;
      }
      return codegen::emitLLVMIR(lowered.module, request.ptx);
    default:
      break;
    }
    throw std::logic_error("unknown compile stage");
  });
}

void checkStage(const CompileRequest &request, Stage stage) {
  if (request.target == Target::CPU && stage != Stage::IR && stage != Stage::LLVM)
    throw std::invalid_argument("there is no PTX, CUDA C++, cubin or LTO-IR for Target::CPU");
  if (request.target == Target::CUDA && request.backend == Backend::NVRTC && stage == Stage::LLVM)
    throw std::invalid_argument("the nvrtc backend makes no LLVM IR: ask for its CUDA C++ or PTX");
}

} // namespace

std::string emitStage(const CompileRequest &request, Stage stage) {
  if ((stage == Stage::PTX || stage == Stage::Cubin) && llvmCannotTarget(request))
    return emitStage(withNvrtc(request), stage);
  checkStage(request, stage);
  return emitLoweredStage(request, lower(request, request.target), stage);
}

ExportedDeviceFunction emitDeviceFunction(const CompileRequest &request, Stage stage) {
  if (request.kernels.size() != 1 || !request.exported)
    throw std::invalid_argument("emitDeviceFunction() takes one exported device function");
  if ((stage == Stage::PTX || stage == Stage::Cubin) && llvmCannotTarget(request))
    return emitDeviceFunction(withNvrtc(request), stage);
  checkStage(request, stage);
  LoweredModule lowered = lower(request, request.target);
  ir::Type result = lowered.module.lookup(lowered.entryNames.front())->returnType();
  return {emitLoweredStage(request, lowered, stage), result};
}

std::vector<std::pair<std::string, std::string>> localVariableTypes(const CompileRequest &request) {
  if (request.kernels.size() != 1)
    throw std::invalid_argument("localVariableTypes() takes one kernel");
  const KernelSpec &kernel = request.kernels.front();
  return frontend::localVariableTypes(kernel.function, kernel.argTypes, ir::Function::Kind::Kernel,
                                      loweringOptions(request, request.target), kernel.structure);
}

CacheKey cacheKey(const CompileRequest &request) {
  if (request.sources.empty())
    throw std::invalid_argument("a disk-cached compile needs the request's sources");
  CacheKey key;
  key.add("compiler", compilerVersion());
  key.add("target", request.target == Target::CUDA ? "cuda" : "host");
  key.add("backend", backendName(request.backend));
  key.add("lto", request.lto ? "1" : "0");
  key.add("arch", request.ptx.arch);
  key.add("opt", std::to_string(request.ptx.optLevel));
  key.add("fastmath", request.ptx.fastMath ? "1" : "0");
  key.add("lineinfo", request.ptx.lineInfo ? "1" : "0");
  key.add("debuginfo", request.ptx.debugInfo ? "1" : "0");
  const codegen::KernelLimits &limits = request.ptx.limits;
  key.add("limits", std::to_string(limits.maxThreadsPerBlock) + "," +
                        std::to_string(limits.minBlocksPerMultiprocessor) + "," +
                        std::to_string(limits.maxBlocksPerCluster) + "," +
                        std::to_string(limits.maxRegisters));
  bool boundsCheck =
      request.target == Target::CPU ? request.cpu.boundsCheck : request.ptx.boundsCheck;
  key.add("boundscheck", boundsCheck ? "1" : "0");
  key.add("kaji-passes", request.optimizeIR ? "1" : "0");
  key.add("debug", request.debug ? "1" : "0");
  for (const frontend::SourceFile &source : request.sources) {
    key.add("source", source.name ? *source.name : std::string());
    key.add("at", std::to_string(source.firstLine) + ":" + std::to_string(source.columnOffset));
    key.add("text", source.text);
  }
  for (const KernelSpec &kernel : request.kernels) {
    key.add("kernel", frontend::fingerprint(kernel.function));
    for (const ir::Type &type : kernel.argTypes)
      key.add("arg", type.str());
    key.add("args",
            frontend::signatureString({ir::Type::voidType(), kernel.argTypes, kernel.structure}));
  }
  if (request.exported)
    key.add("export", request.exported->symbol + "," + std::to_string(int(request.exported->abi)) +
                          "," + (request.exported->result ? request.exported->result->str() : "-"));
  return key;
}

} // namespace kaji::driver
