#include "FunctionLowering.h"

#include <algorithm>

namespace kaji::codegen::lowering {

llvm::Type *registerType(llvm::LLVMContext &context, ScalarKind kind) {
  switch (kind) {
  case ScalarKind::Bool:
    return llvm::Type::getInt1Ty(context);
  case ScalarKind::Int8:
  case ScalarKind::UInt8:
  case ScalarKind::Float8E4M3: // its bits: the frontend converts 8-bit floats with integer ops
  case ScalarKind::Float8E5M2:
  case ScalarKind::Float8E8M0:
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

llvm::Type *valueType(llvm::LLVMContext &context, ir::Type type) {
  if (type.isFragment()) // its memory, per thread (LLVMFragments.cpp)
    return llvm::PointerType::get(context, 0);
  llvm::Type *scalar = registerType(context, type.scalarKind());
  if (!type.isVector())
    return scalar;
  return llvm::StructType::get(context, std::vector<llvm::Type *>(type.lanes(), scalar));
}

llvm::Type *memoryType(llvm::LLVMContext &context, ScalarKind kind) {
  return kind == ScalarKind::Bool ? llvm::Type::getInt8Ty(context) : registerType(context, kind);
}

llvm::Type *elementMemoryType(llvm::LLVMContext &context, ir::Type array) {
  return array.isVectorArray() ? valueType(context, array.elementType())
                               : memoryType(context, array.scalarKind());
}

llvm::Align elementAlignment(ir::Type array) { return llvm::Align(array.elementAlignment()); }

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

uint64_t arrayAlignment(uint64_t requested, const ir::Type &array) {
  uint64_t element = array.elementAlignment();
  return requested ? std::max(requested, element) : std::max<uint64_t>(element, 16);
}

} // namespace kaji::codegen::lowering
