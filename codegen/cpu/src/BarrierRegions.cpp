#include "BarrierRegions.h"

#include "CpuLaunchLayout.h"
#include "CpuTarget.h"
#include "kaji/codegen/llvm/OptimizationPipeline.h"

#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>

#include <algorithm>
#include <unordered_set>

namespace kaji::codegen {
namespace {

// Inlining a function that reaches a barrier into one that does, at most this often: a
// function that calls itself would go on for ever.
constexpr unsigned kMaxInlinedCalls = 256;

bool isBarrier(const llvm::Instruction &instruction) {
  auto *call = llvm::dyn_cast<llvm::CallInst>(&instruction);
  return call && call->getCalledFunction() &&
         call->getCalledFunction()->getName() == kBarrierMarker;
}

// The functions of `module` that call a barrier, directly or through other functions.
std::unordered_set<const llvm::Function *> functionsReachingBarriers(llvm::Module &module) {
  std::unordered_set<const llvm::Function *> reaching;
  if (llvm::Function *marker = module.getFunction(kBarrierMarker))
    reaching.insert(marker);
  for (bool grew = true; grew;) {
    grew = false;
    for (llvm::Function &function : module) {
      if (reaching.count(&function))
        continue;
      for (llvm::Instruction &instruction : llvm::instructions(function)) {
        auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction);
        if (call && reaching.count(call->getCalledFunction())) {
          reaching.insert(&function);
          grew = true;
          break;
        }
      }
    }
  }
  return reaching;
}

// Inlines into `kernel` every call of a function that reaches a barrier, so that its barriers
// are the kernel's own. False for one that cannot be inlined or recurses.
bool inlineBarrierCalls(llvm::Function &kernel) {
  llvm::Module &module = *kernel.getParent();
  std::unordered_set<const llvm::Function *> reaching = functionsReachingBarriers(module);
  for (unsigned inlined = 0;; ++inlined) {
    llvm::CallBase *call = nullptr;
    for (llvm::Instruction &instruction : llvm::instructions(kernel)) {
      auto *candidate = llvm::dyn_cast<llvm::CallBase>(&instruction);
      if (candidate && !isBarrier(*candidate) && reaching.count(candidate->getCalledFunction())) {
        call = candidate;
        break;
      }
    }
    if (!call)
      return true;
    if (inlined == kMaxInlinedCalls || call->getCalledFunction()->isDeclaration())
      return false;
    llvm::InlineFunctionInfo info;
    if (!llvm::InlineFunction(*call, info).isSuccess())
      return false;
  }
}

// The instructions after which a use of `value` needs it from the thread storage: the uses
// that a thread can reach from the start of a region without passing `value`'s definition,
// as after a barrier it is the thread's stored copy that holds it.
llvm::SmallVector<llvm::Use *, 4>
usesAcrossBarriers(llvm::Instruction &value,
                   const llvm::SmallPtrSetImpl<llvm::BasicBlock *> &regionStarts) {
  llvm::BasicBlock *definition = value.getParent();
  llvm::SmallVector<llvm::Use *, 4> across;
  for (llvm::Use &use : value.uses()) {
    auto *user = llvm::cast<llvm::Instruction>(use.getUser());
    // A phi's operand is used at the end of the block it comes from.
    llvm::BasicBlock *start = user->getParent();
    if (auto *phi = llvm::dyn_cast<llvm::PHINode>(user))
      start = phi->getIncomingBlock(use);
    // Barriers end their blocks, so a use in the defining block follows the definition.
    if (start == definition)
      continue;
    llvm::SmallVector<llvm::BasicBlock *, 16> work{start};
    llvm::SmallPtrSet<llvm::BasicBlock *, 32> seen;
    while (!work.empty()) {
      llvm::BasicBlock *block = work.pop_back_val();
      if (!seen.insert(block).second)
        continue;
      if (regionStarts.contains(block)) {
        across.push_back(&use);
        break;
      }
      for (llvm::BasicBlock *predecessor : llvm::predecessors(block))
        if (predecessor != definition)
          work.push_back(predecessor);
    }
  }
  return across;
}

// Whether `value` can be computed again where a region uses it instead of kept in thread
// storage: a pure function of the arguments (the thread's coordinates among them) and
// constants in at most `budget` instructions. Indices such as `blockIdx.x * 16 + tid.x` then
// stay affine in the loop over threads, where loading them would make every access a gather.
bool recomputable(const llvm::Value *value, unsigned &budget) {
  if (llvm::isa<llvm::Constant>(value) || llvm::isa<llvm::Argument>(value))
    return true;
  auto *instruction = llvm::dyn_cast<llvm::Instruction>(value);
  if (!instruction || llvm::isa<llvm::PHINode>(instruction) || budget == 0 ||
      instruction->mayReadOrWriteMemory() || !llvm::isSafeToSpeculativelyExecute(instruction))
    return false;
  --budget;
  for (const llvm::Use &operand : instruction->operands())
    if (!recomputable(operand.get(), budget))
      return false;
  return true;
}

// A copy of recomputable `value`'s instructions before `at`.
llvm::Value *recompute(llvm::Value *value, llvm::BasicBlock::iterator at) {
  auto *instruction = llvm::dyn_cast<llvm::Instruction>(value);
  if (!instruction)
    return value;
  llvm::Instruction *copy = instruction->clone();
  for (llvm::Use &operand : copy->operands())
    operand.set(recompute(operand.get(), at));
  copy->insertBefore(at);
  copy->setName(instruction->getName());
  return copy;
}

constexpr unsigned kMaxRecomputedInstructions = 16;

// The values of a kernel that may differ between the threads of a block; `everything` where
// threads may pass different numbers of barriers (unevenBarriers) and no longer run in step,
// round by round, so that none of their values can be shared.
struct Divergence {
  llvm::DenseSet<const llvm::Value *> values;
  bool everything = false;

  bool contains(const llvm::Value *value) const { return everything || values.contains(value); }
};

// The blocks a thread can reach from `start`, `start` included.
llvm::SmallPtrSet<const llvm::BasicBlock *, 32> reachableFrom(const llvm::BasicBlock *start) {
  llvm::SmallPtrSet<const llvm::BasicBlock *, 32> reached;
  llvm::SmallVector<const llvm::BasicBlock *, 16> work{start};
  while (!work.empty()) {
    const llvm::BasicBlock *block = work.pop_back_val();
    if (reached.insert(block).second)
      work.append(llvm::succ_begin(block), llvm::succ_end(block));
  }
  return reached;
}

// The successors of `from` whose threads can meet those of another successor: a side that
// reaches nothing the others reach (an early `return`) parts from no one.
llvm::SmallVector<const llvm::BasicBlock *, 4> sidesThatMeet(const llvm::BasicBlock &from) {
  llvm::SmallVector<const llvm::BasicBlock *, 4> sides;
  for (const llvm::BasicBlock *side : llvm::successors(&from))
    if (!llvm::is_contained(sides, side))
      sides.push_back(side);
  llvm::SmallVector<llvm::SmallPtrSet<const llvm::BasicBlock *, 32>, 4> reached;
  for (const llvm::BasicBlock *side : sides)
    reached.push_back(reachableFrom(side));
  llvm::SmallVector<const llvm::BasicBlock *, 4> meeting;
  for (size_t i = 0; i < sides.size(); ++i)
    for (size_t j = 0; j < sides.size(); ++j)
      if (i != j && llvm::any_of(reached[i], [&](const llvm::BasicBlock *block) {
            return reached[j].contains(block);
          })) {
        meeting.push_back(sides[i]);
        break;
      }
  return meeting;
}

// Whether threads that part at `from` may pass different numbers of barriers and still meet
// at a later one: a path from `from` avoids a barrier among `between` (the blocks up to
// `join`, where they meet again) and reaches another barrier. Threads that avoid it only to
// return leave the rounds and keep no one out of step.
bool unevenBarriers(const llvm::BasicBlock *from,
                    const llvm::SmallPtrSetImpl<const llvm::BasicBlock *> &between,
                    const llvm::BasicBlock *join,
                    const llvm::SmallPtrSetImpl<llvm::BasicBlock *> &barrierBlocks) {
  llvm::SmallPtrSet<const llvm::BasicBlock *, 8> avoidable;
  for (const llvm::BasicBlock *block : between)
    if (block != join && barrierBlocks.contains(block))
      avoidable.insert(block);
  if (avoidable.empty())
    return false;
  llvm::SmallVector<const llvm::BasicBlock *, 16> work(llvm::successors(from));
  llvm::SmallPtrSet<const llvm::BasicBlock *, 32> seen;
  while (!work.empty()) {
    const llvm::BasicBlock *block = work.pop_back_val();
    if (avoidable.contains(block) || !seen.insert(block).second)
      continue;
    if (barrierBlocks.contains(block))
      return true;
    work.append(llvm::succ_begin(block), llvm::succ_end(block));
  }
  return false;
}

// The values of `kernel` that may differ between the threads of a block: the thread's
// coordinates, what memory, calls with effects and local arrays give, what is computed from
// them, and the values that threads which went different ways meet with — every phi in a block
// that a branch on a divergent condition reaches up to its immediate post-dominator, and every
// value defined in such a block and used outside them (a loop that threads leave after
// different numbers of iterations).
Divergence divergentValues(llvm::Function &kernel,
                           const llvm::SmallPtrSetImpl<llvm::BasicBlock *> &barrierBlocks) {
  llvm::PostDominatorTree postDominators(kernel);
  llvm::DenseSet<const llvm::Value *> divergent;
  llvm::SmallVector<const llvm::Instruction *, 32> work;
  auto mark = [&](const llvm::Value *value) {
    if (auto *instruction = llvm::dyn_cast<llvm::Instruction>(value))
      if (divergent.insert(instruction).second)
        work.push_back(instruction);
  };
  const llvm::Argument *implicit = kernel.getArg(kernel.arg_size() - 1);
  for (llvm::Instruction &instruction : llvm::instructions(kernel)) {
    auto *extract = llvm::dyn_cast<llvm::ExtractValueInst>(&instruction);
    bool threadCoordinate =
        extract && extract->getAggregateOperand() == implicit &&
        (extract->getIndices()[0] == kImplicitTid || extract->getIndices()[0] == kImplicitGlobalX);
    bool fromMemory = !instruction.getType()->isVoidTy() && instruction.mayReadOrWriteMemory();
    if (threadCoordinate || fromMemory || llvm::isa<llvm::AllocaInst>(instruction))
      mark(&instruction);
  }
  llvm::DenseSet<const llvm::BasicBlock *> divergentBranches;
  while (!work.empty()) {
    const llvm::Instruction *value = work.pop_back_val();
    for (const llvm::User *user : value->users()) {
      auto *branch = llvm::dyn_cast<llvm::Instruction>(user);
      if (!branch || !branch->isTerminator()) {
        mark(user);
        continue;
      }
      const llvm::BasicBlock *from = branch->getParent();
      if (branch->getNumSuccessors() < 2 || !divergentBranches.insert(from).second)
        continue;
      llvm::SmallVector<const llvm::BasicBlock *, 4> sides = sidesThatMeet(*from);
      if (sides.size() < 2)
        continue;
      const llvm::DomTreeNode *node = postDominators.getNode(from);
      const llvm::BasicBlock *join =
          node && node->getIDom() ? node->getIDom()->getBlock() : nullptr;
      llvm::SmallPtrSet<const llvm::BasicBlock *, 16> between;
      llvm::SmallVector<const llvm::BasicBlock *, 16> blocks(sides.begin(), sides.end());
      while (!blocks.empty()) {
        const llvm::BasicBlock *block = blocks.pop_back_val();
        if (!between.insert(block).second)
          continue;
        for (const llvm::PHINode &phi : block->phis())
          mark(&phi);
        if (block != join)
          blocks.append(llvm::succ_begin(block), llvm::succ_end(block));
      }
      if (unevenBarriers(from, between, join, barrierBlocks))
        return Divergence{{}, true};
      for (const llvm::BasicBlock *block : between)
        if (block != join)
          for (const llvm::Instruction &defined : *block)
            for (const llvm::User *use : defined.users())
              if (!between.contains(llvm::cast<llvm::Instruction>(use)->getParent()))
                mark(&defined);
    }
  }
  return Divergence{std::move(divergent), false};
}

// Whether a thread can reach one of `uses` from `value`'s definition without stopping at a
// barrier (a block in `barrierBlocks` ends at one): in the round that defines it.
bool usedInTheSameRound(const llvm::Instruction &value, llvm::ArrayRef<llvm::Use *> uses,
                        const llvm::SmallPtrSetImpl<llvm::BasicBlock *> &barrierBlocks) {
  llvm::SmallPtrSet<const llvm::BasicBlock *, 8> useBlocks;
  for (llvm::Use *use : uses) {
    auto *user = llvm::cast<llvm::Instruction>(use->getUser());
    auto *phi = llvm::dyn_cast<llvm::PHINode>(user);
    useBlocks.insert(phi ? phi->getIncomingBlock(*use) : user->getParent());
  }
  const llvm::BasicBlock *definition = value.getParent();
  if (barrierBlocks.contains(definition))
    return false;
  llvm::SmallVector<const llvm::BasicBlock *, 16> work(llvm::successors(definition));
  llvm::SmallPtrSet<const llvm::BasicBlock *, 32> seen;
  while (!work.empty()) {
    const llvm::BasicBlock *block = work.pop_back_val();
    if (!seen.insert(block).second)
      continue;
    if (useBlocks.contains(block))
      return true;
    if (!barrierBlocks.contains(block))
      work.append(llvm::succ_begin(block), llvm::succ_end(block));
  }
  return false;
}

uint64_t alignTo(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

// The values a thread uses across a barrier, by where they go, with the uses that need them.
struct ValuesAcrossBarriers {
  using Uses = std::pair<llvm::Instruction *, llvm::SmallVector<llvm::Use *, 4>>;
  llvm::SmallVector<Uses, 16> recomputed; // computed again at each such use
  llvm::SmallVector<Uses, 16> kept;       // the thread's own slot in the thread storage
  llvm::SmallVector<Uses, 8> uniform;     // one slot for the block, passed in each round
  // The thread storage they and the local arrays need per thread, at most.
  uint64_t storageBytes = kRegionStateBytes;
};

ValuesAcrossBarriers
valuesAcrossBarriers(llvm::Function &kernel,
                     const llvm::SmallPtrSetImpl<llvm::BasicBlock *> &regionStarts,
                     const llvm::SmallPtrSetImpl<llvm::BasicBlock *> &barrierBlocks) {
  Divergence divergent = divergentValues(kernel, barrierBlocks);
  const llvm::DataLayout &layout = kernel.getParent()->getDataLayout();
  ValuesAcrossBarriers values;
  for (llvm::Instruction &instruction : llvm::instructions(kernel)) {
    if (instruction.getType()->isVoidTy() || llvm::isa<llvm::AllocaInst>(instruction))
      continue;
    llvm::SmallVector<llvm::Use *, 4> uses = usesAcrossBarriers(instruction, regionStarts);
    if (uses.empty())
      continue;
    unsigned budget = kMaxRecomputedInstructions;
    if (recomputable(&instruction, budget)) {
      values.recomputed.emplace_back(&instruction, std::move(uses));
      continue;
    }
    values.storageBytes += alignTo(layout.getTypeAllocSize(instruction.getType()), 16);
    if (!divergent.contains(&instruction) && !usedInTheSameRound(instruction, uses, barrierBlocks))
      values.uniform.emplace_back(&instruction, std::move(uses));
    else
      values.kept.emplace_back(&instruction, std::move(uses));
  }
  for (llvm::Instruction &instruction : kernel.getEntryBlock())
    if (auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&instruction))
      values.storageBytes +=
          alignTo(*alloca->getAllocationSize(layout), alloca->getAlign().value());
  return values;
}

// Where a use of a value is: before its user, or for a phi at the end of the incoming block.
llvm::BasicBlock::iterator useSite(llvm::Use *use) {
  auto *user = llvm::cast<llvm::Instruction>(use->getUser());
  if (auto *phi = llvm::dyn_cast<llvm::PHINode>(user))
    return phi->getIncomingBlock(*use)->getTerminator()->getIterator();
  return user->getIterator();
}

// Just after `value` is defined (after the phis, for a phi).
llvm::BasicBlock::iterator afterDefinition(llvm::Instruction &value) {
  return llvm::isa<llvm::PHINode>(value) ? value.getParent()->getFirstInsertionPt()
                                         : std::next(value.getIterator());
}

// Computes the recomputed values again at their uses, and gives each kept one a slot of its
// own (an alloca, which becomes a per-thread array with the local arrays) stored after its
// definition and loaded at its uses.
void recomputeAndKeep(const ValuesAcrossBarriers &values, llvm::BasicBlock &entry) {
  for (const auto &[value, uses] : values.recomputed)
    for (llvm::Use *use : uses)
      use->set(recompute(value, useSite(use)));
  const llvm::DataLayout &layout = entry.getModule()->getDataLayout();
  for (const auto &[value, uses] : values.kept) {
    auto *slot = new llvm::AllocaInst(value->getType(), layout.getAllocaAddrSpace(), nullptr,
                                      value->getName() + ".kept", entry.begin());
    new llvm::StoreInst(value, slot, afterDefinition(*value));
    for (llvm::Use *use : uses)
      use->set(
          new llvm::LoadInst(value->getType(), slot, value->getName() + ".reload", useSite(use)));
  }
}

// Moves `kernel`'s body into `i32 (<its parameters>, ptr thread_storage, ptr shared, i32 region,
// <uniformTypes>)`, which takes its name; `kernel` is erased.
llvm::Function *moveIntoResumeFunction(llvm::Function &kernel,
                                       llvm::ArrayRef<llvm::Type *> uniformTypes) {
  llvm::LLVMContext &context = kernel.getContext();
  llvm::Type *i32 = llvm::Type::getInt32Ty(context);
  llvm::SmallVector<llvm::Type *, 8> parameters(kernel.getFunctionType()->params());
  parameters.push_back(llvm::PointerType::get(context, 0));
  parameters.push_back(llvm::PointerType::get(context, 0));
  parameters.push_back(i32);
  parameters.append(uniformTypes.begin(), uniformTypes.end());
  llvm::Function *resume =
      llvm::Function::Create(llvm::FunctionType::get(i32, parameters, false),
                             llvm::GlobalValue::InternalLinkage, "", kernel.getParent());
  resume->copyAttributesFrom(&kernel);
  resume->splice(resume->begin(), &kernel);
  for (unsigned i = 0; i < kernel.arg_size(); ++i) {
    kernel.getArg(i)->replaceAllUsesWith(resume->getArg(i));
    resume->getArg(i)->takeName(kernel.getArg(i));
  }
  resume->setSubprogram(kernel.getSubprogram());
  kernel.setSubprogram(nullptr);
  resume->takeName(&kernel);
  // Only this function's code reaches the thread storage, and the block's shared memory only
  // through the shared pointer: telling LLVM so (noalias, which inlining turns into alias
  // scopes) lets it keep values in registers across the kernel's stores and vectorise the loops
  // over threads without run-time overlap checks. Read from the implicit parameter, the shared
  // pointer was of unknown origin, which might point into the thread storage: the tiled
  // matmul's sum, kept there across barriers, was stored back after each product of a tile
  // instead of once per tile.
  llvm::Argument *storage = resume->getArg(kernel.arg_size());
  storage->setName("thread_storage");
  llvm::Argument *shared = resume->getArg(kernel.arg_size() + 1);
  for (llvm::Argument *memory : {storage, shared})
    resume->addParamAttr(memory->getArgNo(), llvm::Attribute::NoAlias);
  llvm::Argument *implicit = resume->getArg(kernel.arg_size() - 1);
  for (llvm::User *user : llvm::make_early_inc_range(implicit->users()))
    if (auto *extract = llvm::dyn_cast<llvm::ExtractValueInst>(user))
      if (extract->getIndices() == llvm::ArrayRef<unsigned>{kImplicitShared}) {
        extract->replaceAllUsesWith(shared);
        extract->eraseFromParent();
      }
  shared->setName("shared");
  resume->getArg(kernel.arg_size() + 2)->setName("region");
  kernel.eraseFromParent();
  return resume;
}

// A value every thread holds alike goes to one slot at the start of the storage, which every
// thread that defines it writes; the entry reads it before each round and passes it in, so that
// within a round it is an argument, the same for every thread of the loop. Returns the slots'
// offsets.
std::vector<uint64_t> passUniformValues(const ValuesAcrossBarriers &values, llvm::Function &resume,
                                        llvm::IRBuilder<> &dispatch, llvm::Value *storage,
                                        unsigned firstUniform, uint64_t &uniformBytes) {
  const llvm::DataLayout &layout = resume.getParent()->getDataLayout();
  std::vector<uint64_t> offsets;
  for (unsigned j = 0; j < values.uniform.size(); ++j) {
    const auto &[value, uses] = values.uniform[j];
    llvm::Value *slot = dispatch.CreateConstInBoundsGEP1_64(
        dispatch.getInt8Ty(), storage, uniformBytes, value->getName() + ".uniform");
    offsets.push_back(uniformBytes);
    uniformBytes += alignTo(layout.getTypeAllocSize(value->getType()), 16);
    auto *store = new llvm::StoreInst(value, slot, afterDefinition(*value));
    store->setMetadata(kUniformStore, llvm::MDNode::get(value->getContext(), {}));
    llvm::Argument *passed = resume.getArg(firstUniform + j);
    passed->setName(value->getName() + ".before");
    for (llvm::Use *use : uses)
      use->set(passed);
  }
  return offsets;
}

// Every alloca of `resume`'s entry (the kernel's local arrays and the kept values' slots)
// becomes an array over the block's threads at `arrays`, after the threads' states; returns
// the bytes per thread.
uint64_t placePerThreadArrays(llvm::BasicBlock &body, llvm::IRBuilder<> &dispatch,
                              llvm::Value *arrays, llvm::Value *thread, llvm::Value *threads) {
  // Each array starts at offset × the block's threads and holds `stride` bytes per thread.
  struct Placement {
    llvm::AllocaInst *alloca;
    uint64_t offset;
    uint64_t stride;
  };
  const llvm::DataLayout &layout = body.getModule()->getDataLayout();
  llvm::SmallVector<Placement, 16> placements;
  uint64_t offset = kRegionStateBytes;
  for (llvm::Instruction &instruction : body)
    if (auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&instruction)) {
      uint64_t alignment = alloca->getAlign().value();
      uint64_t stride = alignTo(*alloca->getAllocationSize(layout), alignment);
      offset = alignTo(offset, alignment);
      placements.push_back({alloca, offset, stride});
      offset += stride;
    }
  for (const Placement &placement : placements) {
    llvm::Value *at =
        dispatch.CreateNUWAdd(dispatch.CreateNUWMul(threads, dispatch.getInt64(placement.offset)),
                              dispatch.CreateNUWMul(thread, dispatch.getInt64(placement.stride)));
    placement.alloca->replaceAllUsesWith(dispatch.CreateInBoundsGEP(
        dispatch.getInt8Ty(), arrays, at, placement.alloca->getName() + ".thread"));
    placement.alloca->eraseFromParent();
  }
  // Lifetime markers of what is now thread storage would tell LLVM that its contents die.
  llvm::SmallVector<llvm::Instruction *, 16> lifetimes;
  for (llvm::Instruction &instruction : llvm::instructions(*body.getParent()))
    if (auto *intrinsic = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction);
        intrinsic && intrinsic->isLifetimeStartOrEnd())
      lifetimes.push_back(intrinsic);
  for (llvm::Instruction *marker : lifetimes)
    marker->eraseFromParent();
  return alignTo(offset, 16);
}

// A thread stops at a barrier (k, just before its k-th) or at a return (regionCount): it
// records where in its state, for the rounds that resume each thread on its own, and returns it.
void stopAtBarriersAndReturns(llvm::Function &resume, llvm::ArrayRef<llvm::CallInst *> barriers,
                              llvm::Value *state) {
  auto stop = [&](llvm::BasicBlock *block, unsigned next) {
    llvm::IRBuilder<> atEnd(block);
    atEnd.CreateStore(atEnd.getInt32(next), state);
    atEnd.CreateRet(atEnd.getInt32(next));
  };
  for (unsigned k = 0; k < barriers.size(); ++k) {
    llvm::BasicBlock *block = barriers[k]->getParent();
    barriers[k]->eraseFromParent();
    block->getTerminator()->eraseFromParent();
    stop(block, k + 1);
  }
  llvm::SmallVector<llvm::ReturnInst *, 4> returns;
  for (llvm::BasicBlock &block : resume)
    if (auto *ret = llvm::dyn_cast_or_null<llvm::ReturnInst>(block.getTerminator());
        ret && !ret->getReturnValue())
      returns.push_back(ret);
  for (llvm::ReturnInst *ret : returns) {
    llvm::BasicBlock *block = ret->getParent();
    ret->eraseFromParent();
    stop(block, unsigned(barriers.size()) + 1);
  }
}

} // namespace

std::optional<BarrierRegions> splitAtBarriers(llvm::Function &kernel) {
  if (!inlineBarrierCalls(kernel))
    return std::nullopt;
  llvm::removeUnreachableBlocks(kernel);
  llvm::SmallVector<llvm::CallInst *, 8> barriers;
  for (llvm::Instruction &instruction : llvm::instructions(kernel))
    if (isBarrier(instruction))
      barriers.push_back(llvm::cast<llvm::CallInst>(&instruction));
  if (barriers.empty() || barriers.size() > kMaxBarriers)
    return std::nullopt;
  for (llvm::Instruction &instruction : llvm::instructions(kernel))
    if (auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&instruction))
      if (alloca->getParent() != &kernel.getEntryBlock() || !alloca->isStaticAlloca() ||
          alloca->getAlign().value() > abi::kSharedMemoryAlignment)
        return std::nullopt;

  // Each barrier ends its block; the rest of the block starts a region.
  llvm::SmallVector<llvm::BasicBlock *, 8> regionStarts;
  llvm::SmallPtrSet<llvm::BasicBlock *, 8> barrierBlocks;
  for (llvm::CallInst *barrier : barriers) {
    regionStarts.push_back(
        barrier->getParent()->splitBasicBlock(barrier->getNextNode(), "after.barrier"));
    barrierBlocks.insert(barrier->getParent());
  }
  llvm::SmallPtrSet<llvm::BasicBlock *, 8> startSet(regionStarts.begin(), regionStarts.end());
  ValuesAcrossBarriers values = valuesAcrossBarriers(kernel, startSet, barrierBlocks);
  if (values.storageBytes > kMaxThreadStorageBytes)
    return std::nullopt;
  recomputeAndKeep(values, kernel.getEntryBlock());

  llvm::SmallVector<llvm::Type *, 8> uniformTypes;
  for (const auto &[value, uses] : values.uniform)
    uniformTypes.push_back(value->getType());
  unsigned parameterCount = unsigned(kernel.arg_size());
  llvm::Function *resume = moveIntoResumeFunction(kernel, uniformTypes);
  llvm::Value *implicit = resume->getArg(parameterCount - 1);
  llvm::Value *storage = resume->getArg(parameterCount);
  llvm::Value *region = resume->getArg(parameterCount + 2);

  llvm::BasicBlock *body = &resume->getEntryBlock();
  llvm::IRBuilder<> dispatch(
      llvm::BasicBlock::Create(resume->getContext(), "regions", resume, body));
  llvm::Value *thread = linearThreadIndex(dispatch, implicit);
  llvm::Value *threads = blockThreadCount(dispatch, implicit);
  uint64_t uniformBytes = 0;
  std::vector<uint64_t> uniformOffsets =
      passUniformValues(values, *resume, dispatch, storage, parameterCount + 3, uniformBytes);
  // The per-thread arrays start as aligned as the most aligned local array among them.
  uint64_t arraysAlignment = 16;
  for (llvm::Instruction &instruction : *body)
    if (auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&instruction))
      arraysAlignment = std::max<uint64_t>(arraysAlignment, alloca->getAlign().value());
  uniformBytes = alignTo(uniformBytes, arraysAlignment);
  llvm::Value *arrays = dispatch.CreateConstInBoundsGEP1_64(dispatch.getInt8Ty(), storage,
                                                            uniformBytes, "thread_arrays");
  llvm::Value *state = dispatch.CreateInBoundsGEP(dispatch.getInt32Ty(), arrays, thread, "state");
  stopAtBarriersAndReturns(*resume, barriers, state);
  uint64_t perThreadBytes = placePerThreadArrays(*body, dispatch, arrays, thread, threads);

  unsigned regionCount = unsigned(barriers.size()) + 1;
  llvm::SwitchInst *toRegion = dispatch.CreateSwitch(region, body, regionCount - 1);
  for (unsigned k = 0; k + 1 < regionCount; ++k)
    toRegion->addCase(dispatch.getInt32(k + 1), regionStarts[k]);
  return BarrierRegions{resume, regionCount, uniformBytes, std::move(uniformOffsets),
                        perThreadBytes + uniformBytes};
}

} // namespace kaji::codegen
