// Fuzzes source text → tokens → AST. Every input must give an AST or an ir::CompileError
// (any other exception, a crash, a hang or a leak is a finding), in both of parseModule's
// error modes; the AST dump and every diagnostic must render; and where the whole file
// parses, collecting errors per statement must not change the AST.
#include "FuzzFinding.h"

#include "kaji/frontend/Diagnostics.h"
#include "kaji/frontend/Lexer.h"
#include "kaji/frontend/Parser.h"

#include <optional>

namespace {

using namespace kaji;

std::optional<std::string> parsedDump(const frontend::SourceFile &source,
                                      frontend::TopLevelErrors errors) {
  try {
    std::shared_ptr<frontend::Module> module = frontend::parseModule(source, errors);
    for (const frontend::UnparsedStatement &unparsed : module->unparsed)
      frontend::renderDiagnostic(unparsed.error, {&source});
    return frontend::dumpAST(*module);
  } catch (const ir::CompileError &error) {
    frontend::renderDiagnostic(error, {&source});
    return std::nullopt;
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  frontend::SourceFile source;
  source.name = std::make_shared<const std::string>("<fuzz>");
  source.text = std::string(fuzz::inputText(data, size));
  try {
    frontend::tokenize(source);
  } catch (const ir::CompileError &error) {
    frontend::renderDiagnostic(error, {&source});
  }
  std::optional<std::string> whole = parsedDump(source, frontend::TopLevelErrors::Throw);
  std::optional<std::string> collected = parsedDump(source, frontend::TopLevelErrors::Collect);
  if (whole && collected != whole)
    fuzz::reportFinding("the AST depends on TopLevelErrors although nothing failed to parse",
                        "Throw:\n" + *whole + "\nCollect:\n" + collected.value_or("<error>"));
  return 0;
}
