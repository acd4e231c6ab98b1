#include "kaji/codegen/llvm/LLVMLowering.h"

#include "LineTable.h"
#include "MathLowering.h"
#include "PythonArithmetic.h"
#include "kaji/abi/KernelABI.h"
#include "kaji/ir/Dominance.h"
#include "kaji/ir/ExceptionTable.h"
#include "kaji/ir/PrintfFormat.h"
#include "kaji/ir/RecordType.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/IR/ConstantRange.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PatternMatch.h>

#include <algorithm>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace kaji::codegen {
namespace {

using ir::CompileError;
using ir::Opcode;
using ir::ScalarKind;

// Registers hold bool as i1; memory and kernel parameters hold it as one byte.
llvm::Type *registerType(llvm::LLVMContext &context, ScalarKind kind) {
  switch (kind) {
  case ScalarKind::Bool:
    return llvm::Type::getInt1Ty(context);
  case ScalarKind::Int8:
  case ScalarKind::UInt8:
    return llvm::Type::getInt8Ty(context);
  case ScalarKind::Int16:
  case ScalarKind::UInt16:
    return llvm::Type::getInt16Ty(context);
  case ScalarKind::Int32:
  case ScalarKind::UInt32:
    return llvm::Type::getInt32Ty(context);
  case ScalarKind::Int64:
  case ScalarKind::UInt64:
    return llvm::Type::getInt64Ty(context);
  case ScalarKind::Float16:
    return llvm::Type::getHalfTy(context);
  case ScalarKind::BFloat16:
    return llvm::Type::getBFloatTy(context);
  case ScalarKind::Float32:
    return llvm::Type::getFloatTy(context);
  case ScalarKind::Float64:
    return llvm::Type::getDoubleTy(context);
  case ScalarKind::Complex64:
  case ScalarKind::Complex128: {
    llvm::Type *part = registerType(context, ir::componentKind(kind));
    return llvm::StructType::get(context, {part, part});
  }
  }
  return nullptr;
}

// What an SSA value of `type` is in LLVM: a scalar's register type; a vector is a struct of its
// lanes, as Numba's model of CUDA's vector types (nothing stores one in memory, and kernels take
// none, so no ABI needs its CUDA alignment).
llvm::Type *valueType(llvm::LLVMContext &context, ir::Type type) {
  llvm::Type *scalar = registerType(context, type.scalarKind());
  if (!type.isVector())
    return scalar;
  return llvm::StructType::get(context, std::vector<llvm::Type *>(type.lanes(), scalar));
}

llvm::Type *memoryType(llvm::LLVMContext &context, ScalarKind kind) {
  return kind == ScalarKind::Bool ? llvm::Type::getInt8Ty(context) : registerType(context, kind);
}

// An array's element in memory: a scalar as memoryType has it, a vector as the struct of its
// lanes (valueType).
llvm::Type *elementMemoryType(llvm::LLVMContext &context, ir::Type array) {
  return array.isVectorArray() ? valueType(context, array.elementType())
                               : memoryType(context, array.scalarKind());
}

// A vector element is aligned as CUDA aligns its vector type, so its loads and stores become
// one ld.v4 or st.v2. Vectors are only in local and shared arrays, allocated at least
// 16-byte aligned, and views of them start at whole elements.
llvm::Align elementAlignment(ir::Type array) { return llvm::Align(array.elementAlignment()); }

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
ArrayValue applyLayout(ArrayValue array, ir::Type type, llvm::LLVMContext &context) {
  if (type.ndim() == 0)
    return array;
  llvm::Value *elementSize =
      llvm::ConstantInt::get(llvm::Type::getInt64Ty(context), type.elementSize());
  if (type.layout() == ir::Layout::C)
    array.strides.back() = elementSize;
  else if (type.layout() == ir::Layout::F)
    array.strides.front() = elementSize;
  return array;
}

// A shared or local array's alignment: what it asked for (0: nothing), at least its
// element's, and 16 bytes by default so vector loads of it line up.
uint64_t arrayAlignment(uint64_t requested, const ir::Type &array) {
  uint64_t element = array.elementAlignment();
  return requested ? std::max(requested, element) : std::max<uint64_t>(element, 16);
}

class ModuleLowering;

// The atomicrmw operation of kaji's atomic `name` on `kind` elements. nanmax and nanmin treat
// NaN as a missing value, as atomicrmw's fmax and fmin do; float max and min are not atomicrmw's
// (lowerFloatMaxMin).
std::optional<llvm::AtomicRMWInst::BinOp> atomicOperation(const std::string &name,
                                                          ScalarKind kind) {
  using RMW = llvm::AtomicRMWInst;
  bool isFloat = ir::isFloat(kind), isSigned = ir::isSigned(kind);
  if (name == "add")
    return isFloat ? RMW::FAdd : RMW::Add;
  if (name == "sub")
    return RMW::Sub;
  if (name == "nanmax")
    return RMW::FMax;
  if (name == "nanmin")
    return RMW::FMin;
  if (name == "max" && !isFloat)
    return isSigned ? RMW::Max : RMW::UMax;
  if (name == "min" && !isFloat)
    return isSigned ? RMW::Min : RMW::UMin;
  if (name == "exch")
    return RMW::Xchg;
  if (name == "and")
    return RMW::And;
  if (name == "or")
    return RMW::Or;
  if (name == "xor")
    return RMW::Xor;
  if (name == "inc")
    return RMW::UIncWrap;
  if (name == "dec")
    return RMW::UDecWrap;
  return std::nullopt;
}

class FunctionLowering {
public:
  FunctionLowering(ModuleLowering &moduleLowering, const ir::Function &function,
                   llvm::Function &out);
  void run();

private:
  std::vector<const ir::Block *> reversePostOrder() const;
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
  llvm::Value *lowerAtomic(const ir::Operation &op);
  llvm::Value *lowerFloatMaxMin(llvm::Value *address, llvm::Value *value, bool max);
  llvm::Value *lowerArrayIndex(const ir::Operation &op);
  void lowerArrayView(const ir::Operation &op);
  void lowerArrayAt(const ir::Operation &op);
  void lowerField(const ir::Operation &op);
  void lowerPrint(const ir::Operation &op);
  void lowerReturn(const ir::Operation &op);
  void lowerRaise(const ir::Operation &op);
  void lowerBranch(const ir::Operation &op);
  std::vector<std::vector<llvm::Value *>> successorArguments(const ir::Successor &successor,
                                                             const ir::Operation &op) const;
  void addIncoming(const ir::Block &target,
                   const std::vector<std::vector<llvm::Value *>> &arguments,
                   const ir::Operation &op);
  llvm::Value *elementAddress(const ir::Operation &op, unsigned arrayOperand, unsigned firstIndex);
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
                 llvm::Module &out)
      : module_(module), target_(target), options_(options), out_(out),
        exceptionNumbers_(module, options.boundsCheck) {
    if (options.lineInfo)
      lineTable_.emplace(out);
  }

  void run() {
    for (const auto &function : module_.functions())
      declare(*function);
    for (const auto &function : module_.functions())
      FunctionLowering(*this, *function, *functions_.at(function.get())).run();
    if (lineTable_)
      lineTable_->finish();
  }

  // The entry of a reporting raise op, or of a checked array access, in ir::exceptionTable
  // (1..).
  uint32_t exceptionNumber(const ir::Operation &raise) { return exceptionNumbers_.of(raise); }

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
  llvm::Value *indexScratch(unsigned addressSpace) {
    std::string name = "kaji.index_scratch." + std::to_string(addressSpace);
    if (llvm::GlobalVariable *existing = out_.getNamedGlobal(name))
      return existing;
    auto *storage = llvm::ArrayType::get(llvm::Type::getInt8Ty(out_.getContext()), 16);
    auto *scratch =
        new llvm::GlobalVariable(out_, storage, false, llvm::GlobalValue::InternalLinkage,
                                 llvm::Constant::getNullValue(storage), name, nullptr,
                                 llvm::GlobalValue::NotThreadLocal, addressSpace);
    scratch->setAlignment(llvm::Align(16));
    return scratch;
  }

  // LLVM parameter types of one kaji parameter, flattened per the ABI in Codegen.h.
  std::vector<llvm::Type *> parameterTypes(ir::Type type, bool isKernel) const {
    llvm::LLVMContext &context = out_.getContext();
    if (type.isComplex() && isKernel) // two parameters: the real and the imaginary part
      return std::vector<llvm::Type *>(2,
                                       registerType(context, ir::componentKind(type.scalarKind())));
    if (type.isScalar())
      return {isKernel ? memoryType(context, type.scalarKind())
                       : registerType(context, type.scalarKind())};
    if (type.isVector())
      return {valueType(context, type)};
    std::vector<llvm::Type *> types{
        llvm::PointerType::get(context, target_.addressSpace(type.memorySpace()))};
    types.insert(types.end(), 2 * type.ndim(), llvm::Type::getInt64Ty(context));
    return types;
  }

private:
  void declare(const ir::Function &function) {
    llvm::LLVMContext &context = out_.getContext();
    std::vector<llvm::Type *> params;
    for (ir::Type type : function.paramTypes()) {
      if (type.isVoid())
        throw CompileError(function.location(),
                           "parameter of function '" + function.name() + "' has type void");
      for (llvm::Type *part : parameterTypes(type, function.isKernel()))
        params.push_back(part);
    }
    llvm::Type *implicitParameter = target_.implicitParameterType(context);
    if (implicitParameter)
      params.push_back(implicitParameter);
    ir::Type returnType = function.returnType();
    if (returnType.isArray())
      throw CompileError(function.location(), "function '" + function.name() +
                                                  "' returns an array; kaji functions "
                                                  "return scalars or nothing");
    if (function.isKernel() && !returnType.isVoid())
      throw CompileError(function.location(),
                         "kernel '" + function.name() + "' must not return a value");
    llvm::Type *result =
        returnType.isVoid() ? llvm::Type::getVoidTy(context) : valueType(context, returnType);
    auto linkage = function.isKernel() ? llvm::GlobalValue::ExternalLinkage
                                       : llvm::GlobalValue::InternalLinkage;
    if (out_.getFunction(function.name()))
      throw CompileError(function.location(),
                         "function '" + function.name() + "' is defined twice");
    llvm::Function *lowered = llvm::Function::Create(llvm::FunctionType::get(result, params, false),
                                                     linkage, function.name(), out_);
    lowered->setDoesNotThrow();
    if (options_.fastMath) {
      lowered->addFnAttr("unsafe-fp-math", "true");
      // Flush float32 denormals, matching the FTZ variants libdevice picks under fast math.
      lowered->addFnAttr("denormal-fp-math-f32", "preserve-sign,preserve-sign");
    }
    if (implicitParameter)
      lowered->getArg(lowered->arg_size() - 1)->setName("kaji.implicit");
    if (function.inlining() == ir::Function::Inlining::Always)
      lowered->addFnAttr(llvm::Attribute::AlwaysInline);
    else if (function.inlining() == ir::Function::Inlining::Never)
      lowered->addFnAttr(llvm::Attribute::NoInline);
    if (function.isKernel())
      target_.markKernel(*lowered);
    functions_[&function] = lowered;
  }

  const ir::Module &module_;
  const Target &target_;
  const LoweringOptions &options_;
  llvm::Module &out_;
  std::unordered_map<const ir::Function *, llvm::Function *> functions_;
  std::optional<LineTable> lineTable_;
  ir::ExceptionNumbers exceptionNumbers_;
};

FunctionLowering::FunctionLowering(ModuleLowering &moduleLowering, const ir::Function &function,
                                   llvm::Function &out)
    : moduleLowering_(moduleLowering), target_(moduleLowering.target()), function_(function),
      out_(out), context_(out.getContext()), builder_(out.getContext()) {
  if (moduleLowering.options().fastMath) {
    llvm::FastMathFlags flags;
    flags.setAllowReassoc();
    flags.setAllowContract();
    flags.setApproxFunc();
    flags.setAllowReciprocal();
    flags.setNoSignedZeros();
    builder_.setFastMathFlags(flags);
  }
}

std::vector<const ir::Block *> FunctionLowering::reversePostOrder() const {
  std::vector<const ir::Block *> postOrder;
  std::unordered_set<const ir::Block *> visited;
  // (block, index of the next successor to visit)
  std::vector<std::pair<const ir::Block *, size_t>> stack{{function_.entry(), 0}};
  visited.insert(function_.entry());
  while (!stack.empty()) {
    auto &[block, next] = stack.back();
    const ir::Operation *terminator = block->terminator();
    if (!terminator)
      throw CompileError(block->operations().empty() ? function_.location()
                                                     : block->operations().back()->location(),
                         "a block of function '" + function_.name() +
                             "' does not end in a terminator");
    if (next < terminator->successors().size()) {
      const ir::Block *successor = terminator->successors()[next++].block;
      if (successor == function_.entry())
        throw CompileError(terminator->location(),
                           "branch to the entry block of function '" + function_.name() + "'");
      if (visited.insert(successor).second)
        stack.push_back({successor, 0});
      continue;
    }
    postOrder.push_back(block);
    stack.pop_back();
  }
  return {postOrder.rbegin(), postOrder.rend()};
}

void FunctionLowering::run() {
  if (function_.blocks().empty())
    throw CompileError(function_.location(), "function '" + function_.name() + "' has no body");
  std::vector<const ir::Block *> order = reversePostOrder();
  for (size_t i = 0; i < function_.blocks().size(); ++i) {
    const ir::Block *block = function_.blocks()[i].get();
    if (std::find(order.begin(), order.end(), block) != order.end())
      blocks_[block] =
          llvm::BasicBlock::Create(context_, i == 0 ? "entry" : "bb" + std::to_string(i), &out_);
  }
  builder_.SetInsertPoint(blocks_.at(function_.entry()));
  LineTable *lines = moduleLowering_.lineTable();
  llvm::DISubprogram *scope = lines ? lines->describe(out_, function_) : nullptr;
  if (lines)
    builder_.SetCurrentDebugLocation(lines->at(function_.location(), scope));
  bindParameters();
  for (const ir::Block *block : order)
    if (block != function_.entry())
      createBlockArguments(*block);
  for (const ir::Block *block : order) {
    builder_.SetInsertPoint(blocks_.at(block));
    for (const auto &op : block->operations()) {
      if (builder_.GetInsertBlock()->getTerminator())
        throw CompileError(op->location(), "operation after the terminator of its block");
      if (lines)
        builder_.SetCurrentDebugLocation(lines->at(op->location(), scope));
      if (!deferredChecks_.empty() && !keepsDeferredChecksOpen(*op))
        reportDeferredChecks();
      lowerOperation(*op);
    }
  }
}

// A kernel's array extents lie in [0, kMaxArrayBytes] (abi/KernelABI.h): told
// so, LLVM proves that an index counting up to an extent by a bounded step never
// overflows, so a loop index that starts non-negative stays so and the wraparound of
// negative indices folds away.
llvm::Attribute FunctionLowering::extentRange() const {
  return llvm::Attribute::get(
      context_, llvm::Attribute::Range,
      llvm::ConstantRange(llvm::APInt(64, 0), llvm::APInt(64, uint64_t(abi::kMaxArrayBytes) + 1)));
}

void FunctionLowering::bindParameters() {
  const ir::Block &entry = *function_.entry();
  std::vector<ir::Type> types = function_.paramTypes();
  if (entry.arguments().size() != types.size())
    throw CompileError(function_.location(), "entry block of function '" + function_.name() +
                                                 "' does not take one argument per parameter");
  auto argument = out_.arg_begin();
  for (size_t i = 0; i < types.size(); ++i) {
    std::string name = i < function_.paramNames().size() && !function_.paramNames()[i].empty()
                           ? function_.paramNames()[i]
                           : "arg" + std::to_string(i);
    ir::Type type = types[i];
    if (type.isComplex() && function_.isKernel()) {
      llvm::Value *real = &*argument++;
      llvm::Value *imag = &*argument++;
      real->setName(name + ".real");
      imag->setName(name + ".imag");
      scalars_[entry.argument(i)] = makeComplex(real, imag, type.scalarKind());
      continue;
    }
    if (type.isScalar() || type.isVector()) {
      llvm::Value *value = &*argument++;
      value->setName(name);
      if (type.isBool() && value->getType() != builder_.getInt1Ty())
        value = builder_.CreateICmpNE(value, builder_.getInt8(0), name + ".bool");
      scalars_[entry.argument(i)] = value;
      continue;
    }
    ArrayValue array;
    array.data = &*argument++;
    array.data->setName(name);
    for (unsigned d = 0; d < type.ndim(); ++d) {
      if (function_.isKernel())
        out_.addParamAttr(argument->getArgNo(), extentRange());
      array.shape.push_back(&*argument++);
      array.shape.back()->setName(name + ".shape" + std::to_string(d));
    }
    for (unsigned d = 0; d < type.ndim(); ++d) {
      array.strides.push_back(&*argument++);
      array.strides.back()->setName(name + ".stride" + std::to_string(d));
    }
    arrays_[entry.argument(i)] = applyLayout(std::move(array), type, context_);
  }
}

void FunctionLowering::createBlockArguments(const ir::Block &block) {
  builder_.SetInsertPoint(blocks_.at(&block));
  for (const auto &argument : block.arguments()) {
    std::vector<llvm::Value *> phis;
    for (llvm::Type *type : moduleLowering_.parameterTypes(argument->type(), false))
      phis.push_back(builder_.CreatePHI(type, 2));
    bind(argument.get(), phis);
  }
}

llvm::Value *FunctionLowering::scalar(const ir::Value *value, const ir::Operation &user) const {
  auto it = scalars_.find(value);
  if (it == scalars_.end())
    throw CompileError(user.location(), "operand of '" +
                                            std::string(ir::opcodeName(user.opcode())) +
                                            "' is not a scalar defined before its use");
  return it->second;
}

const ArrayValue &FunctionLowering::array(const ir::Value *value, const ir::Operation &user) const {
  auto it = arrays_.find(value);
  if (it == arrays_.end())
    throw CompileError(user.location(), "operand of '" +
                                            std::string(ir::opcodeName(user.opcode())) +
                                            "' is not an array defined before its use");
  return it->second;
}

std::vector<llvm::Value *> FunctionLowering::parts(const ir::Value *value,
                                                   const ir::Operation &user) const {
  if (value->type().isArray())
    return array(value, user).parts();
  return {scalar(value, user)};
}

void FunctionLowering::bind(const ir::Value *value, const std::vector<llvm::Value *> &parts) {
  if (value->type().isArray())
    arrays_[value] = ArrayValue::fromParts(parts, value->type().ndim());
  else
    scalars_[value] = parts.front();
}

void FunctionLowering::lowerOperation(const ir::Operation &op) {
  llvm::Value *result = nullptr;
  switch (op.opcode()) {
  case Opcode::Constant:
    result = lowerConstant(op);
    break;
#define KAJI_BINARY_OPCODE(name, spelling) case Opcode::name:
#include "kaji/ir/Opcodes.def"
    result = lowerBinary(op);
    break;
  case Opcode::Neg:
  case Opcode::Not:
  case Opcode::Abs:
    result = lowerUnary(op);
    break;
  case Opcode::Cmp:
    result = lowerCmp(op);
    break;
  case Opcode::Select:
    lowerSelect(op);
    return;
  case Opcode::Cast: {
    ir::Type from = op.operand(0)->type();
    if (!from.isScalar() || !op.resultType().isScalar())
      throw CompileError(op.location(), "cast between " + from.str() + " and " +
                                            op.resultType().str() + " is not a scalar conversion");
    result = castScalar(scalar(op.operand(0), op), from.scalarKind(), op.resultType().scalarKind());
    break;
  }
  case Opcode::Bitcast:
    result =
        builder_.CreateBitCast(scalar(op.operand(0), op), valueType(context_, op.resultType()));
    break;
  case Opcode::Complex:
    result = makeComplex(scalar(op.operand(0), op), scalar(op.operand(1), op),
                         op.resultType().scalarKind());
    break;
  case Opcode::Real:
  case Opcode::Imag:
    result = builder_.CreateExtractValue(scalar(op.operand(0), op),
                                         {op.opcode() == Opcode::Real ? 0u : 1u});
    break;
  case Opcode::MakeVector: {
    result = llvm::PoisonValue::get(valueType(context_, op.resultType()));
    for (unsigned lane = 0; lane < op.numOperands(); ++lane)
      result = builder_.CreateInsertValue(result, scalar(op.operand(lane), op), {lane});
    break;
  }
  case Opcode::ExtractLane:
    result =
        builder_.CreateExtractValue(scalar(op.operand(0), op), {unsigned(op.attrAs<int64_t>())});
    break;
  case Opcode::Math:
    result = lowerMath(op);
    break;
  case Opcode::Libdevice: {
    ir::LibdeviceSelection selection = ir::parseLibdeviceSelection(op.attrAs<std::string>());
    if (!selection.function)
      throw CompileError(op.location(),
                         "unknown libdevice function '" + op.attrAs<std::string>() + "'");
    std::vector<llvm::Value *> args;
    for (const ir::Value *operand : op.operands())
      args.push_back(scalar(operand, op));
    result =
        target_.emitLibdevice(builder_, *selection.function, selection.value, args, op.location());
    break;
  }
  case Opcode::Bits:
    result = emitBitFunction(builder_, op.attrAs<std::string>(), scalar(op.operand(0), op));
    break;
  case Opcode::SpecialReg: {
    ir::SpecialReg reg = op.attrAs<ir::SpecialReg>();
    if (reg.dim > 2)
      throw CompileError(op.location(), "special register dimension " + std::to_string(reg.dim) +
                                            " is not x, y or z");
    result = target_.emitSpecialReg(builder_, reg);
    break;
  }
  case Opcode::Barrier:
    target_.emitBarrier(builder_);
    return;
  case Opcode::GridSync:
    target_.emitGridSync(builder_);
    return;
  case Opcode::Fence:
    target_.emitFence(builder_, op.attrAs<std::string>());
    return;
  case Opcode::BarrierReduce:
    result =
        target_.emitBarrierReduce(builder_, op.attrAs<std::string>(), scalar(op.operand(0), op));
    break;
  case Opcode::WarpSync:
    target_.emitWarpSync(builder_, scalar(op.operand(0), op));
    return;
  case Opcode::Warp: {
    auto operand = [&](unsigned i) {
      return i < op.numOperands() ? scalar(op.operand(i), op) : nullptr;
    };
    result = target_.emitWarpCollective(
        builder_, op.attrAs<std::string>(), operand(0), operand(1), operand(2),
        registerType(context_, op.resultType().scalarKind()), op.location());
    break;
  }
  case Opcode::ArrayDim:
  case Opcode::ArrayStride: {
    const ArrayValue &value = array(op.operand(0), op);
    int64_t dim = op.attrAs<int64_t>();
    if (dim < 0 || dim >= int64_t(value.shape.size()))
      throw CompileError(op.location(), "dimension " + std::to_string(dim) + " of a " +
                                            op.operand(0)->type().str() + " does not exist");
    result = op.opcode() == Opcode::ArrayDim ? value.shape[dim] : value.strides[dim];
    break;
  }
  case Opcode::ArrayIndex:
    result = lowerArrayIndex(op);
    break;
  case Opcode::Field:
    lowerField(op);
    break;
  case Opcode::ArrayView:
    lowerArrayView(op);
    return;
  case Opcode::ArrayAt:
    lowerArrayAt(op);
    return;
  case Opcode::Load: {
    ir::Type array = op.operand(0)->type();
    llvm::Value *address = elementAddress(op, 0, 1);
    result = builder_.CreateAlignedLoad(elementMemoryType(context_, array), address,
                                        elementAlignment(array));
    if (op.resultType().isBool())
      result = builder_.CreateICmpNE(result, builder_.getInt8(0));
    break;
  }
  case Opcode::Store: {
    ir::Type array = op.operand(1)->type();
    llvm::Value *value = scalar(op.operand(0), op);
    if (op.operand(0)->type().isBool())
      value = builder_.CreateZExt(value, builder_.getInt8Ty());
    builder_.CreateAlignedStore(value, elementAddress(op, 1, 2), elementAlignment(array));
    return;
  }
  case Opcode::Atomic:
  case Opcode::AtomicCAS:
    result = lowerAtomic(op);
    break;
  case Opcode::SharedArray:
  case Opcode::LocalArray:
  case Opcode::ConstArray:
    lowerStaticArray(op);
    return;
  case Opcode::DynamicSharedArray:
    lowerDynamicSharedArray(op);
    return;
  case Opcode::Print:
    lowerPrint(op);
    return;
  case Opcode::Call:
    lowerCall(op);
    return;
  case Opcode::ExternCall:
    lowerExternCall(op);
    return;
  case Opcode::Br:
  case Opcode::CondBr:
    lowerBranch(op);
    return;
  case Opcode::Return:
    lowerReturn(op);
    return;
  case Opcode::Raise:
    lowerRaise(op);
    return;
  }
  if (op.result())
    scalars_[op.result()] = result;
}

llvm::Value *FunctionLowering::lowerConstant(const ir::Operation &op) {
  ir::Type type = op.resultType();
  if (!type.isScalar())
    throw CompileError(op.location(), "constant of non-scalar type " + type.str());
  llvm::Type *llvmType = registerType(context_, type.scalarKind());
  const ir::Attr &attr = op.attr();
  if (type.isFloat()) {
    if (auto *value = std::get_if<double>(&attr))
      return llvm::ConstantFP::get(llvmType, *value);
    if (auto *value = std::get_if<int64_t>(&attr))
      return llvm::ConstantFP::get(llvmType, double(*value));
  } else if (auto *value = std::get_if<int64_t>(&attr)) {
    return llvm::ConstantInt::get(llvmType, uint64_t(*value), ir::isSigned(type.scalarKind()));
  }
  throw CompileError(op.location(), "constant of type " + type.str() + " has no matching value");
}

llvm::Value *FunctionLowering::lowerBinary(const ir::Operation &op) {
  ir::Type type = op.resultType();
  if (!type.isScalar() || op.numOperands() != 2)
    throw CompileError(op.location(), "'" + std::string(ir::opcodeName(op.opcode())) +
                                          "' takes two scalars of its result type");
  llvm::Value *lhs = scalar(op.operand(0), op);
  llvm::Value *rhs = scalar(op.operand(1), op);
  bool isFloat = type.isFloat();
  bool isSigned = ir::isSigned(type.scalarKind());
  auto requireInteger = [&] {
    if (isFloat)
      throw CompileError(op.location(), "'" + std::string(ir::opcodeName(op.opcode())) +
                                            "' is not defined on " + type.str());
  };
  switch (op.opcode()) {
  case Opcode::Add:
    return isFloat ? builder_.CreateFAdd(lhs, rhs) : builder_.CreateAdd(lhs, rhs);
  case Opcode::Sub:
    return isFloat ? builder_.CreateFSub(lhs, rhs) : builder_.CreateSub(lhs, rhs);
  case Opcode::Mul:
    return isFloat ? builder_.CreateFMul(lhs, rhs) : builder_.CreateMul(lhs, rhs);
  case Opcode::Div:
    return isFloat ? builder_.CreateFDiv(lhs, rhs) : emitIntDiv(builder_, lhs, rhs, isSigned);
  case Opcode::FloorDiv:
    return isFloat ? emitFloatFloorDiv(builder_, target_, lhs, rhs)
                   : emitIntFloorDiv(builder_, lhs, rhs, isSigned);
  case Opcode::Mod:
    return isFloat ? emitFloatMod(builder_, target_, lhs, rhs)
                   : emitIntMod(builder_, lhs, rhs, isSigned);
  case Opcode::Pow:
    return isFloat ? emitFloatPower(builder_, target_, lhs, rhs)
                   : emitIntPow(builder_, lhs, rhs, isSigned);
  case Opcode::Min:
  case Opcode::Max: {
    bool isMin = op.opcode() == Opcode::Min;
    llvm::Value *takeRhs;
    if (isFloat)
      takeRhs = isMin ? builder_.CreateFCmpOLT(rhs, lhs) : builder_.CreateFCmpOGT(rhs, lhs);
    else if (isSigned)
      takeRhs = isMin ? builder_.CreateICmpSLT(rhs, lhs) : builder_.CreateICmpSGT(rhs, lhs);
    else
      takeRhs = isMin ? builder_.CreateICmpULT(rhs, lhs) : builder_.CreateICmpUGT(rhs, lhs);
    return isFloat ? target_.emitFloatChoice(builder_, takeRhs, rhs, lhs)
                   : builder_.CreateSelect(takeRhs, rhs, lhs, isMin ? "min" : "max");
  }
  case Opcode::And:
    requireInteger();
    return builder_.CreateAnd(lhs, rhs);
  case Opcode::Or:
    requireInteger();
    return builder_.CreateOr(lhs, rhs);
  case Opcode::Xor:
    requireInteger();
    return builder_.CreateXor(lhs, rhs);
  case Opcode::Shl:
    requireInteger();
    return emitShl(builder_, lhs, rhs);
  case Opcode::Shr:
    requireInteger();
    return emitShr(builder_, lhs, rhs, isSigned);
  default:
    break;
  }
  throw CompileError(op.location(), "not a binary operation");
}

llvm::Value *FunctionLowering::lowerUnary(const ir::Operation &op) {
  ir::Type type = op.resultType();
  if (!type.isScalar() || op.numOperands() != 1)
    throw CompileError(op.location(), "'" + std::string(ir::opcodeName(op.opcode())) +
                                          "' takes one scalar of its result type");
  llvm::Value *operand = scalar(op.operand(0), op);
  bool isFloat = type.isFloat();
  switch (op.opcode()) {
  case Opcode::Neg:
    return isFloat ? builder_.CreateFNeg(operand) : builder_.CreateNeg(operand);
  case Opcode::Not:
    if (isFloat)
      throw CompileError(op.location(), "'not' is not defined on " + type.str());
    return builder_.CreateNot(operand);
  case Opcode::Abs:
    if (isFloat)
      return builder_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, operand);
    if (!ir::isSigned(type.scalarKind()))
      return operand;
    // INT_MIN wraps to itself (is_int_min_poison false).
    return builder_.CreateBinaryIntrinsic(llvm::Intrinsic::abs, operand, builder_.getFalse());
  default:
    break;
  }
  throw CompileError(op.location(), "not a unary operation");
}

llvm::Value *FunctionLowering::lowerCmp(const ir::Operation &op) {
  if (op.numOperands() != 2 || !op.operand(0)->type().isScalar() ||
      op.operand(0)->type() != op.operand(1)->type())
    throw CompileError(op.location(), "'cmp' takes two scalars of one type");
  ScalarKind kind = op.operand(0)->type().scalarKind();
  llvm::Value *lhs = scalar(op.operand(0), op);
  llvm::Value *rhs = scalar(op.operand(1), op);
  using P = llvm::CmpInst::Predicate;
  bool isSigned = ir::isSigned(kind);
  P predicate = P::BAD_ICMP_PREDICATE;
  switch (op.attrAs<ir::CmpPredicate>()) {
  case ir::CmpPredicate::Eq:
    predicate = ir::isFloat(kind) ? P::FCMP_OEQ : P::ICMP_EQ;
    break;
  case ir::CmpPredicate::Ne:
    predicate = ir::isFloat(kind) ? P::FCMP_UNE : P::ICMP_NE;
    break;
  case ir::CmpPredicate::Lt:
    predicate = ir::isFloat(kind) ? P::FCMP_OLT : isSigned ? P::ICMP_SLT : P::ICMP_ULT;
    break;
  case ir::CmpPredicate::Le:
    predicate = ir::isFloat(kind) ? P::FCMP_OLE : isSigned ? P::ICMP_SLE : P::ICMP_ULE;
    break;
  case ir::CmpPredicate::Gt:
    predicate = ir::isFloat(kind) ? P::FCMP_OGT : isSigned ? P::ICMP_SGT : P::ICMP_UGT;
    break;
  case ir::CmpPredicate::Ge:
    predicate = ir::isFloat(kind) ? P::FCMP_OGE : isSigned ? P::ICMP_SGE : P::ICMP_UGE;
    break;
  }
  return builder_.CreateCmp(predicate, lhs, rhs);
}

llvm::Value *FunctionLowering::lowerMath(const ir::Operation &op) {
  // Verified: one float type for every operand, the result of that type or a bool.
  std::vector<llvm::Value *> args;
  for (const ir::Value *operand : op.operands())
    args.push_back(scalar(operand, op));
  return emitMath(builder_, target_, op.attrAs<std::string>(), args);
}

llvm::Value *FunctionLowering::makeComplex(llvm::Value *real, llvm::Value *imag, ScalarKind kind) {
  llvm::Value *value = llvm::PoisonValue::get(registerType(context_, kind));
  value = builder_.CreateInsertValue(value, real, {0u});
  return builder_.CreateInsertValue(value, imag, {1u});
}

void FunctionLowering::lowerSelect(const ir::Operation &op) {
  if (op.numOperands() != 3 || !op.operand(0)->type().isBool() ||
      op.operand(1)->type() != op.operand(2)->type())
    throw CompileError(op.location(), "'select' takes a bool and two values of one type");
  llvm::Value *condition = scalar(op.operand(0), op);
  std::vector<llvm::Value *> ifTrue = parts(op.operand(1), op);
  std::vector<llvm::Value *> ifFalse = parts(op.operand(2), op);
  std::vector<llvm::Value *> selected;
  for (size_t i = 0; i < ifTrue.size(); ++i)
    selected.push_back(builder_.CreateSelect(condition, ifTrue[i], ifFalse[i]));
  bind(op.result(), selected);
}

llvm::Value *FunctionLowering::castScalar(llvm::Value *value, ScalarKind from, ScalarKind to) {
  if (from == to)
    return value;
  llvm::Type *toType = registerType(context_, to);
  if (to == ScalarKind::Bool) {
    if (ir::isFloat(from)) // NaN is truthy, as bool(nan) in Python
      return builder_.CreateFCmpUNE(value, llvm::ConstantFP::get(value->getType(), 0.0));
    return builder_.CreateICmpNE(value, llvm::ConstantInt::get(value->getType(), 0));
  }
  // bfloat16 is reached through float32 from any other type, as ml_dtypes converts: a float64
  // or an integer rounds twice, and float16 <-> bfloat16 has no direct instruction.
  if (to == ScalarKind::BFloat16 && from != ScalarKind::Float32)
    return castScalar(castScalar(value, from, ScalarKind::Float32), ScalarKind::Float32, to);
  if (from == ScalarKind::BFloat16 && to != ScalarKind::Float32 && to != ScalarKind::Float64)
    return castScalar(castScalar(value, from, ScalarKind::Float32), ScalarKind::Float32, to);
  if (ir::isFloat(from) && ir::isFloat(to))
    return ir::bitWidth(to) > ir::bitWidth(from) ? builder_.CreateFPExt(value, toType)
                                                 : builder_.CreateFPTrunc(value, toType);
  if (ir::isFloat(from)) {
    // Saturating conversions: an out-of-range float gives the nearest bound, NaN gives 0,
    // never poison.
    if (from == ScalarKind::Float16)
      value = builder_.CreateFPExt(value, builder_.getFloatTy());
    return target_.emitFloatToInteger(builder_, value, toType, ir::isSigned(to));
  }
  bool fromSigned = ir::isSigned(from);
  if (ir::isFloat(to)) {
    if (to == ScalarKind::Float16)
      value = clampToFloat16Range(value, from);
    return fromSigned ? builder_.CreateSIToFP(value, toType) : builder_.CreateUIToFP(value, toType);
  }
  return builder_.CreateIntCast(value, toType, fromSigned);
}

// Every integer of magnitude 65520 or more rounds to an infinite float16, so clamping to
// ±65520 first changes no result. It keeps LLVM 19's InstCombine from a miscompile: it folds
// `fpext (sitofp x to half)` into `sitofp x to double` when x has at most 11 significant bits
// by its known bits, which ignores float16's exponent range (`float16(2**31 >> b)` became
// 2**31 instead of inf). After the clamp, x's known bits never allow that fold, and a value
// of the int8 range or int16's signed range cannot overflow, so those are left alone.
llvm::Value *FunctionLowering::clampToFloat16Range(llvm::Value *value, ScalarKind from) {
  constexpr int64_t firstInfinite = 65520;
  bool fromSigned = ir::isSigned(from);
  unsigned width = ir::bitWidth(from);
  if (width <= 8 || (width == 16 && fromSigned))
    return value;
  llvm::Type *type = value->getType();
  auto *upper = llvm::ConstantInt::get(type, firstInfinite);
  if (!fromSigned)
    return builder_.CreateBinaryIntrinsic(llvm::Intrinsic::umin, value, upper);
  llvm::Value *below = builder_.CreateBinaryIntrinsic(llvm::Intrinsic::smin, value, upper);
  return builder_.CreateBinaryIntrinsic(llvm::Intrinsic::smax, below,
                                        llvm::ConstantInt::getSigned(type, -firstInfinite));
}

llvm::Value *FunctionLowering::elementAddress(const ir::Operation &op, unsigned arrayOperand,
                                              unsigned firstIndex) {
  if (op.numOperands() <= arrayOperand || !op.operand(arrayOperand)->type().isArray())
    throw CompileError(op.location(),
                       "'" + std::string(ir::opcodeName(op.opcode())) + "' needs an array operand");
  const ArrayValue &value = array(op.operand(arrayOperand), op);
  unsigned ndim = op.operand(arrayOperand)->type().ndim();
  if (op.numOperands() - firstIndex != ndim)
    throw CompileError(op.location(), "a " + op.operand(arrayOperand)->type().str() + " takes " +
                                          std::to_string(ndim) + " index(es), got " +
                                          std::to_string(op.numOperands() - firstIndex));
  llvm::BasicBlock *merge = nullptr;
  std::vector<llvm::BasicBlock *> failures;
  std::vector<llvm::Value *> guards;
  if (moduleLowering_.options().boundsCheck && ndim > 0)
    merge = llvm::BasicBlock::Create(context_, "bounds.merge", &out_);
  // A stride that is a constant multiple of the element size (a contiguous axis) indexes in
  // elements: LLVM then keeps `gep T, p, i + c`, whose constant part NVPTX folds into the
  // load's immediate offset. The same sum in bytes becomes `shl (i + c), 2`, which it cannot
  // split, so every neighbouring access (a stencil's taps) computes its own address.
  const ir::Type &arrayType = op.operand(arrayOperand)->type();
  ScalarKind element = arrayType.scalarKind();
  llvm::Type *elementType = memoryType(context_, element);
  int64_t elementSize = ir::byteSize(element);
  bool scalarElements = !arrayType.isRecordArray();
  llvm::Value *byteOffset = nullptr;
  llvm::Value *elementOffset = nullptr;
  for (unsigned d = 0; d < ndim; ++d) {
    const ir::Value *index = op.operand(firstIndex + d);
    if (!index->type().isInteger())
      throw CompileError(op.location(), "array index has type " + index->type().str());
    llvm::Value *index64 =
        castScalar(scalar(index, op), index->type().scalarKind(), ScalarKind::Int64);
    if (merge)
      index64 = checkedIndex(op, index64, !index->type().isSignedInteger(), value.shape[d], d,
                             merge, failures, guards);
    auto *constantStride = llvm::dyn_cast<llvm::ConstantInt>(value.strides[d]);
    bool inElements =
        scalarElements && constantStride && constantStride->getSExtValue() % elementSize == 0;
    llvm::Value *&offset = inElements ? elementOffset : byteOffset;
    llvm::Value *term = builder_.CreateMul(
        index64, inElements ? builder_.getInt64(constantStride->getSExtValue() / elementSize)
                            : value.strides[d]);
    offset = offset ? builder_.CreateAdd(offset, term) : term;
  }
  llvm::Value *address = value.data;
  if (byteOffset)
    address = builder_.CreateInBoundsGEP(builder_.getInt8Ty(), address, byteOffset);
  if (elementOffset)
    address = builder_.CreateInBoundsGEP(elementType, address, elementOffset);
  if (!merge)
    return guardedByDeferredChecks(address);
  llvm::Value *scratch = moduleLowering_.indexScratch(address->getType()->getPointerAddressSpace());
  if (!guards.empty())
    address = builder_.CreateSelect(builder_.CreateAnd(guards), address, scratch);
  address = guardedByDeferredChecks(address);
  llvm::BasicBlock *inBounds = builder_.GetInsertBlock();
  builder_.CreateBr(merge);
  builder_.SetInsertPoint(merge);
  llvm::PHINode *checked = builder_.CreatePHI(address->getType(), unsigned(failures.size()) + 1);
  checked->addIncoming(address, inBounds);
  for (llvm::BasicBlock *failure : failures)
    checked->addIncoming(scratch, failure);
  return checked;
}

bool FunctionLowering::reportIndexError(const ir::Operation &op, llvm::Value *index,
                                        bool isUnsigned, llvm::Value *extent, unsigned axis,
                                        llvm::BasicBlock *merge,
                                        std::vector<llvm::BasicBlock *> &failures,
                                        llvm::BasicBlock *fail) {
  builder_.SetInsertPoint(fail);
  target_.emitIndexError(builder_, op.location(), function_.name(), builder_.getInt64(axis), index,
                         extent, isUnsigned, moduleLowering_.exceptionNumber(op));
  if (target_.indexErrorEndsThread())
    return true;
  builder_.CreateBr(merge);
  failures.push_back(builder_.GetInsertBlock());
  return false;
}

const FunctionLowering::IndexCheck *FunctionLowering::redundantBy(const ir::Block *block,
                                                                  llvm::Value *index, bool wraps,
                                                                  llvm::Value *extent) {
  if (!dominators_)
    dominators_.emplace(function_);
  // Checks are made in the order of lowering, so one in the same block came earlier.
  auto dominates = [&](const IndexCheck &check) {
    return dominators_->dominates(check.block, block);
  };
  auto same = indexChecks_.find({extent, index});
  if (same != indexChecks_.end() && same->second.wraps == wraps && dominates(same->second))
    return &same->second;
  auto *constant = llvm::dyn_cast<llvm::ConstantInt>(index);
  if (!constant || wraps)
    return nullptr;
  auto largest = largestConstantChecks_.find(extent);
  if (largest != largestConstantChecks_.end() &&
      constant->getZExtValue() <= largest->second.first && dominates(largest->second.second))
    return &largest->second.second;
  return nullptr;
}

llvm::Value *FunctionLowering::checkedIndex(const ir::Operation &op, llvm::Value *index,
                                            bool isUnsigned, llvm::Value *extent, unsigned axis,
                                            llvm::BasicBlock *merge,
                                            std::vector<llvm::BasicBlock *> &failures,
                                            std::vector<llvm::Value *> &guards) {
  // An index that is already Python's wraparound (`i < 0 ? i + extent : i`, or `c + extent`
  // for a negative constant `c`, as the frontend writes them) is checked as `i`: the
  // wraparound below is the same one, the check then runs on the induction variable itself,
  // the report names the index the user wrote, and an index below -extent is not wrapped
  // twice into range.
  namespace match = llvm::PatternMatch;
  llvm::Value *source = nullptr;
  const llvm::APInt *constant = nullptr;
  if (match::match(index, match::m_Select(
                              match::m_SpecificICmp(llvm::ICmpInst::ICMP_SLT,
                                                    match::m_Value(source), match::m_Zero()),
                              match::m_c_Add(match::m_Deferred(source), match::m_Specific(extent)),
                              match::m_Deferred(source))))
    index = source;
  else if (match::match(index,
                        match::m_c_Add(match::m_APInt(constant), match::m_Specific(extent))) &&
           constant->isNegative())
    index = llvm::ConstantInt::get(index->getType(), *constant);
  auto *constantIndex = llvm::dyn_cast<llvm::ConstantInt>(index);
  // No wraparound: an unsigned index is never negative, however large, nor is a constant
  // one that is not.
  bool wraps = !isUnsigned && !(constantIndex && !constantIndex->isNegative());
  const ir::Block *block = op.parent();
  if (const IndexCheck *earlier = redundantBy(block, index, wraps, extent)) {
    if (earlier->endsThread) // then this check passes: the earlier one did
      return wraps ? earlier->checked : index;
    // The access needs its own compare: the earlier one's value need not dominate it, the
    // failure of an axis before it having skipped it.
    if (!wraps) {
      guards.push_back(builder_.CreateICmpULT(index, extent, "index.in_range"));
      return index;
    }
  }
  // Not after a failed axis of this access that the thread goes on from: its path to the
  // access's end would bypass the compare.
  if (constantIndex && !wraps && failures.empty() &&
      (op.opcode() == Opcode::Load || op.opcode() == Opcode::Store)) {
    guards.push_back(deferCheck(op, index, isUnsigned, extent, axis));
    return index;
  }
  reportDeferredChecks(); // before this check's own report, which comes later in program order
  // The common case first, as one unsigned compare of the index itself: `index u< extent` on
  // an induction variable is the range check LLVM's IRCE splits out of a loop, so the thread
  // loop of a checked kernel keeps a check-free main loop that vectorises.
  llvm::BasicBlock *checkStart = builder_.GetInsertBlock();
  llvm::Value *inRange = builder_.CreateICmpULT(index, extent, "index.in_range");
  auto *ok = llvm::BasicBlock::Create(context_, "bounds.ok", &out_, merge);
  auto *fail = llvm::BasicBlock::Create(context_, "bounds.fail", &out_, merge);
  llvm::MDBuilder weights(context_);
  IndexCheck check{block, index, wraps, false};
  auto remember = [&] { rememberCheck(extent, index, check); };
  if (!wraps) {
    builder_.CreateCondBr(inRange, ok, fail, weights.createLikelyBranchWeights());
    check.endsThread = reportIndexError(op, index, isUnsigned, extent, axis, merge, failures, fail);
    builder_.SetInsertPoint(ok);
    remember();
    return index;
  }
  auto *negative = llvm::BasicBlock::Create(context_, "bounds.negative", &out_, merge);
  builder_.CreateCondBr(inRange, ok, negative, weights.createLikelyBranchWeights());

  // A negative index counts from the end. Unsigned, `index + extent u< extent` holds exactly
  // for -extent <= index < 0: a non-negative index that failed above sums to extent or more.
  builder_.SetInsertPoint(negative);
  llvm::Value *wrapped = builder_.CreateAdd(index, extent, "index.wrapped");
  llvm::Value *wrappedInRange = builder_.CreateICmpULT(wrapped, extent, "index.wrapped_in_range");
  builder_.CreateCondBr(wrappedInRange, ok, fail, weights.createLikelyBranchWeights());

  check.endsThread = reportIndexError(op, index, isUnsigned, extent, axis, merge, failures, fail);
  builder_.SetInsertPoint(ok);
  llvm::PHINode *checked = builder_.CreatePHI(index->getType(), 2, "index.checked");
  checked->addIncoming(index, checkStart);
  checked->addIncoming(wrapped, negative);
  check.checked = checked;
  remember();
  return checked;
}

void FunctionLowering::rememberCheck(llvm::Value *extent, llvm::Value *index,
                                     const IndexCheck &check) {
  indexChecks_[{extent, index}] = check;
  auto *constantIndex = llvm::dyn_cast<llvm::ConstantInt>(index);
  if (!constantIndex || check.wraps)
    return;
  // A larger constant decides more later checks; one that no longer dominates, none.
  auto [largest, added] =
      largestConstantChecks_.try_emplace(extent, constantIndex->getZExtValue(), check);
  if (!added && (constantIndex->getZExtValue() >= largest->second.first ||
                 !dominators_->dominates(largest->second.second.block, check.block)))
    largest->second = {constantIndex->getZExtValue(), check};
}

bool FunctionLowering::keepsDeferredChecksOpen(const ir::Operation &op) {
  // A check of its own reports the deferred ones first (checkedIndex).
  return op.opcode() == Opcode::Store || !ir::hasSideEffects(op.opcode());
}

llvm::Value *FunctionLowering::deferCheck(const ir::Operation &op, llvm::Value *index,
                                          bool isUnsigned, llvm::Value *extent, unsigned axis) {
  llvm::Value *inRange = builder_.CreateICmpULT(index, extent, "index.in_range");
  deferredChecksHeld_ =
      deferredChecksHeld_ ? builder_.CreateAnd(deferredChecksHeld_, inRange) : inRange;
  deferredChecks_.push_back({&op, index, extent, axis, isUnsigned, inRange});
  // Until the report, a later access it decides keeps a compare of its own.
  rememberCheck(extent, index, IndexCheck{op.parent(), index, false, false});
  return inRange;
}

llvm::Value *FunctionLowering::guardedByDeferredChecks(llvm::Value *address) {
  if (deferredChecks_.empty() || !target_.indexErrorEndsThread())
    return address;
  llvm::Value *scratch = moduleLowering_.indexScratch(address->getType()->getPointerAddressSpace());
  return builder_.CreateSelect(deferredChecksHeld_, address, scratch);
}

void FunctionLowering::reportDeferredChecks() {
  if (deferredChecks_.empty())
    return;
  std::vector<DeferredCheck> checks = std::move(deferredChecks_);
  deferredChecks_.clear();
  llvm::Value *held = deferredChecksHeld_;
  deferredChecksHeld_ = nullptr;
  auto *report = llvm::BasicBlock::Create(context_, "bounds.deferred_fail", &out_);
  auto *after = llvm::BasicBlock::Create(context_, "bounds.deferred_ok", &out_);
  builder_.CreateCondBr(held, after, report, llvm::MDBuilder(context_).createLikelyBranchWeights());
  // The first in program order that failed: the last, unless one before it did.
  builder_.SetInsertPoint(report);
  llvm::Value *first = builder_.getInt32(uint32_t(checks.size() - 1));
  for (size_t i = checks.size() - 1; i-- > 0;)
    first = builder_.CreateSelect(checks[i].inRange, first, builder_.getInt32(uint32_t(i)));
  std::vector<llvm::BasicBlock *> reports;
  for (size_t i = 0; i < checks.size(); ++i)
    reports.push_back(llvm::BasicBlock::Create(context_, "bounds.deferred_report", &out_));
  llvm::SwitchInst *choice =
      builder_.CreateSwitch(first, reports.back(), unsigned(checks.size() - 1));
  std::vector<llvm::BasicBlock *> goneOn; // the reports the thread goes on from
  bool endsThread = false;
  for (size_t i = 0; i < checks.size(); ++i) {
    const DeferredCheck &check = checks[i];
    if (i + 1 < checks.size())
      choice->addCase(builder_.getInt32(uint32_t(i)), reports[i]);
    endsThread = reportIndexError(*check.op, check.index, check.isUnsigned, check.extent,
                                  check.axis, after, goneOn, reports[i]);
  }
  builder_.SetInsertPoint(after);
  if (!endsThread)
    return;
  // Past the report the checks held, as checks that end the thread do.
  for (const DeferredCheck &check : checks) {
    auto same = indexChecks_.find({check.extent, check.index});
    if (same != indexChecks_.end() && same->second.block == check.op->parent())
      same->second.endsThread = true;
    auto largest = largestConstantChecks_.find(check.extent);
    if (largest != largestConstantChecks_.end() && largest->second.second.checked == check.index &&
        largest->second.second.block == check.op->parent())
      largest->second.second.endsThread = true;
  }
}

llvm::Value *FunctionLowering::lowerArrayIndex(const ir::Operation &op) {
  const ArrayValue &value = array(op.operand(0), op);
  int64_t dim = op.attrAs<int64_t>();
  if (dim < 0 || dim >= int64_t(value.shape.size()))
    throw CompileError(op.location(), "dimension " + std::to_string(dim) + " of a " +
                                          op.operand(0)->type().str() + " does not exist");
  bool isUnsigned = !op.operand(1)->type().isSignedInteger();
  llvm::Value *index = scalar(op.operand(1), op);
  llvm::Value *extent = value.shape[dim];
  if (!moduleLowering_.options().boundsCheck) {
    if (isUnsigned)
      return index;
    llvm::Value *negative = builder_.CreateICmpSLT(index, builder_.getInt64(0));
    return builder_.CreateSelect(negative, builder_.CreateAdd(index, extent), index);
  }
  auto *merge = llvm::BasicBlock::Create(context_, "bounds.merge", &out_);
  std::vector<llvm::BasicBlock *> failures;
  std::vector<llvm::Value *> guards;
  llvm::Value *checked =
      checkedIndex(op, index, isUnsigned, extent, unsigned(dim), merge, failures, guards);
  if (!guards.empty())
    checked = builder_.CreateSelect(guards.front(), checked, builder_.getInt64(0));
  llvm::BasicBlock *inBounds = builder_.GetInsertBlock();
  builder_.CreateBr(merge);
  builder_.SetInsertPoint(merge);
  // After a reported error the kernel goes on with index 0, as a load goes on with scratch.
  llvm::PHINode *result = builder_.CreatePHI(index->getType(), unsigned(failures.size()) + 1);
  result->addIncoming(checked, inBounds);
  for (llvm::BasicBlock *failure : failures)
    result->addIncoming(builder_.getInt64(0), failure);
  return result;
}

void FunctionLowering::lowerArrayView(const ir::Operation &op) {
  const ArrayValue &source = array(op.operand(0), op);
  ir::Type type = op.resultType();
  ArrayValue view;
  view.data = builder_.CreateGEP(builder_.getInt8Ty(), source.data, scalar(op.operand(1), op));
  for (unsigned d = 0; d < type.ndim(); ++d) {
    view.shape.push_back(scalar(op.operand(2 + d), op));
    view.strides.push_back(scalar(op.operand(2 + type.ndim() + d), op));
  }
  arrays_[op.result()] = applyLayout(std::move(view), type, context_);
}

void FunctionLowering::lowerArrayAt(const ir::Operation &op) {
  ir::Type type = op.resultType();
  ArrayValue array;
  // The address is a generic one, as a kernel argument's pointer is.
  llvm::Value *generic =
      builder_.CreateIntToPtr(scalar(op.operand(0), op), llvm::PointerType::get(context_, 0));
  array.data =
      builder_.CreateAddrSpaceCast(generic, moduleLowering_.parameterTypes(type, false).front());
  for (unsigned d = 0; d < type.ndim(); ++d) {
    array.shape.push_back(scalar(op.operand(1 + d), op));
    array.strides.push_back(scalar(op.operand(1 + type.ndim() + d), op));
  }
  arrays_[op.result()] = applyLayout(std::move(array), type, context_);
}

// A field of records: the records' extents and strides, then the field's own, from the
// field's first byte on.
void FunctionLowering::lowerField(const ir::Operation &op) {
  ArrayValue view = array(op.operand(0), op);
  const ir::RecordField &f = *op.operand(0)->type().record()->field(op.attrAs<std::string>());
  view.data = builder_.CreateConstGEP1_64(builder_.getInt8Ty(), view.data, uint64_t(f.offset));
  for (int64_t extent : f.shape)
    view.shape.push_back(builder_.getInt64(uint64_t(extent)));
  for (int64_t stride : f.strides())
    view.strides.push_back(builder_.getInt64(uint64_t(stride)));
  arrays_[op.result()] = applyLayout(std::move(view), op.resultType(), context_);
}

// Numba's float atomic max and min: a NaN value changes nothing, and neither does anything
// once the element is a NaN (nanmax and nanmin replace it). A compare-and-swap loop on the
// bits that stops as soon as the element is not below (above) the value: returns the element
// as it was before.
llvm::Value *FunctionLowering::lowerFloatMaxMin(llvm::Value *address, llvm::Value *value,
                                                bool max) {
  constexpr auto kOrdering = llvm::AtomicOrdering::Monotonic;
  llvm::Type *floatType = value->getType();
  llvm::Type *bitsType = builder_.getIntNTy(floatType->getPrimitiveSizeInBits());
  llvm::Align alignment(floatType->getPrimitiveSizeInBits() / 8);
  llvm::Function *function = builder_.GetInsertBlock()->getParent();
  llvm::LLVMContext &context = function->getContext();
  auto *compare = llvm::BasicBlock::Create(context, "atomic.compare", function);
  auto *swap = llvm::BasicBlock::Create(context, "atomic.swap", function);
  auto *done = llvm::BasicBlock::Create(context, "atomic.done", function);

  llvm::LoadInst *first = builder_.CreateAlignedLoad(bitsType, address, alignment, "atomic.first");
  first->setAtomic(kOrdering);
  llvm::BasicBlock *entry = builder_.GetInsertBlock();
  builder_.CreateCondBr(builder_.CreateFCmpUNO(value, value), done, compare);

  builder_.SetInsertPoint(compare);
  llvm::PHINode *seen = builder_.CreatePHI(bitsType, 2, "atomic.seen");
  seen->addIncoming(first, entry);
  llvm::Value *seenValue = builder_.CreateBitCast(seen, floatType);
  // Ordered comparisons: false for a NaN element, which then stays.
  llvm::Value *improves =
      max ? builder_.CreateFCmpOLT(seenValue, value) : builder_.CreateFCmpOGT(seenValue, value);
  builder_.CreateCondBr(improves, swap, done);

  builder_.SetInsertPoint(swap);
  llvm::Value *exchanged = builder_.CreateAtomicCmpXchg(
      address, seen, builder_.CreateBitCast(value, bitsType), alignment, kOrdering, kOrdering);
  llvm::Value *current = builder_.CreateExtractValue(exchanged, 0);
  seen->addIncoming(current, swap);
  builder_.CreateCondBr(builder_.CreateExtractValue(exchanged, 1), done, compare);

  builder_.SetInsertPoint(done);
  llvm::PHINode *before = builder_.CreatePHI(bitsType, 3, "atomic.before");
  before->addIncoming(first, entry);
  before->addIncoming(seen, compare);
  before->addIncoming(seen, swap);
  return builder_.CreateBitCast(before, floatType);
}

llvm::Value *FunctionLowering::lowerAtomic(const ir::Operation &op) {
  using RMW = llvm::AtomicRMWInst;
  ScalarKind kind = op.operand(0)->type().scalarKind();
  llvm::Align alignment(ir::byteSize(kind));
  constexpr auto kOrdering = llvm::AtomicOrdering::Monotonic; // CUDA's atomics are relaxed
  if (op.opcode() == Opcode::AtomicCAS) {
    llvm::Value *exchanged =
        builder_.CreateAtomicCmpXchg(elementAddress(op, 0, 3), scalar(op.operand(1), op),
                                     scalar(op.operand(2), op), alignment, kOrdering, kOrdering);
    return builder_.CreateExtractValue(exchanged, 0);
  }
  const std::string &name = op.attrAs<std::string>();
  llvm::Value *value = scalar(op.operand(1), op);
  if (name == "sub" && ir::isFloat(kind)) // GPUs add floats atomically but cannot subtract
    return builder_.CreateAtomicRMW(RMW::FAdd, elementAddress(op, 0, 2), builder_.CreateFNeg(value),
                                    alignment, kOrdering);
  if ((name == "max" || name == "min") && ir::isFloat(kind))
    return lowerFloatMaxMin(elementAddress(op, 0, 2), value, name == "max");
  std::optional<RMW::BinOp> operation = atomicOperation(name, kind);
  if (!operation)
    throw CompileError(op.location(), "unknown atomic operation '" + name + "'");
  return builder_.CreateAtomicRMW(*operation, elementAddress(op, 0, 2), value, alignment,
                                  kOrdering);
}

// printf with Numba's conversions (ir/PrintfFormat.h): integers as %lld / %llu, floats as
// %f, bools as True / False, and NUL bytes as %c of 0.
void FunctionLowering::lowerPrint(const ir::Operation &op) {
  ir::PrintfFormat printf = ir::printfFormat(op);
  std::vector<llvm::Value *> args;
  for (const ir::PrintfArgument &argument : printf.arguments) {
    using Kind = ir::PrintfArgument::Kind;
    if (argument.kind == Kind::Nul) {
      args.push_back(builder_.getInt32(0)); // %c takes an int
      continue;
    }
    const ir::Value *operand = op.operand(argument.operand);
    ScalarKind kind = operand->type().scalarKind();
    llvm::Value *value = scalar(operand, op);
    if (argument.kind == Kind::Bool)
      args.push_back(builder_.CreateSelect(value, target_.emitCString(builder_, "True"),
                                           target_.emitCString(builder_, "False")));
    else
      args.push_back(castScalar(value, kind,
                                argument.kind == Kind::Float    ? ScalarKind::Float64
                                : argument.kind == Kind::Signed ? ScalarKind::Int64
                                                                : ScalarKind::UInt64));
  }
  target_.emitPrintf(builder_, target_.emitCString(builder_, printf.format), args);
}

void FunctionLowering::lowerDynamicSharedArray(const ir::Operation &op) {
  ir::Type type = op.resultType();
  uint64_t elementSize = type.elementSize();
  Target::DynamicShared memory =
      target_.emitDynamicShared(builder_, arrayAlignment(uint64_t(op.attrAs<int64_t>()), type));
  ArrayValue value;
  value.data = memory.data;
  value.shape.push_back(builder_.CreateUDiv(memory.bytes, builder_.getInt64(elementSize)));
  value.strides.push_back(builder_.getInt64(elementSize));
  arrays_[op.result()] = std::move(value);
}

void FunctionLowering::lowerStaticArray(const ir::Operation &op) {
  bool shared = op.opcode() == Opcode::SharedArray;
  bool constant = op.opcode() == Opcode::ConstArray;
  const char *what = shared ? "shared array" : constant ? "constant array" : "local array";
  ir::Type type = op.resultType();
  const auto &shape =
      constant ? op.attrAs<ir::ConstantData>().shape : op.attrAs<ir::ArrayAllocation>().shape;
  if (!type.isArray() || shape.size() != type.ndim())
    throw CompileError(op.location(),
                       std::string(what) + " shape does not match its type " + type.str());
  uint64_t elementSize = type.elementSize();
  uint64_t requested = constant ? 0 : uint64_t(op.attrAs<ir::ArrayAllocation>().alignment);
  uint64_t count = 1;
  constexpr uint64_t kMaxBytes = uint64_t(1) << 32;
  for (int64_t extent : shape) {
    if (extent <= 0)
      throw CompileError(op.location(), std::string(what) + " extent must be positive, got " +
                                            std::to_string(extent));
    if (uint64_t(extent) > kMaxBytes / elementSize / count)
      throw CompileError(op.location(), std::string(what) + " is too large");
    count *= uint64_t(extent);
  }
  // Records are bytes to LLVM: fields are reached by byte offsets.
  llvm::Type *element =
      type.isRecordArray() ? builder_.getInt8Ty() : elementMemoryType(context_, type);
  if (type.isRecordArray())
    count *= elementSize;
  llvm::Type *storage = llvm::ArrayType::get(element, count);
  llvm::Align alignment(arrayAlignment(requested, type));
  ArrayValue value;
  if (shared) {
    value.data = target_.emitSharedStorage(builder_, storage, alignment.value(),
                                           function_.name() + ".shared" +
                                               std::to_string(sharedArrayCount_++));
  } else if (constant) {
    // A module constant in the target's constant space (the GPU's constant cache).
    auto *contents =
        llvm::ConstantDataArray::getRaw(op.attrAs<ir::ConstantData>().bytes, count, element);
    auto *global = new llvm::GlobalVariable(
        *out_.getParent(), storage, true, llvm::GlobalValue::InternalLinkage, contents,
        function_.name() + ".const", nullptr, llvm::GlobalValue::NotThreadLocal,
        target_.addressSpace(ir::MemorySpace::Constant));
    global->setAlignment(alignment);
    value.data = global;
  } else {
    // In the entry block, so a local array in a loop is one allocation, not one per iteration.
    llvm::IRBuilder<> entry(&out_.getEntryBlock(), out_.getEntryBlock().begin());
    llvm::AllocaInst *slot = entry.CreateAlloca(storage, nullptr, "local");
    slot->setAlignment(alignment);
    value.data = slot;
  }
  uint64_t stride = elementSize;
  value.strides.resize(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    value.strides[d] = builder_.getInt64(stride);
    stride *= uint64_t(shape[d]);
  }
  for (int64_t extent : shape)
    value.shape.push_back(builder_.getInt64(uint64_t(extent)));
  arrays_[op.result()] = std::move(value);
}

void FunctionLowering::lowerCall(const ir::Operation &op) {
  const std::string &name = op.attrAs<std::string>();
  const ir::Function *callee = moduleLowering_.module().lookup(name);
  if (!callee)
    throw CompileError(op.location(), "call to unknown function '" + name + "'");
  if (callee->isKernel())
    throw CompileError(op.location(), "kernel '" + name + "' cannot be called from device code");
  std::vector<ir::Type> paramTypes = callee->paramTypes();
  if (paramTypes.size() != op.numOperands())
    throw CompileError(op.location(), "'" + name + "' takes " + std::to_string(paramTypes.size()) +
                                          " argument(s), got " + std::to_string(op.numOperands()));
  std::vector<llvm::Value *> args;
  for (unsigned i = 0; i < op.numOperands(); ++i) {
    ir::Type argType = op.operand(i)->type();
    ir::Type paramType = paramTypes[i];
    // The callee reads strides from its own layout; a C argument to an 'any' parameter
    // still passes its real strides, which equal the constant ones.
    bool compatible = argType.isArray() ? paramType.isArray() &&
                                              argType.elementType() == paramType.elementType() &&
                                              argType.ndim() == paramType.ndim() &&
                                              argType.memorySpace() == paramType.memorySpace()
                                        : argType == paramType;
    if (!compatible)
      throw CompileError(op.location(), "argument " + std::to_string(i + 1) + " of '" + name +
                                            "' has type " + argType.str() + ", expected " +
                                            paramType.str());
    for (llvm::Value *part : parts(op.operand(i), op))
      args.push_back(part);
  }
  if (target_.implicitParameterType(context_))
    args.push_back(out_.getArg(out_.arg_size() - 1));
  llvm::Value *result = builder_.CreateCall(moduleLowering_.lowered(callee), args);
  if (op.result()) {
    if (op.resultType() != callee->returnType())
      throw CompileError(op.location(), "call of '" + name + "' expects a result of type " +
                                            op.resultType().str() + ", but it returns " +
                                            callee->returnType().str());
    scalars_[op.result()] = result;
  }
}

// Numba's ABI for cuda.declare_device: `extern "C" __device__ int f(T *result, args...)`, the
// result stored through the pointer and the returned status ignored, as Numba does. The symbol
// stays undefined in the PTX; the driver's linker resolves it (docs/codegen.md).
void FunctionLowering::lowerExternCall(const ir::Operation &op) {
  const std::string &symbol = op.attrAs<std::string>();
  if (!target_.linksCudaDeviceCode())
    throw CompileError(op.location(), "'" + symbol +
                                          "' is a CUDA C++ device function (cuda.declare_device); "
                                          "only the cuda target can link it, not this one");
  llvm::Type *resultType = registerType(context_, op.resultType().scalarKind());
  std::vector<llvm::Type *> paramTypes{llvm::PointerType::get(context_, 0)};
  std::vector<llvm::Value *> args;
  for (ir::Value *operand : op.operands()) {
    args.push_back(scalar(operand, op));
    paramTypes.push_back(args.back()->getType());
  }
  auto *type = llvm::FunctionType::get(builder_.getInt32Ty(), paramTypes, false);
  llvm::Module &module = *out_.getParent();
  llvm::Function *declared = module.getFunction(symbol);
  if (declared && declared->getFunctionType() != type)
    throw CompileError(op.location(),
                       "'" + symbol + "' is called with two different signatures in one kernel");
  if (!declared)
    declared = llvm::Function::Create(type, llvm::Function::ExternalLinkage, symbol, module);
  llvm::IRBuilder<> entry(&out_.getEntryBlock(), out_.getEntryBlock().begin());
  llvm::AllocaInst *slot = entry.CreateAlloca(resultType, nullptr, symbol + ".result");
  llvm::Value *pointer = builder_.CreateAddrSpaceCast(slot, paramTypes[0]);
  args.insert(args.begin(), pointer);
  builder_.CreateCall(declared, args);
  scalars_[op.result()] = builder_.CreateLoad(resultType, slot);
}

void FunctionLowering::lowerReturn(const ir::Operation &op) {
  ir::Type returnType = function_.returnType();
  if (op.numOperands() == 0) {
    if (!returnType.isVoid())
      throw CompileError(op.location(),
                         "function '" + function_.name() + "' must return a " + returnType.str());
    builder_.CreateRetVoid();
    return;
  }
  if (op.operand(0)->type() != returnType)
    throw CompileError(op.location(), "function '" + function_.name() + "' returns " +
                                          returnType.str() + ", not " +
                                          op.operand(0)->type().str());
  builder_.CreateRet(scalar(op.operand(0), op));
}

void FunctionLowering::lowerRaise(const ir::Operation &op) {
  const auto *exception = std::get_if<std::string>(&op.attr());
  target_.emitRaise(builder_, op.location(), function_.name(), exception ? *exception : "",
                    exception ? moduleLowering_.exceptionNumber(op) : 0);
}

std::vector<std::vector<llvm::Value *>>
FunctionLowering::successorArguments(const ir::Successor &successor,
                                     const ir::Operation &op) const {
  const ir::Block &target = *successor.block;
  if (successor.args.size() != target.arguments().size())
    throw CompileError(op.location(), "branch passes " + std::to_string(successor.args.size()) +
                                          " argument(s) to a block that takes " +
                                          std::to_string(target.arguments().size()));
  std::vector<std::vector<llvm::Value *>> arguments;
  for (size_t i = 0; i < successor.args.size(); ++i) {
    if (successor.args[i]->type() != target.argument(i)->type())
      throw CompileError(op.location(), "branch passes a " + successor.args[i]->type().str() +
                                            " to a block argument of type " +
                                            target.argument(i)->type().str());
    arguments.push_back(parts(successor.args[i], op));
  }
  return arguments;
}

void FunctionLowering::addIncoming(const ir::Block &target,
                                   const std::vector<std::vector<llvm::Value *>> &arguments,
                                   const ir::Operation &op) {
  llvm::BasicBlock *from = builder_.GetInsertBlock();
  for (size_t i = 0; i < arguments.size(); ++i) {
    std::vector<llvm::Value *> phis = parts(target.argument(i), op);
    for (size_t p = 0; p < phis.size(); ++p)
      llvm::cast<llvm::PHINode>(phis[p])->addIncoming(arguments[i][p], from);
  }
}

void FunctionLowering::lowerBranch(const ir::Operation &op) {
  const auto &successors = op.successors();
  if (op.opcode() == Opcode::Br) {
    if (successors.size() != 1)
      throw CompileError(op.location(), "'br' needs one successor");
    addIncoming(*successors[0].block, successorArguments(successors[0], op), op);
    builder_.CreateBr(blocks_.at(successors[0].block));
    return;
  }
  if (successors.size() != 2 || op.numOperands() != 1 || !op.operand(0)->type().isBool())
    throw CompileError(op.location(), "'cond_br' needs a bool condition and two successors");
  llvm::Value *condition = scalar(op.operand(0), op);
  auto ifTrue = successorArguments(successors[0], op);
  auto ifFalse = successorArguments(successors[1], op);
  if (successors[0].block == successors[1].block) {
    // One LLVM edge cannot carry two sets of phi inputs: choose the arguments first.
    for (size_t i = 0; i < ifTrue.size(); ++i)
      for (size_t p = 0; p < ifTrue[i].size(); ++p)
        ifTrue[i][p] = builder_.CreateSelect(condition, ifTrue[i][p], ifFalse[i][p]);
    addIncoming(*successors[0].block, ifTrue, op);
    builder_.CreateBr(blocks_.at(successors[0].block));
    return;
  }
  addIncoming(*successors[0].block, ifTrue, op);
  addIncoming(*successors[1].block, ifFalse, op);
  builder_.CreateCondBr(condition, blocks_.at(successors[0].block),
                        blocks_.at(successors[1].block));
}

} // namespace

void lowerModule(const ir::Module &module, const Target &target, const LoweringOptions &options,
                 llvm::Module &out) {
  ModuleLowering(module, target, options, out).run();
}

} // namespace kaji::codegen
