// Matrix fragments (ir/MatrixFragments.h): each thread's elements are memory it allocates
// (promoted to registers by LLVM where every index is a constant); the target loads, stores and
// multiplies them (Target.h).
#include "FunctionLowering.h"

namespace kaji::codegen::lowering {

llvm::Value *FunctionLowering::lowerFragment(const ir::Operation &op) {
  ir::Type fragment = op.opcode() == Opcode::Fragment        ? op.resultType()
                      : op.opcode() == Opcode::FragmentStore ? op.operand(1)->type()
                                                             : op.operand(0)->type();
  unsigned length = target_.fragmentLength(context_, fragment);
  llvm::Type *element = memoryType(context_, fragment.scalarKind());
  // x[i]: checked, and from the end for a negative i, as an array's element is.
  auto elementAt = [&]() {
    llvm::Value *index =
        wrappedIndex(op, scalar(op.operand(1), op), false, builder_.getInt64(length), 0);
    return builder_.CreateGEP(element, scalar(op.operand(0), op), index);
  };
  switch (op.opcode()) {
  case Opcode::Fragment: {
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
    if (load)
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

} // namespace kaji::codegen::lowering
