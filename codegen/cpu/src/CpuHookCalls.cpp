#include "CpuHookCalls.h"

#include <llvm/ADT/SCCIterator.h>
#include <llvm/Analysis/CallGraph.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>

#include <cstddef>
#include <vector>

namespace kaji::codegen {
namespace {

using abi::CpuRuntimeHooks;

static_assert(offsetof(CpuRuntimeHooks, interruptRequested) == 0 &&
                  sizeof(CpuRuntimeHooks::interruptRequested) == 4 &&
                  offsetof(CpuRuntimeHooks, interrupted) == 8 &&
                  offsetof(CpuRuntimeHooks, stackOverflow) == 16,
              "CpuRuntimeHooks no longer matches what the hook calls load");
static_assert((abi::kRecursionStackBytes & (abi::kRecursionStackBytes - 1)) == 0,
              "recursion stacks are aligned to their size, a power of two");

// Functions that may call themselves. The call graph's root calls the functions visible
// outside the module: the entry, which reaches every function that runs.
std::vector<llvm::Function *> recursiveFunctions(llvm::Module &module) {
  std::vector<llvm::Function *> recursive;
  llvm::CallGraph graph(module);
  for (auto component = llvm::scc_begin(&graph); !component.isAtEnd(); ++component)
    if (component.hasCycle())
      for (llvm::CallGraphNode *node : *component)
        if (llvm::Function *function = node->getFunction(); function && !function->isDeclaration())
          recursive.push_back(function);
  return recursive;
}

class HookCalls {
public:
  HookCalls(llvm::Module &module, const CpuRuntimeHooks &hooks)
      : context_(module.getContext()),
        hooks_(llvm::ConstantExpr::getIntToPtr(
            llvm::ConstantInt::get(llvm::Type::getInt64Ty(context_),
                                   reinterpret_cast<uintptr_t>(&hooks)),
            llvm::PointerType::get(context_, 0))) {}

  // if (hooks->interruptRequested) hooks->interrupted(), before `before`.
  void poll(llvm::Instruction *before) {
    llvm::IRBuilder<> builder(before);
    llvm::LoadInst *requested = builder.CreateAlignedLoad(builder.getInt32Ty(), hooks_,
                                                          llvm::Align(4), "interrupt.requested");
    requested->setAtomic(llvm::AtomicOrdering::Monotonic);
    callIfUnlikely(before, builder.CreateICmpNE(requested, builder.getInt32(0)), "interrupted",
                   offsetof(CpuRuntimeHooks, interrupted), {});
  }

  // if (frame address % kRecursionStackBytes < kRecursionStackReserveBytes)
  //   hooks->stackOverflow(name), before `before`.
  void checkStack(llvm::Instruction *before) {
    llvm::IRBuilder<> builder(before);
    llvm::Value *frame =
        builder.CreatePtrToInt(builder.CreateIntrinsic(llvm::Intrinsic::frameaddress,
                                                       {builder.getPtrTy()}, {builder.getInt32(0)}),
                               builder.getInt64Ty());
    llvm::Value *left =
        builder.CreateAnd(frame, builder.getInt64(abi::kRecursionStackBytes - 1), "stack.left");
    llvm::Function &function = *before->getFunction();
    llvm::Value *name = builder.CreateGlobalString(function.getName(), "kaji.function_name");
    callIfUnlikely(before,
                   builder.CreateICmpULT(left, builder.getInt64(abi::kRecursionStackReserveBytes)),
                   "stack.overflow", offsetof(CpuRuntimeHooks, stackOverflow), {name});
  }

private:
  // Splits the block at `before`: if (condition) the hook at `offset` (arguments), which does
  // not return; else the rest.
  void callIfUnlikely(llvm::Instruction *before, llvm::Value *condition, const char *name,
                      size_t offset, llvm::ArrayRef<llvm::Value *> arguments) {
    llvm::BasicBlock *block = before->getParent();
    llvm::BasicBlock *rest = block->splitBasicBlock(before, block->getName() + ".go_on");
    block->getTerminator()->eraseFromParent();
    auto *hook = llvm::BasicBlock::Create(context_, name, block->getParent(), rest);
    llvm::IRBuilder<> builder(block);
    builder.CreateCondBr(condition, hook, rest,
                         llvm::MDBuilder(context_).createUnlikelyBranchWeights());
    builder.SetInsertPoint(hook);
    llvm::Value *callee =
        builder.CreateLoad(builder.getPtrTy(),
                           builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), hooks_, offset));
    std::vector<llvm::Type *> types;
    for (llvm::Value *argument : arguments)
      types.push_back(argument->getType());
    llvm::CallInst *call = builder.CreateCall(
        llvm::FunctionType::get(builder.getVoidTy(), types, false), callee, arguments);
    call->setDoesNotReturn();
    call->addFnAttr(llvm::Attribute::Cold);
    builder.CreateUnreachable();
  }

  llvm::LLVMContext &context_;
  llvm::Constant *hooks_;
};

// Past the PHIs of a loop header, past the static allocas of an entry block (moved out of it
// they would become dynamic ones).
llvm::Instruction *hookPoint(llvm::BasicBlock &block) {
  llvm::BasicBlock::iterator point = block.getFirstInsertionPt();
  while (llvm::isa<llvm::AllocaInst>(*point))
    ++point;
  return &*point;
}

void collectHeaders(llvm::Loop &loop, std::vector<llvm::BasicBlock *> &headers) {
  headers.push_back(loop.getHeader());
  for (llvm::Loop *inner : loop)
    collectHeaders(*inner, headers);
}

// The optimiser found functions that neither touch memory nor fail to return; a hook call
// makes that untrue, and the code generator must not move calls of them as if it were.
void forgetPurity(llvm::Function &function) {
  static constexpr llvm::Attribute::AttrKind untrue[] = {
      llvm::Attribute::Memory, llvm::Attribute::WillReturn, llvm::Attribute::NoSync};
  for (llvm::Attribute::AttrKind kind : untrue)
    function.removeFnAttr(kind);
  for (llvm::User *user : function.users())
    if (auto *call = llvm::dyn_cast<llvm::CallBase>(user))
      for (llvm::Attribute::AttrKind kind : untrue)
        call->removeFnAttr(kind);
}

} // namespace

bool hasRecursion(llvm::Module &module) { return !recursiveFunctions(module).empty(); }

void insertHookCalls(llvm::Module &module, const CpuRuntimeHooks &hooks) {
  HookCalls calls(module, hooks);
  for (llvm::Function *function : recursiveFunctions(module)) {
    llvm::Instruction *point = hookPoint(function->getEntryBlock());
    calls.checkStack(point);
    calls.poll(point);
    forgetPurity(*function);
  }
  for (llvm::Function &function : module) {
    if (function.isDeclaration())
      continue;
    llvm::DominatorTree dominators(function);
    llvm::LoopInfo loops(dominators);
    std::vector<llvm::BasicBlock *> headers;
    for (llvm::Loop *loop : loops)
      collectHeaders(*loop, headers);
    for (llvm::BasicBlock *header : headers)
      calls.poll(hookPoint(*header));
    if (!headers.empty())
      forgetPurity(function);
  }
}

} // namespace kaji::codegen
