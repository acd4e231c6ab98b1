// kaji IR → CUDA C++, one statement per operation. Every value is a local variable declared
// at the top of its function (so `goto` never jumps over an initialisation), blocks are
// labels, block arguments are variables the branches assign. The arithmetic that C++ leaves
// undefined goes through the prelude's helpers (kaji_prelude.cuh).
#include "kaji/abi/KernelABI.h"
#include "kaji/codegen/nvrtc/NvrtcCodegen.h"
#include "kaji/ir/Constants.h"
#include "kaji/ir/ExceptionTable.h"
#include "kaji/ir/Libdevice.h"
#include "kaji/ir/MathFunctions.h"
#include "kaji/ir/PrintfFormat.h"
#include "kaji/ir/Reachability.h"
#include "kaji/ir/RecordType.h"
#include "kaji/ir/WarpCollectives.h"

#include "CommaSeparated.h"
#include "CudaMath.h"
#include "CudaNames.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstring>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace kaji::codegen::nvrtc {
namespace {

using ir::CompileError;
using ir::Opcode;
using ir::ScalarKind;

std::string scalarTypeName(ScalarKind kind) {
  return kind == ScalarKind::Bool ? "bool" : std::string(ir::irName(kind));
}

// Memory holds bool as one byte (0 or 1), in arrays and kernel parameters alike.
std::string storageTypeName(ScalarKind kind) {
  return kind == ScalarKind::Bool ? "u8" : scalarTypeName(kind);
}

std::string typeName(ir::Type type);

// What an array's memory holds: its scalars' storage type, or its vectors.
std::string elementTypeName(ir::Type array) {
  return array.isVectorArray() ? typeName(array.elementType())
                               : storageTypeName(array.scalarKind());
}

std::string arrayTypeName(ir::Type type) {
  return "kaji::array<" + elementTypeName(type) + ", " + std::to_string(std::max(type.ndim(), 1u)) +
         ">";
}

std::string typeName(ir::Type type) {
  if (type.isVector())
    return "kaji::vec<" + scalarTypeName(type.scalarKind()) + ", " + std::to_string(type.lanes()) +
           ">";
  return type.isArray() ? arrayTypeName(type) : scalarTypeName(type.scalarKind());
}

bool isWideUnsigned(ScalarKind kind) {
  return kind == ScalarKind::UInt32 || kind == ScalarKind::UInt64;
}

// The shortest decimal that reads back to `value` in its type, as a C++ float literal; the
// bits through CUDA's reinterpreting intrinsics where there is no literal (NaN, infinity).
std::string floatLiteral(double value, ScalarKind kind) {
  bool single = kind != ScalarKind::Float64;
  char text[64];
  if (value != value || value - value != 0) {
    if (single) {
      float narrow = float(value);
      uint32_t bits;
      std::memcpy(&bits, &narrow, sizeof bits);
      std::snprintf(text, sizeof text, "__int_as_float(0x%08x)", bits);
    } else {
      uint64_t bits;
      std::memcpy(&bits, &value, sizeof bits);
      std::snprintf(text, sizeof text, "__longlong_as_double(0x%016llxLL)",
                    static_cast<unsigned long long>(bits));
    }
  } else {
    auto end = single ? std::to_chars(text, text + sizeof text - 4, float(value)).ptr
                      : std::to_chars(text, text + sizeof text - 4, value).ptr;
    std::string_view digits(text, size_t(end - text));
    std::string literal(digits);
    if (digits.find_first_of(".e") == std::string_view::npos)
      literal += ".0";
    if (single)
      literal += 'f';
    std::snprintf(text, sizeof text, "%s", literal.c_str());
  }
  std::string literal = text;
  return ir::isHalfPrecision(kind) ? scalarTypeName(kind) + "(" + literal + ")" : literal;
}

std::string intLiteral(int64_t value, ScalarKind kind) {
  if (kind == ScalarKind::Bool)
    return value ? "true" : "false";
  if (!ir::isSigned(kind)) {
    std::string digits = std::to_string(uint64_t(value));
    return digits + (kind == ScalarKind::UInt64 ? "ull" : kind == ScalarKind::UInt32 ? "u" : "");
  }
  if (value == INT64_MIN)
    return "(-9223372036854775807ll - 1)";
  return std::to_string(value) + (kind == ScalarKind::Int64 ? "ll" : "");
}

std::string quoted(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    // Other control characters as three octal digits, which no following digit extends.
    if ((c >= 0 && c < ' ') || c == '\x7f') {
      char escape[5];
      std::snprintf(escape, sizeof escape, "\\%03o", unsigned(c));
      out += escape;
      continue;
    }
    if (c == '?') // no trigraphs
      out += '\\';
    out += c;
  }
  return out + '"';
}

// The `#line` bookkeeping: the statements of one Python line share one C++ line, and a
// `#line` directive goes before a line only where the running count would name another one.
class LineWriter {
public:
  // `text` on a line of its own.
  void line(const std::string &text, const ir::Location &loc = {}) {
    flush();
    write(text, loc);
  }
  // `text` after the previous statement where both come from the same Python line.
  void statement(const std::string &text, const ir::Location &loc) {
    if (!pending_.empty() && loc.known() && loc.file && pendingLocation_.file &&
        loc.line == pendingLocation_.line && *loc.file == *pendingLocation_.file) {
      pending_ += " " + text;
      return;
    }
    flush();
    pending_ = "  " + text;
    pendingLocation_ = loc;
  }
  std::string take() {
    flush();
    return std::move(out_);
  }

private:
  void flush() {
    if (pending_.empty())
      return;
    write(pending_, pendingLocation_);
    pending_.clear();
  }
  void write(const std::string &text, const ir::Location &loc) {
    if (loc.known() && loc.file && (loc.line != mappedLine_ || *loc.file != mappedFile_)) {
      out_ += "#line " + std::to_string(loc.line) + " " + quoted(*loc.file) + "\n";
      mappedLine_ = loc.line;
      mappedFile_ = *loc.file;
    }
    out_ += text;
    out_ += '\n';
    if (mappedLine_)
      ++mappedLine_;
  }

  std::string out_;
  std::string pending_;
  ir::Location pendingLocation_;
  unsigned mappedLine_ = 0;
  std::string mappedFile_;
};

class ModuleEmitter;

uint64_t staticArrayCount(const ir::Operation &op);

// `__align__(N) ` for `array` that asked for `requested` bytes (0: nothing): at least its
// element's alignment, and 16 by default, as the LLVM lowering aligns.
std::string alignment(int64_t requested, ir::Type array) {
  int64_t element = int64_t(array.elementAlignment());
  int64_t bytes = requested ? std::max(requested, element) : std::max<int64_t>(element, 16);
  return "__align__(" + std::to_string(bytes) + ") ";
}

class FunctionEmitter {
public:
  FunctionEmitter(ModuleEmitter &module, const ir::Function &function, LineWriter &out)
      : module_(module), function_(function), out_(out) {}
  std::string signature();
  void emitBody();

private:
  void nameParameters();
  void nameValues(const std::vector<const ir::Block *> &blocks);
  std::vector<const ir::Block *> reachableBlocks() const;
  std::string name(const ir::Value *value, const ir::Operation &user) const;
  void statement(const ir::Operation &op, const std::string &text) {
    out_.statement(text, op.location());
  }
  void assign(const ir::Operation &op, const std::string &expression) {
    statement(op, name(op.result(), op) + " = " + expression + ";");
  }
  void emitOperation(const ir::Operation &op);
  std::string binary(const ir::Operation &op);
  std::string unary(const ir::Operation &op);
  std::string compare(const ir::Operation &op);
  std::string cast(const std::string &value, ScalarKind from, ScalarKind to);
  std::string math(const ir::Operation &op);
  std::string libdevice(const ir::Operation &op);
  std::string warp(const ir::Operation &op);
  std::string atomic(const ir::Operation &op);
  std::string element(const ir::Operation &op, unsigned arrayOperand, unsigned firstIndex);
  void emitStaticArray(const ir::Operation &op);
  void emitArrayView(const ir::Operation &op);
  void emitArrayAt(const ir::Operation &op);
  // `op`'s array result: its data at the byte address `start`, its extents and then its
  // strides the operands from `firstExtent` on.
  void assignArray(const ir::Operation &op, const std::string &start, unsigned firstExtent);
  void emitField(const ir::Operation &op);
  // `op`'s array result: its data at the byte address `start`, with these extents and strides.
  void assignView(const ir::Operation &op, const std::string &start,
                  std::vector<std::string> extents, std::vector<std::string> strides);
  void emitPrint(const ir::Operation &op);
  void emitCall(const ir::Operation &op);
  void emitExternCall(const ir::Operation &op);
  std::string jump(const ir::Successor &successor, const ir::Operation &op);
  void emitBranch(const ir::Operation &op);
  void emitReturn(const ir::Operation &op);
  void emitRaise(const ir::Operation &op);

  ModuleEmitter &module_;
  const ir::Function &function_;
  LineWriter &out_;
  NameTable names_;
  std::unordered_map<const ir::Value *, std::string> valueNames_;
  std::unordered_map<const ir::Block *, std::string> labels_;
  std::vector<std::string> parameters_;   // the C++ parameter list
  std::vector<std::string> prologue_;     // kernel: arrays and bools built from the parameters
  std::vector<std::string> declarations_; // every other value, and static storage
  std::unordered_map<const ir::Operation *, std::string> storage_; // static array → its storage
};

class ModuleEmitter {
public:
  ModuleEmitter(const ir::Module &module, bool boundsCheck)
      : module_(module), boundsCheck_(boundsCheck), exceptionNumbers_(module, boundsCheck) {}

  std::string run() {
    LineWriter out;
    out.line("// CUDA C++ generated by kaji from kaji IR.");
    out.line("#include " + quoted(preludeName()));
    out.line("");
    std::vector<std::string> signatures;
    for (const auto &function : module_.functions()) {
      FunctionEmitter emitter(*this, *function, body_);
      signatures.push_back(emitter.signature());
      emitters_.push_back(std::move(emitter));
    }
    std::string bodies = emitBodies(signatures);
    for (const std::string &declaration : libdeviceDeclarations_)
      out.line(declaration);
    if (!libdeviceDeclarations_.empty())
      out.line("");
    for (const auto &[symbol, declaration] : externDeclarations_)
      out.line(declaration);
    if (!externDeclarations_.empty())
      out.line("");
    bool anyDevice = false;
    for (size_t i = 0; i < emitters_.size(); ++i)
      if (!module_.functions()[i]->isKernel()) {
        out.line(signatures[i] + ";");
        anyDevice = true;
      }
    if (anyDevice)
      out.line("");
    std::string constants = constants_.take();
    return out.take() + constants + (constants.empty() ? "" : "\n") + bodies;
  }

  // Declares libdevice's __nv_NAME at file scope (NVRTC links libdevice into every program).
  void declareLibdevice(const ir::LibdeviceFunction &function) {
    std::vector<std::string> parameters;
    for (ScalarKind kind : function.parameters)
      parameters.push_back(scalarTypeName(kind));
    for (ScalarKind kind : function.outputs)
      parameters.push_back(scalarTypeName(kind) + " *");
    libdeviceDeclarations_.insert(
        "extern \"C\" __device__ " + (function.result ? scalarTypeName(*function.result) : "void") +
        " __nv_" + std::string(function.name) + "(" + commaSeparated(parameters) + ");");
  }

  // Declares a linked CUDA C++ device function by Numba's ABI (the extern_call op); one
  // symbol called with two signatures is an error at the second call.
  void declareExtern(const ir::Operation &op) {
    const std::string &symbol = op.attrAs<std::string>();
    std::vector<std::string> parameters{scalarTypeName(op.resultType().scalarKind()) + " *"};
    for (const ir::Value *operand : op.operands())
      parameters.push_back(scalarTypeName(operand->type().scalarKind()));
    std::string declaration =
        "extern \"C\" __device__ int " + symbol + "(" + commaSeparated(parameters) + ");";
    auto [found, inserted] = externDeclarations_.emplace(symbol, declaration);
    if (!inserted && found->second != declaration)
      throw CompileError(op.location(),
                         "'" + symbol + "' is called with two different signatures in one kernel");
  }

  const ir::Module &module() const { return module_; }

  // The module's grid-sync counter (kaji_prelude.cuh's grid_sync), declared on first use
  // under the name the runtime recognises cooperative kernels by.
  std::string gridBarrier(const ir::Location &location) {
    if (!gridBarrierDeclared_)
      constants_.line("__device__ u32 " + std::string(abi::kGridBarrierSymbol) + ";", location);
    gridBarrierDeclared_ = true;
    return abi::kGridBarrierSymbol;
  }

  // The module's exception slot (ir/ExceptionTable.h), declared on first use; its name, and
  // the number of `raise` in the table.
  std::string exceptionSlot(const ir::Location &location) {
    if (!exceptionSlotDeclared_)
      constants_.line("__device__ u32 " + std::string(abi::kExceptionSlotSymbol) + ";", location);
    exceptionSlotDeclared_ = true;
    return abi::kExceptionSlotSymbol;
  }
  uint32_t exceptionNumber(const ir::Operation &raise) { return exceptionNumbers_.of(raise); }

  bool boundsCheck() const { return boundsCheck_; }

  // Where the checked access `op` reports an index out of range (kaji_prelude.cuh's
  // index_site), the slot and the record declared on first use.
  std::string indexSite(const ir::Operation &op) {
    std::string slot = exceptionSlot(op.location());
    if (!indexRecordDeclared_)
      constants_.line("__device__ i64 " + std::string(abi::kIndexErrorSymbol) + "[" +
                          std::to_string(abi::kIndexErrorFields) + "];",
                      op.location());
    indexRecordDeclared_ = true;
    return "kaji::index_site{&" + slot + ", " + abi::kIndexErrorSymbol + ", " +
           std::to_string(exceptionNumber(op)) + "u}";
  }

  // A __constant__ array at file scope with the given contents; returns its name.
  std::string constantArray(const ir::Operation &op) {
    const auto &data = op.attrAs<ir::ConstantData>();
    ScalarKind kind = op.resultType().scalarKind();
    unsigned size = ir::byteSize(kind);
    // Floats go in as their bits (NaN and infinity have no literal a constant initialiser
    // may use); integers and bools as their values.
    std::string stored = ir::isFloat(kind) ? "u" + std::to_string(8 * size) : storageTypeName(kind);
    std::string name = "constant" + std::to_string(constantCount_++);
    size_t count = size ? data.bytes.size() / size : 0;
    std::vector<std::string> elements;
    for (size_t i = 0; i < count; ++i) {
      uint64_t bits = 0;
      std::memcpy(&bits, data.bytes.data() + i * size, size); // little-endian, as the GPU
      int64_t value = int64_t(bits);
      if (ir::isSigned(kind) && size < 8 && (bits >> (8 * size - 1)))
        value = int64_t(bits | (~uint64_t(0) << (8 * size)));
      elements.push_back(
          ir::isFloat(kind)
              ? "0x" + hex(bits) + (size == 8 ? "ull" : "u")
              : intLiteral(value, kind == ScalarKind::Bool ? ScalarKind::UInt8 : kind));
    }
    constants_.line("__constant__ __align__(16) " + stored + " " + name + "[" +
                        std::to_string(count) + "] = {" + commaSeparated(elements) + "};",
                    op.location());
    return ir::isFloat(kind) ? "reinterpret_cast<" + storageTypeName(kind) + " *>(" + name + ")"
                             : name;
  }

private:
  // The functions' definitions; emitting them declares the libdevice functions they call.
  std::string emitBodies(const std::vector<std::string> &signatures) {
    for (size_t i = 0; i < emitters_.size(); ++i) {
      body_.line(signatures[i] + " {");
      emitters_[i].emitBody();
      body_.line("}");
      body_.line("");
    }
    return body_.take();
  }

  static std::string hex(uint64_t bits) {
    char text[24];
    std::snprintf(text, sizeof text, "%llx", static_cast<unsigned long long>(bits));
    return text;
  }

  const ir::Module &module_;
  bool boundsCheck_;
  std::vector<FunctionEmitter> emitters_;
  LineWriter body_;
  LineWriter constants_;
  unsigned constantCount_ = 0;
  bool gridBarrierDeclared_ = false;
  bool exceptionSlotDeclared_ = false;
  bool indexRecordDeclared_ = false;
  ir::ExceptionNumbers exceptionNumbers_;
  std::set<std::string> libdeviceDeclarations_;
  std::map<std::string, std::string> externDeclarations_; // symbol → its declaration
};

std::string FunctionEmitter::signature() {
  nameParameters();
  std::string params = commaSeparated(parameters_);
  if (function_.isKernel())
    return "extern \"C\" __global__ void " + cudaName(function_) + "(" + params + ")";
  ir::Type result = function_.returnType();
  if (result.isArray())
    throw CompileError(function_.location(), "function '" + function_.name() +
                                                 "' returns an array; kaji functions return "
                                                 "scalars or nothing");
  static const char *const inlining[] = {"", "__forceinline__ ", "__noinline__ "};
  return std::string("static __device__ ") + inlining[int(function_.inlining())] +
         (result.isVoid() ? std::string("void") : typeName(result)) + " " + cudaName(function_) +
         "(" + params + ")";
}

// Parameters keep their Python names where those are free in C++; a kernel's array `x`
// arrives as x_data, x_shape0.., x_stride0.. and is assembled into the kaji::array `x`.
void FunctionEmitter::nameParameters() {
  for (const auto &function : module_.module().functions()) // never shadowed by a local
    names_.claimAll({cudaName(*function)});
  std::vector<ir::Type> types = function_.paramTypes();
  const ir::Block &entry = *function_.entry();
  if (entry.arguments().size() != types.size())
    throw CompileError(function_.location(), "entry block of function '" + function_.name() +
                                                 "' does not take one argument per parameter");
  bool kernel = function_.isKernel();
  for (size_t i = 0; i < types.size(); ++i) {
    ir::Type type = types[i];
    if (type.isVoid())
      throw CompileError(function_.location(),
                         "parameter of function '" + function_.name() + "' has type void");
    // The names a parameter called `base` takes: itself, and a kernel's parts of it.
    auto partsOf = [&](const std::string &base) {
      std::vector<std::string> parts{base};
      if (kernel && type.isArray()) {
        parts.push_back(base + "_data");
        for (unsigned d = 0; d < type.ndim(); ++d) {
          parts.push_back(base + "_shape" + std::to_string(d));
          parts.push_back(base + "_stride" + std::to_string(d));
        }
      } else if (kernel && type.isBool()) {
        parts.push_back(base + "_byte");
      } else if (kernel && type.isComplex()) {
        parts.push_back(base + "_re");
        parts.push_back(base + "_im");
      }
      return parts;
    };
    std::string name = i < function_.paramNames().size() ? function_.paramNames()[i] : "";
    for (unsigned k = 0; !names_.claimAll(partsOf(name)); ++k)
      name = "arg" + std::to_string(k);
    valueNames_[entry.argument(unsigned(i))] = name;
    if (!kernel) {
      parameters_.push_back(typeName(type) + " " + name);
      continue;
    }
    if (type.isBool()) {
      std::string byte = name + "_byte";
      parameters_.push_back("u8 " + byte);
      prologue_.push_back("const bool " + name + " = " + byte + " != 0;");
    } else if (type.isComplex()) { // two parameters, as the LLVM lowering's ABI
      std::string part = scalarTypeName(ir::componentKind(type.scalarKind()));
      parameters_.push_back(part + " " + name + "_re");
      parameters_.push_back(part + " " + name + "_im");
      prologue_.push_back("const " + typeName(type) + " " + name + " = {" + name + "_re, " + name +
                          "_im};");
    } else if (type.isScalar()) {
      parameters_.push_back(scalarTypeName(type.scalarKind()) + " " + name);
    } else {
      std::string element = elementTypeName(type);
      std::string data = name + "_data";
      parameters_.push_back(element + " *" + data);
      std::vector<std::string> shape, strides;
      for (unsigned d = 0; d < type.ndim(); ++d) {
        std::string extent = name + "_shape" + std::to_string(d);
        parameters_.push_back("i64 " + extent);
        shape.push_back(extent);
      }
      // A contiguous layout fixes one stride to the element size, as the LLVM lowering does.
      for (unsigned d = 0; d < type.ndim(); ++d) {
        std::string stride = name + "_stride" + std::to_string(d);
        parameters_.push_back("i64 " + stride);
        bool fixed = (type.layout() == ir::Layout::C && d + 1 == type.ndim()) ||
                     (type.layout() == ir::Layout::F && d == 0);
        strides.push_back(fixed ? std::to_string(type.elementSize()) : stride);
      }
      if (type.ndim() == 0)
        shape = strides = {"0"};
      prologue_.push_back("const " + arrayTypeName(type) + " " + name + " = {" + data + ", {" +
                          commaSeparated(shape) + "}, {" + commaSeparated(strides) + "}};");
    }
  }
}

std::vector<const ir::Block *> FunctionEmitter::reachableBlocks() const {
  std::unordered_set<const ir::Block *> reached{function_.entry()};
  std::vector<const ir::Block *> work{function_.entry()};
  while (!work.empty()) {
    const ir::Block *block = work.back();
    work.pop_back();
    const ir::Operation *terminator = block->terminator();
    if (!terminator)
      throw CompileError(block->operations().empty() ? function_.location()
                                                     : block->operations().back()->location(),
                         "a block of function '" + function_.name() +
                             "' does not end in a terminator");
    for (const ir::Successor &successor : terminator->successors()) {
      if (successor.block == function_.entry())
        throw CompileError(terminator->location(),
                           "branch to the entry block of function '" + function_.name() + "'");
      if (reached.insert(successor.block).second)
        work.push_back(successor.block);
    }
  }
  std::vector<const ir::Block *> ordered;
  for (const auto &block : function_.blocks())
    if (reached.count(block.get()))
      ordered.push_back(block.get());
  return ordered;
}

void FunctionEmitter::nameValues(const std::vector<const ir::Block *> &blocks) {
  auto declare = [&](const ir::Value *value) {
    std::string name = names_.fresh("v");
    valueNames_[value] = name;
    declarations_.push_back(typeName(value->type()) + " " + name + ";");
  };
  for (const ir::Block *block : blocks) {
    if (block != function_.entry()) {
      labels_[block] = names_.fresh("bb");
      for (const auto &argument : block->arguments())
        declare(argument.get());
    }
    for (const auto &op : block->operations()) {
      if (op->result())
        declare(op->result());
      // A shared or local array's storage sits with the values: one allocation however
      // often a loop reaches the operation.
      bool shared = op->opcode() == Opcode::SharedArray;
      ir::Type array = op->resultType();
      if (shared || op->opcode() == Opcode::LocalArray) {
        std::string storage = names_.fresh(shared ? "shared" : "local");
        storage_[op.get()] = storage;
        declarations_.push_back(std::string(shared ? "__shared__ " : "") +
                                alignment(op->attrAs<ir::ArrayAllocation>().alignment, array) +
                                elementTypeName(array) + " " + storage + "[" +
                                std::to_string(staticArrayCount(*op)) + "];");
      } else if (op->opcode() == Opcode::DynamicSharedArray) {
        // Every extern __shared__ array starts where the dynamic shared memory does.
        std::string storage = names_.fresh("dynamic_shared");
        storage_[op.get()] = storage;
        declarations_.push_back("extern __shared__ " + alignment(op->attrAs<int64_t>(), array) +
                                elementTypeName(array) + " " + storage + "[];");
      }
    }
  }
}

void FunctionEmitter::emitBody() {
  if (function_.blocks().empty())
    throw CompileError(function_.location(), "function '" + function_.name() + "' has no body");
  std::vector<const ir::Block *> blocks = reachableBlocks();
  nameValues(blocks);
  for (const std::string &line : prologue_)
    out_.line("  " + line);
  for (const std::string &line : declarations_)
    out_.line("  " + line);
  for (const ir::Block *block : blocks) {
    if (block != function_.entry())
      out_.line(labels_.at(block) + ":");
    for (const auto &op : block->operations())
      emitOperation(*op);
  }
}

std::string FunctionEmitter::name(const ir::Value *value, const ir::Operation &user) const {
  auto it = valueNames_.find(value);
  if (it == valueNames_.end())
    throw CompileError(user.location(),
                       "operand of '" + std::string(ir::opcodeName(user.opcode())) +
                           "' is not defined in function '" + function_.name() + "'");
  return it->second;
}

void FunctionEmitter::emitOperation(const ir::Operation &op) {
  switch (op.opcode()) {
  case Opcode::Constant: {
    ir::Type type = op.resultType();
    if (!type.isScalar())
      throw CompileError(op.location(), "constant of non-scalar type " + type.str());
    if (auto *value = std::get_if<double>(&op.attr()); value && type.isFloat())
      return assign(op, floatLiteral(*value, type.scalarKind()));
    if (auto *value = std::get_if<int64_t>(&op.attr()))
      return assign(op, type.isFloat() ? floatLiteral(double(*value), type.scalarKind())
                                       : intLiteral(*value, type.scalarKind()));
    throw CompileError(op.location(), "constant of type " + type.str() + " has no matching value");
  }
#define KAJI_BINARY_OPCODE(name, spelling) case Opcode::name:
#include "kaji/ir/Opcodes.def"
    return assign(op, binary(op));
  case Opcode::Neg:
  case Opcode::Not:
  case Opcode::Abs:
    return assign(op, unary(op));
  case Opcode::Cmp:
    return assign(op, compare(op));
  case Opcode::Select:
    if (op.numOperands() != 3 || !op.operand(0)->type().isBool() ||
        op.operand(1)->type() != op.operand(2)->type())
      throw CompileError(op.location(), "'select' takes a bool and two values of one type");
    return assign(op, name(op.operand(0), op) + " ? " + name(op.operand(1), op) + " : " +
                          name(op.operand(2), op));
  case Opcode::Cast: {
    ir::Type from = op.operand(0)->type();
    if (!from.isScalar() || !op.resultType().isScalar())
      throw CompileError(op.location(), "cast between " + from.str() + " and " +
                                            op.resultType().str() + " is not a scalar conversion");
    return assign(op,
                  cast(name(op.operand(0), op), from.scalarKind(), op.resultType().scalarKind()));
  }
  case Opcode::Bitcast:
    return assign(op, "kaji::bit_cast<" + typeName(op.resultType()) + ">(" +
                          name(op.operand(0), op) + ")");
  case Opcode::Complex:
    return assign(op, typeName(op.resultType()) + "{" + name(op.operand(0), op) + ", " +
                          name(op.operand(1), op) + "}");
  case Opcode::Real:
    return assign(op, name(op.operand(0), op) + ".re");
  case Opcode::Imag:
    return assign(op, name(op.operand(0), op) + ".im");
  case Opcode::MakeVector: {
    std::vector<std::string> lanes;
    for (const ir::Value *lane : op.operands())
      lanes.push_back(name(lane, op));
    return assign(op, typeName(op.resultType()) + "{" + commaSeparated(lanes) + "}");
  }
  case Opcode::ExtractLane:
    return assign(op, name(op.operand(0), op) + "." + "xyzw"[op.attrAs<int64_t>() & 3]);
  case Opcode::Math:
    return assign(op, math(op));
  case Opcode::Libdevice:
    return assign(op, libdevice(op));
  case Opcode::Bits:
    return assign(op, "kaji::" + op.attrAs<std::string>() + "(" + name(op.operand(0), op) + ")");
  case Opcode::SpecialReg: {
    ir::SpecialReg reg = op.attrAs<ir::SpecialReg>();
    static const char *const kRegisters[] = {"threadIdx", "blockIdx", "blockDim", "gridDim"};
    if (reg.dim > 2)
      throw CompileError(op.location(), "special register dimension " + std::to_string(reg.dim) +
                                            " is not x, y or z");
    return assign(op, "i32(" + std::string(kRegisters[reg.kind]) + "." + char('x' + reg.dim) + ")");
  }
  case Opcode::Barrier:
    return statement(op, "__syncthreads();");
  case Opcode::GridSync:
    return statement(op, "kaji::grid_sync(&" + module_.gridBarrier(op.location()) + ");");
  case Opcode::Fence: {
    const std::string &scope = op.attrAs<std::string>();
    return statement(op, scope == "device" ? "__threadfence();" : "__threadfence_" + scope + "();");
  }
  case Opcode::BarrierReduce:
    return assign(op, "__syncthreads_" + op.attrAs<std::string>() + "(" + name(op.operand(0), op) +
                          ")");
  case Opcode::WarpSync:
    return statement(op, "__syncwarp(" + name(op.operand(0), op) + ");");
  case Opcode::Warp:
    return assign(op, warp(op));
  case Opcode::ArrayDim:
  case Opcode::ArrayStride: {
    ir::Type type = op.operand(0)->type();
    int64_t dim = op.attrAs<int64_t>();
    if (!type.isArray() || dim < 0 || dim >= int64_t(type.ndim()))
      throw CompileError(op.location(), "dimension " + std::to_string(dim) + " of a " + type.str() +
                                            " does not exist");
    return assign(op, name(op.operand(0), op) +
                          (op.opcode() == Opcode::ArrayDim ? ".shape[" : ".strides[") +
                          std::to_string(dim) + "]");
  }
  case Opcode::ArrayIndex: {
    // A negative index counts from the end, as for a load.
    std::string index = name(op.operand(1), op);
    bool isUnsigned = !op.operand(1)->type().isSignedInteger();
    std::string dim = std::to_string(op.attrAs<int64_t>());
    std::string extent = name(op.operand(0), op) + ".shape[" + dim + "]";
    if (module_.boundsCheck())
      return assign(op, "kaji::checked_index(i64(" + index + "), " + extent + ", " +
                            module_.indexSite(op) + ", " + dim + ", " +
                            (isUnsigned ? "true" : "false") + ")");
    if (isUnsigned)
      return assign(op, "i64(" + index + ")");
    return assign(op, "(" + index + " < 0 ? " + index + " + " + extent + " : " + index + ")");
  }
  case Opcode::ArrayView:
    return emitArrayView(op);
  case Opcode::ArrayAt:
    return emitArrayAt(op);
  case Opcode::Field:
    return emitField(op);
  case Opcode::Load: {
    std::string value = "*" + element(op, 0, 1);
    return assign(op, op.resultType().isBool() ? "(" + value + " != 0)" : value);
  }
  case Opcode::Store: {
    std::string value = name(op.operand(0), op);
    if (op.operand(0)->type().isBool())
      value = "u8(" + value + ")";
    return statement(op, "*" + element(op, 1, 2) + " = " + value + ";");
  }
  case Opcode::Atomic:
  case Opcode::AtomicCAS:
    return assign(op, atomic(op));
  case Opcode::SharedArray:
  case Opcode::LocalArray:
  case Opcode::ConstArray:
    return emitStaticArray(op);
  case Opcode::DynamicSharedArray: {
    std::string size = std::to_string(op.resultType().elementSize());
    return assign(op, arrayTypeName(op.resultType()) + "{" + storage_.at(&op) +
                          ", {i64(kaji::dynamic_shared_bytes() / " + size + ")}, {" + size + "}}");
  }
  case Opcode::Print:
    return emitPrint(op);
  case Opcode::Call:
    return emitCall(op);
  case Opcode::ExternCall:
    return emitExternCall(op);
  case Opcode::Br:
  case Opcode::CondBr:
    return emitBranch(op);
  case Opcode::Return:
    return emitReturn(op);
  case Opcode::Raise:
    return emitRaise(op);
  }
  throw CompileError(op.location(), "the CUDA C++ backend cannot express '" +
                                        std::string(ir::opcodeName(op.opcode())) + "'");
}

// pow(x, e) for a constant e of 0, 1, 2 or -1: 1, x, x * x or 1 / x in `type`, the correctly
// rounded results, as on the LLVM path (MathLowering.cpp); nullopt for any other exponent.
static std::optional<std::string> exactPower(const ir::Value *exponent, const std::string &x,
                                             const std::string &type) {
  const ir::Operation *definition = exponent->definingOp();
  if (!definition || definition->opcode() != Opcode::Constant)
    return std::nullopt;
  double e;
  if (auto *value = std::get_if<double>(&definition->attr()))
    e = *value;
  else if (auto *integer = std::get_if<int64_t>(&definition->attr()))
    e = double(*integer);
  else
    return std::nullopt;
  if (e == 0)
    return type + "(1)";
  if (e == 1)
    return type + "(" + x + ")";
  if (e == 2)
    return "(" + type + "(" + x + ") * " + type + "(" + x + "))";
  if (e == -1)
    return "(" + type + "(1) / " + type + "(" + x + "))";
  return std::nullopt;
}

std::string FunctionEmitter::binary(const ir::Operation &op) {
  ir::Type type = op.resultType();
  if (!type.isScalar() || op.numOperands() != 2 || op.operand(0)->type() != type ||
      op.operand(1)->type() != type)
    throw CompileError(op.location(), "'" + std::string(ir::opcodeName(op.opcode())) +
                                          "' takes two scalars of its result type");
  std::string a = name(op.operand(0), op), b = name(op.operand(1), op);
  ScalarKind kind = type.scalarKind();
  bool isFloat = type.isFloat(), isHalf = ir::isHalfPrecision(kind);
  const std::string half = scalarTypeName(kind); // the prelude's f16 or bf16
  auto infix = [&](const char *symbol) {
    if (isHalf)
      return half + "(f32(" + a + ") " + symbol + " f32(" + b + "))";
    return a + " " + symbol + " " + b;
  };
  auto helper = [&](const char *function) {
    return "kaji::" + std::string(function) + "(" + a + ", " + b + ")";
  };
  auto requireInteger = [&] {
    if (isFloat)
      throw CompileError(op.location(), "'" + std::string(ir::opcodeName(op.opcode())) +
                                            "' is not defined on " + type.str());
  };
  switch (op.opcode()) {
  case Opcode::Add:
  case Opcode::Sub:
  case Opcode::Mul: {
    const char *symbol = op.opcode() == Opcode::Add ? "+" : op.opcode() == Opcode::Sub ? "-" : "*";
    if (isFloat || isWideUnsigned(kind))
      return infix(symbol);
    return helper(op.opcode() == Opcode::Add ? "add" : op.opcode() == Opcode::Sub ? "sub" : "mul");
  }
  case Opcode::Div:
    return isFloat ? infix("/") : helper("div");
  case Opcode::FloorDiv:
    return isFloat ? helper("float_floordiv") : helper("floordiv");
  case Opcode::Mod:
    return isFloat ? helper("float_mod") : helper("mod");
  case Opcode::Pow:
    if (!isFloat)
      return helper("pow");
    if (std::optional<std::string> exact =
            exactPower(op.operand(1), a, isHalf ? "f32" : typeName(op.resultType())))
      return isHalf ? half + "(" + *exact + ")" : *exact;
    if (isHalf)
      return half + "(powf(f32(" + a + "), f32(" + b + ")))";
    return (kind == ScalarKind::Float32 ? "powf(" : "pow(") + a + ", " + b + ")";
  case Opcode::Min:
  case Opcode::Max: {
    // Python's min(a, b) is `b < a ? b : a`, literally (which operand wins for NaN).
    const char *symbol = op.opcode() == Opcode::Min ? " < " : " > ";
    std::string test = isHalf ? "f32(" + b + ")" + symbol + "f32(" + a + ")" : b + symbol + a;
    if (kind == ScalarKind::Float32 || kind == ScalarKind::Float64)
      return "kaji::choose(" + test + ", " + b + ", " + a + ")";
    return test + " ? " + b + " : " + a;
  }
  case Opcode::And:
  case Opcode::Or:
  case Opcode::Xor: {
    requireInteger();
    const char *symbol = op.opcode() == Opcode::And  ? " & "
                         : op.opcode() == Opcode::Or ? " | "
                                                     : " ^ ";
    return scalarTypeName(kind) + "(" + a + symbol + b + ")";
  }
  case Opcode::Shl:
  case Opcode::Shr:
    requireInteger();
    if (type.isBool())
      throw CompileError(op.location(), "'" + std::string(ir::opcodeName(op.opcode())) +
                                            "' is not defined on bool");
    return helper(op.opcode() == Opcode::Shl ? "shl" : "shr");
  default:
    break;
  }
  throw CompileError(op.location(), "not a binary operation");
}

std::string FunctionEmitter::unary(const ir::Operation &op) {
  ir::Type type = op.resultType();
  if (!type.isScalar() || op.numOperands() != 1)
    throw CompileError(op.location(), "'" + std::string(ir::opcodeName(op.opcode())) +
                                          "' takes one scalar of its result type");
  std::string a = name(op.operand(0), op);
  ScalarKind kind = type.scalarKind();
  switch (op.opcode()) {
  case Opcode::Neg:
    if (ir::isHalfPrecision(kind))
      return scalarTypeName(kind) + "(-f32(" + a + "))";
    return type.isFloat() ? "-" + a : "kaji::neg(" + a + ")";
  case Opcode::Not:
    if (type.isFloat())
      throw CompileError(op.location(), "'not' is not defined on " + type.str());
    return type.isBool() ? "!" + a : scalarTypeName(kind) + "(~" + a + ")";
  case Opcode::Abs:
    if (ir::isHalfPrecision(kind))
      return scalarTypeName(kind) + "(fabsf(f32(" + a + ")))";
    if (type.isFloat())
      return (kind == ScalarKind::Float32 ? "fabsf(" : "fabs(") + a + ")";
    return ir::isSigned(kind) ? "kaji::abs(" + a + ")" : a;
  default:
    break;
  }
  throw CompileError(op.location(), "not a unary operation");
}

// C++'s comparisons are IEEE's: ordered, except != which is true for NaN, as kaji's.
std::string FunctionEmitter::compare(const ir::Operation &op) {
  if (op.numOperands() != 2 || !op.operand(0)->type().isScalar() ||
      op.operand(0)->type() != op.operand(1)->type())
    throw CompileError(op.location(), "'cmp' takes two scalars of one type");
  static const char *const kSymbols[] = {"==", "!=", "<", "<=", ">", ">="};
  std::string a = name(op.operand(0), op), b = name(op.operand(1), op);
  if (ir::isHalfPrecision(op.operand(0)->type().scalarKind())) {
    a = "f32(" + a + ")";
    b = "f32(" + b + ")";
  }
  return a + " " + kSymbols[int(op.attrAs<ir::CmpPredicate>())] + " " + b;
}

std::string FunctionEmitter::cast(const std::string &value, ScalarKind from, ScalarKind to) {
  if (from == to)
    return value;
  std::string target = scalarTypeName(to);
  if (to == ScalarKind::Bool) // NaN is truthy, as bool(nan) in Python
    return ir::isHalfPrecision(from) ? "f32(" + value + ") != 0.0f" : value + " != 0";
  if (ir::isHalfPrecision(from))
    return to == ScalarKind::Float32 ? "f32(" + value + ")"
                                     : cast("f32(" + value + ")", ScalarKind::Float32, to);
  // bfloat16 is reached through float32 from every other type, as ml_dtypes converts.
  if (to == ScalarKind::BFloat16)
    return "bf16(" + cast(value, from, ScalarKind::Float32) + ")";
  if (to == ScalarKind::Float16) {
    if (ir::isFloat(from))
      return "f16(" + value + ")";
    return from == ScalarKind::Bool ? "f16(f32(" + value + "))" : "kaji::int_to_f16(" + value + ")";
  }
  if (ir::isFloat(from) && !ir::isFloat(to))
    return "kaji::to_int<" + target + ">(" + value + ")";
  return target + "(" + value + ")";
}

// libdevice's __nv_NAME; a function that writes values through pointers is called in a
// lambda that returns the one value the op selects.
std::string FunctionEmitter::libdevice(const ir::Operation &op) {
  const std::string &attribute = op.attrAs<std::string>();
  ir::LibdeviceSelection selection = ir::parseLibdeviceSelection(attribute);
  if (!selection.function)
    throw CompileError(op.location(), "unknown libdevice function '" + attribute + "'");
  const ir::LibdeviceFunction &function = *selection.function;
  module_.declareLibdevice(function);
  std::vector<std::string> arguments;
  for (const ir::Value *operand : op.operands())
    arguments.push_back(name(operand, op));
  std::string callee = "__nv_" + std::string(function.name);
  if (function.outputs.empty())
    return callee + "(" + commaSeparated(arguments) + ")";
  std::string lambda = "[&] { ";
  for (size_t i = 0; i < function.outputs.size(); ++i) {
    std::string output = "output" + std::to_string(i);
    lambda += scalarTypeName(function.outputs[i]) + " " + output + "; ";
    arguments.push_back("&" + output);
  }
  std::string call = callee + "(" + commaSeparated(arguments) + ")";
  if (function.result && selection.value == 0)
    return lambda + "return " + call + "; }()";
  size_t output = selection.value - (function.result ? 1 : 0);
  return lambda + call + "; return output" + std::to_string(output) + "; }()";
}

std::string FunctionEmitter::math(const ir::Operation &op) {
  // Verified: one float type for every operand, the result of that type or a bool.
  const std::string &function = op.attrAs<std::string>();
  ScalarKind argumentKind = op.operand(0)->type().scalarKind();
  // float16 and bfloat16 compute in float32.
  ScalarKind computeKind = ir::isHalfPrecision(argumentKind) ? ScalarKind::Float32 : argumentKind;
  std::vector<std::string> args;
  for (const ir::Value *operand : op.operands())
    args.push_back(cast(name(operand, op), argumentKind, computeKind));
  std::string call = mathCall(function, computeKind == ScalarKind::Float32, args);
  bool predicate = ir::findMathFunction(function)->result == ir::MathResult::Bool;
  ScalarKind valueKind = predicate ? ScalarKind::Bool : computeKind;
  if (!predicate && ir::isHalfPrecision(argumentKind))
    return cast(scalarTypeName(argumentKind) + "(" + call + ")", argumentKind,
                op.resultType().scalarKind());
  return cast(call, valueKind, op.resultType().scalarKind());
}

std::string FunctionEmitter::warp(const ir::Operation &op) {
  // Verified: a collective of WarpCollectives.def with the operands of its form.
  const std::string &collective = op.attrAs<std::string>();
  auto operand = [&](unsigned i) { return name(op.operand(i), op); };
  switch (ir::findWarpCollective(collective)->form) {
  case ir::WarpForm::ActiveMask:
    return "__activemask()";
  case ir::WarpForm::Ballot:
    return "__ballot_sync(" + operand(0) + ", " + operand(1) + ")";
  case ir::WarpForm::Vote:
    return "i32(__" + (collective == "eq" ? std::string("uni") : collective) + "_sync(" +
           operand(0) + ", " + operand(1) + ") != 0)";
  case ir::WarpForm::Match:
    return "__match_any_sync(" + operand(0) + ", " + operand(1) + ")";
  case ir::WarpForm::Shuffle:
    break;
  }
  // shfl_idx is CUDA's __shfl_sync; shfl_up, _down and _xor keep their names.
  std::string variant = collective == "shfl_idx" ? "" : collective.substr(4);
  return "__shfl" + variant + "_sync(" + operand(0) + ", " + operand(1) + ", " + operand(2) + ")";
}

std::string FunctionEmitter::atomic(const ir::Operation &op) {
  // Verified: an operation of AtomicOperations.def on elements it takes.
  if (op.opcode() == Opcode::AtomicCAS)
    return "kaji::atomic_cas(" + element(op, 0, 3) + ", " + name(op.operand(1), op) + ", " +
           name(op.operand(2), op) + ")";
  return "kaji::atomic_" + op.attrAs<std::string>() + "(" + element(op, 0, 2) + ", " +
         name(op.operand(1), op) + ")";
}

// The index the kernel wrote where `index` is the frontend's wraparound of it into dimension
// `dim` of `array` (`i < 0 ? i + extent : i`, or `c + extent` for a negative constant `c`),
// else `index`. A bounds check takes the written one, as the LLVM lowering's does
// (FunctionLowering::checkedIndex): the report names it, and an index below -extent is not
// wrapped twice into range.
static const ir::Value *writtenIndex(const ir::Value *index, const ir::Value *array, unsigned dim) {
  auto isExtent = [&](const ir::Value *value) {
    const ir::Operation *definition = value->definingOp();
    return definition && definition->opcode() == Opcode::ArrayDim &&
           definition->operand(0) == array && definition->attrAs<int64_t>() == int64_t(dim);
  };
  // What `value` adds to the extent, if it is such a sum.
  auto addedToExtent = [&](const ir::Value *value) -> const ir::Value * {
    const ir::Operation *sum = value->definingOp();
    if (!sum || sum->opcode() != Opcode::Add)
      return nullptr;
    return isExtent(sum->operand(1))   ? sum->operand(0)
           : isExtent(sum->operand(0)) ? sum->operand(1)
                                       : nullptr;
  };
  const ir::Operation *definition = index->definingOp();
  if (!definition)
    return index;
  if (const ir::Value *addend = addedToExtent(index)) {
    std::optional<int64_t> constant = ir::intConstant(addend);
    return constant && *constant < 0 ? addend : index;
  }
  if (definition->opcode() != Opcode::Select)
    return index;
  const ir::Value *source = definition->operand(2);
  const ir::Operation *negative = definition->operand(0)->definingOp();
  bool wraps = negative && negative->opcode() == Opcode::Cmp &&
               negative->attrAs<ir::CmpPredicate>() == ir::CmpPredicate::Lt &&
               negative->operand(0) == source && ir::intConstant(negative->operand(1)) == 0 &&
               addedToExtent(definition->operand(1)) == source;
  return wraps ? source : index;
}

std::string FunctionEmitter::element(const ir::Operation &op, unsigned arrayOperand,
                                     unsigned firstIndex) {
  if (op.numOperands() <= arrayOperand || !op.operand(arrayOperand)->type().isArray())
    throw CompileError(op.location(),
                       "'" + std::string(ir::opcodeName(op.opcode())) + "' needs an array operand");
  ir::Type type = op.operand(arrayOperand)->type();
  if (op.numOperands() - firstIndex != type.ndim())
    throw CompileError(op.location(), "a " + type.str() + " takes " + std::to_string(type.ndim()) +
                                          " index(es), got " +
                                          std::to_string(op.numOperands() - firstIndex));
  if (type.ndim() == 0)
    return name(op.operand(arrayOperand), op) + ".data";
  const ir::Value *array = op.operand(arrayOperand);
  bool checked = module_.boundsCheck();
  std::string address =
      checked ? "kaji::checked_element(" + name(array, op) + ", " + module_.indexSite(op)
              : "kaji::element(" + name(array, op);
  for (unsigned i = firstIndex; i < op.numOperands(); ++i) {
    const ir::Value *index = op.operand(i);
    if (!index->type().isInteger())
      throw CompileError(op.location(), "array index has type " + index->type().str());
    address += ", " + name(checked ? writtenIndex(index, array, i - firstIndex) : index, op);
  }
  return address + ")";
}

// The count of storage elements of a shared_array, local_array or const_array, checked: its
// elements, or the bytes of its records.
uint64_t staticArrayCount(const ir::Operation &op) {
  bool shared = op.opcode() == Opcode::SharedArray, constant = op.opcode() == Opcode::ConstArray;
  const char *what = shared ? "shared array" : constant ? "constant array" : "local array";
  ir::Type type = op.resultType();
  const auto &shape =
      constant ? op.attrAs<ir::ConstantData>().shape : op.attrAs<ir::ArrayAllocation>().shape;
  if (!type.isArray() || shape.size() != type.ndim())
    throw CompileError(op.location(),
                       std::string(what) + " shape does not match its type " + type.str());
  uint64_t elementSize = type.elementSize(), count = 1;
  constexpr uint64_t kMaxBytes = uint64_t(1) << 32;
  for (int64_t extent : shape) {
    if (extent <= 0)
      throw CompileError(op.location(), std::string(what) + " extent must be positive, got " +
                                            std::to_string(extent));
    if (uint64_t(extent) > kMaxBytes / elementSize / count)
      throw CompileError(op.location(), std::string(what) + " is too large");
    count *= uint64_t(extent);
  }
  return type.isRecordArray() ? count * elementSize : count;
}

void FunctionEmitter::emitStaticArray(const ir::Operation &op) {
  bool constant = op.opcode() == Opcode::ConstArray;
  staticArrayCount(op);
  ir::Type type = op.resultType();
  const auto &shape =
      constant ? op.attrAs<ir::ConstantData>().shape : op.attrAs<ir::ArrayAllocation>().shape;
  std::string data = constant ? module_.constantArray(op) : storage_.at(&op);
  std::vector<std::string> extents, strides(shape.size());
  uint64_t stride = type.elementSize();
  for (size_t d = shape.size(); d-- > 0;) {
    strides[d] = std::to_string(stride);
    stride *= uint64_t(shape[d]);
  }
  for (int64_t extent : shape)
    extents.push_back(std::to_string(extent));
  assign(op, arrayTypeName(type) + "{" + data + ", {" + commaSeparated(extents) + "}, {" +
                 commaSeparated(strides) + "}}");
}

void FunctionEmitter::emitArrayView(const ir::Operation &op) {
  // The offset is in bytes; a view as another dtype reads the same bytes.
  assignArray(op, "(char *)" + name(op.operand(0), op) + ".data + " + name(op.operand(1), op), 2);
}

void FunctionEmitter::emitArrayAt(const ir::Operation &op) {
  assignArray(op, "(char *)" + name(op.operand(0), op), 1);
}

void FunctionEmitter::assignArray(const ir::Operation &op, const std::string &start,
                                  unsigned firstExtent) {
  ir::Type type = op.resultType();
  std::vector<std::string> extents, strides;
  for (unsigned d = 0; d < type.ndim(); ++d) {
    extents.push_back(name(op.operand(firstExtent + d), op));
    strides.push_back(name(op.operand(firstExtent + type.ndim() + d), op));
  }
  assignView(op, start, std::move(extents), std::move(strides));
}

void FunctionEmitter::assignView(const ir::Operation &op, const std::string &start,
                                 std::vector<std::string> extents,
                                 std::vector<std::string> strides) {
  ir::Type type = op.resultType();
  if (type.ndim() == 0)
    extents = strides = {"0"};
  std::string data = "(" + elementTypeName(type) + " *)(" + start + ")";
  assign(op, arrayTypeName(type) + "{" + data + ", {" + commaSeparated(extents) + "}, {" +
                 commaSeparated(strides) + "}}");
}

// A field of records (arrays of records are arrays of bytes here): the records' extents and
// strides, then the field's own, from the field's first byte on.
void FunctionEmitter::emitField(const ir::Operation &op) {
  ir::Type records = op.operand(0)->type();
  const ir::RecordField &f = *records.record()->field(op.attrAs<std::string>());
  std::string source = name(op.operand(0), op);
  std::vector<std::string> extents, strides;
  for (unsigned d = 0; d < records.ndim(); ++d) {
    extents.push_back(source + ".shape[" + std::to_string(d) + "]");
    strides.push_back(source + ".strides[" + std::to_string(d) + "]");
  }
  for (int64_t extent : f.shape)
    extents.push_back(std::to_string(extent));
  for (int64_t stride : f.strides())
    strides.push_back(std::to_string(stride));
  assignView(op, "(char *)" + source + ".data + " + std::to_string(f.offset), std::move(extents),
             std::move(strides));
}

// printf with Numba's conversions (ir/PrintfFormat.h): integers as %lld / %llu, floats as
// %f, bools as True / False, and NUL bytes as %c of 0.
void FunctionEmitter::emitPrint(const ir::Operation &op) {
  ir::PrintfFormat printf = ir::printfFormat(op);
  std::string args;
  for (const ir::PrintfArgument &argument : printf.arguments) {
    using Kind = ir::PrintfArgument::Kind;
    if (argument.kind == Kind::Nul) {
      args += ", 0"; // %c takes an int
      continue;
    }
    const ir::Value *operand = op.operand(argument.operand);
    ScalarKind kind = operand->type().scalarKind();
    std::string value = name(operand, op);
    if (argument.kind == Kind::Bool)
      args += ", " + value + " ? \"True\" : \"False\"";
    else
      args += ", " + cast(value, kind,
                          argument.kind == Kind::Float    ? ScalarKind::Float64
                          : argument.kind == Kind::Signed ? ScalarKind::Int64
                                                          : ScalarKind::UInt64);
  }
  statement(op, "printf(" + quoted(printf.format) + args + ");");
}

void FunctionEmitter::emitCall(const ir::Operation &op) {
  const std::string &callee = op.attrAs<std::string>();
  const ir::Function *function = module_.module().lookup(callee);
  if (!function)
    throw CompileError(op.location(), "call to unknown function '" + callee + "'");
  if (function->isKernel())
    throw CompileError(op.location(), "kernel '" + callee + "' cannot be called from device code");
  std::vector<ir::Type> params = function->paramTypes();
  if (params.size() != op.numOperands())
    throw CompileError(op.location(), "'" + callee + "' takes " + std::to_string(params.size()) +
                                          " argument(s), got " + std::to_string(op.numOperands()));
  std::vector<std::string> args;
  for (unsigned i = 0; i < op.numOperands(); ++i) {
    ir::Type argType = op.operand(i)->type(), paramType = params[i];
    // An array argument of another layout passes its real strides, as on the LLVM path.
    bool compatible = argType.isArray()
                          ? paramType.isArray() && argType.scalarKind() == paramType.scalarKind() &&
                                argType.ndim() == paramType.ndim() &&
                                argType.memorySpace() == paramType.memorySpace()
                          : argType == paramType;
    if (!compatible)
      throw CompileError(op.location(), "argument " + std::to_string(i + 1) + " of '" + callee +
                                            "' has type " + argType.str() + ", expected " +
                                            paramType.str());
    args.push_back(name(op.operand(i), op));
  }
  std::string call = cudaName(*function) + "(" + commaSeparated(args) + ")";
  if (!op.result())
    return statement(op, call + ";");
  if (op.resultType() != function->returnType())
    throw CompileError(op.location(), "call of '" + callee + "' expects a result of type " +
                                          op.resultType().str() + ", but it returns " +
                                          function->returnType().str());
  assign(op, call);
}

// Numba's ABI: the result through a pointer, the returned status ignored (docs/codegen.md).
void FunctionEmitter::emitExternCall(const ir::Operation &op) {
  module_.declareExtern(op);
  std::vector<std::string> args{"&" + name(op.result(), op)};
  for (const ir::Value *operand : op.operands())
    args.push_back(name(operand, op));
  statement(op, op.attrAs<std::string>() + "(" + commaSeparated(args) + ");");
}

// The assignments of a branch's arguments to its target's block arguments, then the goto.
// Where an argument reads one of the target's own arguments (a loop passing `x, y = y, x`),
// the values go through temporaries first, so no assignment reads one already overwritten.
std::string FunctionEmitter::jump(const ir::Successor &successor, const ir::Operation &op) {
  const ir::Block &target = *successor.block;
  if (successor.args.size() != target.arguments().size())
    throw CompileError(op.location(), "branch passes " + std::to_string(successor.args.size()) +
                                          " argument(s) to a block that takes " +
                                          std::to_string(target.arguments().size()));
  bool readsTarget = false;
  for (size_t i = 0; i < successor.args.size(); ++i) {
    if (successor.args[i]->type() != target.argument(unsigned(i))->type())
      throw CompileError(op.location(), "branch passes a " + successor.args[i]->type().str() +
                                            " to a block argument of type " +
                                            target.argument(unsigned(i))->type().str());
    readsTarget |= successor.args[i]->ownerBlock() == &target && successor.args.size() > 1;
  }
  std::string text;
  for (size_t i = 0; i < successor.args.size(); ++i) {
    std::string value = name(successor.args[i], op);
    if (readsTarget) {
      text += "const " + typeName(successor.args[i]->type()) + " kaji_t" + std::to_string(i) +
              " = " + value + "; ";
    } else if (value != name(target.argument(unsigned(i)), op)) {
      text += name(target.argument(unsigned(i)), op) + " = " + value + "; ";
    }
  }
  if (readsTarget)
    for (size_t i = 0; i < successor.args.size(); ++i)
      text += name(target.argument(unsigned(i)), op) + " = kaji_t" + std::to_string(i) + "; ";
  text += "goto " + labels_.at(&target) + ";";
  return readsTarget ? "{ " + text + " }" : text; // the temporaries' scope ends here
}

void FunctionEmitter::emitBranch(const ir::Operation &op) {
  const auto &successors = op.successors();
  if (op.opcode() == Opcode::Br) {
    if (successors.size() != 1)
      throw CompileError(op.location(), "'br' needs one successor");
    return statement(op, jump(successors[0], op));
  }
  if (successors.size() != 2 || op.numOperands() != 1 || !op.operand(0)->type().isBool())
    throw CompileError(op.location(), "'cond_br' needs a bool condition and two successors");
  statement(op, "if (" + name(op.operand(0), op) + ") { " + jump(successors[0], op) + " } else { " +
                    jump(successors[1], op) + " }");
}

// As the LLVM backend (NVPTXTarget::emitRaise): the first raise's number in the slot, then
// the thread exits.
void FunctionEmitter::emitRaise(const ir::Operation &op) {
  if (std::holds_alternative<std::string>(op.attr()))
    statement(op, "atomicCAS(&" + module_.exceptionSlot(op.location()) + ", 0u, " +
                      std::to_string(module_.exceptionNumber(op)) + "u);");
  statement(op, "asm volatile(\"exit;\" ::: \"memory\");");
}

void FunctionEmitter::emitReturn(const ir::Operation &op) {
  ir::Type returnType = function_.returnType();
  if (op.numOperands() == 0) {
    if (!returnType.isVoid())
      throw CompileError(op.location(),
                         "function '" + function_.name() + "' must return a " + returnType.str());
    return statement(op, "return;");
  }
  if (op.operand(0)->type() != returnType)
    throw CompileError(op.location(), "function '" + function_.name() + "' returns " +
                                          returnType.str() + ", not " +
                                          op.operand(0)->type().str());
  statement(op, "return " + name(op.operand(0), op) + ";");
}

} // namespace

std::string cudaName(const ir::Function &function) {
  if (isUsableIdentifier(function.name()))
    return function.name();
  std::string name = "kaji_";
  for (char c : function.name())
    name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

std::string emitCUDA(const ir::Module &module, bool boundsCheck) {
  return ModuleEmitter(module, boundsCheck).run();
}

} // namespace kaji::codegen::nvrtc
