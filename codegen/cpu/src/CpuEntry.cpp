#include "CpuEntry.h"

#include "BarrierRegions.h"
#include "CpuLaunchLayout.h"
#include "kaji/abi/KernelABI.h"
#include "kaji/codegen/llvm/OptimizationPipeline.h"

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>

#include <vector>

namespace kaji::codegen {
namespace {

// The entry being built: its parameters loaded, and the implicit parameter's launch-wide part.
class EntryFunction {
public:
  // `kernel` takes `parameterCount` flattened parameters, then the implicit one.
  EntryFunction(llvm::Function &kernel, unsigned parameterCount)
      : context_(kernel.getContext()), builder_(context_) {
    llvm::Module &module = *kernel.getParent();
    llvm::Type *pointer = builder_.getPtrTy();
    auto *type =
        llvm::FunctionType::get(llvm::Type::getVoidTy(context_), {pointer, pointer}, false);
    name_ = kernel.getName().str() + ".host_entry";
    function_ = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage, name_, module);
    function_->setDoesNotThrow();
    llvm::Value *params = function_->getArg(0);
    launch_ = function_->getArg(1);
    params->setName("params");
    launch_->setName("context");
    function_->addParamAttr(0, llvm::Attribute::ReadOnly);
    function_->addParamAttr(1, llvm::Attribute::ReadOnly);
    for (const llvm::Attribute &attribute : kernel.getAttributes().getFnAttrs())
      if (attribute.isStringAttribute())
        function_->addFnAttr(attribute);

    builder_.SetInsertPoint(llvm::BasicBlock::Create(context_, "entry", function_));
    for (unsigned i = 0; i < parameterCount; ++i) {
      llvm::Value *slot = builder_.CreateLoad(
          pointer, builder_.CreateConstInBoundsGEP1_64(pointer, params, i), "param.slot");
      llvm::LoadInst *argument =
          builder_.CreateLoad(kernel.getArg(i)->getType(), slot, kernel.getArg(i)->getName());
      // The kernel's ranges (an extent's 0..2^62) hold for the loaded value too: with them LLVM
      // knows that a loop's `i += step` below an extent does not overflow, and counts its trips.
      if (llvm::Attribute range = kernel.getParamAttribute(i, llvm::Attribute::Range);
          range.isValid() && !range.getRange().isFullSet() && !range.getRange().isWrappedSet())
        argument->setMetadata(llvm::LLVMContext::MD_range,
                              llvm::MDBuilder(context_).createRange(range.getRange().getLower(),
                                                                    range.getRange().getUpper()));
      args_.push_back(argument);
    }
    implicit_ = llvm::UndefValue::get(implicitType(context_));
    for (ContextField field : {kBlockDim, kGridDim})
      for (unsigned dim = 0; dim < 3; ++dim)
        implicit_ =
            builder_.CreateInsertValue(implicit_, coordinate(field, dim), {unsigned(field), dim});
    implicit_ = builder_.CreateInsertValue(
        implicit_, loadContextField(builder_, launch_, kSharedMemory, pointer, "shared"),
        kImplicitShared);
    implicit_ = builder_.CreateInsertValue(implicit_, launch_, kImplicitContext);
  }

  llvm::IRBuilder<> &builder() { return builder_; }
  llvm::Value *launch() const { return launch_; }
  llvm::Value *implicit() const { return implicit_; }
  const std::string &name() const { return name_; }

  // Indices are below 2^31 and extents at least 1, as on the GPU, where the special
  // registers carry the same ranges: knowing that, LLVM proves grid indices non-negative,
  // drops the negative-index wraparound and vectorises the thread loop. A block's extents are
  // at most abi::kMaxBlockExtent, which the executor checks before it runs the entry.
  llvm::LoadInst *coordinate(ContextField field, unsigned dim) {
    llvm::StructType *launchType = contextType(context_);
    llvm::LoadInst *load = builder_.CreateLoad(
        builder_.getInt32Ty(), builder_.CreateConstInBoundsGEP2_32(
                                   launchType->getElementType(field),
                                   builder_.CreateStructGEP(launchType, launch_, field), 0, dim));
    uint64_t low = field == kBlockDim || field == kGridDim ? 1 : 0;
    uint64_t high =
        field == kBlockDim ? uint64_t(abi::kMaxBlockExtent[dim]) + 1 : uint64_t(1) << 31;
    load->setMetadata(
        llvm::LLVMContext::MD_range,
        llvm::MDBuilder(context_).createRange(llvm::APInt(32, low), llvm::APInt(32, high)));
    return load;
  }

  // The launch's extent `field` along `dim`, as an i64.
  llvm::Value *extent(ContextField field, unsigned dim) {
    return builder_.CreateZExt(builder_.CreateExtractValue(implicit_, {unsigned(field), dim}),
                               builder_.getInt64Ty());
  }

  // Calls `callee` with the loaded parameters, then `implicit` and `extra`.
  llvm::CallInst *call(llvm::Function &callee, llvm::Value *implicit,
                       llvm::ArrayRef<llvm::Value *> extra = {}) {
    std::vector<llvm::Value *> callArgs = args_;
    callArgs.push_back(implicit);
    callArgs.insert(callArgs.end(), extra.begin(), extra.end());
    return builder_.CreateCall(&callee, callArgs);
  }

  // For the context's blockCount blocks from its blockIdx on, in linear order: body(the
  // implicit parameter of a run of them without the thread's coordinates, the run's number of
  // blocks), its blockIdx that of the run's first block; then returns from the entry. A run is
  // one block, or with `alongX` the blocks up to the end of their row of the grid.
  void forEachBlockRun(bool alongX, llvm::function_ref<void(llvm::Value *, llvm::Value *)> body) {
    // The block's coordinates from its linear index, whose remainders keep them below the
    // grid's extents for LLVM as the loaded ones' ranges did.
    llvm::Type *i64 = builder_.getInt64Ty();
    llvm::Value *gridX = extent(kGridDim, 0);
    llvm::Value *gridY = extent(kGridDim, 1);
    llvm::Value *firstBlock = builder_.CreateZExt(coordinate(kBlockIdx, 2), i64);
    firstBlock = builder_.CreateAdd(builder_.CreateMul(firstBlock, gridY),
                                    builder_.CreateZExt(coordinate(kBlockIdx, 1), i64));
    firstBlock =
        builder_.CreateAdd(builder_.CreateMul(firstBlock, gridX),
                           builder_.CreateZExt(coordinate(kBlockIdx, 0), i64), "block.first");
    llvm::Value *blockCount = loadContextField(builder_, launch_, kBlockCount, i64, "block.count");
    llvm::Value *launchFailed =
        loadContextField(builder_, launch_, kLaunchFailed, builder_.getPtrTy(), "failed");
    llvm::BasicBlock *blocksEntry = builder_.GetInsertBlock();
    auto *blockLoop = llvm::BasicBlock::Create(context_, "block.loop", function_);
    builder_.CreateBr(blockLoop);
    builder_.SetInsertPoint(blockLoop);
    llvm::PHINode *block = builder_.CreatePHI(i64, 2, "block");
    block->addIncoming(builder_.getInt64(0), blocksEntry);
    llvm::Value *linear = builder_.CreateAdd(firstBlock, block, "block.linear");
    llvm::Value *aboveX = builder_.CreateUDiv(linear, gridX);
    llvm::Value *blockImplicit = implicit_;
    llvm::Value *blockCoordinates[] = {builder_.CreateURem(linear, gridX),
                                       builder_.CreateURem(aboveX, gridY),
                                       builder_.CreateUDiv(aboveX, gridY)};
    for (unsigned dim = 0; dim < 3; ++dim)
      blockImplicit = builder_.CreateInsertValue(
          blockImplicit, builder_.CreateTrunc(blockCoordinates[dim], builder_.getInt32Ty()),
          {unsigned(kBlockIdx), dim});
    llvm::Value *runBlocks = builder_.getInt64(1);
    if (alongX) {
      // Below 2^32 as LLVM sees it (a difference of 32-bit values), so that it knows the x
      // loop's trip count below 2^42 and its index from wrapping.
      llvm::Value *restOfRow = builder_.CreateZExt(
          builder_.CreateNUWSub(builder_.CreateExtractValue(implicit_, {unsigned(kGridDim), 0}),
                                builder_.CreateTrunc(blockCoordinates[0], builder_.getInt32Ty())),
          i64);
      runBlocks = builder_.CreateBinaryIntrinsic(llvm::Intrinsic::umin, restOfRow,
                                                 builder_.CreateNUWSub(blockCount, block), nullptr,
                                                 "run.blocks");
    }
    body(blockImplicit, runBlocks);
    // The next run, unless that was the last or the launch failed meanwhile (a report of
    // another worker's block).
    llvm::Value *nextBlock = builder_.CreateNUWAdd(block, runBlocks, "block.next");
    block->addIncoming(nextBlock, builder_.GetInsertBlock());
    llvm::LoadInst *failed = builder_.CreateAlignedLoad(builder_.getInt8Ty(), launchFailed,
                                                        llvm::Align(1), "launch.failed");
    failed->setAtomic(llvm::AtomicOrdering::Monotonic);
    llvm::Value *goOn = builder_.CreateAnd(builder_.CreateICmpULT(nextBlock, blockCount),
                                           builder_.CreateICmpEQ(failed, builder_.getInt8(0)));
    auto *done = llvm::BasicBlock::Create(context_, "blocks.done", function_);
    markLoop(*builder_.CreateCondBr(goOn, blockLoop, done), kDecideChecksInside);
    builder_.SetInsertPoint(done);
    builder_.CreateRetVoid();
  }

  // for z, for y, for x over the threads of `blocks` blocks along x from the implicit's
  // blockIdx.x on (null: the one block), the x loop across the blocks' threads as one:
  // carried = body(the thread's implicit parameter, carried), from `initial` (none when
  // null); returns the last carried value.
  llvm::Value *forEachThread(llvm::Value *blockImplicit, llvm::Value *blocks, llvm::Value *initial,
                             llvm::function_ref<llvm::Value *(llvm::Value *, llvm::Value *)> body) {
    // Every extent is at least 1, so each loop tests at its bottom.
    static constexpr const char *axes[] = {"tid.x", "tid.y", "tid.z"};
    llvm::Type *i64 = builder_.getInt64Ty();
    // The x loop counts from 0 to ntid.x, or across blocks to ntid.x * blocks (below 2^42).
    llvm::Type *counterTypes[] = {blocks ? i64 : builder_.getInt32Ty(), builder_.getInt32Ty(),
                                  builder_.getInt32Ty()};
    llvm::Value *trips[3];
    for (unsigned dim = 0; dim < 3; ++dim)
      trips[dim] = builder_.CreateExtractValue(implicit_, {unsigned(kBlockDim), dim});
    llvm::Value *threadsX = extent(kBlockDim, 0);
    if (blocks)
      trips[0] = builder_.CreateMul(threadsX, blocks, "threads.x", true, true);
    llvm::Value *blockX = builder_.CreateZExt(
        builder_.CreateExtractValue(blockImplicit, {unsigned(kBlockIdx), 0}), i64);
    // Below 2^42: neither wraps, signed or not.
    llvm::Value *firstX = builder_.CreateMul(blockX, threadsX, "global.x.first", true, true);
    llvm::PHINode *counters[3] = {};
    llvm::PHINode *carried[3] = {};
    llvm::BasicBlock *headers[3] = {};
    llvm::Value *value = initial;
    for (int dim = 2; dim >= 0; --dim) {
      llvm::BasicBlock *preheader = builder_.GetInsertBlock();
      headers[dim] =
          llvm::BasicBlock::Create(context_, std::string(axes[dim]) + ".loop", function_);
      builder_.CreateBr(headers[dim]);
      builder_.SetInsertPoint(headers[dim]);
      counters[dim] = builder_.CreatePHI(counterTypes[dim], 2, axes[dim]);
      counters[dim]->addIncoming(llvm::ConstantInt::get(counterTypes[dim], 0), preheader);
      if (value) {
        carried[dim] = builder_.CreatePHI(value->getType(), 2, "carried");
        carried[dim]->addIncoming(value, preheader);
        value = carried[dim];
      }
    }
    llvm::Value *threadImplicit = blockImplicit;
    llvm::Value *globalX =
        builder_.CreateAdd(firstX, builder_.CreateZExt(counters[0], i64), "global.x", true, true);
    // Across blocks, only the global index tells the threads apart: the kernel reads neither
    // threadIdx.x nor blockIdx.x (threadsMayRunAcrossBlocks).
    llvm::Value *coordinates[] = {counters[0], counters[1], counters[2]};
    if (blocks) {
      coordinates[0] = llvm::PoisonValue::get(builder_.getInt32Ty());
      threadImplicit = builder_.CreateInsertValue(
          threadImplicit, llvm::PoisonValue::get(builder_.getInt32Ty()), {kBlockIdx, 0});
    }
    for (unsigned dim = 0; dim < 3; ++dim)
      threadImplicit =
          builder_.CreateInsertValue(threadImplicit, coordinates[dim], {kThreadIdx, dim});
    threadImplicit = builder_.CreateInsertValue(threadImplicit, globalX, kImplicitGlobalX);
    value = body(threadImplicit, value);
    for (unsigned dim = 0; dim < 3; ++dim) {
      llvm::Value *next = builder_.CreateAdd(
          counters[dim], llvm::ConstantInt::get(counterTypes[dim], 1), "", true, true);
      auto *exit = llvm::BasicBlock::Create(context_, std::string(axes[dim]) + ".exit", function_);
      counters[dim]->addIncoming(next, builder_.GetInsertBlock());
      if (value)
        carried[dim]->addIncoming(value, builder_.GetInsertBlock());
      llvm::BranchInst *latch =
          builder_.CreateCondBr(builder_.CreateICmpULT(next, trips[dim]), headers[dim], exit);
      if (dim == 0)
        markLoop(*latch, kThreadLoop);
      builder_.SetInsertPoint(exit);
    }
    return value;
  }

  llvm::Function *function() const { return function_; }

private:
  llvm::LLVMContext &context_;
  llvm::IRBuilder<> builder_;
  llvm::Function *function_ = nullptr;
  std::string name_;
  llvm::Value *launch_ = nullptr;
  std::vector<llvm::Value *> args_;
  llvm::Value *implicit_ = nullptr;
};

// One round of the threads of a block cut at its barriers: each resumes (through `resume`,
// which records where it stopped in the thread storage); returns the mask of the regions the
// threads stopped before (bit regionCount: returned).
class RegionRound {
public:
  RegionRound(EntryFunction &entry, const BarrierRegions &regions, llvm::Value *storage)
      : entry_(entry), regions_(regions), storage_(storage) {}

  // Every thread resumes at `region`: the call is inlined, so the loop holds that region's
  // code alone.
  llvm::Value *uniform(llvm::Value *blockImplicit, unsigned region) {
    llvm::IRBuilder<> &builder = entry_.builder();
    std::vector<llvm::Value *> extra = resumeArguments(builder.getInt32(region));
    return entry_.forEachThread(
        blockImplicit, nullptr, builder.getInt64(0), [&](llvm::Value *thread, llvm::Value *mask) {
          return reached(entry_.call(*regions_.resume, thread, extra), mask);
        });
  }

  // Each thread that has not returned resumes where it stopped, through one call of the
  // whole kernel.
  llvm::Value *divergent(llvm::Value *blockImplicit) {
    llvm::IRBuilder<> &builder = entry_.builder();
    llvm::Function *function = entry_.function();
    std::vector<llvm::Value *> extra = resumeArguments(nullptr);
    llvm::Value *states = builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), storage_,
                                                             regions_.threadArraysOffset, "states");
    return entry_.forEachThread(
        blockImplicit, nullptr, builder.getInt64(0), [&](llvm::Value *thread, llvm::Value *mask) {
          llvm::Value *state =
              builder.CreateLoad(builder.getInt32Ty(),
                                 builder.CreateInBoundsGEP(builder.getInt32Ty(), states,
                                                           linearThreadIndex(builder, thread)),
                                 "state");
          llvm::BasicBlock *before = builder.GetInsertBlock();
          auto *run = llvm::BasicBlock::Create(builder.getContext(), "resume", function);
          auto *join = llvm::BasicBlock::Create(builder.getContext(), "resumed", function);
          builder.CreateCondBr(builder.CreateICmpEQ(state, builder.getInt32(regions_.regionCount)),
                               join, run);
          builder.SetInsertPoint(run);
          extra[2] = state;
          llvm::CallInst *resumed = entry_.call(*regions_.resume, thread, extra);
          resumed->setIsNoInline();
          builder.CreateBr(join);
          builder.SetInsertPoint(join);
          llvm::PHINode *next = builder.CreatePHI(builder.getInt32Ty(), 2, "next");
          next->addIncoming(state, before);
          next->addIncoming(resumed, run);
          return reached(next, mask);
        });
  }

private:
  // The storage, `region`, and the uniform values as their slots hold them at the start of the
  // round.
  std::vector<llvm::Value *> resumeArguments(llvm::Value *region) {
    llvm::IRBuilder<> &builder = entry_.builder();
    std::vector<llvm::Value *> arguments{
        storage_, builder.CreateExtractValue(entry_.implicit(), kImplicitShared), region};
    llvm::Function &resume = *regions_.resume;
    unsigned first = unsigned(resume.arg_size() - regions_.uniformOffsets.size());
    for (unsigned j = 0; j < regions_.uniformOffsets.size(); ++j)
      arguments.push_back(
          builder.CreateLoad(resume.getArg(first + j)->getType(),
                             builder.CreateConstInBoundsGEP1_64(builder.getInt8Ty(), storage_,
                                                                regions_.uniformOffsets[j]),
                             resume.getArg(first + j)->getName()));
    return arguments;
  }

  llvm::Value *reached(llvm::Value *next, llvm::Value *mask) {
    llvm::IRBuilder<> &builder = entry_.builder();
    llvm::Value *bit =
        builder.CreateShl(builder.getInt64(1), builder.CreateZExt(next, builder.getInt64Ty()));
    return builder.CreateOr(mask, bit, "regions.reached");
  }

  EntryFunction &entry_;
  const BarrierRegions &regions_;
  llvm::Value *storage_;
};

} // namespace

std::string buildThreadLoopEntry(llvm::Function &kernel, bool acrossBlocks) {
  EntryFunction entry(kernel, unsigned(kernel.arg_size() - 1));
  entry.forEachBlockRun(acrossBlocks, [&](llvm::Value *runImplicit, llvm::Value *blocks) {
    entry.forEachThread(runImplicit, acrossBlocks ? blocks : nullptr, nullptr,
                        [&](llvm::Value *thread, llvm::Value *) {
                          entry.call(kernel, thread);
                          return nullptr;
                        });
  });
  return entry.name();
}

std::string buildOneThreadEntry(llvm::Function &kernel) {
  EntryFunction entry(kernel, unsigned(kernel.arg_size() - 1));
  llvm::Value *implicit = entry.implicit();
  llvm::IRBuilder<> &builder = entry.builder();
  llvm::Value *coordinates[2][3];
  for (ContextField field : {kBlockIdx, kThreadIdx})
    for (unsigned dim = 0; dim < 3; ++dim) {
      coordinates[field][dim] = entry.coordinate(field, dim);
      implicit =
          builder.CreateInsertValue(implicit, coordinates[field][dim], {unsigned(field), dim});
    }
  llvm::Value *globalX = builder.CreateAdd(
      builder.CreateMul(builder.CreateZExt(coordinates[kBlockIdx][0], builder.getInt64Ty()),
                        entry.extent(kBlockDim, 0), "", true, true),
      builder.CreateZExt(coordinates[kThreadIdx][0], builder.getInt64Ty()), "global.x", true, true);
  implicit = builder.CreateInsertValue(implicit, globalX, kImplicitGlobalX);
  entry.call(kernel, implicit);
  entry.builder().CreateRetVoid();
  return entry.name();
}

std::string buildRegionLoopEntry(const BarrierRegions &regions) {
  llvm::Function &resume = *regions.resume;
  EntryFunction entry(resume, unsigned(resume.arg_size() - 4 - regions.uniformOffsets.size()));
  llvm::IRBuilder<> &builder = entry.builder();
  llvm::LLVMContext &context = builder.getContext();
  llvm::Function *function = entry.function();
  llvm::Value *storage = loadContextField(builder, entry.launch(), kThreadStorage,
                                          builder.getPtrTy(), "thread_storage");
  RegionRound round(entry, regions, storage);
  entry.forEachBlockRun(false, [&](llvm::Value *blockImplicit, llvm::Value *) {
    // Rounds until every thread has returned: the next starts at the one region every thread
    // stopped before, or resumes each where it stopped.
    llvm::BasicBlock *start = builder.GetInsertBlock();
    auto *roundHeader = llvm::BasicBlock::Create(context, "round", function);
    auto *decide = llvm::BasicBlock::Create(context, "round.end", function);
    auto *divergentRound = llvm::BasicBlock::Create(context, "round.divergent", function);
    auto *done = llvm::BasicBlock::Create(context, "block.done", function);
    builder.CreateBr(roundHeader);
    builder.SetInsertPoint(roundHeader);
    llvm::PHINode *region = builder.CreatePHI(builder.getInt32Ty(), 2, "region");
    region->addIncoming(builder.getInt32(0), start);
    llvm::SwitchInst *toRegion = builder.CreateSwitch(region, done, regions.regionCount);
    builder.SetInsertPoint(decide);
    llvm::PHINode *reached =
        builder.CreatePHI(builder.getInt64Ty(), regions.regionCount + 1, "regions.reached");
    for (unsigned k = 0; k < regions.regionCount; ++k) {
      auto *regionRound =
          llvm::BasicBlock::Create(context, "round.region" + std::to_string(k), function);
      toRegion->addCase(builder.getInt32(k), regionRound);
      builder.SetInsertPoint(regionRound);
      llvm::Value *mask = round.uniform(blockImplicit, k);
      reached->addIncoming(mask, builder.GetInsertBlock());
      builder.CreateBr(decide);
    }
    builder.SetInsertPoint(divergentRound);
    llvm::Value *mask = round.divergent(blockImplicit);
    reached->addIncoming(mask, builder.GetInsertBlock());
    builder.CreateBr(decide);

    builder.SetInsertPoint(decide);
    llvm::Value *allReturned =
        builder.CreateICmpEQ(reached, builder.getInt64(uint64_t(1) << regions.regionCount));
    llvm::Value *oneRegion = builder.CreateICmpEQ(
        builder.CreateAnd(reached, builder.CreateSub(reached, builder.getInt64(1))),
        builder.getInt64(0));
    llvm::Value *next = builder.CreateTrunc(
        builder.CreateBinaryIntrinsic(llvm::Intrinsic::cttz, reached, builder.getTrue()),
        builder.getInt32Ty(), "region.next");
    auto *uniformNext = llvm::BasicBlock::Create(context, "round.next", function);
    builder.CreateCondBr(allReturned, done, uniformNext);
    builder.SetInsertPoint(uniformNext);
    region->addIncoming(next, uniformNext);
    builder.CreateCondBr(oneRegion, roundHeader, divergentRound);
    builder.SetInsertPoint(done);
  });
  return entry.name();
}

} // namespace kaji::codegen
