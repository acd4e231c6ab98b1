#include "kaji/driver/FunctionSource.h"

#include "kaji/driver/Compiler.h"
#include "kaji/frontend/Parser.h"

namespace kaji::driver {

FunctionSource::FunctionSource(std::string text, std::string fileName, unsigned firstLine,
                               unsigned columnOffset, std::string functionName)
    : functionName_(std::move(functionName)) {
  source_.name = std::make_shared<const std::string>(std::move(fileName));
  source_.text = std::move(text);
  source_.firstLine = firstLine;
  source_.columnOffset = columnOffset;
}

FunctionSource::FunctionSource(frontend::CodeObject code)
    : functionName_(code.name), code_(std::move(code)) {
  // No text: diagnostics show file:line:col and no source line.
  source_.name = std::make_shared<const std::string>(code_->fileName);
  source_.firstLine = code_->firstLine;
  translation_.name = std::make_shared<const std::string>("<bytecode of " + functionName_ + " in " +
                                                          code_->fileName + ">");
}

std::shared_ptr<const frontend::Module> FunctionSource::module() const {
  if (!module_ && code_) {
    module_ = frontend::translateBytecode(*code_);
    translation_.text = frontend::dumpAST(*module_);
  }
  if (!module_)
    module_ = parse(source_);
  return module_;
}

} // namespace kaji::driver
