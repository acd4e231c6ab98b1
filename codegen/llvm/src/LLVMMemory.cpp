#include "FunctionLowering.h"

#include "PythonArithmetic.h"
#include "kaji/ir/RecordType.h"
#include "kaji/ir/StaticArrays.h"

#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/Support/ErrorHandling.h>

#include <cassert>

#include <cassert>

namespace kaji::codegen::lowering {
namespace {

// The atomicrmw operation of kaji's atomic `operation` on `kind` elements. nanmax and nanmin treat
// NaN as a missing value, as atomicrmw's fmax and fmin do; float max and min are not atomicrmw's
// (lowerFloatMaxMin).
llvm::AtomicRMWInst::BinOp atomicOperation(ir::AtomicOperationKind operation, ScalarKind kind) {
  using RMW = llvm::AtomicRMWInst;
  using Atomic = ir::AtomicOperationKind;
  bool isFloat = ir::isFloat(kind), isSigned = ir::isSigned(kind);
  switch (operation) {
  case Atomic::Add:
    return isFloat ? RMW::FAdd : RMW::Add;
  case Atomic::Sub:
    return RMW::Sub;
  case Atomic::NanMax:
    return RMW::FMax;
  case Atomic::NanMin:
    return RMW::FMin;
  case Atomic::Max:
    assert(!isFloat && "float max is lowerFloatMaxMin's");
    return isSigned ? RMW::Max : RMW::UMax;
  case Atomic::Min:
    assert(!isFloat && "float min is lowerFloatMaxMin's");
    return isSigned ? RMW::Min : RMW::UMin;
  case Atomic::Exch:
    return RMW::Xchg;
  case Atomic::And:
    return RMW::And;
  case Atomic::Or:
    return RMW::Or;
  case Atomic::Xor:
    return RMW::Xor;
  case Atomic::Inc:
    return RMW::UIncWrap;
  case Atomic::Dec:
    return RMW::UDecWrap;
  }
  llvm_unreachable("an atomic operation AtomicOperations.def does not list");
}

} // namespace

llvm::Value *FunctionLowering::elementAddress(const ir::Operation &op, unsigned arrayOperand,
                                              unsigned firstIndex) {
  assert(op.numOperands() > arrayOperand && op.operand(arrayOperand)->type().isArray() &&
         "verified: an element access has an array operand");
  const ArrayValue &value = array(op.operand(arrayOperand), op);
  unsigned ndim = op.operand(arrayOperand)->type().ndim();
  assert(op.numOperands() - firstIndex == ndim && "verified: one index per dimension");
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
    assert(index->type().isInteger() && "verified: an index is i64 or u64");
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
  return addressAfterChecks(address, merge, failures, guards);
}

llvm::Value *FunctionLowering::spanAddress(const ir::Operation &op, unsigned arrayOperand,
                                           int64_t count) {
  const ArrayValue &value = array(op.operand(arrayOperand), op);
  unsigned ndim = op.operand(arrayOperand)->type().ndim();
  assert(ndim > 0 && count > 0 && "verified: a span of an array's last axis");
  if (!moduleLowering_.options().boundsCheck)
    return value.data;
  auto *merge = llvm::BasicBlock::Create(context_, "bounds.merge", &out_);
  std::vector<llvm::BasicBlock *> failures;
  std::vector<llvm::Value *> guards;
  for (unsigned d = 0; d < ndim; ++d)
    checkedIndex(op, builder_.getInt64(d + 1 == ndim ? count - 1 : 0), false, value.shape[d], d,
                 merge, failures, guards);
  return addressAfterChecks(value.data, merge, failures, guards);
}

void FunctionLowering::raiseIfMisaligned(const ir::Operation &op,
                                         std::initializer_list<llvm::Value *> addresses,
                                         int64_t alignment) {
  llvm::Value *bits = nullptr;
  for (llvm::Value *address : addresses) {
    llvm::Value *integer = builder_.CreatePtrToInt(address, builder_.getInt64Ty());
    bits = bits ? builder_.CreateOr(bits, integer) : integer;
  }
  raiseMisalignedIf(
      op, builder_.CreateICmpNE(builder_.CreateAnd(bits, builder_.getInt64(alignment - 1)),
                                builder_.getInt64(0)));
}

void FunctionLowering::raiseMisalignedIf(const ir::Operation &op, llvm::Value *misaligned) {
  auto *raise = llvm::BasicBlock::Create(context_, "copy.misaligned", &out_);
  auto *aligned = llvm::BasicBlock::Create(context_, "copy.aligned", &out_);
  llvm::MDBuilder weights(context_);
  builder_.CreateCondBr(misaligned, raise, aligned, weights.createUnlikelyBranchWeights());
  builder_.SetInsertPoint(raise);
  target_.emitRaise(builder_, op.location(), function_.name(), ir::misalignmentException(op),
                    moduleLowering_.misalignmentNumber(op));
  builder_.SetInsertPoint(aligned);
}

llvm::Value *FunctionLowering::warpgroupMatrix(const ir::Operation &op, unsigned arrayOperand,
                                               int64_t rows, int64_t columns) {
  const ArrayValue &value = array(op.operand(arrayOperand), op);
  if (!moduleLowering_.options().boundsCheck)
    return value.data;
  auto *merge = llvm::BasicBlock::Create(context_, "bounds.merge", &out_);
  std::vector<llvm::BasicBlock *> failures;
  std::vector<llvm::Value *> guards;
  checkedIndex(op, builder_.getInt64(rows - 1), false, value.shape[0], 0, merge, failures, guards);
  checkedIndex(op, builder_.getInt64(columns - 1), false, value.shape[1], 1, merge, failures,
               guards);
  llvm::Value *address = addressAfterChecks(value.data, merge, failures, guards);
  int64_t elementSize = ir::byteSize(op.operand(arrayOperand)->type().scalarKind());
  // Bits 4-6 of an address pick its 16-byte chunk in a row, bits 7-9 its row in a group of 8.
  llvm::Value *offsetInGroup =
      builder_.CreateAnd(builder_.CreatePtrToInt(address, builder_.getInt64Ty()), 0x38F);
  llvm::Value *misaligned =
      builder_.CreateOr({builder_.CreateICmpNE(value.strides[0], builder_.getInt64(128)),
                         builder_.CreateICmpNE(value.strides[1], builder_.getInt64(elementSize)),
                         builder_.CreateICmpNE(offsetInGroup, builder_.getInt64(0))});
  raiseMisalignedIf(op, misaligned);
  return address;
}

llvm::Value *FunctionLowering::addressAfterChecks(llvm::Value *address, llvm::BasicBlock *merge,
                                                  const std::vector<llvm::BasicBlock *> &failures,
                                                  const std::vector<llvm::Value *> &guards) {
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
  // Not marked likely: IRCE takes a likely branch in a loop for a range check that every
  // iteration of its main loop must pass, and this one runs only for negative indices. Taken
  // for one, `j - 1 + extent u< extent` would hold for j < 1 alone and leave the main loop
  // of a stencil's thread loop no iterations.
  builder_.CreateCondBr(wrappedInRange, ok, fail, weights.createBranchWeights(1, 1));

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
  assert(dim >= 0 && dim < int64_t(value.shape.size()) && "verified: the dimension exists");
  return wrappedIndex(op, scalar(op.operand(1), op), !op.operand(1)->type().isSignedInteger(),
                      value.shape[dim], unsigned(dim));
}

llvm::Value *FunctionLowering::wrappedIndex(const ir::Operation &op, llvm::Value *index,
                                            bool isUnsigned, llvm::Value *extent, unsigned axis) {
  if (!moduleLowering_.options().boundsCheck) {
    if (isUnsigned)
      return index;
    llvm::Value *negative = builder_.CreateICmpSLT(index, builder_.getInt64(0));
    return builder_.CreateSelect(negative, builder_.CreateAdd(index, extent), index);
  }
  auto *merge = llvm::BasicBlock::Create(context_, "bounds.merge", &out_);
  std::vector<llvm::BasicBlock *> failures;
  std::vector<llvm::Value *> guards;
  llvm::Value *checked = checkedIndex(op, index, isUnsigned, extent, axis, merge, failures, guards);
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
  using Atomic = ir::AtomicOperationKind;
  Atomic operation = op.attrAs<Atomic>();
  llvm::Value *value = scalar(op.operand(1), op);
  if (operation == Atomic::Sub && ir::isFloat(kind)) // GPUs add floats atomically, not subtract
    return builder_.CreateAtomicRMW(RMW::FAdd, elementAddress(op, 0, 2), builder_.CreateFNeg(value),
                                    alignment, kOrdering);
  if ((operation == Atomic::Max || operation == Atomic::Min) && ir::isFloat(kind))
    return lowerFloatMaxMin(elementAddress(op, 0, 2), value, operation == Atomic::Max);
  return builder_.CreateAtomicRMW(atomicOperation(operation, kind), elementAddress(op, 0, 2), value,
                                  alignment, kOrdering);
}

void FunctionLowering::lowerDynamicSharedArray(const ir::Operation &op) {
  ir::Type type = op.resultType();
  uint64_t elementSize = type.elementSize();
  Target::DynamicShared memory = target_.emitDynamicShared(
      builder_, std::max(arrayAlignment(uint64_t(op.attrAs<int64_t>()), type),
                         moduleLowering_.sharedAlignment()));
  ArrayValue value;
  value.data = memory.data;
  value.shape.push_back(builder_.CreateUDiv(memory.bytes, builder_.getInt64(elementSize)));
  value.strides.push_back(builder_.getInt64(elementSize));
  arrays_[op.result()] = std::move(value);
}

void FunctionLowering::lowerStaticArray(const ir::Operation &op) {
  bool shared = op.opcode() == Opcode::SharedArray;
  bool constant = op.opcode() == Opcode::ConstArray;
  ir::Type type = op.resultType();
  const std::vector<int64_t> &shape = ir::staticArrayShape(op);
  uint64_t requested = constant ? 0 : uint64_t(op.attrAs<ir::ArrayAllocation>().alignment);
  uint64_t count = ir::staticArrayStorageCount(op);
  // Records are bytes to LLVM: fields are reached by byte offsets.
  llvm::Type *element =
      type.isRecordArray() ? builder_.getInt8Ty() : elementMemoryType(context_, type);
  llvm::Type *storage = llvm::ArrayType::get(element, count);
  llvm::Align alignment(arrayAlignment(requested, type));
  ArrayValue value;
  if (shared) {
    value.data = target_.emitSharedStorage(
        builder_, storage, std::max(alignment.value(), moduleLowering_.sharedAlignment()),
        function_.name() + ".shared" + std::to_string(sharedArrayCount_++));
  } else if (constant) {
    // A module constant in the target's constant space (the GPU's constant cache). Its bytes
    // are an array of simple elements: a complex number's are its two parts; an empty array
    // keeps one zero element, as no global is empty.
    bool complex = !type.isRecordArray() && ir::isComplex(type.scalarKind());
    llvm::Type *part =
        complex ? memoryType(context_, ir::componentKind(type.scalarKind())) : element;
    uint64_t parts = complex ? 2 * count : count;
    llvm::Constant *contents =
        parts == 0
            ? llvm::Constant::getNullValue(llvm::ArrayType::get(part, 1))
            : llvm::ConstantDataArray::getRaw(op.attrAs<ir::ConstantData>().bytes, parts, part);
    auto *global = new llvm::GlobalVariable(
        *out_.getParent(), contents->getType(), true, llvm::GlobalValue::InternalLinkage, contents,
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
  for (uint64_t stride : ir::staticArrayStrides(op))
    value.strides.push_back(builder_.getInt64(stride));
  for (int64_t extent : shape)
    value.shape.push_back(builder_.getInt64(uint64_t(extent)));
  arrays_[op.result()] = std::move(value);
}

} // namespace kaji::codegen::lowering
