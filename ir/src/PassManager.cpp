#include "kaji/ir/Passes.h"

#include <stdexcept>
#include <string>

namespace kaji::ir {

namespace {

struct PassInfo {
  std::string_view name;
  bool (*run)(Module &);
};

constexpr PassInfo kPasses[] = {
    {"fold", foldConstants},
    {"dce", eliminateDeadCode},
    {"cse", eliminateCommonSubexpressions},
    {"simplify-cfg", simplifyCFG},
    {"ranges", foldComparisonsByRanges},
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ')
    s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ')
    s.remove_suffix(1);
  return s;
}

const PassInfo &findPass(std::string_view name) {
  for (const PassInfo &pass : kPasses)
    if (pass.name == name)
      return pass;
  std::string known;
  for (const PassInfo &pass : kPasses)
    known += (known.empty() ? "" : ", ") + std::string(pass.name);
  throw std::invalid_argument("unknown pass '" + std::string(name) + "' (known passes: " + known +
                              ")");
}

} // namespace

void runPipeline(Module &module, std::string_view names) {
  std::vector<const PassInfo *> pipeline;
  while (!names.empty()) {
    size_t comma = names.find(',');
    std::string_view name = trim(names.substr(0, comma));
    if (name.empty())
      throw std::invalid_argument("empty pass name in pipeline");
    pipeline.push_back(&findPass(name));
    names = comma == std::string_view::npos ? std::string_view() : names.substr(comma + 1);
  }
  for (const PassInfo *pass : pipeline)
    pass->run(module);
}

std::string_view defaultPipeline() { return "simplify-cfg,fold,simplify-cfg,cse,ranges,fold,dce"; }

} // namespace kaji::ir
