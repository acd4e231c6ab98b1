// What the op-by-op lowering needs to know about the machine it lowers for.
//
// LLVMLowering.cpp translates every kaji IR operation the same way for every target;
// the few places where a GPU and a CPU differ — where thread coordinates come from, how
// a barrier is spelled, which address space an array lives in, which library provides
// sin(), how an entry point is marked — are asked of a Target. NVPTX is the first
// implementation; the host (ORC JIT) target implements the same interface.
#pragma once

#include "kaji/ir/IR.h"
#include "kaji/ir/Libdevice.h"

#include <llvm/ADT/ArrayRef.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace llvm {
class Function;
class IRBuilderBase;
class LLVMContext;
class Module;
class Type;
class Value;
} // namespace llvm

namespace kaji::codegen {

class Target {
public:
  virtual ~Target() = default;

  // LLVM address space of an array's data pointer in memory space `space`.
  virtual unsigned addressSpace(ir::MemorySpace space) const = 0;

  // A parameter the lowering appends to every function (kernels and device functions) and
  // forwards through every call, or null for none. The host target passes the thread's
  // coordinates this way; a GPU reads them from special registers.
  virtual llvm::Type *implicitParameterType(llvm::LLVMContext &) const { return nullptr; }

  // The i32 value of a thread/block coordinate (reg.dim is 0, 1 or 2), read in the
  // function being built.
  virtual llvm::Value *emitSpecialReg(llvm::IRBuilderBase &builder, ir::SpecialReg reg) const = 0;

  // A barrier across the threads of one block.
  virtual void emitBarrier(llvm::IRBuilderBase &builder) const = 0;

  // A barrier across every thread of the grid, which the runtime launches cooperatively (all
  // blocks resident at once); it orders memory at device scope, as threadfence() does.
  virtual void emitGridSync(llvm::IRBuilderBase &builder) const = 0;

  // A memory fence ordering this thread's accesses as seen by threads of `scope`: the block, the
  // device or the system (threadfence_block, threadfence, threadfence_system).
  virtual void emitFence(llvm::IRBuilderBase &builder, ir::FenceScope scope) const = 0;

  // A load of a `type` element (an integer or float of 8 to 64 bits) at `address` in global
  // memory, aligned to `alignment` bytes, with PTX's cache operator `op` (cuda.ldcg, ...),
  // and the store of `value` likewise (cuda.stwb, ...). A target without cache operators
  // accesses the memory plainly.
  virtual llvm::Value *emitCachedLoad(llvm::IRBuilderBase &builder, llvm::Type *type,
                                      llvm::Value *address, uint64_t alignment,
                                      ir::CacheOperator op) const = 0;
  virtual void emitCachedStore(llvm::IRBuilderBase &builder, llvm::Value *value,
                               llvm::Value *address, uint64_t alignment,
                               ir::CacheOperator op) const = 0;

  // A NUL-terminated copy of `text` in the module, as a pointer printf can read.
  virtual llvm::Value *emitCString(llvm::IRBuilderBase &builder, const std::string &text) const = 0;

  // printf(format, args...): `format` from emitCString, `args` i64, double or C-string
  // pointers (what printf's conversions read after default promotions).
  virtual void emitPrintf(llvm::IRBuilderBase &builder, llvm::Value *format,
                          llvm::ArrayRef<llvm::Value *> args) const = 0;

  // syncthreads_count/and/or: a block barrier that reduces the i1 `predicate` over the block;
  // returns i32.
  virtual llvm::Value *emitBarrierReduce(llvm::IRBuilderBase &builder,
                                         ir::BarrierReduction reduction,
                                         llvm::Value *predicate) const = 0;

  // nanosleep: the thread waits about the i32 `nanoseconds`, the others running meanwhile.
  virtual void emitNanosleep(llvm::IRBuilderBase &builder, llvm::Value *nanoseconds) const = 0;

  // syncwarp: the lanes of the caller's warp named by the i32 `mask` meet.
  virtual void emitWarpSync(llvm::IRBuilderBase &builder, llvm::Value *mask) const = 0;

  // The IR's warp collective `collective` (docs/ir.md) among the lanes in the i32 `mask`: `value`
  // is the exchanged number or the i1 predicate (null for activemask), `operand` the i32 lane,
  // delta or lane mask of a shuffle (else null). Returns a value of `resultType`. `site` is
  // where it is in the source: a target that emulates warps tells branches apart by it.
  virtual llvm::Value *emitWarpCollective(llvm::IRBuilderBase &builder,
                                          ir::WarpCollectiveKind collective, llvm::Value *mask,
                                          llvm::Value *value, llvm::Value *operand,
                                          llvm::Type *resultType,
                                          const ir::Location &site) const = 0;

  // Asynchronous copies (the async_copy, async_commit and async_wait ops): `bytes` (4, 8 or 16)
  // from `source` (global memory, addressSpace(Global)) to `destination` (shared memory), both
  // aligned to `bytes`; this thread's copies since its last commit become a group; the wait
  // returns once at most `pending` of its groups are still copying. A target that copies at
  // once does nothing on commit and wait.
  virtual void emitAsyncCopy(llvm::IRBuilderBase &builder, llvm::Value *destination,
                             llvm::Value *source, unsigned bytes) const = 0;
  virtual void emitAsyncCommit(llvm::IRBuilderBase &builder) const = 0;
  virtual void emitAsyncWait(llvm::IRBuilderBase &builder, unsigned pending) const = 0;

  // Matrix fragments (ir/MatrixFragments.h). A fragment is the memory of fragmentLength() of
  // its elements (memoryType), which the lowering allocates per thread; the target decides how
  // many a thread holds and how its warp's matrix is spread over them. `storage` is a
  // fragment's memory; `matrix` points at the matrix's first element, in memory space `space`;
  // `ldm` (i64) counts the elements from one row (row major) or column to the next.
  virtual unsigned fragmentLength(llvm::LLVMContext &context, const ir::Type &fragment) const = 0;
  // Whether mma.sync's fragments hold each thread's elements where PTX places them
  // (ir::elementPlacement), loaded and stored by the lowering, rather than as the target's
  // fragmentLength and emitFragmentLoad/Store keep them.
  virtual bool placesMmaElements() const = 0;
  // Whether the target loads an mma.sync A or B fragment of 16-bit elements from shared memory
  // a row of 8 elements at a time (ldmatrix), and that load: `matrix` in shared memory, every
  // row the warp reads starting on a 16-byte boundary (the caller checks), `layout` the
  // matrix's order in memory.
  virtual bool loadsMatrixRows() const = 0;
  virtual void emitMatrixRowsLoad(llvm::IRBuilderBase &builder, const ir::Type &fragment,
                                  llvm::Value *storage, llvm::Value *matrix, llvm::Value *ldm,
                                  ir::MatrixLayout layout) const = 0;
  virtual void emitFragmentLoad(llvm::IRBuilderBase &builder, const ir::Type &fragment,
                                llvm::Value *storage, llvm::Value *matrix, ir::MemorySpace space,
                                llvm::Value *ldm, ir::MatrixLayout layout) const = 0;
  virtual void emitFragmentStore(llvm::IRBuilderBase &builder, const ir::Type &fragment,
                                 llvm::Value *storage, llvm::Value *matrix, ir::MemorySpace space,
                                 llvm::Value *ldm, ir::MatrixLayout layout) const = 0;
  // d = a x b + c, where d and c are fragments of type `accumulator`.
  virtual void emitFragmentMma(llvm::IRBuilderBase &builder, const ir::Type &accumulator,
                               const ir::Type &a, const ir::Type &b, llvm::Value *d,
                               llvm::Value *aStorage, llvm::Value *bStorage,
                               llvm::Value *c) const = 0;

  // Warpgroup multiply-accumulate (ir/Opcodes.def's warpgroup ops). emitWarpgroupMma starts
  // d += a x b^T into the warpgroup accumulator `accumulator` in `storage`, a (m x k) and b
  // (n x k) of `input` elements at `a` and `b` in shared memory, rows 128 bytes apart, 128-byte
  // swizzled; `thread` is the thread's linear index in its block (i64). A commit makes the thread's
  // multiply-accumulates since the last one a group; the wait returns once at most `pending` groups
  // still run, after which the `accumulators` (every warpgroup accumulator of the function) hold
  // their results.
  struct WarpgroupAccumulator {
    ir::Type type;
    llvm::Value *storage;
  };
  virtual void emitWarpgroupMma(llvm::IRBuilderBase &builder, const ir::Type &accumulator,
                                llvm::Value *storage, llvm::Value *a, llvm::Value *b,
                                ir::ScalarKind input, llvm::Value *thread) const = 0;
  virtual void emitWarpgroupCommit(llvm::IRBuilderBase &builder) const = 0;
  virtual void emitWarpgroupWait(llvm::IRBuilderBase &builder, unsigned pending,
                                 llvm::ArrayRef<WarpgroupAccumulator> accumulators) const = 0;
  // Makes the thread's writes to shared memory visible to later warpgroup multiply-accumulates
  // (of any thread, after a barrier): a module that has them emits it before each barrier.
  virtual void emitSharedWritesToWarpgroupFence(llvm::IRBuilderBase &builder) const = 0;

  // Block-shared storage of type `storage` (an array type) for one SharedArray op, aligned
  // to `alignment` bytes: the same for every thread of a block and distinct per op. Returns
  // its address, in the address space addressSpace(MemorySpace::Shared); `name` names it.
  virtual llvm::Value *emitSharedStorage(llvm::IRBuilderBase &builder, llvm::Type *storage,
                                         uint64_t alignment, const std::string &name) const = 0;

  // The launch's dynamic shared memory (all dynamic_shared_array ops alias it), its start
  // aligned to `alignment` bytes: its address in addressSpace(MemorySpace::Shared) and its
  // size in bytes as an i64, read in the function being built.
  struct DynamicShared {
    llvm::Value *data;
    llvm::Value *bytes;
  };
  virtual DynamicShared emitDynamicShared(llvm::IRBuilderBase &builder,
                                          uint64_t alignment) const = 0;

  // Reports an array index found out of range at `location` in `function` (only emitted when
  // LoweringOptions::boundsCheck is set) by the op numbered `number` in ir::exceptionTable.
  // `axis`, `index` and `extent` are i64 values; the index is the one the kernel computed,
  // before negative wraparound; its bits are read as unsigned where `indexIsUnsigned`. Either
  // execution continues after the report, the block left open (the access then goes to
  // scratch memory), or the thread ends there, the block terminated.
  virtual void emitIndexError(llvm::IRBuilderBase &builder, const ir::Location &location,
                              const std::string &function, llvm::Value *axis, llvm::Value *index,
                              llvm::Value *extent, bool indexIsUnsigned, uint32_t number) const = 0;
  // Whether emitIndexError ends the thread (else execution goes on after the report).
  virtual bool indexErrorEndsThread() const = 0;

  // Ends the calling thread for a raise op (docs/ir.md) at `location` in `function`, and
  // terminates the current block. `exception` is the op's "Class" or "Class: message",
  // `number` its entry in ir::exceptionTable (1..); an empty exception and number 0 for a
  // raise that reports nothing.
  virtual void emitRaise(llvm::IRBuilderBase &builder, const ir::Location &location,
                         const std::string &function, const std::string &exception,
                         uint32_t number) const = 0;

  // The float `value` (f32 or f64) converted to the integer type `toType`, rounded toward
  // zero and saturating: an out-of-range value gives the nearest bound, NaN gives 0.
  virtual llvm::Value *emitFloatToInteger(llvm::IRBuilderBase &builder, llvm::Value *value,
                                          llvm::Type *toType, bool toSigned) const = 0;

  // `condition ? ifTrue : ifFalse` of two floats, exactly: Python's min and max pick an
  // operand, signed zeros included.
  virtual llvm::Value *emitFloatChoice(llvm::IRBuilderBase &builder, llvm::Value *condition,
                                       llvm::Value *ifTrue, llvm::Value *ifFalse) const = 0;

  // Symbol of the library function computing the libm function `name` (e.g. "sin",
  // "atan2") for `kind` (Float32 or Float64) — used for math the lowering cannot
  // express as a target-independent LLVM intrinsic. `approximate` (fast math) allows a faster,
  // less accurate variant where the library has one.
  virtual std::string mathFunctionSymbol(std::string_view name, ir::ScalarKind kind,
                                         bool approximate) const = 0;

  // The value number `value` of the libdevice function `function` of `args` (the libdevice
  // op, called at `location`): throws a CompileError there when the target has none.
  virtual llvm::Value *emitLibdevice(llvm::IRBuilderBase &builder,
                                     const ir::LibdeviceFunction &function, size_t value,
                                     llvm::ArrayRef<llvm::Value *> args,
                                     const ir::Location &location) const = 0;

  // Whether code for this target can call CUDA C++ device functions linked in after
  // compilation (the extern_call op, cuda.declare_device): GPUs can, the host cannot.
  virtual bool linksCudaDeviceCode() const { return false; }

  // Makes a lowered kernel an entry point the runtime can launch.
  virtual void markKernel(llvm::Function &kernel) const = 0;

  // Supplies definitions for the math library symbols `module` calls (NVPTX links
  // libdevice); a no-op when the module calls none.
  virtual void linkMathLibrary(llvm::Module &module, bool fastMath) const = 0;
};

// Stores the calling thread's threadIdx (x, y, z), then its blockIdx, into `record`, an array of
// abi::kRaisingThreadFields i32s: what emitRaise and emitIndexError report of the thread that
// raised (kaji/abi/KernelABI.h).
void storeRaisingThread(llvm::IRBuilderBase &builder, const Target &target, llvm::Value *record);

} // namespace kaji::codegen
