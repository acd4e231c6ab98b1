// NVPTXTarget's matrix fragments: LLVM's llvm.nvvm.wmma intrinsics, which ptxas turns into the
// tensor cores' instructions. A fragment's memory holds the intrinsics' registers in order (each
// 32 bits: two f16, two bf16, four 8-bit integers, a tf32, f32 or s32), so a thread's elements
// are the registers' parts, as CUDA's fragment::x has them.
#include "NVPTXTarget.h"

#include "kaji/codegen/PtxFragments.h"
#include "kaji/ir/MatrixFragments.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Module.h>

#include <cassert>
#include <string>

namespace kaji::codegen {

namespace {

std::string prefix(const ir::Type &fragment) {
  return "llvm.nvvm.wmma." + std::string(ir::matrixShapeName(fragment.matrixShape())) + ".";
}

std::string layoutName(ir::MatrixLayout layout) { return std::string(ir::attributeName(layout)); }

ir::MatrixLayout layoutOf(const ir::Type &fragment) {
  return fragment.layout() == ir::Layout::F ? ir::MatrixLayout::Col : ir::MatrixLayout::Row;
}

// The intrinsic `name`, which MatrixFragments.def's rows all have.
llvm::Intrinsic::ID intrinsicNamed(const std::string &name) {
  llvm::Intrinsic::ID id = llvm::Function::lookupIntrinsicID(name);
  if (id == llvm::Intrinsic::not_intrinsic)
    throw ir::CompileError(ir::Location{}, "LLVM has no intrinsic " + name);
  return id;
}

llvm::Function *intrinsic(llvm::Module &module, const std::string &name,
                          llvm::ArrayRef<llvm::Type *> overloads = {}) {
  return llvm::Intrinsic::getDeclaration(&module, intrinsicNamed(name), overloads);
}

// The load intrinsic of `fragment`, overloaded on the matrix's pointer type: its registers are
// its struct result's members.
std::string loadIntrinsicName(const ir::Type &fragment, ir::MatrixLayout layout) {
  std::string use = fragment.matrixUse() == ir::MatrixUse::A   ? "a"
                    : fragment.matrixUse() == ir::MatrixUse::B ? "b"
                                                               : "c";
  return prefix(fragment) + "load." + use + "." + layoutName(layout) + ".stride." +
         std::string(ptxFragmentKind(fragment));
}

std::vector<llvm::Type *> registersOf(llvm::LLVMContext &context, const ir::Type &fragment) {
  llvm::Intrinsic::ID load = intrinsicNamed(loadIntrinsicName(fragment, ir::MatrixLayout::Row));
  llvm::Type *result = llvm::Intrinsic::getType(context, load, {llvm::PointerType::get(context, 0)})
                           ->getReturnType();
  // A fragment of one register (B of m32n8k16 and A of m8n32k16 in 8 bits) is that register.
  auto *registers = llvm::dyn_cast<llvm::StructType>(result);
  if (!registers)
    return {result};
  return {registers->element_begin(), registers->element_end()};
}

// Registers of `types` read from a fragment's memory, 32 bits each.
std::vector<llvm::Value *> readRegistersAs(llvm::IRBuilderBase &builder,
                                           llvm::ArrayRef<llvm::Type *> types,
                                           llvm::Value *storage) {
  std::vector<llvm::Value *> values;
  unsigned offset = 0;
  for (llvm::Type *type : types) {
    llvm::Value *address = builder.CreateConstGEP1_32(builder.getInt8Ty(), storage, offset);
    values.push_back(builder.CreateAlignedLoad(type, address, llvm::Align(4)));
    offset += 4;
  }
  return values;
}

// The fragment's registers, read from its memory.
std::vector<llvm::Value *> readRegisters(llvm::IRBuilderBase &builder, const ir::Type &fragment,
                                         llvm::Value *storage) {
  return readRegistersAs(builder, registersOf(builder.getContext(), fragment), storage);
}

void writeRegisters(llvm::IRBuilderBase &builder, llvm::Value *registers, llvm::Value *storage) {
  auto *type = llvm::dyn_cast<llvm::StructType>(registers->getType());
  unsigned count = type ? type->getNumElements() : 1;
  for (unsigned i = 0; i < count; ++i) {
    llvm::Value *address = builder.CreateConstGEP1_32(builder.getInt8Ty(), storage, 4 * i);
    builder.CreateAlignedStore(type ? builder.CreateExtractValue(registers, {i}) : registers,
                               address, llvm::Align(4));
  }
}

// mma.sync (llvm.nvvm.mma): row-major A registers by column-major B registers, its operands'
// register types the intrinsic's parameters, a's then b's then c's.
void emitMmaSync(llvm::IRBuilderBase &builder, const ir::Type &accumulator, const ir::Type &a,
                 const ir::Type &b, llvm::Value *d, llvm::Value *aStorage, llvm::Value *bStorage,
                 llvm::Value *c) {
  std::string kinds =
      a.scalarKind() == ir::ScalarKind::Float16 ? "f32.f32" : std::string(ptxFragmentKind(a));
  std::string name = "llvm.nvvm.mma." +
                     std::string(ir::matrixShapeName(accumulator.matrixShape())) + ".row.col." +
                     kinds;
  llvm::Function *mma = intrinsic(*builder.GetInsertBlock()->getModule(), name);
  llvm::ArrayRef<llvm::Type *> parameters = mma->getFunctionType()->params();
  std::vector<llvm::Value *> args;
  size_t first = 0;
  for (auto [fragment, storage] : {std::pair{a, aStorage}, {b, bStorage}, {accumulator, c}}) {
    unsigned count = ptxFragmentRegisters(fragment);
    for (llvm::Value *value : readRegistersAs(builder, parameters.slice(first, count), storage))
      args.push_back(value);
    first += count;
  }
  writeRegisters(builder, builder.CreateCall(mma, args), d);
}

} // namespace

unsigned NVPTXTarget::fragmentLength([[maybe_unused]] llvm::LLVMContext &context,
                                     const ir::Type &fragment) const {
  assert(registersOf(context, fragment).size() == ptxFragmentRegisters(fragment) &&
         "LLVM's wmma intrinsics hold the registers the PTX ISA lists");
  return ptxFragmentElements(fragment);
}

void NVPTXTarget::emitFragmentLoad(llvm::IRBuilderBase &builder, const ir::Type &fragment,
                                   llvm::Value *storage, llvm::Value *matrix, ir::MemorySpace,
                                   llvm::Value *ldm, ir::MatrixLayout layout) const {
  llvm::Module &module = *builder.GetInsertBlock()->getModule();
  llvm::Function *load =
      intrinsic(module, loadIntrinsicName(fragment, layout), {matrix->getType()});
  llvm::Value *stride = builder.CreateTrunc(ldm, builder.getInt32Ty());
  writeRegisters(builder, builder.CreateCall(load, {matrix, stride}), storage);
}

void NVPTXTarget::emitFragmentStore(llvm::IRBuilderBase &builder, const ir::Type &fragment,
                                    llvm::Value *storage, llvm::Value *matrix, ir::MemorySpace,
                                    llvm::Value *ldm, ir::MatrixLayout layout) const {
  llvm::Module &module = *builder.GetInsertBlock()->getModule();
  std::string name = prefix(fragment) + "store.d." + layoutName(layout) + ".stride." +
                     std::string(ptxFragmentKind(fragment));
  llvm::Function *store = intrinsic(module, name, {matrix->getType()});
  std::vector<llvm::Value *> args{matrix};
  for (llvm::Value *value : readRegisters(builder, fragment, storage))
    args.push_back(value);
  args.push_back(builder.CreateTrunc(ldm, builder.getInt32Ty()));
  builder.CreateCall(store, args);
}

// ldmatrix: each lane gives the address of one row of 8 elements of one of the x4 (A, 16 x 16)
// or x2 (B, 16 x 8) 8 x 8 matrices, matrix j of A at fragment rows 8 (j % 2), columns
// 8 (j / 2), of B at rows (k) 8 j; each lane receives its elements of matrix j in register j,
// where mma.sync wants them. A matrix stored across the registers' rows (A column major, B row
// major) is read transposed (.trans).
void NVPTXTarget::emitMatrixRowsLoad(llvm::IRBuilderBase &builder, const ir::Type &fragment,
                                     llvm::Value *storage, llvm::Value *matrix, llvm::Value *ldm,
                                     ir::MatrixLayout layout) const {
  bool isA = fragment.matrixUse() == ir::MatrixUse::A;
  bool rowMajor = layout == ir::MatrixLayout::Row;
  bool transposed = isA != rowMajor;
  llvm::Value *lane = builder.CreateZExt(
      builder.CreateIntrinsic(llvm::Intrinsic::nvvm_read_ptx_sreg_laneid, {}, {}),
      builder.getInt64Ty());
  llvm::Value *inMatrix = builder.CreateAnd(lane, 7);
  llvm::Value *matrixIndex = builder.CreateLShr(lane, 3);
  // The matrix's first row and column in the fragment's terms (A: m, k; B: k, n).
  llvm::Value *firstRow = builder.CreateMul(builder.CreateAnd(matrixIndex, 1), builder.getInt64(8));
  llvm::Value *firstColumn =
      isA ? builder.CreateMul(builder.CreateLShr(matrixIndex, 1), builder.getInt64(8))
          : builder.getInt64(0);
  // The memory row this lane reads runs along the fragment's rows when stored row major (A) or
  // column major (B, whose registers hold columns): its line and first element there.
  llvm::Value *line, *start;
  if (isA == rowMajor) {
    line = builder.CreateAdd(isA ? firstRow : firstColumn, inMatrix);
    start = isA ? firstColumn : firstRow;
  } else {
    line = builder.CreateAdd(isA ? firstColumn : firstRow, inMatrix);
    start = isA ? firstRow : firstColumn;
  }
  llvm::Value *offset = builder.CreateAdd(builder.CreateMul(line, ldm), start);
  llvm::Value *address = builder.CreateGEP(builder.getInt16Ty(), matrix, offset);
  unsigned shared = addressSpace(ir::MemorySpace::Shared);
  if (address->getType()->getPointerAddressSpace() != shared)
    address = builder.CreateAddrSpaceCast(address, builder.getPtrTy(shared));
  llvm::Intrinsic::ID load =
      isA ? (transposed ? llvm::Intrinsic::nvvm_ldmatrix_sync_aligned_m8n8_x4_trans_b16
                        : llvm::Intrinsic::nvvm_ldmatrix_sync_aligned_m8n8_x4_b16)
          : (transposed ? llvm::Intrinsic::nvvm_ldmatrix_sync_aligned_m8n8_x2_trans_b16
                        : llvm::Intrinsic::nvvm_ldmatrix_sync_aligned_m8n8_x2_b16);
  writeRegisters(builder, builder.CreateIntrinsic(load, {address->getType()}, {address}), storage);
}

void NVPTXTarget::emitFragmentMma(llvm::IRBuilderBase &builder, const ir::Type &accumulator,
                                  const ir::Type &a, const ir::Type &b, llvm::Value *d,
                                  llvm::Value *aStorage, llvm::Value *bStorage,
                                  llvm::Value *c) const {
  if (ir::instructionOf(accumulator.matrixShape()) == ir::MatrixInstruction::Mma)
    return emitMmaSync(builder, accumulator, a, b, d, aStorage, bStorage, c);
  std::string kinds = ptxFragmentKind(a) == "f16"
                          ? std::string(ptxFragmentKind(accumulator)) + "." +
                                std::string(ptxFragmentKind(accumulator))
                          : std::string(ptxFragmentKind(a));
  std::string name = prefix(accumulator) + "mma." + layoutName(layoutOf(a)) + "." +
                     layoutName(layoutOf(b)) + "." + kinds;
  llvm::Module &module = *builder.GetInsertBlock()->getModule();
  llvm::Function *mma = intrinsic(module, name);
  std::vector<llvm::Value *> args;
  for (auto [fragment, storage] : {std::pair{a, aStorage}, {b, bStorage}, {accumulator, c}})
    for (llvm::Value *value : readRegisters(builder, fragment, storage))
      args.push_back(value);
  writeRegisters(builder, builder.CreateCall(mma, args), d);
}

} // namespace kaji::codegen
