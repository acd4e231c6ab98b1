#include "compilation.h"

#include "environment.h"
#include "errors.h"

#include "kaji/driver/Language.h"

namespace kaji::python {

namespace {

[[noreturn]] void rethrowRendered(const ir::CompileError &error,
                                  const std::vector<const frontend::SourceFile *> &sources) {
  throw RenderedCompileError(driver::renderDiagnostic(error, sources), error.what(),
                             error.location());
}

template <class Emit>
auto compileWith(const KernelDefinition &kernel, const frontend::Signature &params,
                 const driver::CompileRequest &settings, Emit emit,
                 CapturedObjects *captured = nullptr) {
  EnvironmentBuilder environment(settings.target);
  try {
    driver::CompileRequest request = settings;
    request.kernels.push_back({environment.function(kernel.source, kernel.describeGlobals, false),
                               params.params, params.structure});
    if (request.diskCache)
      for (const frontend::SourceFile *source : environment.sources())
        request.sources.push_back(*source);
    auto result = emit(request);
    if (captured)
      *captured = environment.takeCaptured();
    return result;
  } catch (const ir::CompileError &error) {
    rethrowRendered(error, environment.sources());
  }
}

} // namespace

driver::CompiledModule compileKernel(const KernelDefinition &kernel,
                                     const frontend::Signature &params,
                                     const driver::CompileRequest &settings,
                                     CapturedObjects *captured) {
  return compileWith(
      kernel, params, settings,
      [](const driver::CompileRequest &request) { return driver::compile(request); }, captured);
}

codegen::CpuKernel compileCpuKernel(const KernelDefinition &kernel,
                                    const frontend::Signature &params,
                                    const driver::CompileRequest &settings,
                                    CapturedObjects *captured) {
  return compileWith(
      kernel, params, settings,
      [](const driver::CompileRequest &request) {
        return driver::compileCpu(request).kernels.at(0);
      },
      captured);
}

std::string emitKernelStage(const KernelDefinition &kernel, const frontend::Signature &params,
                            driver::Stage stage, const driver::CompileRequest &settings) {
  return compileWith(kernel, params, settings, [stage](const driver::CompileRequest &request) {
    return driver::emitStage(request, stage);
  });
}

std::vector<std::pair<std::string, std::string>>
localVariableTypes(const KernelDefinition &kernel, const frontend::Signature &params,
                   const driver::CompileRequest &settings) {
  return compileWith(kernel, params, settings, [](const driver::CompileRequest &request) {
    return driver::localVariableTypes(request);
  });
}

driver::ExportedDeviceFunction emitDeviceFunction(const KernelDefinition &kernel,
                                                  const frontend::Signature &params,
                                                  const driver::DeviceFunctionExport &how,
                                                  driver::Stage stage,
                                                  const driver::CompileRequest &settings) {
  return compileWith(kernel, params, settings, [&](const driver::CompileRequest &request) {
    driver::CompileRequest exported = request;
    exported.exported = how;
    return driver::emitDeviceFunction(exported, stage);
  });
}

driver::Stage stageNamed(const std::string &stage) {
  if (stage == "ir")
    return driver::Stage::IR;
  if (stage == "llvm")
    return driver::Stage::LLVM;
  if (stage == "ptx")
    return driver::Stage::PTX;
  if (stage == "cuda")
    return driver::Stage::CudaCpp;
  if (stage == "ltoir")
    return driver::Stage::LtoIr;
  throw py::value_error("stage must be 'ir', 'llvm', 'cuda', 'ptx' or 'ltoir', not '" + stage +
                        "'");
}

unsigned readOptLevel(py::handle opt) {
  if (PyBool_Check(opt.ptr()))
    return opt.ptr() == Py_True ? 3 : 0;
  if (!PyIndex_Check(opt.ptr()))
    throw py::type_error(std::string("opt must be True, False or an int from 0 to 3, not '") +
                         Py_TYPE(opt.ptr())->tp_name + "'");
  for (unsigned level = 0; level <= 3; ++level)
    if (opt.equal(py::int_(level)))
      return level;
  throw py::value_error("opt must be True, False or 0 to 3, not " + std::string(py::str(opt)));
}

frontend::Signature parseSignatureText(const std::string &text, bool kernel) {
  frontend::SourceFile source;
  source.name = std::make_shared<const std::string>("<signature>");
  source.text = text;
  try {
    return driver::parseSignature(source, kernel);
  } catch (const ir::CompileError &error) {
    rethrowRendered(error, {&source});
  }
}

frontend::Signature parseKernelSignature(const std::string &text) {
  return parseSignatureText(text, /*kernel=*/true);
}

} // namespace kaji::python
