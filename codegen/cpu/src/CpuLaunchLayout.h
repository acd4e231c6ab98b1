// The LLVM view of what a host kernel receives: abi::CpuLaunchContext, and the implicit
// parameter every lowered function takes (CpuTarget.h), with the helpers that read them.
#pragma once

#include "kaji/abi/CpuKernelABI.h"

#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/IRBuilder.h>

#include <cstddef>

namespace kaji::codegen {

// Field numbers of CpuLaunchContext in its LLVM type, checked against the C++ layout.
enum ContextField : unsigned {
  kThreadIdx,
  kBlockIdx,
  kBlockDim,
  kGridDim,
  kSharedMemory,
  kExecutor,
  kBarrier,
  kIndexError,
  kWarpBarrier,
  kWarpCollective,
  kBlockReduce,
  kSharedBytes,
  kGridBarrier,
  kRaiseException,
  kYield,
  kBlockCount,
  kLaunchFailed,
  kThreadStorage
};
using abi::CpuLaunchContext;
static_assert(
    offsetof(CpuLaunchContext, threadIdx) == 0 && offsetof(CpuLaunchContext, blockIdx) == 12 &&
        offsetof(CpuLaunchContext, blockDim) == 24 && offsetof(CpuLaunchContext, gridDim) == 36 &&
        offsetof(CpuLaunchContext, sharedMemory) == 48 &&
        offsetof(CpuLaunchContext, executor) == 56 && offsetof(CpuLaunchContext, barrier) == 64 &&
        offsetof(CpuLaunchContext, indexError) == 72 &&
        offsetof(CpuLaunchContext, warpBarrier) == 80 &&
        offsetof(CpuLaunchContext, warpCollective) == 88 &&
        offsetof(CpuLaunchContext, blockReduce) == 96 &&
        offsetof(CpuLaunchContext, sharedBytes) == 104 &&
        offsetof(CpuLaunchContext, gridBarrier) == 112 &&
        offsetof(CpuLaunchContext, raiseException) == 120 &&
        offsetof(CpuLaunchContext, yield) == 128 && offsetof(CpuLaunchContext, blockCount) == 136 &&
        offsetof(CpuLaunchContext, launchFailed) == 144 &&
        offsetof(CpuLaunchContext, threadStorage) == 152,
    "CpuLaunchContext no longer matches contextType()");

// Field numbers of the implicit parameter (see CpuTarget.h); the first four are
// ir::SpecialReg::Kind.
enum ImplicitField : unsigned {
  kImplicitTid = 0,
  kImplicitCtaid = 1,
  kImplicitNtid = 2,
  kImplicitShared = 4,
  kImplicitContext = 5,
  kImplicitGlobalX = 6
};

inline llvm::StructType *contextType(llvm::LLVMContext &context) {
  llvm::Type *coordinates = llvm::ArrayType::get(llvm::Type::getInt32Ty(context), 3);
  llvm::Type *pointer = llvm::PointerType::get(context, 0);
  llvm::Type *i64 = llvm::Type::getInt64Ty(context);
  return llvm::StructType::get(context,
                               {coordinates, coordinates, coordinates, coordinates, pointer,
                                pointer, pointer, pointer, pointer, pointer, pointer, i64, pointer,
                                pointer, pointer, i64, pointer, pointer});
}

inline llvm::StructType *implicitType(llvm::LLVMContext &context) {
  llvm::Type *coordinates = llvm::ArrayType::get(llvm::Type::getInt32Ty(context), 3);
  llvm::Type *pointer = llvm::PointerType::get(context, 0);
  return llvm::StructType::get(context, {coordinates, coordinates, coordinates, coordinates,
                                         pointer, pointer, llvm::Type::getInt64Ty(context)});
}

// The implicit parameter of the function the builder inserts into: its last.
inline llvm::Value *implicitArgument(llvm::IRBuilderBase &builder) {
  llvm::Function *function = builder.GetInsertBlock()->getParent();
  return function->getArg(function->arg_size() - 1);
}

inline llvm::Value *loadContextField(llvm::IRBuilderBase &builder, llvm::Value *context,
                                     ContextField field, llvm::Type *type, const char *name) {
  llvm::Value *address = builder.CreateStructGEP(contextType(builder.getContext()), context, field);
  return builder.CreateLoad(type, address, name);
}

inline llvm::Value *contextPointer(llvm::IRBuilderBase &builder) {
  return builder.CreateExtractValue(implicitArgument(builder), kImplicitContext, "context");
}

// The thread's index in its block, x fastest (as the block's thread storage is laid out), and
// the block's number of threads, as i64s, from an implicit parameter.
inline llvm::Value *linearThreadIndex(llvm::IRBuilderBase &builder, llvm::Value *implicit) {
  llvm::Type *i64 = builder.getInt64Ty();
  auto field = [&](ImplicitField kind, unsigned dim) {
    return builder.CreateZExt(builder.CreateExtractValue(implicit, {unsigned(kind), dim}), i64);
  };
  llvm::Value *linear = builder.CreateAdd(
      builder.CreateMul(field(kImplicitTid, 2), field(kImplicitNtid, 1)), field(kImplicitTid, 1));
  linear = builder.CreateAdd(builder.CreateMul(linear, field(kImplicitNtid, 0)),
                             field(kImplicitTid, 0), "thread.linear");
  return linear;
}

inline llvm::Value *blockThreadCount(llvm::IRBuilderBase &builder, llvm::Value *implicit) {
  llvm::Type *i64 = builder.getInt64Ty();
  llvm::Value *count = builder.getInt64(1);
  for (unsigned dim = 0; dim < 3; ++dim)
    count = builder.CreateNUWMul(
        count, builder.CreateZExt(builder.CreateExtractValue(implicit, {kImplicitNtid, dim}), i64));
  return count;
}

} // namespace kaji::codegen
