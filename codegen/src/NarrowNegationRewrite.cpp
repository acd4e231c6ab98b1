#include "NarrowNegationRewrite.h"

#include <array>
#include <string_view>

namespace kaji::codegen {
namespace {

struct NarrowOp {
  std::string_view narrow; // the instruction ptxas miscompiles
  std::string_view wide;   // the same operation on 32 bits
};

constexpr std::array<NarrowOp, 2> kNarrowOps = {{{"neg.s16", "neg.s32"}, {"abs.s16", "abs.s32"}}};

bool isSpace(char c) { return c == ' ' || c == '\t'; }

std::string_view trim(std::string_view text) {
  while (!text.empty() && isSpace(text.front()))
    text.remove_prefix(1);
  while (!text.empty() && isSpace(text.back()))
    text.remove_suffix(1);
  return text;
}

// The 32-bit replacement of `line` when it is one of kNarrowOps, else an empty string. (LLVM's
// NVPTX printer never puts a predicate guard on them.)
std::string widened(std::string_view line) {
  std::string_view instruction = trim(line);
  for (const NarrowOp &op : kNarrowOps) {
    if (!instruction.starts_with(op.narrow) || instruction.size() == op.narrow.size() ||
        !isSpace(instruction[op.narrow.size()]))
      continue;
    std::string_view operands = trim(instruction.substr(op.narrow.size()));
    size_t comma = operands.find(',');
    if (!operands.ends_with(';') || comma == std::string_view::npos)
      return {};
    std::string destination(trim(operands.substr(0, comma)));
    std::string source(trim(operands.substr(comma + 1, operands.size() - comma - 2)));
    return "\t{\n\t.reg .b32 %kaji_wide;\n\tcvt.s32.s16 %kaji_wide, " + source + ";\n\t" +
           std::string(op.wide) + " %kaji_wide, %kaji_wide;\n\tcvt.u16.u32 " + destination +
           ", %kaji_wide;\n\t}";
  }
  return {};
}

} // namespace

std::string rewriteNarrowNegation(const std::string &ptx) {
  bool present = false;
  for (const NarrowOp &op : kNarrowOps)
    present = present || ptx.find(op.narrow) != std::string::npos;
  if (!present)
    return ptx;
  std::string rewritten;
  rewritten.reserve(ptx.size() + 256);
  size_t start = 0;
  while (start < ptx.size()) {
    size_t end = ptx.find('\n', start);
    size_t next = end == std::string::npos ? ptx.size() : end + 1;
    std::string_view line(ptx.data() + start,
                          (end == std::string::npos ? ptx.size() : end) - start);
    std::string replacement = widened(line);
    if (replacement.empty())
      rewritten.append(ptx, start, next - start);
    else
      rewritten += replacement + (end == std::string::npos ? "" : "\n");
    start = next;
  }
  return rewritten;
}

} // namespace kaji::codegen
