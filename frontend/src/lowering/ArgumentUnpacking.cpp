// `f(a, *t, b)`: a call whose positional arguments unpack tuples. It is the call of `f` on
// the tuples' elements in order (Python's evaluation order: the callee, the arguments left to
// right, then the keywords), each evaluated once; `**` unpacking is not supported.
#include "FunctionLowerer.h"

#include <algorithm>
#include <utility>

namespace kaji::frontend {

bool FunctionLowerer::unpacksArguments(const CallExpr &expr) {
  return std::any_of(expr.args.begin(), expr.args.end(),
                     [](const ExprPtr &arg) { return arg->kind == ExprKind::Starred; });
}

// The call is lowered again with each evaluated part bound, as a compile-time parameter, to
// a name spelled as its source (`t[0]` for an element of `*t`), so that diagnostics of the
// call read as the code it stands for. The names are no Python identifiers and live only
// while the call is lowered.
Operand FunctionLowerer::callUnpackingArguments(const CallExpr &expr) {
  std::vector<std::string> bound;
  auto bind = [&](std::string name, Operand value, const Location &loc) {
    while (compileTimeParameters_.count(name))
      name += "'";
    compileTimeParameters_.emplace(name, std::move(value));
    bound.push_back(name);
    return std::make_unique<NameExpr>(loc, bound.back());
  };
  struct Unbind {
    std::map<std::string, Operand, std::less<>> &parameters;
    std::vector<std::string> &names;
    ~Unbind() {
      for (const std::string &name : names)
        parameters.erase(name);
    }
  } unbind{compileTimeParameters_, bound};

  ExprPtr callee = bind(unparse(*expr.func), lower(*expr.func), expr.func->loc);
  std::vector<ExprPtr> args;
  for (const ExprPtr &arg : expr.args) {
    auto *starred = arg->as<StarredExpr>();
    if (!starred) {
      args.push_back(bind(unparse(*arg), lower(*arg), arg->loc));
      continue;
    }
    if (starred->mapping)
      throw ir::CompileError(arg->loc, "keyword argument unpacking ('**') is not supported in "
                                       "kaji kernels");
    Operand sequence = lower(*starred->value);
    if (sequence.kind != Operand::Kind::Tuple)
      throw ir::CompileError(arg->loc, "only a tuple can be unpacked into a call's arguments "
                                       "in a kernel, not '" +
                                           describe(sequence) + "' ('" + unparse(*arg) + "')");
    std::string text = unparse(*starred->value);
    for (size_t i = 0; i < sequence.elements.size(); ++i)
      args.push_back(bind(text + "[" + std::to_string(i) + "]", sequence.elements[i], arg->loc));
  }
  std::vector<Keyword> keywords;
  for (const Keyword &keyword : expr.keywords)
    keywords.push_back(
        Keyword{keyword.loc, keyword.name,
                bind(unparse(*keyword.value), lower(*keyword.value), keyword.value->loc)});
  CallExpr unpacked(expr.loc, std::move(callee), std::move(args), std::move(keywords));
  return lowerCall(unpacked);
}

} // namespace kaji::frontend
