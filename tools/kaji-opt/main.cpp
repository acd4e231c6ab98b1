// kaji-opt: reads kaji IR text, verifies it, runs passes and prints the result.
#include "OutputFile.h"

#include "kaji/ir/IRParser.h"
#include "kaji/ir/Passes.h"
#include "kaji/ir/Printer.h"
#include "kaji/ir/Verifier.h"

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

namespace {

constexpr const char *kUsage =
    "usage: kaji-opt FILE.kir [--passes NAME,...] [--verify-only] [--print-locations] [-o OUT]\n"
    "  FILE may be '-' for standard input.\n"
    "  passes: fold, dce, cse, simplify-cfg; 'default' runs the compiler's pipeline.\n";

struct Options {
  std::string input;
  std::string output;
  std::string passes;
  bool verifyOnly = false;
  bool printLocations = false;
};

[[noreturn]] void usageError(const std::string &message) {
  std::cerr << "kaji-opt: error: " << message << "\n" << kUsage;
  std::exit(1);
}

Options parseArguments(int argc, char **argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const std::string &flag) {
      if (i + 1 >= argc)
        usageError(flag + " needs a value");
      return std::string(argv[++i]);
    };
    if (arg == "-h" || arg == "--help") {
      std::string error = kaji::tools::writeOutput("", kUsage);
      if (!error.empty())
        std::cerr << "kaji-opt: error: " << error << "\n";
      std::exit(error.empty() ? 0 : 1);
    } else if (arg == "--passes") {
      options.passes = value(arg);
    } else if (arg.starts_with("--passes=")) {
      options.passes = arg.substr(9);
    } else if (arg == "-o") {
      options.output = value(arg);
    } else if (arg == "--verify-only") {
      options.verifyOnly = true;
    } else if (arg == "--print-locations") {
      options.printLocations = true;
    } else if (arg.size() > 1 && arg[0] == '-') {
      usageError("unknown option '" + arg + "'");
    } else if (options.input.empty()) {
      options.input = arg;
    } else {
      usageError("more than one input file");
    }
  }
  if (options.input.empty())
    usageError("no input file");
  if (options.passes == "default")
    options.passes = std::string(kaji::ir::defaultPipeline());
  return options;
}

bool readInput(const std::string &path, std::string &text) {
  std::ostringstream buffer;
  if (path == "-") {
    buffer << std::cin.rdbuf();
  } else {
    std::ifstream in(path, std::ios::binary);
    if (!in)
      return false;
    buffer << in.rdbuf();
  }
  text = buffer.str();
  return true;
}

void report(const kaji::ir::CompileError &error) {
  const kaji::ir::Location &loc = error.location();
  std::cerr << loc.fileName();
  if (loc.known())
    std::cerr << ":" << loc.line << ":" << loc.col;
  std::cerr << ": error: " << error.what() << "\n";
}

} // namespace

int main(int argc, char **argv) {
  Options options = parseArguments(argc, argv);
  std::string text;
  if (!readInput(options.input, text)) {
    std::cerr << "kaji-opt: error: cannot read '" << options.input << "'\n";
    return 1;
  }
  try {
    auto fileName =
        std::make_shared<const std::string>(options.input == "-" ? "<stdin>" : options.input);
    auto module = kaji::ir::parseIR(text, fileName);
    kaji::ir::verify(*module);
    if (options.verifyOnly)
      return 0;
    if (!options.passes.empty()) {
      kaji::ir::runPipeline(*module, options.passes);
      kaji::ir::verify(*module);
    }
    std::string printed = kaji::ir::printModule(*module, {options.printLocations});
    std::string error =
        kaji::tools::writeOutput(options.output == "-" ? "" : options.output, printed);
    if (!error.empty()) {
      std::cerr << "kaji-opt: error: " << error << "\n";
      return 1;
    }
  } catch (const kaji::ir::CompileError &error) {
    report(error);
    return 1;
  } catch (const std::exception &error) {
    std::cerr << "kaji-opt: error: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
