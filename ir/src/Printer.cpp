#include "kaji/ir/Printer.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <set>
#include <unordered_map>

namespace kaji::ir {

namespace {

std::string_view specialRegName(SpecialReg::Kind kind) {
  switch (kind) {
  case SpecialReg::ThreadIdx:
    return "tid";
  case SpecialReg::BlockIdx:
    return "ctaid";
  case SpecialReg::BlockDim:
    return "ntid";
  case SpecialReg::GridDim:
    return "nctaid";
  }
  return "?";
}

bool isIdentifier(std::string_view name) {
  if (name.empty() || !(std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_'))
    return false;
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
      return false;
  return true;
}

std::string quoted(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    // Other control characters (a NUL in a print template) as \xHH, so the text stays text.
    if ((c >= 0 && c < ' ') || c == '\x7f') {
      char escape[5];
      std::snprintf(escape, sizeof escape, "\\x%02x", unsigned(c));
      out += escape;
      continue;
    }
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out + "\"";
}

// Shortest decimal that reads back to the same double; hex bits where decimal cannot.
std::string floatLiteral(double value) {
  if (!std::isfinite(value)) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "0x%016llX",
                  static_cast<unsigned long long>(std::bit_cast<uint64_t>(value)));
    return buf;
  }
  char buf[64];
  auto end = std::to_chars(buf, buf + sizeof buf, value).ptr;
  std::string text(buf, end);
  if (text.find_first_of(".e") == std::string::npos)
    text += ".0";
  return text;
}

class FunctionPrinter {
public:
  FunctionPrinter(const Function &function, const PrintOptions &options)
      : function_(function), options_(options) {}

  std::string print() {
    nameValues();
    out_ += function_.isKernel() ? "kernel " : "device ";
    if (function_.inlining() != Function::Inlining::Default)
      out_ += function_.inlining() == Function::Inlining::Always ? "alwaysinline " : "noinline ";
    if (function_.exported() != Function::Export::None)
      out_ += function_.exported() == Function::Export::CAbi ? "export_c " : "export_numba ";
    out_ += "@";
    out_ += function_.name() + "(";
    const Block *entry = function_.entry();
    for (size_t i = 0; i < entry->arguments().size(); ++i) {
      const Value *arg = entry->argument(unsigned(i));
      out_ += (i ? ", " : "") + name(arg) + ": " + arg->type().str();
    }
    out_ += ")";
    if (!function_.returnType().isVoid())
      out_ += " -> " + function_.returnType().str();
    printLocation(function_.location());
    out_ += " {\n";
    for (const auto &block : function_.blocks())
      printBlock(*block);
    out_ += "}\n";
    return std::move(out_);
  }

private:
  void nameValues() {
    std::set<std::string_view> seen;
    const auto &params = function_.paramNames();
    const Block *entry = function_.entry();
    for (size_t i = 0; i < entry->arguments().size(); ++i) {
      if (i < params.size() && isIdentifier(params[i]) && seen.insert(params[i]).second)
        names_[entry->argument(unsigned(i))] = "%" + params[i];
    }
    unsigned next = 0;
    auto number = [&](const Value *v) {
      if (!names_.count(v))
        names_[v] = std::string("%").append(std::to_string(next++));
    };
    for (size_t b = 0; b < function_.blocks().size(); ++b) {
      const Block &block = *function_.blocks()[b];
      labels_[&block] = std::string("^bb").append(std::to_string(b));
      for (const auto &arg : block.arguments())
        number(arg.get());
      for (const auto &op : block.operations())
        if (op->result())
          number(op->result());
    }
  }

  std::string name(const Value *v) const {
    auto it = names_.find(v);
    return it == names_.end() ? "%<unknown>" : it->second;
  }

  std::string label(const Block *b) const {
    auto it = labels_.find(b);
    return it == labels_.end() ? "^<unknown>" : it->second;
  }

  std::string operand(const Operation &op, unsigned i) const {
    return i < op.numOperands() ? name(op.operand(i)) : "%<missing>";
  }

  std::string operandType(const Operation &op, unsigned i) const {
    return i < op.numOperands() && op.operand(i) ? op.operand(i)->type().str() : "?";
  }

  // The operands from `first` up to `end` (all the rest by default), comma-separated.
  std::string operandList(const Operation &op, unsigned first, unsigned end = ~0u) const {
    std::string s;
    for (unsigned i = first; i < std::min(end, op.numOperands()); ++i)
      s += (i > first ? ", " : "") + name(op.operand(i));
    return s;
  }

  static std::string extentList(const std::vector<int64_t> &shape) {
    std::string s = "[";
    for (size_t i = 0; i < shape.size(); ++i)
      s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "]";
  }

  // " cache OP" for a load or store with a cache operator, nothing for a plain one.
  static std::string cacheSuffix(const Operation &op) {
    const auto *cache = std::get_if<CacheOperator>(&op.attr());
    return cache ? " cache " + std::string(attributeName(*cache)) : "";
  }

  // " align N" where an array asks for an alignment, nothing for the natural one.
  static std::string alignmentSuffix(int64_t alignment) {
    return alignment ? " align " + std::to_string(alignment) : "";
  }

  template <class T> const T *attr(const Operation &op) const { return std::get_if<T>(&op.attr()); }

  // A name attribute (a math function, an atomic operation, a fence scope, a libdevice
  // function, ...) as written in the IR.
  static std::string attributeText(const Operation &op) {
    return std::visit(
        [](const auto &value) -> std::string {
          using T = std::decay_t<decltype(value)>;
          if constexpr (std::is_same_v<T, std::string>)
            return value;
          else if constexpr (std::is_enum_v<T> && !std::is_same_v<T, CmpPredicate>)
            return std::string(attributeName(value));
          else
            return "<missing>";
        },
        op.attr());
  }

  void printLocation(const Location &loc) {
    if (options_.locations && loc.known())
      out_ += " loc(" + quoted(loc.fileName()) + ":" + std::to_string(loc.line) + ":" +
              std::to_string(loc.col) + ")";
  }

  void printBlock(const Block &block) {
    out_ += label(&block);
    if (!block.arguments().empty() && &block != function_.entry()) {
      out_ += "(";
      for (size_t i = 0; i < block.arguments().size(); ++i) {
        const Value *arg = block.argument(unsigned(i));
        out_ += (i ? ", " : "") + name(arg) + ": " + arg->type().str();
      }
      out_ += ")";
    }
    out_ += ":\n";
    for (const auto &op : block.operations()) {
      out_ += "  ";
      if (op->result())
        out_ += name(op->result()) + " = ";
      out_ += opcodeName(op->opcode());
      printBody(*op);
      printLocation(op->location());
      out_ += "\n";
    }
  }

  std::string successor(const Successor &succ) const {
    std::string s = label(succ.block);
    if (succ.args.empty())
      return s;
    s += "(";
    for (size_t i = 0; i < succ.args.size(); ++i)
      s += (i ? ", " : "") + name(succ.args[i]);
    s += " : ";
    for (size_t i = 0; i < succ.args.size(); ++i)
      s += (i ? ", " : "") + (succ.args[i] ? succ.args[i]->type().str() : "?");
    return s + ")";
  }

  std::string constantLiteral(const Operation &op) const {
    Type type = op.resultType();
    if (const double *d = attr<double>(op))
      return floatLiteral(*d);
    const int64_t *i = attr<int64_t>(op);
    if (!i)
      return "<missing>";
    if (type.isBool() && (*i == 0 || *i == 1))
      return *i ? "true" : "false";
    if (type.isInteger() && !type.isSignedInteger())
      return std::to_string(uint64_t(*i));
    return std::to_string(*i);
  }

  void printBody(const Operation &op) {
    std::string typeSuffix = " : " + op.resultType().str();
    switch (op.opcode()) {
    case Opcode::Constant:
      out_ += " " + constantLiteral(op) + typeSuffix;
      return;
    case Opcode::Cmp: {
      const CmpPredicate *pred = attr<CmpPredicate>(op);
      out_ += " " + std::string(pred ? predicateName(*pred) : "<missing>") + " " + operand(op, 0) +
              ", " + operand(op, 1) + " : " + operandType(op, 0);
      return;
    }
    case Opcode::Cast:
    case Opcode::Bitcast:
      out_ += " " + operand(op, 0) + " : " + operandType(op, 0) + " to " + op.resultType().str();
      return;
    case Opcode::Math:
    case Opcode::Bits:
    case Opcode::Libdevice:
    case Opcode::BarrierReduce:
    case Opcode::Warp:
      out_ += " " + attributeText(op) + "(" + operandList(op, 0) + ")" + typeSuffix;
      return;
    case Opcode::SpecialReg: {
      const SpecialReg *reg = attr<SpecialReg>(op);
      out_ += reg ? " " + std::string(specialRegName(reg->kind)) + "." + "xyz"[reg->dim % 3]
                  : std::string(" <missing>");
      out_ += typeSuffix;
      return;
    }
    case Opcode::Barrier:
    case Opcode::GridSync:
    case Opcode::AsyncCommit:
    case Opcode::WarpgroupCommit:
      return;
    case Opcode::AsyncCopy:
    case Opcode::AsyncWait:
    case Opcode::WarpgroupWait: {
      const int64_t *count = attr<int64_t>(op);
      if (op.opcode() == Opcode::AsyncCopy)
        out_ += " " + operand(op, 0) + ", " + operand(op, 1) + ",";
      out_ += " " + (count ? std::to_string(*count) : std::string("<missing>"));
      return;
    }
    case Opcode::WarpSync:
    case Opcode::Nanosleep:
      out_ += " " + operand(op, 0);
      return;
    case Opcode::Print: {
      const std::string *format = attr<std::string>(op);
      out_ += " " + quoted(format ? *format : std::string()) + "(" + operandList(op, 0) + ")";
      return;
    }
    case Opcode::Fence:
      out_ += " " + attributeText(op);
      return;
    case Opcode::ArrayDim:
    case Opcode::ArrayStride:
    case Opcode::ExtractLane: {
      const int64_t *dim = attr<int64_t>(op);
      out_ += " " + operand(op, 0) + ", " + (dim ? std::to_string(*dim) : "<missing>") + typeSuffix;
      return;
    }
    case Opcode::ArrayIndex: {
      const int64_t *dim = attr<int64_t>(op);
      out_ += " " + operand(op, 0) + ", " + (dim ? std::to_string(*dim) : "<missing>") + ", " +
              operand(op, 1) + typeSuffix;
      return;
    }
    case Opcode::ArrayView: {
      // Operands: array, offset, then the extents and the strides, half each.
      unsigned ndim = op.numOperands() < 2 ? 0 : (op.numOperands() - 2) / 2;
      out_ += " " + operand(op, 0) + ", " + operand(op, 1) + ", [" + operandList(op, 2, 2 + ndim) +
              "], [" + operandList(op, 2 + ndim) + "]" + typeSuffix;
      return;
    }
    case Opcode::ArrayAt: {
      // Operands: address, then the extents and the strides, half each.
      unsigned ndim = op.numOperands() < 1 ? 0 : (op.numOperands() - 1) / 2;
      out_ += " " + operand(op, 0) + ", [" + operandList(op, 1, 1 + ndim) + "], [" +
              operandList(op, 1 + ndim) + "]" + typeSuffix;
      return;
    }
    case Opcode::Field: {
      const std::string *name = attr<std::string>(op);
      out_ += " " + operand(op, 0) + ", " + (name ? *name : std::string("<missing>")) + typeSuffix;
      return;
    }
    case Opcode::Load:
      out_ += " " + operand(op, 0) + "[" + operandList(op, 1) + "]" + cacheSuffix(op) + typeSuffix;
      return;
    case Opcode::Fragment:
      out_ += typeSuffix;
      return;
    case Opcode::FragmentFill:
    case Opcode::FragmentMma:
    case Opcode::WarpgroupMma:
      out_ += " " + operandList(op, 0);
      return;
    case Opcode::FragmentLoad:
    case Opcode::FragmentStore: {
      const MatrixLayout *layout = attr<MatrixLayout>(op);
      out_ += " " + operandList(op, 0) + (layout ? " " + std::string(attributeName(*layout)) : "");
      return;
    }
    case Opcode::FragmentLength:
      out_ += " " + operand(op, 0) + typeSuffix;
      return;
    case Opcode::FragmentGet:
      out_ += " " + operand(op, 0) + "[" + operand(op, 1) + "]" + typeSuffix;
      return;
    case Opcode::FragmentSet:
      out_ += " " + operand(op, 2) + ", " + operand(op, 0) + "[" + operand(op, 1) + "]";
      return;
    case Opcode::Store:
      out_ += " " + operand(op, 0) + ", " + operand(op, 1) + "[" + operandList(op, 2) + "]" +
              cacheSuffix(op);
      return;
    case Opcode::Atomic:
      out_ += " " + attributeText(op) + " " + operand(op, 0) + "[" + operandList(op, 2) + "], " +
              operand(op, 1) + typeSuffix;
      return;
    case Opcode::AtomicCAS:
      out_ += " " + operand(op, 0) + "[" + operandList(op, 3) + "], " + operand(op, 1) + ", " +
              operand(op, 2) + typeSuffix;
      return;
    case Opcode::SharedArray:
    case Opcode::LocalArray: {
      const auto *allocation = attr<ArrayAllocation>(op);
      if (!allocation) {
        out_ += " <missing>" + typeSuffix;
        return;
      }
      out_ +=
          " " + extentList(allocation->shape) + alignmentSuffix(allocation->alignment) + typeSuffix;
      return;
    }
    case Opcode::DynamicSharedArray: {
      const auto *alignment = attr<int64_t>(op);
      out_ += alignmentSuffix(alignment ? *alignment : 0) + typeSuffix;
      return;
    }
    case Opcode::ConstArray: {
      const auto *data = attr<ConstantData>(op);
      if (!data) {
        out_ += " <missing>" + typeSuffix;
        return;
      }
      // The bytes as hex digits: exact, and the text stays one line.
      static constexpr char digits[] = "0123456789abcdef";
      std::string hex;
      for (unsigned char byte : data->bytes) {
        hex += digits[byte >> 4];
        hex += digits[byte & 15];
      }
      out_ += " " + extentList(data->shape) + " \"" + hex + "\"" + typeSuffix;
      return;
    }
    case Opcode::Call:
    case Opcode::ExternCall:
    case Opcode::ExternCallC: {
      const std::string *callee = attr<std::string>(op);
      out_ += " @" + (callee ? *callee : std::string("<missing>")) + "(" + operandList(op, 0) + ")";
      if (op.result())
        out_ += typeSuffix;
      return;
    }
    case Opcode::Br:
    case Opcode::CondBr:
      if (op.opcode() == Opcode::CondBr)
        out_ += " " + operand(op, 0) + ",";
      for (size_t i = 0; i < op.successors().size(); ++i)
        out_ += (i ? ", " : " ") + successor(op.successors()[i]);
      return;
    case Opcode::Return:
      if (op.numOperands())
        out_ += " " + operand(op, 0) + " : " + operandType(op, 0);
      return;
    case Opcode::Raise:
      if (const std::string *exception = attr<std::string>(op))
        out_ += " " + quoted(*exception);
      return;
    default:
      // Unary and binary arithmetic: operands, then the result type.
      out_ += " " + operandList(op, 0) + typeSuffix;
      return;
    }
  }

  const Function &function_;
  const PrintOptions &options_;
  std::unordered_map<const Value *, std::string> names_;
  std::unordered_map<const Block *, std::string> labels_;
  std::string out_;
};

} // namespace

std::string printFunction(const Function &function, const PrintOptions &options) {
  return FunctionPrinter(function, options).print();
}

std::string printModule(const Module &module, const PrintOptions &options) {
  std::string out;
  for (const std::string &file : module.linkFiles())
    out += "link " + quoted(file) + "\n";
  for (const std::string &symbol : module.cooperativeSymbols())
    out += "cooperative " + quoted(symbol) + "\n";
  if (!module.linkFiles().empty() || !module.cooperativeSymbols().empty())
    out += "\n";
  for (size_t i = 0; i < module.functions().size(); ++i) {
    if (i)
      out += "\n";
    out += printFunction(*module.functions()[i], options);
  }
  return out;
}

} // namespace kaji::ir
