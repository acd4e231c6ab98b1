#include "kaji/driver/Compiler.h"

#include "kaji/frontend/Lowering.h"
#include "kaji/ir/Passes.h"
#include "kaji/ir/Printer.h"
#include "kaji/ir/Verifier.h"

#include <chrono>
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

LoweredModule lower(const CompileRequest &request) {
  LoweredModule lowered;
  for (const KernelSpec &kernel : request.kernels) {
    ir::Function *f = frontend::lowerFunction(kernel.function, kernel.argTypes,
                                              ir::Function::Kind::Kernel, lowered.module);
    lowered.entryNames.push_back(f->name());
  }
  ir::verify(lowered.module);
  if (request.optimizeIR) {
    ir::runPipeline(lowered.module, ir::defaultPipeline());
    ir::verify(lowered.module);
  }
  return lowered;
}

} // namespace

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
    throw std::invalid_argument("compile() produces PTX for Target::CUDA; use compileHost() "
                                "for Target::Host");
  CompiledModule compiled;
  auto start = std::chrono::steady_clock::now();
  LoweredModule lowered = lower(request);
  compiled.timings.frontendMs = millisecondsSince(start);
  compiled.ptx = codegen::emitPTX(lowered.module, request.ptx, &compiled.timings.codegen);
  compiled.entryNames = std::move(lowered.entryNames);
  return compiled;
}

HostCompiledModule compileHost(const CompileRequest &request) {
  HostCompiledModule compiled;
  auto start = std::chrono::steady_clock::now();
  LoweredModule lowered = lower(request);
  compiled.timings.frontendMs = millisecondsSince(start);
  codegen::CodegenTimings &total = compiled.timings.codegen;
  for (const std::string &name : lowered.entryNames) {
    codegen::CodegenTimings timings;
    compiled.kernels.push_back(
        codegen::compileHostKernel(lowered.module, name, request.host, &timings));
    total.lowerMs += timings.lowerMs;
    total.optimizeMs += timings.optimizeMs;
    total.emitMs += timings.emitMs;
  }
  return compiled;
}

std::string emitStage(const CompileRequest &request, Stage stage) {
  if (request.target == Target::Host && stage == Stage::PTX)
    throw std::invalid_argument("there is no PTX for Target::Host");
  LoweredModule lowered = lower(request);
  switch (stage) {
  case Stage::IR:
    return ir::printModule(lowered.module);
  case Stage::LLVM:
    if (request.target == Target::Host) {
      std::string text;
      for (const std::string &name : lowered.entryNames)
        text += codegen::emitHostLLVMIR(lowered.module, name, request.host);
      return text;
    }
    return codegen::emitLLVMIR(lowered.module, request.ptx);
  case Stage::PTX:
    return codegen::emitPTX(lowered.module, request.ptx);
  }
  throw std::logic_error("unknown compile stage");
}

} // namespace kaji::driver
