// The pieces of the kaji IR → LLVM IR lowering (LLVMLowering.h), shared by its files:
// LLVMLowering.cpp (the module and function drivers and the dispatch on each operation),
// LLVMTypes.cpp, LLVMScalarOps.cpp, LLVMMemory.cpp, LLVMCalls.cpp and LLVMControlFlow.cpp,
// the same seams as the CUDA C++ backend's Cuda*.cpp.
#pragma once

#include "LineTable.h"
#include "kaji/codegen/llvm/LLVMLowering.h"
#include "kaji/ir/Dominance.h"
#include "kaji/ir/ExceptionTable.h"
#include "kaji/ir/MatrixFragments.h"
#include "kaji/ir/PrintfFormat.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/IR/IRBuilder.h>

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace kaji::codegen::lowering {

using ir::CompileError;
using ir::Opcode;
using ir::ScalarKind;

// Registers hold bool as i1; memory and kernel parameters hold it as one byte.
llvm::Type *registerType(llvm::LLVMContext &context, ScalarKind kind);

// What an SSA value of `type` is in LLVM: a scalar's register type; a vector is a struct of its
// lanes, as Numba's model of CUDA's vector types (nothing stores one in memory, and kernels take
// none, so no ABI needs its CUDA alignment).
llvm::Type *valueType(llvm::LLVMContext &context, ir::Type type);

llvm::Type *memoryType(llvm::LLVMContext &context, ScalarKind kind);

// An array's element in memory: a scalar as memoryType has it, a vector as the struct of its
// lanes (valueType).
llvm::Type *elementMemoryType(llvm::LLVMContext &context, ir::Type array);

// A vector element is aligned as CUDA aligns its vector type, so its loads and stores become
// one ld.v4 or st.v2. Vectors are only in local and shared arrays, allocated at least
// 16-byte aligned, and views of them start at whole elements.
llvm::Align elementAlignment(ir::Type array);

// An array value: its data pointer and, per dimension, its extent and byte stride.
struct ArrayValue {
  llvm::Value *data = nullptr;
  std::vector<llvm::Value *> shape;
  std::vector<llvm::Value *> strides;

  // data, shape..., strides...: the order of the parameter ABI.
  std::vector<llvm::Value *> parts() const {
    std::vector<llvm::Value *> all{data};
    all.insert(all.end(), shape.begin(), shape.end());
    all.insert(all.end(), strides.begin(), strides.end());
    return all;
  }
  static ArrayValue fromParts(const std::vector<llvm::Value *> &parts, unsigned ndim) {
    ArrayValue array;
    array.data = parts[0];
    array.shape.assign(parts.begin() + 1, parts.begin() + 1 + ndim);
    array.strides.assign(parts.begin() + 1 + ndim, parts.end());
    return array;
  }
};

// A contiguous layout fixes one stride to the element size; using the constant lets LLVM
// see unit-stride accesses without loading a stride.
ArrayValue applyLayout(ArrayValue array, ir::Type type, llvm::LLVMContext &context);

// A shared or local array's alignment: what it asked for (0: nothing), at least its
// element's, and 16 bytes by default so vector loads of it line up.
uint64_t arrayAlignment(uint64_t requested, const ir::Type &array);

class ModuleLowering;

class FunctionLowering {
public:
  FunctionLowering(ModuleLowering &moduleLowering, const ir::Function &function,
                   llvm::Function &out);
  void run();

private:
  void bindParameters();
  llvm::Attribute extentRange() const;
  void createBlockArguments(const ir::Block &block);
  void lowerOperation(const ir::Operation &op);
  llvm::Value *lowerBinary(const ir::Operation &op);
  llvm::Value *lowerUnary(const ir::Operation &op);
  llvm::Value *lowerCmp(const ir::Operation &op);
  llvm::Value *lowerMath(const ir::Operation &op);
  llvm::Value *lowerConstant(const ir::Operation &op);
  void lowerSelect(const ir::Operation &op);
  llvm::Value *makeComplex(llvm::Value *real, llvm::Value *imag, ScalarKind kind);
  void lowerCall(const ir::Operation &op);
  void lowerExternCall(const ir::Operation &op);
  // A shared_array, local_array or const_array: fixed-shape C-layout storage.
  void lowerStaticArray(const ir::Operation &op);
  // A dynamic_shared_array: the launch's dynamic shared memory as a 1-D array whose extent
  // is its size in elements.
  void lowerDynamicSharedArray(const ir::Operation &op);
  // The matrix fragment operations (LLVMFragments.cpp); the result of those that have one.
  llvm::Value *lowerFragment(const ir::Operation &op);
  llvm::Value *lowerAtomic(const ir::Operation &op);
  llvm::Value *lowerFloatMaxMin(llvm::Value *address, llvm::Value *value, bool max);
  llvm::Value *lowerArrayIndex(const ir::Operation &op);
  // `index` into `extent` elements along `axis`, Python's negative one counting from the end
  // (an unsigned one never), checked under bounds checks as lowerArrayIndex checks an
  // array_index: out of range reports an IndexError and goes on with 0, or ends the thread.
  llvm::Value *wrappedIndex(const ir::Operation &op, llvm::Value *index, bool isUnsigned,
                            llvm::Value *extent, unsigned axis);
  void lowerArrayView(const ir::Operation &op);
  void lowerArrayAt(const ir::Operation &op);
  void lowerField(const ir::Operation &op);
  void lowerPrint(const ir::Operation &op);
  void lowerPrintf(const ir::Operation &op, const ir::PrintfFormat &printf);
  void lowerReturn(const ir::Operation &op);
  void lowerRaise(const ir::Operation &op);
  void lowerBranch(const ir::Operation &op);
  std::vector<std::vector<llvm::Value *>> successorArguments(const ir::Successor &successor,
                                                             const ir::Operation &op) const;
  void addIncoming(const ir::Block &target,
                   const std::vector<std::vector<llvm::Value *>> &arguments,
                   const ir::Operation &op);
  llvm::Value *elementAddress(const ir::Operation &op, unsigned arrayOperand, unsigned firstIndex);
  // The address of the first of `count` elements along the last axis of the array operand
  // `arrayOperand` from its first element (an async_copy's span); under bounds checks, each
  // axis checked as elementAddress checks an index, scratch memory where one fails.
  llvm::Value *spanAddress(const ir::Operation &op, unsigned arrayOperand, int64_t count);
  // Raises the ValueError of `op`'s misalignment entry (ir/ExceptionTable.h) where an address
  // of `addresses` is not a multiple of `alignment`: what the GPU would fault on (cp.async).
  void raiseIfMisaligned(const ir::Operation &op, std::initializer_list<llvm::Value *> addresses,
                         int64_t alignment);
  // Raises that ValueError where the i1 `misaligned` holds.
  void raiseMisalignedIf(const ir::Operation &op, llvm::Value *misaligned);
  // The first element of the rows x columns matrix a warpgroup_mma reads from its array operand
  // `arrayOperand`. Under bounds checks an IndexError where the view is smaller, and the op's
  // ValueError where its rows are not 128 bytes apart, its elements not contiguous, or its first
  // row not the first of a 1024-byte-aligned group of 8 at a 16-byte boundary.
  llvm::Value *warpgroupMatrix(const ir::Operation &op, unsigned arrayOperand, int64_t rows,
                               int64_t columns);
  // Whether a load of `fragment` from `array` may go a row at a time (Target::loadsMatrixRows),
  // and that load, falling back to copyPlacedElements where the rows are not aligned.
  bool loadsMatrixRows(const ir::Type &fragment, const ir::Type &array) const;
  void loadMatrixRows(const ir::Type &fragment, llvm::Value *storage, llvm::Value *matrix,
                      llvm::Value *ldm, ir::MatrixLayout layout);
  // The thread's index in its block, x + X (y + Y z) (i64).
  llvm::Value *linearThreadIndex();
  // The thread's elements of a fragment whose elements PTX places (ir::elementPlacement) loaded
  // from or stored to `matrix`.
  void copyPlacedElements(const ir::Type &fragment, llvm::Value *storage, llvm::Value *matrix,
                          llvm::Value *ldm, ir::MatrixLayout layout, bool load);
  // Every warpgroup accumulator of the function, allocated here if not yet lowered.
  std::vector<Target::WarpgroupAccumulator> warpgroupAccumulators();
  // `address` after the checks that branch to `merge` from `failures` and hold where `guards`
  // do: scratch memory in place of it where one did not hold.
  llvm::Value *addressAfterChecks(llvm::Value *address, llvm::BasicBlock *merge,
                                  const std::vector<llvm::BasicBlock *> &failures,
                                  const std::vector<llvm::Value *> &guards);
  // `index` wrapped (a negative signed one counts from the end; an unsigned one never
  // wraps) and checked against `extent`; a failed check branches to a block that reports it
  // and continues at `merge`, added to `failures`. A check that an earlier one makes
  // redundant (see IndexCheck) reports nothing: where it can still fail, its in-range
  // condition is added to `guards` instead, and the access goes on with scratch where one
  // is false.
  llvm::Value *checkedIndex(const ir::Operation &op, llvm::Value *index, bool isUnsigned,
                            llvm::Value *extent, unsigned axis, llvm::BasicBlock *merge,
                            std::vector<llvm::BasicBlock *> &failures,
                            std::vector<llvm::Value *> &guards);
  // Fills `fail` with the report of `index` and, unless the report ends the thread, a branch
  // to `merge`, added to `failures`. Returns whether the report ended the thread.
  bool reportIndexError(const ir::Operation &op, llvm::Value *index, bool isUnsigned,
                        llvm::Value *extent, unsigned axis, llvm::BasicBlock *merge,
                        std::vector<llvm::BasicBlock *> &failures, llvm::BasicBlock *fail);
  // A check that checkedIndex emitted, made redundant for a later access of the same extent
  // whose op it dominates and whose index is the same value, or a non-negative constant no
  // larger: that access is out of range only if this check failed (or never ran, an earlier
  // axis of its access having failed), so only after a report. Where a report ends the
  // thread, the access is then in range; where the thread goes on (the host), the launch
  // keeps its first report only, so the access needs no report, only its in-range condition
  // to use scratch. Without this, N accesses make N branches on one extent, and LLVM's
  // InstCombine, which answers a query on a value from every branch on it, takes time
  // quadratic in N.
  struct IndexCheck {
    const ir::Block *block = nullptr;
    llvm::Value *checked = nullptr; // the index the access used
    bool wraps = false;             // a negative index counted from the end
    bool endsThread = false;        // a failure ended the thread
  };
  // The IndexCheck that makes a check of `index` (wrapping if `wraps`) against `extent` in
  // `block` redundant, or null.
  const IndexCheck *redundantBy(const ir::Block *block, llvm::Value *index, bool wraps,
                                llvm::Value *extent);
  // A load's or store's check of a non-negative constant index that no earlier check
  // decides is deferred: N such accesses in one block (`out[k] = a[k] * 2`, k = 0..N-1, whose
  // constants only grow) would otherwise be N branches on one extent, and compile in time
  // quadratic in N as above. The access compares its index only and goes to scratch where it
  // fails; where a report ends the thread, so does every later access, as if the thread had
  // ended there. Before the next operation with an effect beyond the thread's own stores
  // (keepsDeferredChecksOpen) or a check of its own, one branch reports the first failure in
  // program order: what reporting at the access itself would have reported, with the same
  // stores done before it.
  struct DeferredCheck {
    const ir::Operation *op;
    llvm::Value *index;
    llvm::Value *extent;
    unsigned axis;
    bool isUnsigned;
    llvm::Value *inRange;
  };
  static bool keepsDeferredChecksOpen(const ir::Operation &op);
  // The deferred check's in-range compare.
  llvm::Value *deferCheck(const ir::Operation &op, llvm::Value *index, bool isUnsigned,
                          llvm::Value *extent, unsigned axis);
  // `address`, or scratch where a deferred check failed and its report ends the thread.
  llvm::Value *guardedByDeferredChecks(llvm::Value *address);
  void reportDeferredChecks();
  // Records `check` of `index` against `extent` for redundantBy.
  void rememberCheck(llvm::Value *extent, llvm::Value *index, const IndexCheck &check);
  llvm::Value *castScalar(llvm::Value *value, ScalarKind from, ScalarKind to);
  llvm::Value *clampToFloat16Range(llvm::Value *value, ScalarKind from);

  llvm::Value *scalar(const ir::Value *value, const ir::Operation &user) const;
  const ArrayValue &array(const ir::Value *value, const ir::Operation &user) const;
  std::vector<llvm::Value *> parts(const ir::Value *value, const ir::Operation &user) const;
  void bind(const ir::Value *value, const std::vector<llvm::Value *> &parts);

  ModuleLowering &moduleLowering_;
  const Target &target_;
  const ir::Function &function_;
  llvm::Function &out_;
  llvm::LLVMContext &context_;
  llvm::IRBuilder<> builder_;
  std::unordered_map<const ir::Block *, llvm::BasicBlock *> blocks_;
  std::unordered_map<const ir::Value *, llvm::Value *> scalars_;
  std::unordered_map<const ir::Value *, ArrayValue> arrays_;
  unsigned sharedArrayCount_ = 0;
  // For IndexCheck, built at the first check.
  std::optional<ir::DominatorTree> dominators_;
  // The latest check of each (extent, index).
  llvm::DenseMap<std::pair<llvm::Value *, llvm::Value *>, IndexCheck> indexChecks_;
  // Per extent, the largest non-negative constant index checked, and its check; a later
  // check that it does not dominate takes its place.
  llvm::DenseMap<llvm::Value *, std::pair<uint64_t, IndexCheck>> largestConstantChecks_;
  std::vector<DeferredCheck> deferredChecks_;
  llvm::Value *deferredChecksHeld_ = nullptr; // whether every one of deferredChecks_ held
};

class ModuleLowering {
public:
  ModuleLowering(const ir::Module &module, const Target &target, const LoweringOptions &options,
                 llvm::Module &out);

  void run();

  // The entry of a reporting raise op, or of a checked array access, in ir::exceptionTable
  // (1..).
  uint32_t exceptionNumber(const ir::Operation &raise) { return exceptionNumbers_.of(raise); }
  uint32_t misalignmentNumber(const ir::Operation &op) {
    return exceptionNumbers_.misalignment(op);
  }
  // Whether the module has warpgroup_mma ops (ir::usesWarpgroupMma).
  bool usesWarpgroupMma() const { return usesWarpgroupMma_; }
  // The least alignment of the module's shared arrays: ir::kWarpgroupSharedAlignment where it
  // has warpgroup_mma ops, else none beyond the element's.
  uint64_t sharedAlignment() const { return usesWarpgroupMma_ ? ir::kWarpgroupSharedAlignment : 1; }

  // Null unless LoweringOptions::lineInfo.
  LineTable *lineTable() { return lineTable_ ? &*lineTable_ : nullptr; }

  const Target &target() const { return target_; }
  const LoweringOptions &options() const { return options_; }
  llvm::Module &out() { return out_; }
  const ir::Module &module() const { return module_; }
  llvm::Function *lowered(const ir::Function *function) const {
    auto it = functions_.find(function);
    return it == functions_.end() ? nullptr : it->second;
  }

  // Where an out-of-range access goes instead (see LoweringOptions::boundsCheck): 16 bytes,
  // enough for any element, one per address space, created on first use.
  llvm::Value *indexScratch(unsigned addressSpace);

  // LLVM parameter types of one kaji parameter, flattened as abi/KernelABI.h lays them out.
  std::vector<llvm::Type *> parameterTypes(ir::Type type, bool isKernel) const;

private:
  void declare(const ir::Function &function);

  const ir::Module &module_;
  const Target &target_;
  const LoweringOptions &options_;
  llvm::Module &out_;
  std::unordered_map<const ir::Function *, llvm::Function *> functions_;
  std::optional<LineTable> lineTable_;
  ir::ExceptionNumbers exceptionNumbers_;
  bool usesWarpgroupMma_;
};

} // namespace kaji::codegen::lowering
