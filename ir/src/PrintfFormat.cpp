#include "kaji/ir/PrintfFormat.h"

namespace kaji::ir {

std::vector<PrintfFormat> printfFormats(const Operation &print) {
  const std::string &layout = print.attrAs<std::string>();
  std::vector<PrintfFormat> calls(1);
  // The call the next conversion goes in: a new one once the last is full.
  auto callTaking = [&]() -> PrintfFormat & {
    if (calls.back().arguments.size() == kMaxPrintfArguments)
      calls.emplace_back();
    return calls.back();
  };
  unsigned next = 0;
  for (size_t i = 0; i < layout.size(); ++i) {
    char c = layout[i];
    bool doubled = (c == '{' || c == '}') && i + 1 < layout.size() && layout[i + 1] == c;
    if (c == '\0') {
      PrintfFormat &result = callTaking();
      result.format += "%c";
      result.arguments.push_back({PrintfArgument::Kind::Nul});
      continue;
    }
    if (c != '{' || doubled) {
      calls.back().format += c == '%' ? "%%" : std::string(1, c);
      i += doubled;
      continue;
    }
    ++i; // the "}" of "{}"
    PrintfFormat &result = callTaking();
    unsigned operand = next++;
    ScalarKind kind = print.operand(operand)->type().scalarKind();
    if (kind == ScalarKind::Bool) {
      result.format += "%s";
      result.arguments.push_back({PrintfArgument::Kind::Bool, operand});
    } else if (isFloat(kind)) {
      result.format += "%f";
      result.arguments.push_back({PrintfArgument::Kind::Float, operand});
    } else if (isSigned(kind)) {
      result.format += "%lld";
      result.arguments.push_back({PrintfArgument::Kind::Signed, operand});
    } else {
      result.format += "%llu";
      result.arguments.push_back({PrintfArgument::Kind::Unsigned, operand});
    }
  }
  return calls;
}

} // namespace kaji::ir
