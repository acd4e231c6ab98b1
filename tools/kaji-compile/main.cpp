// kaji-compile: the compiler driven from the command line.
#include "CommandLine.h"
#include "DecoratorOptions.h"
#include "OutputFile.h"

#include "kaji/driver/AheadOfTime.h"
#include "kaji/driver/Compiler.h"
#include "kaji/driver/Version.h"
#include "kaji/frontend/Diagnostics.h"
#include "kaji/frontend/Signature.h"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace {

using namespace kaji;

constexpr std::streamsize maxInputBytes = 64 << 20;

struct JitDecorator {
  bool found = false;
  bool isDevice = false;
  std::optional<frontend::WrittenSignature> signature;
  const frontend::CallExpr *call = nullptr; // `@jit(...)`, whose keywords are options
};

bool namesJit(const frontend::Expr &e) {
  if (auto *name = e.as<frontend::NameExpr>())
    return name->id == "jit";
  if (auto *attr = e.as<frontend::AttributeExpr>())
    return attr->attr == "jit";
  return false;
}

// `@jit`, `@kaji.jit("sig")`, `@cuda.jit(void(float32[:]))`, `@cuda.jit("sig", device=True)`.
JitDecorator jitDecorator(const frontend::FunctionDefStmt &def) {
  JitDecorator result;
  for (const frontend::ExprPtr &decorator : def.decorators) {
    if (namesJit(*decorator)) {
      result.found = true;
    } else if (auto *call = decorator->as<frontend::CallExpr>(); call && namesJit(*call->func)) {
      result.found = true;
      result.call = call;
      if (!call->args.empty())
        result.signature = frontend::writtenSignature(*call->args[0]);
      for (const frontend::Keyword &kw : call->keywords) {
        auto *flag = kw.value->as<frontend::BoolLiteralExpr>();
        if (kw.name == "device" && flag)
          result.isDevice = flag->value;
      }
    }
  }
  return result;
}

class CompileJob {
public:
  explicit CompileJob(const tools::CommandLine &cl) : cl_(cl) {}

  int run() {
    if (!readInput())
      return 1;
    try {
      return compile();
    } catch (const ir::CompileError &error) {
      std::vector<const frontend::SourceFile *> sources{&source_};
      for (const frontend::SourceFile &sig : commandLineSignatures_)
        sources.push_back(&sig);
      std::cerr << frontend::renderDiagnostic(error, sources);
    } catch (const std::exception &error) {
      std::cerr << "kaji-compile: error: " << error.what() << "\n";
    }
    return 1;
  }

private:
  bool readInput() {
    std::ifstream in(cl_.inputPath, std::ios::binary);
    if (!in) {
      std::cerr << "kaji-compile: error: cannot open '" << cl_.inputPath << "'\n";
      return false;
    }
    std::ostringstream text;
    text << in.rdbuf();
    source_.text = std::move(text).str();
    if (std::streamsize(source_.text.size()) > maxInputBytes) {
      std::cerr << "kaji-compile: error: '" << cl_.inputPath << "' is larger than "
                << (maxInputBytes >> 20) << " MiB\n";
      return false;
    }
    source_.name = std::make_shared<const std::string>(cl_.inputPath);
    return true;
  }

  int compile() {
    auto module = driver::parse(source_, frontend::TopLevelErrors::Collect);
    if (*cl_.emit == tools::EmitKind::AST) {
      if (!module->unparsed.empty())
        throw module->unparsed.front().error;
      return write(frontend::dumpAST(*module));
    }

    auto env = frontend::environmentFromModule(module);
    driver::CompileRequest request;
    std::vector<tools::KernelOptions> kernelOptions;
    for (const std::string &name : kernelNames(*module)) {
      frontend::FunctionRef kernel = driver::findFunction(module, name, env);
      frontend::WrittenSignature sigText = signatureFor(*kernel.def);
      frontend::Signature sig = frontend::parseSignature(sigText.text, sigText.loc);
      if (cl_.exportAbi != tools::CommandLine::ExportAbi::None)
        request.exported = exportOf(name, sig);
      else
        frontend::checkKernelSignature(sig, sigText.loc);
      if (const frontend::CallExpr *decorator = jitDecorator(*kernel.def).call)
        kernelOptions.push_back({name, tools::readDecoratorOptions(*decorator, cl_)});
      request.kernels.push_back({std::move(kernel), sig.params, sig.structure});
    }
    if (request.exported && request.kernels.size() != 1)
      throw std::runtime_error("--export compiles one function: give one --kernel");
    std::vector<std::string> warnings;
    tools::CommandLine options = tools::applyDecoratorOptions(cl_, kernelOptions, warnings);
    for (const std::string &warning : warnings)
      std::cerr << warning << "\n";
    request.ptx.arch = options.arch;
    request.ptx.optLevel = request.cpu.optLevel = *options.optLevel;
    request.ptx.lineInfo = *options.lineInfo;
    request.debug = request.ptx.debugInfo = *options.debug;
    request.ptx.fastMath = request.cpu.fastMath = *options.fastMath;
    auto [threads, blocks, cluster] = *options.launchBounds;
    request.ptx.limits = {threads, blocks, cluster, *options.maxRegisters};
    request.cpu.boundsCheck = request.ptx.boundsCheck = *options.boundsCheck;
    if (options.target == tools::TargetKind::CPU)
      request.target = driver::Target::CPU;
    if (options.nvrtc)
      request.backend = driver::Backend::NVRTC;
    if (request.kernels.empty())
      throw std::runtime_error("no kernel to compile in '" + cl_.inputPath +
                               "': pass --kernel NAME --sig SIGNATURE, or give a function a "
                               "signature in its decorator, e.g. @kaji.jit(\"void(float32[:])\")");
    if (*cl_.emit == tools::EmitKind::Aot)
      return writeAheadOfTime(request, options.arch);
    static const driver::Stage stages[] = {
        driver::Stage::IR,    driver::Stage::IR,      driver::Stage::LLVM, driver::Stage::PTX,
        driver::Stage::Cubin, driver::Stage::CudaCpp, driver::Stage::LtoIr};
    return write(driver::emitStage(request, stages[int(*cl_.emit)]));
  }

  // The fatbin and C launcher of the request's kernels in the -o directory, named after the
  // input file's stem (made a C identifier).
  int writeAheadOfTime(const driver::CompileRequest &request, const std::string &archList) const {
    std::vector<std::string> archs;
    std::stringstream list(archList);
    for (std::string arch; std::getline(list, arch, ',');)
      archs.push_back(arch);
    std::string name = std::filesystem::path(cl_.inputPath).stem().string();
    for (char &c : name)
      if (!std::isalnum(static_cast<unsigned char>(c)))
        c = '_';
    if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0])))
      name = "_" + name;
    driver::AheadOfTimeFiles files = driver::emitAheadOfTime(request, archs, name);
    std::filesystem::path directory(cl_.outputPath);
    std::error_code error;
    std::filesystem::create_directories(directory, error);
    if (error) {
      std::cerr << "kaji-compile: error: cannot create '" << directory.string()
                << "': " << error.message() << "\n";
      return 1;
    }
    for (const auto &[suffix, text] :
         {std::pair{".h", &files.header}, std::pair{".c", &files.source},
          std::pair{".fatbin", &files.fatbin}}) {
      std::string problem = tools::writeOutput((directory / (name + suffix)).string(), *text);
      if (!problem.empty()) {
        std::cerr << "kaji-compile: error: " << problem << "\n";
        return 1;
      }
    }
    return 0;
  }

  driver::DeviceFunctionExport exportOf(const std::string &name,
                                        const frontend::Signature &sig) const {
    driver::DeviceFunctionExport exported;
    exported.symbol = name;
    exported.abi = cl_.exportAbi == tools::CommandLine::ExportAbi::C
                       ? ir::Function::Export::CAbi
                       : ir::Function::Export::NumbaAbi;
    if (!sig.returnType.isVoid())
      exported.result = sig.returnType;
    return exported;
  }

  // The --kernel names, else every function whose @jit decorator gives a signature. A
  // decorated function the parser could not read may be such a kernel: its error is
  // reported rather than the kernel silently left out.
  std::vector<std::string> kernelNames(const frontend::Module &module) const {
    if (!cl_.kernels.empty())
      return cl_.kernels;
    for (const frontend::UnparsedStatement &unparsed : module.unparsed)
      if (unparsed.decorated)
        throw unparsed.error;
    std::vector<std::string> names;
    for (const frontend::StmtPtr &stmt : module.body)
      if (auto *def = stmt->as<frontend::FunctionDefStmt>()) {
        JitDecorator jit = jitDecorator(*def);
        if (jit.signature && !jit.isDevice)
          names.push_back(def->name);
      }
    return names;
  }

  frontend::WrittenSignature signatureFor(const frontend::FunctionDefStmt &def) {
    if (!cl_.signatures.empty()) {
      size_t index = cl_.signatures.size() == 1 ? 0 : kernelIndex(def.name);
      frontend::SourceFile sig;
      sig.name = std::make_shared<const std::string>("<--sig " + std::to_string(index + 1) + ">");
      sig.text = cl_.signatures[index];
      commandLineSignatures_.push_back(sig);
      return {sig.text, ir::Location{sig.name, 1, 1}};
    }
    JitDecorator jit = jitDecorator(def);
    if (!jit.signature)
      throw ir::CompileError(def.loc, "kernel '" + def.name +
                                          "' has no signature: pass --sig, or write one in its "
                                          "decorator, e.g. @kaji.jit(\"void(float32[:])\")");
    return *jit.signature;
  }

  size_t kernelIndex(const std::string &name) const {
    for (size_t i = 0; i < cl_.kernels.size(); ++i)
      if (cl_.kernels[i] == name)
        return i;
    return 0;
  }

  int write(const std::string &text) const {
    std::string error = tools::writeOutput(cl_.outputPath, text);
    if (error.empty())
      return 0;
    std::cerr << "kaji-compile: error: " << error << "\n";
    return 1;
  }

  const tools::CommandLine &cl_;
  frontend::SourceFile source_;
  std::vector<frontend::SourceFile> commandLineSignatures_;
};

} // namespace

int main(int argc, char **argv) {
  std::string usageError;
  auto cl = tools::parseCommandLine(argc, argv, usageError);
  if (!cl) {
    std::cerr << "kaji-compile: error: " << usageError << "\n" << tools::usageText();
    return 2;
  }
  if (cl->showHelp || cl->showVersion) {
    std::string error = tools::writeOutput(
        "", cl->showHelp ? std::string(tools::usageText())
                         : "kaji-compile " + std::string(driver::compilerVersion()) + "\n");
    if (!error.empty())
      std::cerr << "kaji-compile: error: " << error << "\n";
    return error.empty() ? 0 : 1;
  }
  return CompileJob(*cl).run();
}
