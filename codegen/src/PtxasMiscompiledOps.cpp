#include "kaji/codegen/PtxasMiscompiledOps.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
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

// Whether `operand` is a PTX f32 immediate (0fXXXXXXXX) holding zero or a negative number.
bool isNonPositiveF32Immediate(std::string_view operand) {
  if (operand.size() != 10 || !operand.starts_with("0f"))
    return false;
  uint32_t bits = 0;
  for (char digit : operand.substr(2)) {
    int value = digit >= '0' && digit <= '9'   ? digit - '0'
                : digit >= 'A' && digit <= 'F' ? digit - 'A' + 10
                : digit >= 'a' && digit <= 'f' ? digit - 'a' + 10
                                               : -1;
    if (value < 0)
      return false;
    bits = bits << 4 | uint32_t(value);
  }
  bool nan = (bits & 0x7f800000u) == 0x7f800000u && (bits & 0x7fffffu) != 0;
  return !nan && ((bits & 0x80000000u) != 0 || bits == 0);
}

// How a compare's result is joined with a NaN test of its register operand: the ordered
// compares that ptxas folds to true, and the unordered ones it folds to false, for a
// non-negative operand.
struct NanGuardedCompare {
  std::string_view compare;
  std::string_view nanTest; // setp.num (joined by .and) or setp.nan (joined by .or)
  std::string_view join;
};

constexpr std::array<NanGuardedCompare, 6> kNanGuardedCompares = {{
    {"gt", "num", "and"},
    {"ge", "num", "and"},
    {"ne", "num", "and"},
    {"ltu", "nan", "or"},
    {"leu", "nan", "or"},
    {"equ", "nan", "or"},
}};

// `setp.CMP[.ftz].f32 P, A, C;` against a non-positive immediate C, as the compare joined
// with a NaN test of A, else an empty string.
std::string nanGuardedCompare(std::string_view instruction) {
  if (!instruction.starts_with("setp."))
    return {};
  size_t space = instruction.find_first_of(" \t");
  if (space == std::string_view::npos || !instruction.ends_with(';'))
    return {};
  std::string_view opcode = instruction.substr(0, space);
  std::string_view modifiers = opcode.substr(5); // CMP[.ftz].f32
  bool ftz = modifiers.ends_with(".ftz.f32");
  if (!ftz && !modifiers.ends_with(".f32"))
    return {};
  std::string_view compare = modifiers.substr(0, modifiers.size() - (ftz ? 8 : 4));
  const auto *guarded = std::find_if(
      kNanGuardedCompares.begin(), kNanGuardedCompares.end(),
      [&](const NanGuardedCompare &candidate) { return candidate.compare == compare; });
  if (guarded == kNanGuardedCompares.end())
    return {};
  std::string_view operandText = trim(instruction.substr(space));
  Operands operands = splitOperands(operandText.substr(0, operandText.size() - 1));
  if (operands.size() != 3 || !operands[1].starts_with('%') ||
      !isNonPositiveF32Immediate(operands[2]))
    return {};
  std::string suffix = std::string(ftz ? ".ftz" : "") + ".f32 ";
  return "\t{\n\t.reg .pred %kaji_nan_test;\n\tsetp." + std::string(guarded->nanTest) + suffix +
         "%kaji_nan_test, " + operands[1] + ", " + operands[1] + ";\n\tsetp." +
         std::string(compare) + "." + std::string(guarded->join) + suffix + operands[0] + ", " +
         operands[1] + ", " + operands[2] + ", %kaji_nan_test;\n\t}";
}

// The replacement of `line` when it is one of kMiscompiledOps or a compare ptxas folds, else
// an empty string. (LLVM's NVPTX printer never puts a predicate guard on them.)
std::string rewritten(std::string_view line) {
  std::string_view instruction = trim(line);
  if (std::string compare = nanGuardedCompare(instruction); !compare.empty())
    return compare;
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

// `ptx` with each line that `rewrite` gives a replacement for replaced by it.
std::string rewriteLines(const std::string &ptx, std::string (*rewrite)(std::string_view)) {
  std::string result;
  result.reserve(ptx.size() + 256);
  size_t start = 0;
  while (start < ptx.size()) {
    size_t end = ptx.find('\n', start);
    size_t next = end == std::string::npos ? ptx.size() : end + 1;
    std::string_view line(ptx.data() + start,
                          (end == std::string::npos ? ptx.size() : end) - start);
    std::string replacement = rewrite(line);
    if (replacement.empty())
      result.append(ptx, start, next - start);
    else
      result += replacement + (end == std::string::npos ? "" : "\n");
    start = next;
  }
  return result;
}

} // namespace

std::string rewriteMiscompiledOpsForPtxas(const std::string &ptx) {
  bool present = ptx.find(".f32") != std::string::npos && ptx.find("setp.") != std::string::npos;
  for (const MiscompiledOp &op : kMiscompiledOps)
    present = present || ptx.find(op.opcode) != std::string::npos;
  return present ? rewriteLines(ptx, rewritten) : ptx;
}

namespace {

constexpr size_t npos = std::string_view::npos;

// One `add`, `sub` or `mul` of f32 or f64 without a rounding modifier.
struct UnroundedOp {
  size_t line;             // index into the lines of the PTX
  std::string_view guard;  // `@%p1 ` or empty
  std::string_view opcode; // e.g. "mul.f32"
  Operands operands;       // destination first
  bool multiply() const { return opcode.starts_with("mul"); }
};

std::optional<UnroundedOp> unroundedOp(std::string_view line, size_t index) {
  std::string_view instruction = trim(line);
  std::string_view guard;
  if (instruction.starts_with('@')) {
    size_t space = instruction.find_first_of(" \t");
    if (space == std::string_view::npos)
      return std::nullopt;
    guard = instruction.substr(0, space + 1);
    instruction = trim(instruction.substr(space));
  }
  for (std::string_view opcode : {"add.f16", "sub.f16", "mul.f16", "add.f32", "sub.f32", "mul.f32",
                                  "add.f64", "sub.f64", "mul.f64"})
    if (instruction.starts_with(opcode) && instruction.size() > opcode.size() &&
        isSpace(instruction[opcode.size()]) && instruction.ends_with(';')) {
      std::string_view operands = trim(instruction.substr(opcode.size()));
      return UnroundedOp{index, guard, opcode,
                         splitOperands(operands.substr(0, operands.size() - 1))};
    }
  return std::nullopt;
}

// Whether `line` starts a function (an entry or a device function): registers are named
// anew in each.
bool startsFunction(std::string_view line) {
  std::string_view text = trim(line);
  for (std::string_view prefix : {".visible ", ".weak ", ".extern "})
    if (text.starts_with(prefix))
      text = trim(text.substr(prefix.size()));
  return text.starts_with(".entry") || text.starts_with(".func");
}

// How many instructions read a register, and how many of those are unrounded adds and
// subtracts.
struct RegisterReads {
  size_t all = 0;
  size_t byUnroundedAddOrSub = 0;
};

// Adds `.rn` to the unrounded ops of one function, except a multiply whose every reader is an
// unrounded add or subtract and those adds and subtracts: the pairs ptxas may fuse into an fma.
void roundFunction(std::vector<std::string> &lines, size_t begin, size_t end) {
  std::vector<UnroundedOp> ops;
  std::unordered_map<std::string, RegisterReads> reads;
  for (size_t i = begin; i < end; ++i) {
    std::optional<UnroundedOp> op = unroundedOp(lines[i], i);
    std::string_view text = trim(lines[i]);
    size_t space = text.find_first_of(" \t");
    if (space == std::string_view::npos || text.starts_with("//") || text.starts_with('.'))
      continue;
    Operands operands = splitOperands(trim(text.substr(space)));
    for (size_t k = 1; k < operands.size(); ++k) {
      std::string_view operand = operands[k];
      // Vector operands `{%f1, %f2}`, call arguments `(%f1)`, negations `-%f1`.
      while (!operand.empty() && std::string_view("{([-!").find(operand.front()) != npos)
        operand.remove_prefix(1);
      while (!operand.empty() && std::string_view(";})] \t").find(operand.back()) != npos)
        operand.remove_suffix(1);
      if (!operand.starts_with('%'))
        continue;
      RegisterReads &count = reads[std::string(operand)];
      ++count.all;
      count.byUnroundedAddOrSub += op && !op->multiply();
    }
    if (op)
      ops.push_back(std::move(*op));
  }
  std::unordered_set<std::string> fusible;
  for (const UnroundedOp &op : ops)
    if (op.multiply()) {
      auto found = reads.find(op.operands[0]);
      if (found != reads.end() && found->second.all > 0 &&
          found->second.all == found->second.byUnroundedAddOrSub)
        fusible.insert(op.operands[0]);
    }
  for (const UnroundedOp &op : ops) {
    bool keep =
        op.multiply()
            ? fusible.contains(op.operands[0])
            : std::any_of(op.operands.begin() + 1, op.operands.end(),
                          [&](const std::string &source) { return fusible.contains(source); });
    if (keep)
      continue;
    std::string rounded = "\t";
    rounded.append(op.guard).append(op.opcode.substr(0, 4)).append("rn.");
    rounded.append(op.opcode.substr(4)).append(" \t").append(op.operands[0]);
    for (size_t k = 1; k < op.operands.size(); ++k)
      rounded.append(", ").append(op.operands[k]);
    lines[op.line] = rounded + ";";
  }
}

} // namespace

std::string roundUnroundedFloatOps(const std::string &ptx) {
  std::vector<std::string> lines;
  for (size_t start = 0; start <= ptx.size();) {
    size_t end = ptx.find('\n', start);
    if (end == std::string::npos) {
      lines.emplace_back(ptx.substr(start));
      break;
    }
    lines.emplace_back(ptx.substr(start, end - start));
    start = end + 1;
  }
  size_t function = 0;
  for (size_t i = 0; i < lines.size(); ++i)
    if (startsFunction(lines[i])) {
      roundFunction(lines, function, i);
      function = i;
    }
  roundFunction(lines, function, lines.size());
  std::string result;
  result.reserve(ptx.size() + 256);
  for (size_t i = 0; i < lines.size(); ++i)
    result += lines[i] + (i + 1 < lines.size() ? "\n" : "");
  return result;
}

} // namespace kaji::codegen
