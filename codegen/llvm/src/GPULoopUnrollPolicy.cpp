#include "GPULoopUnrollPolicy.h"

#include <llvm/Analysis/AliasAnalysis.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/MemoryLocation.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/Transforms/Utils/LoopPeel.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <optional>
#include <vector>

namespace kaji::codegen {

namespace {

// Whether `instruction` only names registers: the GPU has no vectors or aggregates in registers,
// so taking a member of an aggregate result or a constant lane of a vector (a fragment's
// elements, a warpgroup multiply-accumulate's 128 accumulator registers) emits no instruction.
bool namesRegisters(const llvm::Instruction &instruction) {
  if (llvm::isa<llvm::ExtractValueInst>(instruction))
    return true;
  if (const auto *extract = llvm::dyn_cast<llvm::ExtractElementInst>(&instruction))
    return llvm::isa<llvm::ConstantInt>(extract->getIndexOperand());
  if (const auto *insert = llvm::dyn_cast<llvm::InsertElementInst>(&instruction))
    return llvm::isa<llvm::ConstantInt>(insert->getOperand(2));
  return false;
}

unsigned bodyInstructionCount(const llvm::Loop &loop) {
  unsigned count = 0;
  for (const llvm::BasicBlock *block : loop.blocks())
    for (const llvm::Instruction &instruction : *block)
      if (!llvm::isa<llvm::PHINode>(instruction) && !namesRegisters(instruction) &&
          !instruction.isDebugOrPseudoInst())
        ++count;
  return count;
}

bool hasUnrollMetadata(const llvm::Loop &loop) {
  return llvm::findStringMetadataForLoop(&loop, "llvm.loop.unroll.disable") ||
         llvm::findStringMetadataForLoop(&loop, "llvm.loop.unroll.full") ||
         llvm::findStringMetadataForLoop(&loop, "llvm.loop.unroll.count");
}

bool callsAFunctionOrConverges(const llvm::Loop &loop) {
  for (const llvm::BasicBlock *block : loop.blocks())
    for (const llvm::Instruction &instruction : *block)
      if (const auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction))
        if (!llvm::isa<llvm::IntrinsicInst>(call) || call->isConvergent())
          return true;
  return false;
}

// A division by a run-time value: a grid-stride loop's trip count, (n - start) / gridsize.
bool dividesByARuntimeValue(const llvm::SCEV *expression) {
  return llvm::SCEVExprContains(expression, [](const llvm::SCEV *part) {
    const auto *division = llvm::dyn_cast<llvm::SCEVUDivExpr>(part);
    return division && !llvm::isa<llvm::SCEVConstant>(division->getRHS());
  });
}

// How a loop's trip count is known before it starts, where LLVM's runtime unroller can split
// the loop into an unrolled loop and a remainder: computed cheaply, or by a division by a
// run-time value. A loop that also leaves from elsewhere (a `while` with a `break`) would keep
// an exit test in every copy, which saves nothing.
enum class RuntimeTripCount { None, Cheap, Divided };

RuntimeTripCount runtimeTripCount(const llvm::Loop &loop, llvm::ScalarEvolution &evolution) {
  const llvm::BasicBlock *exiting = loop.getExitingBlock();
  if (!loop.isLoopSimplifyForm() || !exiting || exiting != loop.getLoopLatch())
    return RuntimeTripCount::None;
  const llvm::SCEV *backedges = evolution.getBackedgeTakenCount(&loop);
  if (llvm::isa<llvm::SCEVCouldNotCompute>(backedges))
    return RuntimeTripCount::None;
  return dividesByARuntimeValue(backedges) ? RuntimeTripCount::Divided : RuntimeTripCount::Cheap;
}

bool loadsMemory(const llvm::Loop &loop) {
  for (const llvm::BasicBlock *block : loop.blocks())
    for (const llvm::Instruction &instruction : *block)
      if (llvm::isa<llvm::LoadInst>(instruction))
        return true;
  return false;
}

// Whether something the loop writes may be what one of its loads reads. Its loads then stay
// behind the writes of the iteration before, so four copies of the body still keep one load in
// flight: only registers would be spent. Different address spaces (shared counts, global data)
// are disjoint on the GPU; LLVM's alias analysis answers for the rest.
bool writesWhatItMayLoad(const llvm::Loop &loop, llvm::AAResults &aliases) {
  std::vector<const llvm::Instruction *> writes;
  std::vector<const llvm::LoadInst *> loads;
  for (const llvm::BasicBlock *block : loop.blocks())
    for (const llvm::Instruction &instruction : *block) {
      if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction))
        loads.push_back(load);
      else if (instruction.mayWriteToMemory())
        writes.push_back(&instruction);
    }
  for (const llvm::Instruction *write : writes) {
    std::optional<llvm::MemoryLocation> written = llvm::MemoryLocation::getOrNone(write);
    if (!written)
      return true;
    unsigned writtenSpace = written->Ptr->getType()->getPointerAddressSpace();
    for (const llvm::LoadInst *load : loads) {
      unsigned loadedSpace = load->getPointerAddressSpace();
      bool disjointSpaces = writtenSpace != loadedSpace && writtenSpace != 0 && loadedSpace != 0;
      if (!disjointSpaces && !aliases.isNoAlias(*written, llvm::MemoryLocation::get(load)))
        return true;
    }
  }
  return false;
}

bool fitsFullUnroll(unsigned tripCount, unsigned bodySize) {
  return tripCount >= 2 && tripCount <= GPULoopUnrollPolicyPass::kMaxFullTripCount &&
         uint64_t(tripCount) * bodySize <= GPULoopUnrollPolicyPass::kMaxFullyUnrolledInstructions;
}

bool fitsRuntimeUnroll(const llvm::Loop &loop, unsigned bodySize, RuntimeTripCount tripCount,
                       llvm::AAResults &aliases) {
  if (tripCount == RuntimeTripCount::None ||
      bodySize > GPULoopUnrollPolicyPass::kMaxRuntimeBodyInstructions ||
      callsAFunctionOrConverges(loop))
    return false;
  // LLVM leaves a loop whose trip count takes a division whole, whatever its size: a
  // grid-stride loop then keeps one load per thread in flight, where four copies keep four.
  if (tripCount == RuntimeTripCount::Divided)
    return loadsMemory(loop) && !writesWhatItMayLoad(loop, aliases);
  return bodySize >= GPULoopUnrollPolicyPass::kMinRuntimeBodyInstructions;
}

} // namespace

llvm::PreservedAnalyses GPULoopUnrollPolicyPass::run(llvm::Loop &loop, llvm::LoopAnalysisManager &,
                                                     llvm::LoopStandardAnalysisResults &results,
                                                     llvm::LPMUpdater &) {
  if (!loop.isInnermost() || hasUnrollMetadata(loop))
    return llvm::PreservedAnalyses::all();
  unsigned bodySize = bodyInstructionCount(loop);
  unsigned tripCount = results.SE.getSmallConstantTripCount(&loop);
  if (tripCount != 0) {
    if (fitsFullUnroll(tripCount, bodySize))
      llvm::addStringMetadataToLoop(&loop, "llvm.loop.unroll.full");
    // Only the loop's metadata changed: every analysis still holds.
    return llvm::PreservedAnalyses::all();
  }
  RuntimeTripCount runtimeCount = runtimeTripCount(loop, results.SE);
  if (!fitsRuntimeUnroll(loop, bodySize, runtimeCount, results.AA))
    return llvm::PreservedAnalyses::all();
  bool peeled = false;
  if (runtimeCount == RuntimeTripCount::Divided && llvm::canPeel(&loop)) {
    llvm::ValueToValueMapTy peeledValues;
    peeled = llvm::peelLoop(&loop, 1, &results.LI, &results.SE, results.DT, &results.AC,
                            /*PreserveLCSSA=*/true, peeledValues);
  }
  llvm::addStringMetadataToLoop(&loop, "llvm.loop.unroll.count", kRuntimeUnrollCount);
  return peeled ? llvm::getLoopPassPreservedAnalyses() : llvm::PreservedAnalyses::all();
}

} // namespace kaji::codegen
