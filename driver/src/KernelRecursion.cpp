#include "kaji/driver/KernelRecursion.h"

#include "PtxComments.h"

#include "kaji/ir/Reachability.h"

#include <unordered_set>

namespace kaji::driver {
namespace {

constexpr std::string_view kPrefix = "// kaji.recursive ";

} // namespace

std::string recursionComments(const ir::Module &module,
                              const std::vector<std::string> &entryNames) {
  std::string text;
  std::unordered_set<const ir::Function *> named;
  for (const std::string &entry : entryNames)
    for (const ir::Function *function : ir::recursiveFunctions(module, *module.lookup(entry)))
      if (named.insert(function).second)
        text += std::string(kPrefix) + function->name() + " " +
                std::to_string(function->location().line) + "\n";
  return text;
}

std::vector<std::string> readRecursiveFunctions(std::string_view ptx) {
  std::vector<std::string> functions;
  for (std::string_view line : ptxCommentLines(ptx, kPrefix)) {
    size_t space = line.find(' ');
    if (space == std::string_view::npos)
      continue;
    std::string function = "'";
    function.append(line.substr(0, space)).append("' (line ").append(line.substr(space + 1));
    functions.push_back(function + ")");
  }
  return functions;
}

} // namespace kaji::driver
