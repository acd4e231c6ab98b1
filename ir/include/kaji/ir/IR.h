// kaji IR: typed SSA over a control-flow graph whose blocks take arguments
// (no phi nodes). See docs/ir.md for the reference and the reasons.
#pragma once

#include "kaji/ir/AtomicOperations.h"
#include "kaji/ir/Location.h"
#include "kaji/ir/MathFunctions.h"
#include "kaji/ir/MatrixFragments.h"
#include "kaji/ir/OperationAttributes.h"
#include "kaji/ir/Type.h"
#include "kaji/ir/WarpCollectives.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace kaji::ir {

class Block;
class Function;
class Operation;

enum class Opcode : uint8_t {
#define KAJI_OPCODE(name, spelling) name,
#include "kaji/ir/Opcodes.def"
};

enum class CmpPredicate : uint8_t { Eq, Ne, Lt, Le, Gt, Ge };

struct SpecialReg {
  enum Kind : uint8_t { ThreadIdx, BlockIdx, BlockDim, GridDim } kind;
  uint8_t dim; // 0 = x, 1 = y, 2 = z
  friend bool operator==(const SpecialReg &, const SpecialReg &) = default;
};

// A constant array's contents: its extents and its elements' bytes in C order.
struct ConstantData {
  std::vector<int64_t> shape;
  std::string bytes;
  friend bool operator==(const ConstantData &, const ConstantData &) = default;
};

// A shared or local array's extents and the alignment of its start in bytes (0: natural,
// which is the element size and at least 16). Converts from a bare shape.
struct ArrayAllocation {
  ArrayAllocation(std::vector<int64_t> shape, int64_t alignment = 0)
      : shape(std::move(shape)), alignment(alignment) {}
  std::vector<int64_t> shape;
  int64_t alignment;
  friend bool operator==(const ArrayAllocation &, const ArrayAllocation &) = default;
};

// The largest alignment= a shared or local array may ask for.
constexpr int64_t kMaxArrayAlignment = 1024;

using Attr = std::variant<std::monostate, int64_t, double, std::string, CmpPredicate, SpecialReg,
                          ArrayAllocation, ConstantData, MathFunctionKind, AtomicOperationKind,
                          WarpCollectiveKind, BitFunction, BarrierReduction, FenceScope,
                          CacheOperator, MatrixLayout>;

// IR spelling of an opcode ("add", "floordiv", "cond_br", ...) and back.
std::string_view opcodeName(Opcode op);
bool opcodeFromName(std::string_view name, Opcode &out);
std::string_view predicateName(CmpPredicate p);
bool isTerminator(Opcode op);
// True if removing an unused instance could change behaviour.
bool hasSideEffects(Opcode op);

class Value {
public:
  Type type() const { return type_; }
  // The operation that produced this value, or null for a block argument.
  Operation *definingOp() const { return def_; }
  // For a block argument: its block and position.
  Block *ownerBlock() const { return block_; }
  unsigned argIndex() const { return index_; }
  bool isBlockArgument() const { return block_ != nullptr; }

private:
  friend class Operation;
  friend class Block;
  Type type_;
  Operation *def_ = nullptr;
  Block *block_ = nullptr;
  unsigned index_ = 0;
};

struct Successor {
  Block *block = nullptr;
  std::vector<Value *> args;
};

class Operation {
public:
  Operation(Opcode op, Type resultType, std::vector<Value *> operands, Attr attr, Location loc);

  Opcode opcode() const { return opcode_; }
  const Location &location() const { return loc_; }
  // Null for operations without a result (store, barrier, terminators, void calls).
  Value *result() const { return result_.get(); }
  Type resultType() const { return result_ ? result_->type() : Type(); }

  std::vector<Value *> &operands() { return operands_; }
  const std::vector<Value *> &operands() const { return operands_; }
  Value *operand(unsigned i) const { return operands_[i]; }
  unsigned numOperands() const { return unsigned(operands_.size()); }

  Attr &attr() { return attr_; }
  const Attr &attr() const { return attr_; }
  template <class T> const T &attrAs() const { return std::get<T>(attr_); }

  std::vector<Successor> &successors() { return successors_; }
  const std::vector<Successor> &successors() const { return successors_; }

  Block *parent() const { return parent_; }
  bool isTerminator() const { return ir::isTerminator(opcode_); }

private:
  friend class Block;
  Opcode opcode_;
  Location loc_;
  std::vector<Value *> operands_;
  std::unique_ptr<Value> result_;
  Attr attr_;
  std::vector<Successor> successors_;
  Block *parent_ = nullptr;
};

class Block {
public:
  explicit Block(Function *parent) : parent_(parent) {}

  Function *parent() const { return parent_; }
  Value *addArgument(Type t);
  std::vector<std::unique_ptr<Value>> &arguments() { return args_; }
  const std::vector<std::unique_ptr<Value>> &arguments() const { return args_; }
  Value *argument(unsigned i) const { return args_[i].get(); }
  void eraseArgument(unsigned i); // caller must have removed its uses and the incoming args

  std::vector<std::unique_ptr<Operation>> &operations() { return ops_; }
  const std::vector<std::unique_ptr<Operation>> &operations() const { return ops_; }
  // Operations sit in a vector: inserting or taking anywhere but at the end moves the ones
  // after it, so a pass that removes many compacts the vector once (std::erase_if) instead.
  Operation *append(std::unique_ptr<Operation> op);
  Operation *insert(size_t position, std::unique_ptr<Operation> op);
  // Detaches the operation at `position`; uses of its result are left to the caller.
  std::unique_ptr<Operation> take(size_t position);
  // Puts `op` at `position` and detaches the operation that was there.
  std::unique_ptr<Operation> replace(size_t position, std::unique_ptr<Operation> op);
  // Moves every operation of `other` to the end of this block.
  void appendOperationsOf(Block &other);
  // The last operation if it is a terminator, else null.
  Operation *terminator() const;

private:
  Function *parent_;
  std::vector<std::unique_ptr<Value>> args_;
  std::vector<std::unique_ptr<Operation>> ops_;
};

class Function {
public:
  enum class Kind : uint8_t { Kernel, Device };
  // What calls of a device function become (the decorator's inline=/forceinline=): the
  // optimizer's choice, always inlined (LLVM alwaysinline), or never (noinline).
  enum class Inlining : uint8_t { Default, Always, Never };
  // A device function compiled on its own (cuda.compile(device=True)) is exported: its
  // definition stays, under its name, for code linked with it to call, by the C calling
  // convention (the result returned) or Numba's (a status returned and the result stored
  // through a pointer that comes before the parameters).
  enum class Export : uint8_t { None, CAbi, NumbaAbi };

  Function(std::string name, Kind kind, std::vector<Type> paramTypes, Type returnType,
           Location loc);

  const std::string &name() const { return name_; }
  Kind kind() const { return kind_; }
  bool isKernel() const { return kind_ == Kind::Kernel; }
  Inlining inlining() const { return inlining_; }
  void setInlining(Inlining inlining) { inlining_ = inlining; }
  Export exported() const { return export_; }
  void setExported(Export abi) { export_ = abi; }
  Type returnType() const { return returnType_; }
  const Location &location() const { return loc_; }
  // Parameter names from the source, for the printer and for diagnostics; may be empty.
  std::vector<std::string> &paramNames() { return paramNames_; }
  const std::vector<std::string> &paramNames() const { return paramNames_; }

  // The entry block is blocks()[0]; its arguments are the parameters.
  Block *entry() const { return blocks_.front().get(); }
  Block *addBlock();
  std::vector<std::unique_ptr<Block>> &blocks() { return blocks_; }
  const std::vector<std::unique_ptr<Block>> &blocks() const { return blocks_; }
  std::vector<Type> paramTypes() const;

private:
  std::string name_;
  Kind kind_;
  Inlining inlining_ = Inlining::Default;
  Export export_ = Export::None;
  Type returnType_;
  Location loc_;
  std::vector<std::string> paramNames_;
  std::vector<std::unique_ptr<Block>> blocks_;
};

class Module {
public:
  Function *addFunction(std::unique_ptr<Function> f);
  Function *lookup(std::string_view name) const;
  std::vector<std::unique_ptr<Function>> &functions() { return functions_; }
  const std::vector<std::unique_ptr<Function>> &functions() const { return functions_; }

  // The files of external code (`extern_call`'s CUDA C++ functions) the module must be linked
  // with, each once, in the order first added.
  void addLinkFile(const std::string &file);
  const std::vector<std::string> &linkFiles() const { return linkFiles_; }
  // The external functions (`extern_call`'s symbols) that synchronize the grid: a kernel
  // calling one is launched cooperatively, as one reaching `grid_sync` is.
  void addCooperativeSymbol(const std::string &symbol);
  const std::vector<std::string> &cooperativeSymbols() const { return cooperativeSymbols_; }

private:
  std::vector<std::unique_ptr<Function>> functions_;
  std::vector<std::string> linkFiles_;
  std::vector<std::string> cooperativeSymbols_;
};

} // namespace kaji::ir
