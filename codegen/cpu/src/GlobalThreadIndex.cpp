#include "GlobalThreadIndex.h"

#include "CpuLaunchLayout.h"

#include <llvm/Analysis/CFG.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PatternMatch.h>
#include <llvm/Transforms/Utils/Local.h>

#include <vector>

namespace kaji::codegen {
namespace {

namespace match = llvm::PatternMatch;

// The function's implicit parameter, if it takes one (every lowered function does, last).
llvm::Argument *implicitParameter(const llvm::Function &function) {
  if (function.isDeclaration() || function.arg_empty())
    return nullptr;
  llvm::Argument *last = function.getArg(function.arg_size() - 1);
  return last->getType() == implicitType(function.getContext()) ? last : nullptr;
}

// Whether `value` is the x coordinate `field` of `implicit`, as read or extended from its 32
// bits to `type`. Coordinates are below 2^31, so sign and zero extension agree.
bool isCoordinateX(llvm::Value *value, llvm::Argument &implicit, ImplicitField field,
                   llvm::Type *type) {
  llvm::Value *read = value;
  if (value->getType() != type)
    return false;
  if (!value->getType()->isIntegerTy(32) &&
      !match::match(value, match::m_ZExtOrSExt(match::m_Value(read))))
    return false;
  auto *extract = llvm::dyn_cast<llvm::ExtractValueInst>(read);
  return extract && extract->getAggregateOperand() == &implicit &&
         extract->getIndices() == llvm::ArrayRef<unsigned>{unsigned(field), 0};
}

// Whether `sum` adds threadIdx.x to blockIdx.x * blockDim.x, each as isCoordinateX reads it, in
// 32 bits (wrapping, as the global index truncated does) or 64 (exactly: below 2^42).
bool isGlobalIndexX(llvm::Instruction &sum, llvm::Argument &implicit) {
  llvm::Type *type = sum.getType();
  if (!type->isIntegerTy(32) && !type->isIntegerTy(64))
    return false;
  llvm::Value *thread = nullptr, *block = nullptr, *threads = nullptr;
  if (!match::match(&sum,
                    match::m_c_Add(match::m_Value(thread),
                                   match::m_c_Mul(match::m_Value(block), match::m_Value(threads)))))
    return false;
  return isCoordinateX(thread, implicit, kImplicitTid, type) &&
         ((isCoordinateX(block, implicit, kImplicitCtaid, type) &&
           isCoordinateX(threads, implicit, kImplicitNtid, type)) ||
          (isCoordinateX(threads, implicit, kImplicitCtaid, type) &&
           isCoordinateX(block, implicit, kImplicitNtid, type)));
}

// Whether a use of the implicit parameter reads the block's place or memory: blockIdx.x, the
// threadIdx.x it is told from, or shared memory; or leaves where that cannot be seen.
bool readsBlock(const llvm::Use &use) {
  if (auto *extract = llvm::dyn_cast<llvm::ExtractValueInst>(use.getUser())) {
    llvm::ArrayRef<unsigned> indices = extract->getIndices();
    bool placeX = (indices[0] == kImplicitTid || indices[0] == kImplicitCtaid) &&
                  (indices.size() == 1 || indices[1] == 0);
    return (placeX || indices[0] == kImplicitShared) && !extract->use_empty();
  }
  if (auto *call = llvm::dyn_cast<llvm::CallBase>(use.getUser())) {
    llvm::Function *callee = call->getCalledFunction();
    return !callee || callee->isDeclaration() || !call->isArgOperand(&use) ||
           implicitParameter(*callee) != callee->getArg(call->getArgOperandNo(&use));
  }
  return true;
}

} // namespace

void readGlobalThreadIndex(llvm::Module &module) {
  for (llvm::Function &function : module) {
    llvm::Argument *implicit = implicitParameter(function);
    if (!implicit)
      continue;
    std::vector<llvm::Instruction *> sums;
    for (llvm::Instruction &instruction : llvm::instructions(function))
      if (isGlobalIndexX(instruction, *implicit))
        sums.push_back(&instruction);
    for (llvm::Instruction *sum : sums) {
      llvm::IRBuilder<> builder(sum);
      llvm::Value *globalX = builder.CreateExtractValue(implicit, kImplicitGlobalX, "global.x");
      sum->replaceAllUsesWith(builder.CreateTrunc(globalX, sum->getType()));
      llvm::RecursivelyDeleteTriviallyDeadInstructions(sum);
    }
  }
}

bool threadsMayRunAcrossBlocks(const llvm::Module &module) {
  for (const llvm::Function &function : module) {
    if (function.isDeclaration())
      continue;
    llvm::SmallVector<std::pair<const llvm::BasicBlock *, const llvm::BasicBlock *>> backEdges;
    llvm::FindFunctionBackedges(function, backEdges);
    llvm::Argument *implicit = implicitParameter(function);
    if (!backEdges.empty() || (implicit && llvm::any_of(implicit->uses(), readsBlock)))
      return false;
  }
  return true;
}

} // namespace kaji::codegen
