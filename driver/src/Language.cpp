#include "kaji/driver/Language.h"

#include "kaji/frontend/Diagnostics.h"
#include "kaji/frontend/Float8.h"
#include "kaji/frontend/HalfPrecision.h"
#include "kaji/frontend/Parser.h"
#include "kaji/ir/Libdevice.h"

namespace kaji::driver {

std::string renderDiagnostic(const ir::CompileError &error,
                             const std::vector<const frontend::SourceFile *> &sources) {
  return frontend::renderDiagnostic(error, sources);
}

frontend::Signature parseSignature(const frontend::SourceFile &source, bool kernel) {
  ir::Location start{source.name, 1, 1};
  frontend::Signature signature = frontend::parseSignature(source.text, start);
  if (kernel)
    frontend::checkKernelSignature(signature, start);
  else
    frontend::checkDeviceSignature(signature, start);
  return signature;
}

ir::Type parseType(std::string_view text) { return frontend::parseType(text, ir::Location{}); }

std::string typeString(const ir::Type &type) { return frontend::typeString(type); }

std::string signatureString(const frontend::Signature &signature) {
  return frontend::signatureString(signature);
}

std::vector<std::string> parameterStrings(const frontend::Signature &signature) {
  return frontend::parameterStrings(signature);
}

std::string syntaxTree(const FunctionSource &source) { return frontend::dumpAST(*source.module()); }

std::vector<LibdeviceSignature> libdeviceSignatures() {
  auto numbaNames = [](const std::vector<ir::ScalarKind> &kinds) {
    std::vector<std::string_view> names;
    for (ir::ScalarKind kind : kinds)
      names.push_back(ir::numpyName(kind));
    return names;
  };
  std::vector<LibdeviceSignature> signatures;
  for (std::string_view name : ir::libdeviceFunctionNames()) {
    const ir::LibdeviceFunction &function = *ir::findLibdeviceFunction(name);
    signatures.push_back({name, function.result ? ir::numpyName(*function.result) : "void",
                          numbaNames(function.parameters), numbaNames(function.outputs)});
  }
  return signatures;
}

const std::vector<std::string_view> &halfPrecisionFunctionNames() {
  return frontend::halfPrecisionFunctionNames();
}

const std::vector<std::string_view> &bfloat16FunctionNames() {
  return frontend::bfloat16FunctionNames();
}

const std::vector<std::string_view> &float8FunctionNames() {
  return frontend::float8FunctionNames();
}

std::optional<frontend::Conversion> launchConversion(const ir::Type &param, const ir::Type &arg) {
  using frontend::Conversion;
  if (param == arg)
    return Conversion::Exact;
  if (param.isArray() || arg.isArray()) {
    bool accepted = param.isArray() && arg.isArray() && param.scalarKind() == arg.scalarKind() &&
                    param.record() == arg.record() && param.ndim() == arg.ndim() &&
                    param.layout() == ir::Layout::Any;
    return accepted ? std::optional(Conversion::Promote) : std::nullopt;
  }
  if (param.isBool() || arg.isBool())
    return std::nullopt;
  if (arg.isComplex() && !param.isComplex())
    return std::nullopt;
  if (!param.isFloat() && !param.isComplex() && !arg.isInteger())
    return std::nullopt;
  return frontend::scalarConversion(param.scalarKind(), arg.scalarKind());
}

} // namespace kaji::driver
