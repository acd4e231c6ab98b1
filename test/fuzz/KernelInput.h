// The input of the fuzz targets that compile Python source, and the source → kaji IR half of
// kaji-compile that they share: parseModule with TopLevelErrors::Collect, the module's
// environment, the signature, Sema and IRGen of one kernel with its device functions, the
// verifier, the default pass pipeline and the verifier again.
//
// Input: a first line `KERNEL SIGNATURE` (e.g. `saxpy void(float32[:], float32)`), then the
// Python source.
#pragma once

#include "FuzzFinding.h"

#include "kaji/frontend/Diagnostics.h"
#include "kaji/frontend/Environment.h"
#include "kaji/frontend/Lowering.h"
#include "kaji/frontend/Parser.h"
#include "kaji/frontend/Signature.h"
#include "kaji/ir/Passes.h"
#include "kaji/ir/Printer.h"
#include "kaji/ir/Verifier.h"

#include <algorithm>
#include <optional>

namespace kaji::fuzz {

struct KernelInput {
  std::string kernel;
  frontend::SourceFile signature;
  frontend::SourceFile source;
};

inline KernelInput splitKernelInput(std::string_view text) {
  KernelInput input;
  size_t lineEnd = std::min(text.find('\n'), text.size());
  std::string_view header = text.substr(0, lineEnd);
  size_t space = std::min(header.find(' '), header.size());
  input.kernel = header.substr(0, space);
  input.signature.name = std::make_shared<const std::string>("<fuzz signature>");
  input.signature.text = header.substr(std::min(space + 1, header.size()));
  input.source.name = std::make_shared<const std::string>("<fuzz>");
  input.source.text = text.substr(std::min(lineEnd + 1, text.size()));
  input.source.firstLine = 2; // locations count the lines of the whole input
  return input;
}

inline const frontend::FunctionDefStmt *findDef(const frontend::Module &module,
                                                std::string_view name) {
  for (const frontend::StmtPtr &stmt : module.body)
    if (auto *def = stmt->as<frontend::FunctionDefStmt>(); def && def->name == name)
      return def;
  return nullptr;
}

inline void verifyLowered(const ir::Module &module, std::string_view invariant) {
  try {
    ir::verify(module);
  } catch (const ir::CompileError &error) {
    reportFinding(invariant, describe(error) + "\n" + ir::printModule(module));
  }
}

struct LoweredKernel {
  ir::Module module;
  std::string entryName;
};

// The kernel's verified and optimised IR, or nullopt when the input is rejected with a
// CompileError (the expected answer to a bad input; its diagnostic is rendered). IR that
// IRGen produced and the verifier rejects, before or after the passes, is a finding: a
// compiler bug the user would see as an internal message. `options` as the driver passes
// them (the GPU architecture for the cuda target).
inline std::optional<LoweredKernel> lowerKernel(const KernelInput &input,
                                                const frontend::LoweringOptions &options = {}) {
  std::optional<LoweredKernel> lowered(std::in_place);
  try {
    std::shared_ptr<const frontend::Module> module =
        frontend::parseModule(input.source, frontend::TopLevelErrors::Collect);
    const frontend::FunctionDefStmt *def = findDef(*module, input.kernel);
    if (!def)
      return std::nullopt;
    ir::Location signatureLocation{input.signature.name, 1, 1};
    frontend::Signature sig = frontend::parseSignature(input.signature.text, signatureLocation);
    // As the drivers do (kaji-compile, the Python binding): a kernel takes no vector.
    frontend::checkKernelSignature(sig, signatureLocation);
    frontend::FunctionRef kernel{module, def, frontend::environmentFromModule(module),
                                 /*isDevice=*/false};
    lowered->entryName = frontend::lowerFunction(kernel, sig.params, ir::Function::Kind::Kernel,
                                                 lowered->module, options)
                             ->name();
  } catch (const ir::CompileError &error) {
    frontend::renderDiagnostic(error, {&input.source, &input.signature});
    return std::nullopt;
  }
  verifyLowered(lowered->module, "IRGen produced IR the verifier rejects");
  ir::runPipeline(lowered->module, ir::defaultPipeline());
  verifyLowered(lowered->module,
                "the default pipeline turned IRGen's output into IR the verifier rejects");
  return lowered;
}

} // namespace kaji::fuzz
