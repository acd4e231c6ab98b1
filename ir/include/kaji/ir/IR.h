// kaji IR: typed SSA over a control-flow graph whose blocks take arguments
// (no phi nodes). See docs/ir.md for the reference and the reasons.
#pragma once

#include "kaji/ir/Location.h"
#include "kaji/ir/Type.h"

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
  Constant, // attr int64_t (ints, bool) or double (floats)
  // Binary arithmetic: both operands and the result have one scalar type.
  Add,
  Sub,
  Mul,
  Div,      // floats: IEEE; ints: truncating, x/0 == 0
  FloorDiv, // Python //: floor for ints and floats, x//0 == 0 for ints
  Mod,      // Python %: result has the divisor's sign, x%0 == 0 for ints
  Pow,      // floats: pow; ints: repeated multiplication, negative exponent gives 0 (|base|!=1)
  Min,      // Python min(a, b): b < a ? b : a
  Max,      // Python max(a, b): b > a ? b : a
  And,      // bitwise; logical on bool
  Or,
  Xor,
  Shl, // Python semantics: shift >= width gives 0
  Shr, // arithmetic on signed, logical on unsigned; shift >= width saturates
  // Unary
  Neg,
  Not, // bitwise invert; logical not on bool
  Abs,
  Cmp,         // attr CmpPredicate; result bool; float compares are ordered except ne
  Select,      // (bool cond, a, b)
  Cast,        // scalar conversion to the result type (float->int truncates toward zero)
  Bitcast,     // the operand's bits as the result type, a scalar of the same width (not bool)
  Complex,     // (re, im) of a complex type's float kind -> that complex number
  Real,        // complex -> its real part
  Imag,        // complex -> its imaginary part
  MakeVector,  // (lane x n) -> vec<T, n>: a CUDA vector value from its lanes x, y, z, w
  ExtractLane, // (vec<T, n>) attr int64_t lane -> T
  Math,        // attr string: libm name ("sqrt", "atan2", "isnan", ...); see docs/ir.md
  Bits,      // attr string: "popc", "brev", "clz" or "ffs" of an integer; result the operand's type
  Libdevice, // attr string: a libdevice function, ".N" selecting value N (Libdevice.h)
  // GPU model
  SpecialReg,    // attr SpecialReg; result i32
  Barrier,       // block-wide barrier (syncthreads)
  Fence,         // attr string scope: "block", "device" or "system" (threadfence_*)
  BarrierReduce, // attr string "count", "and" or "or"; (bool) -> i32 (syncthreads_count/...)
  WarpSync,      // (u32 mask): the warp's lanes in mask meet (syncwarp)
  Warp,          // attr string collective; (u32 mask, value[, u32 operand]); see docs/ir.md
  GridSync,      // grid-wide barrier (cuda.cg grid group sync); the kernel launches cooperatively
  // Arrays (strides are in bytes; indices are i64)
  ArrayDim,           // (array) attr int64_t dim; result i64
  ArrayStride,        // (array) attr int64_t dim; result i64
  ArrayIndex,         // (array, i64 or u64 index) attr int64_t dim; the index checked and
                      // wrapped as a load's index into dimension dim; result i64
  ArrayView,          // (array, i64 byte offset, i64 extent x m, i64 stride x m): an m-d array
                      // over the same memory starting at the offset (slices, a[i], .T, reshape,
                      // view)
  ArrayAt,            // (i64 address, i64 extent x m, i64 stride x m): an m-d array in global
                      // memory at a fixed address (a device array a kernel captured as a global)
  Field,              // (array of records) attr string field name: the field of every element
                      // as an array over the same memory (RecordType.h fieldViewType)
  Load,               // (array, idx...) -> element
  Store,              // (value, array, idx...)
  Atomic,             // attr string kind (add sub max min exch and or xor inc dec);
                      // (array, value, idx...) -> old element
  AtomicCAS,          // (array, expected, desired, idx...) -> old element
  SharedArray,        // attr ArrayAllocation; result array<T, n, C, shared>
  LocalArray,         // attr ArrayAllocation; result array<T, n, C, local>, per thread
  DynamicSharedArray, // attr int64_t alignment (0: natural); result array<T, 1, C, shared>
                      // over the launch's dynamic shared memory, which every one aliases
  ConstArray,         // attr ConstantData; result array<T, n, C, const> (const.array_like)
  Print,              // attr string template, "{}" per operand ("{{" and "}}" are braces); scalars
  Call,               // attr string callee; operands are the arguments
  ExternCall,         // attr string symbol: a CUDA C++ device function linked in
                      // (cuda.declare_device), by Numba's ABI; operands scalars, result a scalar
  // Terminators
  Br,     // successor 0
  CondBr, // (bool cond); successors 0 (true) and 1 (false)
  Return, // optional value
  Raise,  // attr string "Class" or "Class: message" (Python's exception and its constant
          // message), reported to the launch; no attr: the thread just exits
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
                          ArrayAllocation, ConstantData>;

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

  Function(std::string name, Kind kind, std::vector<Type> paramTypes, Type returnType,
           Location loc);

  const std::string &name() const { return name_; }
  Kind kind() const { return kind_; }
  bool isKernel() const { return kind_ == Kind::Kernel; }
  Inlining inlining() const { return inlining_; }
  void setInlining(Inlining inlining) { inlining_ = inlining; }
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

private:
  std::vector<std::unique_ptr<Function>> functions_;
};

} // namespace kaji::ir
