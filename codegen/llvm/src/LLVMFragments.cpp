// Matrix fragments (ir/MatrixFragments.h): each thread's elements are memory it allocates
// (promoted to registers by LLVM where every index is a constant); the target loads, stores and
// multiplies them (Target.h).
#include "FunctionLowering.h"

#include "kaji/ir/MatrixFragments.h"

namespace kaji::codegen::lowering {

llvm::Value *FunctionLowering::lowerFragment(const ir::Operation &op) {
  ir::Type fragment = op.opcode() == Opcode::Fragment        ? op.resultType()
                      : op.opcode() == Opcode::FragmentStore ? op.operand(1)->type()
                                                             : op.operand(0)->type();
  ir::MatrixInstruction instruction = ir::instructionOf(fragment.matrixShape());
  bool placed = instruction == ir::MatrixInstruction::Wgmma ||
                (instruction == ir::MatrixInstruction::Mma && target_.placesMmaElements());
  unsigned length =
      placed ? ir::placedElements(fragment) : target_.fragmentLength(context_, fragment);
  llvm::Type *element = memoryType(context_, fragment.scalarKind());
  // x[i]: checked, and from the end for a negative i, as an array's element is.
  auto elementAt = [&]() {
    llvm::Value *index =
        wrappedIndex(op, scalar(op.operand(1), op), false, builder_.getInt64(length), 0);
    return builder_.CreateGEP(element, scalar(op.operand(0), op), index);
  };
  switch (op.opcode()) {
  case Opcode::Fragment: {
    // A warpgroup accumulator a wait lowered earlier already allocated (warpgroupAccumulators).
    if (auto lowered = scalars_.find(op.result()); lowered != scalars_.end())
      return lowered->second;
    // In the entry block, so a fragment made in a loop is one allocation, not one per iteration.
    llvm::IRBuilder<> entry(&out_.getEntryBlock(), out_.getEntryBlock().begin());
    llvm::AllocaInst *storage =
        entry.CreateAlloca(llvm::ArrayType::get(element, length), nullptr, "fragment");
    storage->setAlignment(llvm::Align(16));
    return storage;
  }
  case Opcode::FragmentFill: {
    llvm::Value *value = scalar(op.operand(1), op);
    builder_.CreateAlignedStore(builder_.CreateVectorSplat(length, value),
                                scalar(op.operand(0), op), llvm::Align(16));
    return nullptr;
  }
  case Opcode::FragmentLoad:
  case Opcode::FragmentStore: {
    bool load = op.opcode() == Opcode::FragmentLoad;
    const ir::Value *arrayOperand = op.operand(load ? 1 : 0);
    ir::Type array = arrayOperand->type();
    ir::MatrixLayout layout = fragment.matrixUse() == ir::MatrixUse::Accumulator
                                  ? op.attrAs<ir::MatrixLayout>()
                              : fragment.layout() == ir::Layout::C ? ir::MatrixLayout::Row
                                                                   : ir::MatrixLayout::Col;
    llvm::Value *storage = scalar(op.operand(load ? 0 : 1), op);
    llvm::Value *matrix = this->array(arrayOperand, op).data;
    llvm::Value *ldm = scalar(op.operand(2), op);
    if (placed && load && loadsMatrixRows(fragment, array))
      loadMatrixRows(fragment, storage, matrix, ldm, layout);
    else if (placed)
      copyPlacedElements(fragment, storage, matrix, ldm, layout, load);
    else if (load)
      target_.emitFragmentLoad(builder_, fragment, storage, matrix, array.memorySpace(), ldm,
                               layout);
    else
      target_.emitFragmentStore(builder_, fragment, storage, matrix, array.memorySpace(), ldm,
                                layout);
    return nullptr;
  }
  case Opcode::FragmentMma:
    target_.emitFragmentMma(builder_, fragment, op.operand(1)->type(), op.operand(2)->type(),
                            scalar(op.operand(0), op), scalar(op.operand(1), op),
                            scalar(op.operand(2), op), scalar(op.operand(3), op));
    return nullptr;
  case Opcode::WarpgroupMma: {
    ir::MatrixShapeExtents extents = ir::extentsOf(fragment.matrixShape());
    llvm::Value *a = warpgroupMatrix(op, 1, extents.m, extents.k);
    llvm::Value *b = warpgroupMatrix(op, 2, extents.n, extents.k);
    target_.emitWarpgroupMma(builder_, fragment, scalar(op.operand(0), op), a, b,
                             op.operand(1)->type().scalarKind(), linearThreadIndex());
    return nullptr;
  }
  case Opcode::FragmentLength:
    return builder_.getInt64(length);
  case Opcode::FragmentGet:
    return builder_.CreateLoad(element, elementAt());
  case Opcode::FragmentSet:
    builder_.CreateStore(scalar(op.operand(2), op), elementAt());
    return nullptr;
  default:
    break;
  }
  throw CompileError(op.location(), "not a matrix fragment operation");
}

llvm::Value *FunctionLowering::linearThreadIndex() {
  auto special = [&](ir::SpecialReg::Kind kind, unsigned dim) {
    return builder_.CreateZExt(target_.emitSpecialReg(builder_, ir::SpecialReg{kind, uint8_t(dim)}),
                               builder_.getInt64Ty());
  };
  llvm::Value *y = special(ir::SpecialReg::ThreadIdx, 1),
              *z = special(ir::SpecialReg::ThreadIdx, 2);
  llvm::Value *plane =
      builder_.CreateAdd(y, builder_.CreateMul(special(ir::SpecialReg::BlockDim, 1), z));
  return builder_.CreateAdd(special(ir::SpecialReg::ThreadIdx, 0),
                            builder_.CreateMul(special(ir::SpecialReg::BlockDim, 0), plane));
}

// Each thread loads or stores its own elements (ir::elementPlacement), as the GPU's do: no
// thread reads what another writes.
void FunctionLowering::copyPlacedElements(const ir::Type &fragment, llvm::Value *storage,
                                          llvm::Value *matrix, llvm::Value *ldm,
                                          ir::MatrixLayout layout, bool load) {
  llvm::Value *thread = linearThreadIndex();
  llvm::Value *lane = builder_.CreateAnd(thread, 31);
  llvm::Value *group = builder_.CreateLShr(lane, 2);
  llvm::Value *inGroup = builder_.CreateAnd(lane, 3);
  llvm::Value *warp = builder_.CreateAnd(builder_.CreateLShr(thread, 5), 3);
  auto place = [&](const ir::LanePlacement &placement) {
    llvm::Value *sum = builder_.getInt64(placement.offset);
    for (auto [factor, index] :
         {std::pair{placement.group, group}, {placement.thread, inGroup}, {placement.warp, warp}})
      if (factor)
        sum = builder_.CreateAdd(sum, builder_.CreateMul(index, builder_.getInt64(factor)));
    return sum;
  };
  llvm::Type *element = memoryType(context_, fragment.scalarKind());
  for (unsigned i = 0; i < ir::placedElements(fragment); ++i) {
    ir::ElementPlacement placement = ir::elementPlacement(fragment, i);
    llvm::Value *row = place(placement.row), *column = place(placement.column);
    llvm::Value *offset = layout == ir::MatrixLayout::Row
                              ? builder_.CreateAdd(builder_.CreateMul(row, ldm), column)
                              : builder_.CreateAdd(builder_.CreateMul(column, ldm), row);
    llvm::Value *inMatrix = builder_.CreateGEP(element, matrix, offset);
    llvm::Value *inStorage = builder_.CreateConstGEP1_32(element, storage, i);
    if (load)
      builder_.CreateStore(builder_.CreateLoad(element, inMatrix), inStorage);
    else
      builder_.CreateStore(builder_.CreateLoad(element, inStorage), inMatrix);
  }
}

bool FunctionLowering::loadsMatrixRows(const ir::Type &fragment, const ir::Type &array) const {
  return target_.loadsMatrixRows() &&
         ir::instructionOf(fragment.matrixShape()) == ir::MatrixInstruction::Mma &&
         fragment.matrixUse() != ir::MatrixUse::Accumulator &&
         ir::byteSize(fragment.scalarKind()) == 2 && array.memorySpace() == ir::MemorySpace::Shared;
}

// Rows of 8 elements at a time where every row the warp reads starts on a 16-byte boundary (the
// matrix's start and ldm's bytes multiples of 16: the same in every lane, as the warp loads one
// matrix), element by element otherwise.
void FunctionLowering::loadMatrixRows(const ir::Type &fragment, llvm::Value *storage,
                                      llvm::Value *matrix, llvm::Value *ldm,
                                      ir::MatrixLayout layout) {
  llvm::Value *bits = builder_.CreateOr(builder_.CreatePtrToInt(matrix, builder_.getInt64Ty()),
                                        builder_.CreateShl(ldm, 1));
  llvm::Value *aligned = builder_.CreateICmpEQ(builder_.CreateAnd(bits, 15), builder_.getInt64(0));
  auto *rows = llvm::BasicBlock::Create(context_, "fragment.rows", &out_);
  auto *elements = llvm::BasicBlock::Create(context_, "fragment.elements", &out_);
  auto *loaded = llvm::BasicBlock::Create(context_, "fragment.loaded", &out_);
  builder_.CreateCondBr(aligned, rows, elements);
  builder_.SetInsertPoint(rows);
  target_.emitMatrixRowsLoad(builder_, fragment, storage, matrix, ldm, layout);
  builder_.CreateBr(loaded);
  builder_.SetInsertPoint(elements);
  copyPlacedElements(fragment, storage, matrix, ldm, layout, true);
  builder_.CreateBr(loaded);
  builder_.SetInsertPoint(loaded);
}

std::vector<Target::WarpgroupAccumulator> FunctionLowering::warpgroupAccumulators() {
  std::vector<Target::WarpgroupAccumulator> accumulators;
  for (const auto &block : function_.blocks())
    for (const auto &op : block->operations())
      if (op->opcode() == Opcode::Fragment &&
          ir::isWarpgroupShape(op->resultType().matrixShape())) {
        auto lowered = scalars_.find(op->result());
        llvm::Value *storage = lowered != scalars_.end() ? lowered->second : nullptr;
        if (!storage) {
          llvm::IRBuilderBase::InsertPointGuard keep(builder_);
          storage = scalars_[op->result()] = lowerFragment(*op);
        }
        accumulators.push_back({op->resultType(), storage});
      }
  return accumulators;
}

} // namespace kaji::codegen::lowering
