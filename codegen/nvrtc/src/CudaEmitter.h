// The parts of the CUDA C++ emitter share these declarations: CudaEmitter.cpp drives the
// module and its functions and dispatches each operation; CudaTypes.cpp names types and writes
// literals, CudaControlFlow.cpp the branches, returns and raises, CudaScalarOps.cpp the scalar
// arithmetic, conversions, math and warp collectives, CudaMemory.cpp array elements, views and
// static storage, CudaCalls.cpp printf and calls.
#pragma once

#include "kaji/ir/ExceptionTable.h"
#include "kaji/ir/IR.h"
#include "kaji/ir/Libdevice.h"
#include "kaji/ir/MatrixFragments.h"
#include "kaji/ir/PrintfFormat.h"

#include "CudaNames.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace kaji::codegen::nvrtc::emitter {

using ir::CompileError;
using ir::Opcode;
using ir::ScalarKind;

std::string scalarTypeName(ScalarKind kind);
std::string storageTypeName(ScalarKind kind);
std::string elementTypeName(ir::Type array);
std::string arrayTypeName(ir::Type type);
std::string typeName(ir::Type type);
// A matrix fragment's value (a pointer to its storage) and its storage's declaration
// (CudaFragments.cpp).
std::string fragmentPointerTypeName(const ir::Type &fragment);
std::string fragmentStorage(const ir::Type &fragment, const std::string &name);
bool isWideUnsigned(ScalarKind kind);
std::string floatLiteral(double value, ScalarKind kind);
std::string intLiteral(int64_t value, ScalarKind kind);
std::string quoted(std::string_view text);
std::string alignment(int64_t requested, ir::Type array);

// The `#line` bookkeeping: the statements of one Python line share one C++ line, and a
// `#line` directive goes before a line only where the running count would name another one.
class LineWriter {
public:
  // `text` on a line of its own.
  void line(const std::string &text, const ir::Location &loc = {}) {
    flush();
    write(text, loc);
  }
  // `text` after the previous statement where both come from the same Python line.
  void statement(const std::string &text, const ir::Location &loc) {
    if (!pending_.empty() && loc.known() && loc.file && pendingLocation_.file &&
        loc.line == pendingLocation_.line && *loc.file == *pendingLocation_.file) {
      pending_ += " " + text;
      return;
    }
    flush();
    pending_ = "  " + text;
    pendingLocation_ = loc;
  }
  std::string take() {
    flush();
    return std::move(out_);
  }

private:
  void flush() {
    if (pending_.empty())
      return;
    write(pending_, pendingLocation_);
    pending_.clear();
  }
  void write(const std::string &text, const ir::Location &loc) {
    if (loc.known() && loc.file && (loc.line != mappedLine_ || *loc.file != mappedFile_)) {
      out_ += "#line " + std::to_string(loc.line) + " " + quoted(*loc.file) + "\n";
      mappedLine_ = loc.line;
      mappedFile_ = *loc.file;
    }
    out_ += text;
    out_ += '\n';
    if (mappedLine_)
      ++mappedLine_;
  }

  std::string out_;
  std::string pending_;
  ir::Location pendingLocation_;
  unsigned mappedLine_ = 0;
  std::string mappedFile_;
};

class ModuleEmitter;

class FunctionEmitter {
public:
  FunctionEmitter(ModuleEmitter &module, const ir::Function &function, LineWriter &out)
      : module_(module), function_(function), out_(out) {}
  std::string signature();
  void emitBody();
  // An exported function's entry by Numba's calling convention, or nothing.
  std::string numbaAbiEntry() const;

private:
  void nameParameters();
  void nameValues(const std::vector<const ir::Block *> &blocks);
  std::vector<const ir::Block *> reachableBlocks() const;
  std::string name(const ir::Value *value, const ir::Operation &user) const;
  void statement(const ir::Operation &op, const std::string &text) {
    out_.statement(text, op.location());
  }
  void assign(const ir::Operation &op, const std::string &expression) {
    statement(op, name(op.result(), op) + " = " + expression + ";");
  }
  void emitOperation(const ir::Operation &op);
  std::string binary(const ir::Operation &op);
  std::string unary(const ir::Operation &op);
  std::string compare(const ir::Operation &op);
  std::string cast(const std::string &value, ScalarKind from, ScalarKind to);
  std::string math(const ir::Operation &op);
  std::string libdevice(const ir::Operation &op);
  std::string warp(const ir::Operation &op);
  std::string atomic(const ir::Operation &op);
  std::string element(const ir::Operation &op, unsigned arrayOperand, unsigned firstIndex);
  // A load's value, or a store's statement, through the prelude's kaji::load_OP_bN /
  // store_OP_bN (cuda.ldcg, cuda.stwb, ...).
  std::string cachedLoad(const ir::Operation &op, ir::CacheOperator cache);
  std::string cachedStore(const ir::Operation &op, ir::CacheOperator cache);
  void emitStaticArray(const ir::Operation &op);
  void emitArrayView(const ir::Operation &op);
  void emitArrayAt(const ir::Operation &op);
  // `op`'s array result: its data at the byte address `start`, its extents and then its
  // strides the operands from `firstExtent` on.
  void assignArray(const ir::Operation &op, const std::string &start, unsigned firstExtent);
  void emitField(const ir::Operation &op);
  // `op`'s array result: its data at the byte address `start`, with these extents and strides.
  void assignView(const ir::Operation &op, const std::string &start,
                  std::vector<std::string> extents, std::vector<std::string> strides);
  void emitPrint(const ir::Operation &op);
  void emitPrintf(const ir::Operation &op, const ir::PrintfFormat &printf);
  void emitCall(const ir::Operation &op);
  void emitExternCall(const ir::Operation &op);
  std::string jump(const ir::Successor &successor, const ir::Operation &op);
  void emitBranch(const ir::Operation &op);
  void emitReturn(const ir::Operation &op);
  void emitRaise(const ir::Operation &op);
  // The statement that leaves exception `number` in the module's slot unless one is there, with
  // the raising thread's coordinates (the thread exits after it).
  std::string reportException(const ir::Operation &op, uint32_t number);
  void emitFragment(const ir::Operation &op);
  // The load or store of a fragment whose elements PTX places (mma.sync's, wgmma's),
  // warpgroup_mma, warpgroup_commit and warpgroup_wait (CudaFragments.cpp).
  void emitPlacedCopy(const ir::Operation &op, const ir::Type &fragment, bool load,
                      ir::MatrixLayout layout);
  void emitWarpgroupMma(const ir::Operation &op);
  void emitWarpgroupSync(const ir::Operation &op);

  ModuleEmitter &module_;
  const ir::Function &function_;
  LineWriter &out_;
  NameTable names_;
  std::unordered_map<const ir::Value *, std::string> valueNames_;
  std::unordered_map<const ir::Block *, std::string> labels_;
  std::vector<std::string> parameters_;   // the C++ parameter list
  std::vector<std::string> prologue_;     // kernel: arrays and bools built from the parameters
  std::vector<std::string> declarations_; // every other value, and static storage
  // A static array's or a fragment's op → its storage.
  std::unordered_map<const ir::Operation *, std::string> storage_;
};

class ModuleEmitter {
public:
  ModuleEmitter(const ir::Module &module, bool boundsCheck)
      : module_(module), boundsCheck_(boundsCheck), exceptionNumbers_(module, boundsCheck),
        usesWarpgroupMma_(ir::usesWarpgroupMma(module)) {}

  std::string run();
  void declareLibdevice(const ir::LibdeviceFunction &function);
  void declareExtern(const ir::Operation &op);
  const ir::Module &module() const { return module_; }
  std::string gridBarrier(const ir::Location &location);
  std::string exceptionSlot(const ir::Location &location);
  uint32_t exceptionNumber(const ir::Operation &raise);
  uint32_t misalignmentNumber(const ir::Operation &op) {
    return exceptionNumbers_.misalignment(op);
  }
  // As the llvm backend: a module with warpgroup_mma ops aligns its shared arrays to 1024 bytes
  // and fences shared writes before each barrier (Target::emitSharedWritesToWarpgroupFence).
  bool usesWarpgroupMma() const { return usesWarpgroupMma_; }
  int64_t sharedAlignment() const {
    return usesWarpgroupMma_ ? int64_t(ir::kWarpgroupSharedAlignment) : 16;
  }
  bool boundsCheck() const { return boundsCheck_; }
  std::string indexSite(const ir::Operation &op);
  std::string constantArray(const ir::Operation &op);

private:
  std::string emitBodies(const std::vector<std::string> &signatures);
  static std::string hex(uint64_t bits);

  const ir::Module &module_;
  bool boundsCheck_;
  std::vector<FunctionEmitter> emitters_;
  LineWriter body_;
  LineWriter constants_;
  unsigned constantCount_ = 0;
  bool gridBarrierDeclared_ = false;
  bool exceptionSlotDeclared_ = false;
  bool indexRecordDeclared_ = false;
  ir::ExceptionNumbers exceptionNumbers_;
  bool usesWarpgroupMma_;
  std::set<std::string> libdeviceDeclarations_;
  std::map<std::string, std::string> externDeclarations_; // symbol → its declaration
};

} // namespace kaji::codegen::nvrtc::emitter
