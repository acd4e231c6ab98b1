#include "function_source.h"

#include "kaji/driver/Compiler.h"

namespace kaji::python {

FunctionSource::FunctionSource(std::string text, std::string fileName, unsigned firstLine,
                               unsigned columnOffset, std::string functionName)
    : functionName_(std::move(functionName)) {
  source_.name = std::make_shared<const std::string>(std::move(fileName));
  source_.text = std::move(text);
  source_.firstLine = firstLine;
  source_.columnOffset = columnOffset;
}

std::shared_ptr<const frontend::Module> FunctionSource::module() const {
  if (!module_)
    module_ = driver::parse(source_);
  return module_;
}

} // namespace kaji::python
