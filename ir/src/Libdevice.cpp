#include "kaji/ir/Libdevice.h"

#include <charconv>
#include <string>

namespace kaji::ir {
namespace {

std::vector<ScalarKind> kinds(std::string_view names) {
  std::vector<ScalarKind> result;
  while (!names.empty()) {
    size_t space = names.find(' ');
    result.push_back(*scalarKindFromName(names.substr(0, space)));
    names = space == std::string_view::npos ? std::string_view() : names.substr(space + 1);
  }
  return result;
}

std::optional<ScalarKind> resultKind(std::string_view name) {
  if (name == "void")
    return std::nullopt;
  return *scalarKindFromName(name);
}

const std::vector<LibdeviceFunction> &table() {
  static const std::vector<LibdeviceFunction> functions = {
#define KAJI_LIBDEVICE(name, result, parameters, outputs, host)                                    \
  {#name, resultKind(result), kinds(parameters), kinds(outputs), LibdeviceHost::host},
#define LIBM Libm
#define FAST Fast
#define OWN Own
#define NONE None
#include "kaji/ir/Libdevice.def"
#undef KAJI_LIBDEVICE
#undef LIBM
#undef FAST
#undef OWN
#undef NONE
  };
  return functions;
}

} // namespace

ScalarKind LibdeviceFunction::valueKind(size_t index) const {
  if (result)
    return index == 0 ? *result : outputs[index - 1];
  return outputs[index];
}

const LibdeviceFunction *findLibdeviceFunction(std::string_view name) {
  for (const LibdeviceFunction &function : table())
    if (function.name == name)
      return &function;
  return nullptr;
}

std::vector<std::string_view> libdeviceFunctionNames() {
  std::vector<std::string_view> names;
  for (const LibdeviceFunction &function : table())
    names.push_back(function.name);
  return names;
}

LibdeviceSelection parseLibdeviceSelection(std::string_view attribute) {
  size_t dot = attribute.find('.');
  LibdeviceSelection selection;
  selection.function = findLibdeviceFunction(attribute.substr(0, dot));
  if (dot == std::string_view::npos)
    return selection;
  std::string_view index = attribute.substr(dot + 1);
  auto [end, error] = std::from_chars(index.data(), index.data() + index.size(), selection.value);
  if (error != std::errc() || end != index.data() + index.size())
    selection.function = nullptr;
  return selection;
}

std::string libdeviceSelection(const LibdeviceFunction &function, size_t value) {
  std::string name(function.name);
  return function.valueCount() > 1 ? name + "." + std::to_string(value) : name;
}

} // namespace kaji::ir
