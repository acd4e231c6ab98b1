// Fuzzes the signature parser. Every input must give a Signature or an ir::CompileError that
// renders; a parsed signature's canonical spelling must parse back to the same types.
#include "FuzzFinding.h"

#include "kaji/frontend/Diagnostics.h"
#include "kaji/frontend/Signature.h"

namespace {

using namespace kaji;

bool sameTypes(const frontend::Signature &a, const frontend::Signature &b) {
  return a.returnType == b.returnType && a.params == b.params;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  frontend::SourceFile source;
  source.name = std::make_shared<const std::string>("<fuzz signature>");
  source.text = std::string(fuzz::inputText(data, size));
  frontend::scalarKindFromSignatureName(source.text);
  frontend::Signature sig;
  try {
    sig = frontend::parseSignature(source.text, ir::Location{source.name, 1, 1});
  } catch (const ir::CompileError &error) {
    frontend::renderDiagnostic(error, {&source});
    return 0;
  }
  std::string canonical = frontend::signatureString(sig);
  try {
    frontend::Signature reparsed = frontend::parseSignature(canonical, ir::Location{});
    if (!sameTypes(sig, reparsed))
      fuzz::reportFinding("the canonical spelling parses to other types",
                          canonical + "\nreads back as\n" + frontend::signatureString(reparsed));
  } catch (const ir::CompileError &error) {
    fuzz::reportFinding("the canonical spelling does not parse", canonical + "\n" + error.what());
  }
  return 0;
}
