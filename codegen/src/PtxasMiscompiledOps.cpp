#include "kaji/codegen/PtxasMiscompiledOps.h"

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace kaji::codegen {
namespace {

// An instruction's operands, the destination first.
using Operands = std::vector<std::string>;

// The replacement of `OPCODE D, S...;` for one opcode ptxas miscompiles.
using Rewrite = std::string (*)(const Operands &);

// A 32-bit neg/abs of the sign-extended source, narrowed by the cvt.u16.u32 ptxas sign-extends.
template <const char *wide> std::string widened(const Operands &operands) {
  return "\t{\n\t.reg .b32 %kaji_wide;\n\tcvt.s32.s16 %kaji_wide, " + operands[1] + ";\n\t" + wide +
         " %kaji_wide, %kaji_wide;\n\tcvt.u16.u32 " + operands[0] + ", %kaji_wide;\n\t}";
}

// |S| as S < 0 ? -S : S, which ptxas does not take to be non-negative. The negation has a
// register of its own: D may be S.
template <const char *bits> std::string selected(const Operands &operands) {
  std::string width(bits);
  return "\t{\n\t.reg .pred %kaji_negative;\n\t.reg .b" + width + " %kaji_negated;\n\tsetp.lt.s" +
         width + " %kaji_negative, " + operands[1] + ", 0;\n\tneg.s" + width + " %kaji_negated, " +
         operands[1] + ";\n\tselp.b" + width + " " + operands[0] + ", %kaji_negated, " +
         operands[1] + ", %kaji_negative;\n\t}";
}

// A 16-bit source operand as a 32-bit one, extended by `sign` ('s' or 'u'): a register is
// converted into `wide`, an immediate (LLVM prints a u16 above 32767 negative) is
// reinterpreted in 16 bits and written as the 32-bit immediate.
std::string extendedOperand(const std::string &operand, char sign, const char *wide,
                            std::string &conversions) {
  if (operand.starts_with('%')) {
    conversions +=
        std::string("\tcvt.") + sign + "32." + sign + "16 " + wide + ", " + operand + ";\n";
    return wide;
  }
  auto bits = static_cast<uint16_t>(std::stoll(operand, nullptr, 0));
  return std::to_string(sign == 's' ? int64_t(static_cast<int16_t>(bits)) : int64_t(bits));
}

// A 16-bit min/max as the 32-bit one of the extended operands, narrowed by cvt.u16.u32.
template <const char *operation, char sign> std::string widenedMinMax(const Operands &operands) {
  std::string conversions;
  std::string left = extendedOperand(operands[1], sign, "%kaji_left", conversions);
  std::string right = extendedOperand(operands[2], sign, "%kaji_right", conversions);
  return "\t{\n\t.reg .b32 %kaji_left, %kaji_right, %kaji_wide;\n" + conversions + "\t" +
         operation + "." + sign + "32 %kaji_wide, " + left + ", " + right + ";\n\tcvt.u16.u32 " +
         operands[0] + ", %kaji_wide;\n\t}";
}

constexpr char kNeg32[] = "neg.s32";
constexpr char kAbs32[] = "abs.s32";
constexpr char k32[] = "32";
constexpr char k64[] = "64";
constexpr char kMin[] = "min";
constexpr char kMax[] = "max";

struct MiscompiledOp {
  std::string_view opcode;
  size_t operandCount;
  Rewrite rewrite;
};

constexpr std::array<MiscompiledOp, 8> kMiscompiledOps = {{
    {"neg.s16", 2, widened<kNeg32>},
    {"abs.s16", 2, widened<kAbs32>},
    {"abs.s32", 2, selected<k32>},
    {"abs.s64", 2, selected<k64>},
    {"min.s16", 3, widenedMinMax<kMin, 's'>},
    {"min.u16", 3, widenedMinMax<kMin, 'u'>},
    {"max.s16", 3, widenedMinMax<kMax, 's'>},
    {"max.u16", 3, widenedMinMax<kMax, 'u'>},
}};

bool isSpace(char c) { return c == ' ' || c == '\t'; }

std::string_view trim(std::string_view text) {
  while (!text.empty() && isSpace(text.front()))
    text.remove_prefix(1);
  while (!text.empty() && isSpace(text.back()))
    text.remove_suffix(1);
  return text;
}

// The comma-separated operands of `text` (without the `;`).
Operands splitOperands(std::string_view text) {
  Operands operands;
  while (true) {
    size_t comma = text.find(',');
    operands.emplace_back(trim(text.substr(0, comma)));
    if (comma == std::string_view::npos)
      return operands;
    text.remove_prefix(comma + 1);
  }
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
    if (!operands.ends_with(';'))
      return {};
    Operands split = splitOperands(operands.substr(0, operands.size() - 1));
    return split.size() == op.operandCount ? op.rewrite(split) : std::string();
  }
  return {};
}

} // namespace

std::string rewriteMiscompiledOpsForPtxas(const std::string &ptx) {
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
