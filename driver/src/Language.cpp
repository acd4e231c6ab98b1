#include "kaji/driver/Language.h"

#include "kaji/frontend/Diagnostics.h"
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
  return signature;
}

ir::Type parseType(std::string_view text) { return frontend::parseType(text, ir::Location{}); }

std::string typeString(const ir::Type &type) { return frontend::typeString(type); }

std::string signatureString(const frontend::Signature &signature) {
  return frontend::signatureString(signature);
}

std::string syntaxTree(const FunctionSource &source) { return frontend::dumpAST(*source.module()); }

std::vector<std::string_view> libdeviceFunctionNames() { return ir::libdeviceFunctionNames(); }

const std::vector<std::string_view> &halfPrecisionFunctionNames() {
  return frontend::halfPrecisionFunctionNames();
}

const std::vector<std::string_view> &bfloat16FunctionNames() {
  return frontend::bfloat16FunctionNames();
}

} // namespace kaji::driver
