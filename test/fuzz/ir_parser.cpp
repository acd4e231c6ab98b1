// Fuzzes the IR text parser, the printer, the verifier and the passes, as kaji-opt runs them.
// Every input must give a module or an ir::CompileError; whatever parses must round-trip
// through the printer (IRRoundTrip.h); and the default pass pipeline must keep verified IR
// verified.
#include "FuzzFinding.h"
#include "IRRoundTrip.h"

#include "kaji/ir/IRParser.h"
#include "kaji/ir/Passes.h"
#include "kaji/ir/Printer.h"
#include "kaji/ir/Verifier.h"

using namespace kaji;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const auto fileName = std::make_shared<const std::string>("<fuzz.kir>");
  std::unique_ptr<ir::Module> module;
  try {
    module = ir::parseIR(fuzz::inputText(data, size), fileName);
  } catch (const ir::CompileError &) {
    return 0;
  }
  fuzz::checkRoundTrips(*module);
  try {
    ir::verify(*module);
  } catch (const ir::CompileError &) {
    return 0;
  }
  std::string verified = ir::printModule(*module);
  ir::runPipeline(*module, ir::defaultPipeline());
  try {
    ir::verify(*module);
  } catch (const ir::CompileError &error) {
    fuzz::reportFinding("the default pipeline turned verified IR into IR the verifier rejects",
                        verified + "\n" + fuzz::describe(error) + "\n" + ir::printModule(*module));
  }
  fuzz::checkRoundTrips(*module);
  return 0;
}
