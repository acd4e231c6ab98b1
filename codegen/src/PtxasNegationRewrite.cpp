#include "kaji/codegen/PtxasNegationRewrite.h"

#include <array>
#include <string_view>

namespace kaji::codegen {
namespace {

struct Operands {
  std::string destination;
  std::string source;
};

// The replacement of `OPCODE D, S;` for one opcode ptxas miscompiles.
using Rewrite = std::string (*)(const Operands &);

// A 32-bit neg/abs of the sign-extended source, narrowed by the cvt.u16.u32 ptxas sign-extends.
template <const char *wide> std::string widened(const Operands &operands) {
  return "\t{\n\t.reg .b32 %kaji_wide;\n\tcvt.s32.s16 %kaji_wide, " + operands.source + ";\n\t" +
         wide + " %kaji_wide, %kaji_wide;\n\tcvt.u16.u32 " + operands.destination +
         ", %kaji_wide;\n\t}";
}

// |S| as S < 0 ? -S : S, which ptxas does not take to be non-negative. The negation has a
// register of its own: D may be S.
template <const char *bits> std::string selected(const Operands &operands) {
  std::string width(bits);
  return "\t{\n\t.reg .pred %kaji_negative;\n\t.reg .b" + width + " %kaji_negated;\n\tsetp.lt.s" +
         width + " %kaji_negative, " + operands.source + ", 0;\n\tneg.s" + width +
         " %kaji_negated, " + operands.source + ";\n\tselp.b" + width + " " + operands.destination +
         ", %kaji_negated, " + operands.source + ", %kaji_negative;\n\t}";
}

constexpr char kNeg32[] = "neg.s32";
constexpr char kAbs32[] = "abs.s32";
constexpr char k32[] = "32";
constexpr char k64[] = "64";

struct MiscompiledOp {
  std::string_view opcode;
  Rewrite rewrite;
};

constexpr std::array<MiscompiledOp, 4> kMiscompiledOps = {{{"neg.s16", widened<kNeg32>},
                                                           {"abs.s16", widened<kAbs32>},
                                                           {"abs.s32", selected<k32>},
                                                           {"abs.s64", selected<k64>}}};

bool isSpace(char c) { return c == ' ' || c == '\t'; }

std::string_view trim(std::string_view text) {
  while (!text.empty() && isSpace(text.front()))
    text.remove_prefix(1);
  while (!text.empty() && isSpace(text.back()))
    text.remove_suffix(1);
  return text;
}

// The replacement of `line` when it is one of kMiscompiledOps, else an empty string. (LLVM's
// NVPTX printer never puts a predicate guard on them.)
std::string rewritten(std::string_view line) {
  std::string_view instruction = trim(line);
  for (const MiscompiledOp &op : kMiscompiledOps) {
    if (!instruction.starts_with(op.opcode) || instruction.size() == op.opcode.size() ||
        !isSpace(instruction[op.opcode.size()]))
      continue;
    std::string_view operands = trim(instruction.substr(op.opcode.size()));
    size_t comma = operands.find(',');
    if (!operands.ends_with(';') || comma == std::string_view::npos)
      return {};
    return op.rewrite({std::string(trim(operands.substr(0, comma))),
                       std::string(trim(operands.substr(comma + 1, operands.size() - comma - 2)))});
  }
  return {};
}

} // namespace

std::string rewriteNegationsForPtxas(const std::string &ptx) {
  bool present = false;
  for (const MiscompiledOp &op : kMiscompiledOps)
    present = present || ptx.find(op.opcode) != std::string::npos;
  if (!present)
    return ptx;
  std::string result;
  result.reserve(ptx.size() + 256);
  size_t start = 0;
  while (start < ptx.size()) {
    size_t end = ptx.find('\n', start);
    size_t next = end == std::string::npos ? ptx.size() : end + 1;
    std::string_view line(ptx.data() + start,
                          (end == std::string::npos ? ptx.size() : end) - start);
    std::string replacement = rewritten(line);
    if (replacement.empty())
      result.append(ptx, start, next - start);
    else
      result += replacement + (end == std::string::npos ? "" : "\n");
    start = next;
  }
  return result;
}

} // namespace kaji::codegen
