#include "compilation.h"

#include "environment.h"
#include "errors.h"

#include "kaji/frontend/Diagnostics.h"

namespace kaji::python {

namespace {

[[noreturn]] void rethrowRendered(const ir::CompileError &error,
                                  const std::vector<const frontend::SourceFile *> &sources) {
  throw RenderedCompileError(frontend::renderDiagnostic(error, sources), error.what(),
                             error.location());
}

template <class Emit>
auto compileWith(const KernelDefinition &kernel, const std::vector<ir::Type> &argTypes,
                 const driver::CompileRequest &settings, Emit emit) {
  EnvironmentBuilder environment;
  try {
    driver::CompileRequest request = settings;
    request.kernels.push_back(
        {environment.function(kernel.source, kernel.describeGlobals, false), argTypes});
    if (request.diskCache)
      for (const frontend::SourceFile *source : environment.sources())
        request.sources.push_back(*source);
    return emit(request);
  } catch (const ir::CompileError &error) {
    rethrowRendered(error, environment.sources());
  }
}

} // namespace

driver::CompiledModule compileKernel(const KernelDefinition &kernel,
                                     const std::vector<ir::Type> &argTypes,
                                     const driver::CompileRequest &settings) {
  return compileWith(kernel, argTypes, settings, [](const driver::CompileRequest &request) {
    return driver::compile(request);
  });
}

codegen::HostKernel compileHostKernel(const KernelDefinition &kernel,
                                      const std::vector<ir::Type> &argTypes,
                                      const driver::CompileRequest &settings) {
  return compileWith(kernel, argTypes, settings, [](const driver::CompileRequest &request) {
    return driver::compileHost(request).kernels.at(0);
  });
}

std::string emitKernelStage(const KernelDefinition &kernel, const std::vector<ir::Type> &argTypes,
                            driver::Stage stage, const driver::CompileRequest &settings) {
  return compileWith(kernel, argTypes, settings, [stage](const driver::CompileRequest &request) {
    return driver::emitStage(request, stage);
  });
}

frontend::Signature parseKernelSignature(const std::string &text) {
  frontend::SourceFile source;
  source.name = std::make_shared<const std::string>("<signature>");
  source.text = text;
  try {
    frontend::Signature signature = frontend::parseSignature(text, ir::Location{source.name, 1, 1});
    if (!signature.returnType.isVoid())
      throw ir::CompileError(ir::Location{source.name, 1, 1},
                             "a kernel's signature must return void, not '" +
                                 signature.returnType.str() + "'");
    return signature;
  } catch (const ir::CompileError &error) {
    rethrowRendered(error, {&source});
  }
}

} // namespace kaji::python
