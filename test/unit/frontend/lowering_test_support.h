// Helpers for the Sema/IRGen tests: parse a snippet, lower one function, verify.
#pragma once

#include "kaji/frontend/Environment.h"
#include "kaji/frontend/Lowering.h"
#include "kaji/frontend/Parser.h"
#include "kaji/frontend/Signature.h"
#include "kaji/ir/Passes.h"
#include "kaji/ir/Printer.h"
#include "kaji/ir/Verifier.h"

#include <gtest/gtest.h>

#include <string>

namespace kaji::frontend::test {

struct Lowered {
  ir::Module module;
  ir::Function *function = nullptr;
};

// Lowers function `name` of `source` for the parameter types of `signature` (as a
// kernel, or as a device function when `kind` says so) and verifies the result.
inline std::unique_ptr<Lowered> lowerSource(const std::string &source, const std::string &name,
                                            const std::string &signature,
                                            ir::Function::Kind kind = ir::Function::Kind::Kernel) {
  SourceFile file;
  file.name = std::make_shared<const std::string>("k.py");
  file.text = source;
  std::shared_ptr<const Module> module = parseModule(file);
  auto env = environmentFromModule(module);
  auto lowered = std::make_unique<Lowered>();
  for (const StmtPtr &stmt : module->body)
    if (auto *def = stmt->as<FunctionDefStmt>(); def && def->name == name)
      lowered->function =
          lowerFunction(FunctionRef{module, def, env, false, {}},
                        parseSignature(signature, {}).params, kind, lowered->module);
  EXPECT_NE(lowered->function, nullptr) << "no function " << name;
  ir::verify(lowered->module);
  return lowered;
}

// The IR of the kernel after the default pipeline.
inline std::string optimizedIR(const std::string &source, const std::string &signature,
                               const std::string &name = "k") {
  auto lowered = lowerSource(source, name, signature);
  ir::runPipeline(lowered->module, ir::defaultPipeline());
  ir::verify(lowered->module);
  return ir::printModule(lowered->module);
}

// "line:col: message" of the error lowering throws; fails the test when it lowers.
inline std::string loweringError(const std::string &source, const std::string &signature,
                                 const std::string &name = "k") {
  try {
    lowerSource(source, name, signature);
  } catch (const ir::CompileError &error) {
    return std::to_string(error.location().line) + ":" + std::to_string(error.location().col) +
           ": " + error.what();
  }
  ADD_FAILURE() << "expected a CompileError for:\n" << source;
  return "<no error>";
}

} // namespace kaji::frontend::test
