#include "kaji/ir/Verifier.h"

#include "kaji/ir/AtomicOperations.h"
#include "kaji/ir/Constants.h"
#include "kaji/ir/Dominance.h"
#include "kaji/ir/Libdevice.h"
#include "kaji/ir/MathFunctions.h"
#include "kaji/ir/MatrixFragments.h"
#include "kaji/ir/OperationAttributes.h"
#include "kaji/ir/RecordType.h"
#include "kaji/ir/StaticArrays.h"
#include "kaji/ir/WarpCollectives.h"

#include <optional>
#include <unordered_set>

namespace kaji::ir {

namespace {

// "float" elements, "unsigned integer" elements, ...
std::string elementsName(AtomicElements elements) {
  switch (elements) {
  case AtomicElements::Numbers:
    return "integer or float";
  case AtomicElements::Integers:
    return "integer";
  case AtomicElements::UnsignedIntegers:
    return "unsigned integer";
  case AtomicElements::Floats:
    return "float";
  }
  return "";
}

const Type kI64 = Type::scalar(ScalarKind::Int64);
const Type kI32 = Type::scalar(ScalarKind::Int32);
const Type kBool = Type::scalar(ScalarKind::Bool);
const Type kU32 = Type::scalar(ScalarKind::UInt32);

// What warp collectives exchange: 32- and 64-bit numbers.
bool isWarpValue(Type type) {
  return (type.isInteger() || type.isFloat()) &&
         (bitWidth(type.scalarKind()) == 32 || bitWidth(type.scalarKind()) == 64);
}

// What makes the record elements of `type`, or a record nested in them, unusable; or empty.
std::string recordProblem(const RecordType *record) { return record ? record->problem() : ""; }

const Value *uncast(const Value *value) {
  while (value->definingOp() && value->definingOp()->opcode() == Opcode::Cast)
    value = value->definingOp()->operand(0);
  return value;
}

bool isThreadIdxX(const Value *value) {
  const Operation *op = uncast(value)->definingOp();
  return op && op->opcode() == Opcode::SpecialReg &&
         op->attrAs<SpecialReg>() == SpecialReg{SpecialReg::ThreadIdx, 0};
}

// A thread's lane in its warp: threadIdx.x, or the block's linear thread index (threadIdx.x +
// ...), modulo 32 (`% 32` or `& 31`), as cuda.laneid and kernels compute it.
bool isLane(const Value *value) {
  const Operation *op = uncast(value)->definingOp();
  if (!op || !((op->opcode() == Opcode::And && intConstant(uncast(op->operand(1))) == 31) ||
               (op->opcode() == Opcode::Mod && intConstant(uncast(op->operand(1))) == 32)))
    return false;
  const Operation *index = uncast(op->operand(0))->definingOp();
  return isThreadIdxX(op->operand(0)) ||
         (index && index->opcode() == Opcode::Add && isThreadIdxX(index->operand(0)));
}

// Whether `condition` compares the lane with a constant that some of lanes 0..31 pass and
// others fail: a branch on it splits every full warp.
bool splitsWarp(const Value *condition) {
  const Operation *compare = condition->definingOp();
  if (!compare || compare->opcode() != Opcode::Cmp)
    return false;
  bool laneFirst = isLane(compare->operand(0));
  if (!laneFirst && !isLane(compare->operand(1)))
    return false;
  std::optional<int64_t> constant = intConstant(uncast(compare->operand(laneFirst ? 1 : 0)));
  if (!constant)
    return false;
  int passing = 0;
  for (int64_t lane = 0; lane < 32; ++lane)
    passing += laneFirst ? comparisonHolds(compare->attrAs<CmpPredicate>(), lane, *constant)
                         : comparisonHolds(compare->attrAs<CmpPredicate>(), *constant, lane);
  return passing > 0 && passing < 32;
}

class FunctionVerifier {
public:
  FunctionVerifier(const Module &module, const Function &function)
      : module_(module), function_(function), dominance_(function) {}

  void run() {
    if (function_.isKernel() && !function_.returnType().isVoid())
      fail(function_.location(), "kernel @" + function_.name() + " must return void, not " +
                                     function_.returnType().str());
    if (function_.returnType().isArray())
      fail(function_.location(),
           "device function @" + function_.name() + " cannot return an array");
    if (function_.isKernel() && function_.inlining() != Function::Inlining::Default)
      fail(function_.location(), "kernel @" + function_.name() + " cannot be inlined");
    if (function_.exported() != Function::Export::None)
      verifyExported();
    verifyVectorType(function_.returnType(), function_.location());
    if (function_.returnType().isFragment())
      fail(function_.location(),
           "device function @" + function_.name() + " cannot return a fragment");
    for (const auto &block : function_.blocks()) {
      blockNumbers_.emplace(block.get(), blockNumbers_.size());
      for (const auto &arg : block->arguments()) {
        if (arg->type().isVoid())
          fail(function_.location(), "block argument of type void in @" + function_.name());
        if (std::string problem = recordProblem(arg->type().record()); !problem.empty())
          fail(function_.location(), problem + " in " + arg->type().str());
        verifyVectorType(arg->type(), function_.location());
        verifyFragmentType(arg->type(), function_.location());
      }
      for (size_t i = 0; i < block->operations().size(); ++i)
        position_[block->operations()[i].get()] = i;
    }
    // Numba passes no vector from the host: a kernel takes none.
    if (function_.isKernel())
      for (Type param : function_.paramTypes())
        if (param.isVector() || param.isFragment())
          fail(function_.location(), "kernel @" + function_.name() + " cannot take a " +
                                         (param.isVector() ? "vector" : "fragment") +
                                         " parameter " + param.str());
    for (const auto &block : function_.blocks())
      verifyBlock(*block);
    verifyWarpConvergence();
  }

private:
  // A fragment's load, store and multiply-accumulate are run by the lanes of a warp together.
  // Where a branch on the lane against a constant splits the warp and one of its ways, entered
  // from that branch alone, dominates such an operation, only some lanes run it: rejected
  // (what a verifier can tell; other divergence is the program's own, as in CUDA).
  void verifyWarpConvergence() {
    std::vector<const Operation *> splitting;
    for (const auto &block : function_.blocks())
      if (!block->operations().empty() && block->operations().back()->opcode() == Opcode::CondBr &&
          splitsWarp(block->operations().back()->operand(0)))
        splitting.push_back(block->operations().back().get());
    if (splitting.empty()) // the common case: no CFG walk on every verification
      return;
    std::vector<std::pair<const Block *, const Operation *>> splitWays;
    auto predecessors = predecessorMap(function_);
    for (const Operation *branch : splitting)
      for (const Successor &successor : branch->successors())
        if (predecessors[successor.block].size() == 1)
          splitWays.push_back({successor.block, branch});
    for (const auto &block : function_.blocks()) {
      if (!dominance_.isReachable(block.get()))
        continue;
      for (const auto &op : block->operations()) {
        Opcode opcode = op->opcode();
        if (opcode != Opcode::FragmentLoad && opcode != Opcode::FragmentStore &&
            opcode != Opcode::FragmentMma && opcode != Opcode::WarpgroupMma)
          continue;
        for (auto [way, branch] : splitWays)
          if (dominance_.dominates(way, block.get()))
            fail(*op, "runs only in the lanes of a warp that the branch at line " +
                          std::to_string(branch->location().line) +
                          " sends here; a warp's lanes must run it together");
      }
    }
  }

  // Code linked with it calls an exported function with values only.
  void verifyExported() {
    if (function_.isKernel())
      fail(function_.location(), "kernel @" + function_.name() + " cannot be exported");
    for (Type param : function_.paramTypes())
      if (!param.isScalar() && !param.isVector())
        fail(function_.location(), "exported @" + function_.name() +
                                       " takes numbers and vectors only, not " + param.str());
  }

  [[noreturn]] void fail(const Location &loc, const std::string &message) const {
    throw CompileError(loc.known() ? loc : function_.location(), message);
  }

  [[noreturn]] void fail(const Operation &op, const std::string &message) const {
    fail(op.location(), "'" + std::string(opcodeName(op.opcode())) + "' " + message);
  }

  // A vector has 1 to 4 lanes of an integer, f32 or f64: CUDA's vector types. Arrays of
  // them are a kernel's own, in local or shared memory: the host passes none.
  void verifyVectorType(Type type, const Location &loc) const {
    if (type.isVectorArray() && type.memorySpace() != MemorySpace::Local &&
        type.memorySpace() != MemorySpace::Shared)
      fail(loc, "an array of vectors lives in local or shared memory, not " + type.str());
    if (!type.isVector() && !type.isVectorArray())
      return;
    ScalarKind lane = type.scalarKind();
    bool laneOk = isInteger(lane) || lane == ScalarKind::Float32 || lane == ScalarKind::Float64;
    if (!laneOk || type.lanes() < 1 || type.lanes() > Type::kMaxLanes)
      fail(loc, "vector type " + type.elementType().str() +
                    " is not one of CUDA's: 1 to 4 lanes of an integer, f32 or f64");
  }

  // A fragment type names one CUDA has (MatrixFragments.h).
  void verifyFragmentType(Type type, const Location &loc) const {
    if (!type.isFragment())
      return;
    if (std::string problem = fragmentProblem(type); !problem.empty())
      fail(loc, problem + ": " + type.str());
  }

  Type fragmentOperand(const Operation &op, unsigned i) const {
    Type type = op.operand(i)->type();
    if (!type.isFragment())
      fail(op, "operand #" + std::to_string(i) + " must be a fragment, not " + type.str());
    return type;
  }

  // The matrix fragment operations (Opcodes.def, MatrixFragments.h).
  void verifyFragmentOperation(const Operation &op) {
    switch (op.opcode()) {
    case Opcode::Fragment:
      expectOperands(op, 0);
      expectNoAttr(op);
      if (!op.resultType().isFragment())
        fail(op, "result must be a fragment, not " + op.resultType().str());
      return;
    case Opcode::FragmentFill: {
      expectOperands(op, 2);
      expectResult(op, false);
      expectNoAttr(op);
      expectType(op, 1, Type::scalar(fragmentOperand(op, 0).scalarKind()));
      return;
    }
    case Opcode::FragmentLoad:
    case Opcode::FragmentStore: {
      bool load = op.opcode() == Opcode::FragmentLoad;
      expectOperands(op, 3);
      expectResult(op, false);
      Type fragment = fragmentOperand(op, load ? 0 : 1);
      Type array = op.operand(load ? 1 : 0)->type();
      bool accumulator = fragment.matrixUse() == MatrixUse::Accumulator;
      if (!load && !accumulator)
        fail(op, "stores an accumulator fragment, not " + fragment.str());
      if (!array.isArray() || array.isRecordArray() || array.isVectorArray() ||
          array.scalarKind() != fragment.scalarKind())
        fail(op, std::string(load ? "loads from" : "stores to") + " an array of " +
                     std::string(irName(fragment.scalarKind())) + ", not " + array.str());
      if (array.memorySpace() == MemorySpace::Constant ||
          (!load && array.memorySpace() == MemorySpace::Local))
        fail(op, std::string(load ? "loads from" : "stores to") +
                     " global, shared or local memory, not " + array.str());
      expectType(op, 2, kI64);
      if (accumulator)
        expectAttr<MatrixLayout>(op, "a layout (row or col)");
      else
        expectNoAttr(op);
      return;
    }
    case Opcode::FragmentMma: {
      expectOperands(op, 4);
      expectResult(op, false);
      expectNoAttr(op);
      Type d = fragmentOperand(op, 0), a = fragmentOperand(op, 1), b = fragmentOperand(op, 2),
           c = fragmentOperand(op, 3);
      if (a.matrixUse() != MatrixUse::A || b.matrixUse() != MatrixUse::B ||
          c.matrixUse() != MatrixUse::Accumulator || d != c)
        fail(op, "takes (d, a, b, c): an accumulator, an A and a B fragment, and an "
                 "accumulator of d's type, not (" +
                     d.str() + ", " + a.str() + ", " + b.str() + ", " + c.str() + ")");
      if (a.matrixShape() != c.matrixShape() || b.matrixShape() != c.matrixShape() ||
          a.scalarKind() != b.scalarKind())
        fail(op, "multiplies fragments of one shape and input kind, not " + a.str() + " and " +
                     b.str() + " into " + c.str());
      if (!mmaArchitecture(c.matrixShape(), a.scalarKind(), c.scalarKind()))
        fail(op, "has no multiply-accumulate of " + std::string(irName(a.scalarKind())) + " into " +
                     std::string(irName(c.scalarKind())) + " at " +
                     std::string(matrixShapeName(c.matrixShape())));
      return;
    }
    case Opcode::WarpgroupMma: {
      expectOperands(op, 3);
      expectResult(op, false);
      expectNoAttr(op);
      Type d = fragmentOperand(op, 0);
      if (d.matrixUse() != MatrixUse::Accumulator || !isWarpgroupShape(d.matrixShape()))
        fail(op, "accumulates into a warpgroup's accumulator (m64nNk16), not " + d.str());
      Type a = op.operand(1)->type(), b = op.operand(2)->type();
      for (const Type &matrix : {a, b})
        if (!matrix.isArray() || matrix.isRecordArray() || matrix.isVectorArray() ||
            matrix.ndim() != 2 || matrix.memorySpace() != MemorySpace::Shared)
          fail(op, "reads its matrices from 2-d shared arrays of numbers, not " + matrix.str());
      if (a.scalarKind() != b.scalarKind() ||
          !mmaArchitecture(d.matrixShape(), a.scalarKind(), d.scalarKind()))
        fail(op,
             "has no multiply-accumulate of " + a.str() + " by " + b.str() + " into " + d.str());
      return;
    }
    case Opcode::FragmentLength:
      expectOperands(op, 1);
      expectNoAttr(op);
      fragmentOperand(op, 0);
      if (op.resultType() != kI64)
        fail(op, "result must be i64, not " + op.resultType().str());
      return;
    case Opcode::FragmentGet:
    case Opcode::FragmentSet: {
      bool get = op.opcode() == Opcode::FragmentGet;
      expectOperands(op, get ? 2 : 3);
      expectResult(op, get);
      expectNoAttr(op);
      Type element = Type::scalar(fragmentOperand(op, 0).scalarKind());
      expectType(op, 1, kI64);
      if (!get)
        expectType(op, 2, element);
      else if (op.resultType() != element)
        fail(op, "result must be " + element.str() + ", not " + op.resultType().str());
      return;
    }
    default:
      return;
    }
  }

  // `make_vector` builds a vector from one operand per lane; `extract_lane` reads lane k.
  void verifyVectorLanes(const Operation &op) {
    expectResult(op, true);
    bool build = op.opcode() == Opcode::MakeVector;
    if (!build)
      expectOperands(op, 1);
    Type vector = build ? op.resultType() : op.operand(0)->type();
    if (!vector.isVector())
      fail(op, std::string(build ? "builds" : "takes") + " a vector, not " + vector.str());
    Type lane = Type::scalar(vector.scalarKind());
    if (build) {
      expectNoAttr(op);
      expectOperands(op, vector.lanes());
      for (unsigned i = 0; i < op.numOperands(); ++i)
        expectType(op, i, lane);
      return;
    }
    expectAttr<int64_t>(op, "a lane number");
    int64_t index = op.attrAs<int64_t>();
    if (index < 0 || index >= int64_t(vector.lanes()))
      fail(op, "lane " + std::to_string(index) + " is out of range for " + vector.str());
    if (op.resultType() != lane)
      fail(op, "returns " + lane.str() + ", not " + op.resultType().str());
  }

  void verifyBlock(const Block &block) {
    if (block.operations().empty())
      fail(function_.location(), "block " + std::to_string(blockNumber(&block)) + " of @" +
                                     function_.name() + " is empty; it needs a terminator");
    for (size_t i = 0; i < block.operations().size(); ++i) {
      const Operation &op = *block.operations()[i];
      bool last = i + 1 == block.operations().size();
      if (op.parent() != &block)
        fail(op, "is listed in a block that is not its parent");
      if (op.isTerminator() && !last)
        fail(op, "is a terminator but is not the last operation of its block");
      if (!op.isTerminator() && last)
        fail(op, "ends a block but is not a terminator (br, cond_br or ret)");
      if (!op.isTerminator() && !op.successors().empty())
        fail(op, "has successors but is not a terminator");
      verifyUses(op, block, i);
      verifyOperation(op);
    }
  }

  size_t blockNumber(const Block *block) const {
    auto it = blockNumbers_.find(block);
    return it == blockNumbers_.end() ? function_.blocks().size() : it->second;
  }

  // Where a value is defined: its block and its position there (block arguments come first).
  bool definition(const Value *v, const Block *&block, size_t &position) const {
    if (v->isBlockArgument()) {
      block = v->ownerBlock();
      position = 0;
      return block->parent() == &function_;
    }
    const Operation *def = v->definingOp();
    if (!def || !def->parent() || def->parent()->parent() != &function_)
      return false;
    auto it = position_.find(def);
    if (it == position_.end())
      return false;
    block = def->parent();
    position = it->second + 1;
    return true;
  }

  void verifyUse(const Operation &op, const Value *v, const Block &block, size_t index,
                 const std::string &what) {
    if (!v)
      fail(op, what + " is null");
    const Block *defBlock;
    size_t defPosition;
    if (!definition(v, defBlock, defPosition))
      fail(op, what + " is not defined in @" + function_.name());
    if (!dominance_.isReachable(&block))
      return;
    bool dominated =
        defBlock == &block ? defPosition <= index : dominance_.dominates(defBlock, &block);
    if (!dominated)
      fail(op, what + " is not dominated by its definition");
  }

  void verifyUses(const Operation &op, const Block &block, size_t index) {
    for (unsigned i = 0; i < op.numOperands(); ++i)
      verifyUse(op, op.operand(i), block, index, "operand #" + std::to_string(i));
    for (size_t s = 0; s < op.successors().size(); ++s) {
      const Successor &succ = op.successors()[s];
      std::string which = "successor #" + std::to_string(s);
      if (!succ.block || succ.block->parent() != &function_ ||
          blockNumber(succ.block) == function_.blocks().size())
        fail(op, which + " is not a block of @" + function_.name());
      if (succ.block == function_.entry())
        fail(op, "branches to the entry block, which cannot have predecessors");
      if (succ.args.size() != succ.block->arguments().size())
        fail(op, "passes " + std::to_string(succ.args.size()) + " arguments to ^bb" +
                     std::to_string(blockNumber(succ.block)) + ", which takes " +
                     std::to_string(succ.block->arguments().size()));
      for (size_t a = 0; a < succ.args.size(); ++a) {
        std::string what = which + " argument #" + std::to_string(a);
        verifyUse(op, succ.args[a], block, index, what);
        Type expected = succ.block->argument(unsigned(a))->type();
        if (succ.args[a]->type() != expected)
          fail(op, what + " has type " + succ.args[a]->type().str() + ", but ^bb" +
                       std::to_string(blockNumber(succ.block)) + " expects " + expected.str());
      }
    }
  }

  // A bitcast reinterprets one scalar's bits as another scalar of the same width; bool has
  // no defined bits and a complex number is two values, so neither takes part.
  void verifyBitcast(const Operation &op) {
    expectOperands(op, 1);
    expectResult(op, true);
    expectNoAttr(op);
    Type from = op.operand(0)->type(), to = op.resultType();
    for (Type type : {from, to})
      if (!type.isInteger() && !type.isFloat() && !(type.isScalar() && isFloat8(type.scalarKind())))
        fail(op, "reinterprets integer and float scalars only, not " + type.str());
    unsigned fromBits = bitWidth(from.scalarKind()), toBits = bitWidth(to.scalarKind());
    if (fromBits != toBits)
      fail(op, "needs types of one width, not " + from.str() + " (" + std::to_string(fromBits) +
                   " bits) and " + to.str() + " (" + std::to_string(toBits) + " bits)");
  }

  void expectOperands(const Operation &op, unsigned count) {
    if (op.numOperands() != count)
      fail(op, "expects " + std::to_string(count) + " operand" + (count == 1 ? "" : "s") +
                   ", got " + std::to_string(op.numOperands()));
  }

  // An array's alignment: 0 (natural) or a power of two up to kMaxArrayAlignment.
  // A static array's storage, at most kMaxStaticArrayBytes (ir/StaticArrays.h).
  void verifyStaticArraySize(const Operation &op, const std::vector<int64_t> &shape) {
    uint64_t bytes = op.resultType().elementSize();
    for (int64_t extent : shape) {
      if (bytes == 0)
        return;
      if (uint64_t(extent) > kMaxStaticArrayBytes / bytes)
        fail(op, "takes more than " + std::to_string(kMaxStaticArrayBytes) + " bytes");
      bytes *= uint64_t(extent);
    }
  }

  void verifyAlignment(const Operation &op, int64_t alignment) {
    if (alignment < 0 || alignment > kMaxArrayAlignment || (alignment & (alignment - 1)) != 0)
      fail(op, "alignment must be a power of two up to " + std::to_string(kMaxArrayAlignment) +
                   ", got " + std::to_string(alignment));
  }

  void expectResult(const Operation &op, bool wanted) {
    if (wanted && !op.result())
      fail(op, "must produce a result");
    if (!wanted && op.result())
      fail(op, "produces no result, but has one of type " + op.resultType().str());
  }

  void expectSuccessors(const Operation &op, size_t count) {
    if (op.successors().size() != count)
      fail(op, "expects " + std::to_string(count) + " successor(s), got " +
                   std::to_string(op.successors().size()));
  }

  template <class T> void expectAttr(const Operation &op, std::string_view what) {
    if (!std::holds_alternative<T>(op.attr()))
      fail(op, "needs " + std::string(what) + " attribute");
  }

  void expectNoAttr(const Operation &op) {
    if (!std::holds_alternative<std::monostate>(op.attr()))
      fail(op, "takes no attribute");
  }

  void expectType(const Operation &op, unsigned i, Type type) {
    if (op.operand(i)->type() != type)
      fail(op, "operand #" + std::to_string(i) + " has type " + op.operand(i)->type().str() +
                   ", expected " + type.str());
  }

  void expectIndices(const Operation &op, unsigned first, Type array) {
    unsigned count = op.numOperands() - first;
    if (count != array.ndim())
      fail(op, "indexes a " + std::to_string(array.ndim()) + "-dimensional array with " +
                   std::to_string(count) + " indices");
    // A u64 index is never negative: it does not count from the end.
    for (unsigned i = first; i < op.numOperands(); ++i) {
      Type index = op.operand(i)->type();
      if (index != kI64 && index != Type::scalar(ScalarKind::UInt64))
        fail(op, "operand #" + std::to_string(i) + " has type " + index.str() +
                     ", expected an index, i64 or u64");
    }
  }

  void verifyArithmetic(const Operation &op, unsigned arity) {
    expectOperands(op, arity);
    expectResult(op, true);
    expectNoAttr(op);
    Type type = op.resultType();
    for (unsigned i = 0; i < arity; ++i)
      expectType(op, i, type);
    bool bitwise = op.opcode() == Opcode::And || op.opcode() == Opcode::Or ||
                   op.opcode() == Opcode::Xor || op.opcode() == Opcode::Not;
    bool shift = op.opcode() == Opcode::Shl || op.opcode() == Opcode::Shr;
    bool ok = bitwise ? type.isInteger() || type.isBool()
              : shift ? type.isInteger()
                      : type.isInteger() || type.isFloat();
    if (!ok)
      fail(op, "is not defined on type " + type.str());
  }

  // `complex` builds a complex number from two floats of its part type; `real` and `imag`
  // take one apart.
  void verifyComplexParts(const Operation &op) {
    bool build = op.opcode() == Opcode::Complex;
    expectOperands(op, build ? 2 : 1);
    expectResult(op, true);
    expectNoAttr(op);
    Type complex = build ? op.resultType() : op.operand(0)->type();
    if (!complex.isComplex())
      fail(op, std::string(build ? "builds" : "takes") + " a complex number, not " + complex.str());
    Type part = Type::scalar(componentKind(complex.scalarKind()));
    if (build) {
      expectType(op, 0, part);
      expectType(op, 1, part);
    } else if (op.resultType() != part) {
      fail(op, "returns " + part.str() + ", not " + op.resultType().str());
    }
  }

  void verifyConstant(const Operation &op) {
    expectOperands(op, 0);
    expectResult(op, true);
    Type type = op.resultType();
    if (type.isFloat()) {
      expectAttr<double>(op, "a floating-point value");
      double value = op.attrAs<double>();
      if (value == value && roundToType(type.scalarKind(), value) != value)
        fail(op, "value is not representable in " + type.str());
    } else if (type.isInteger() || type.isBool()) {
      expectAttr<int64_t>(op, "an integer value");
      int64_t value = op.attrAs<int64_t>();
      if (wrapToType(type.scalarKind(), value) != value)
        fail(op, "value " + std::to_string(value) + " is out of range for " + type.str());
    } else {
      fail(op, "must have a scalar type, not " + type.str());
    }
  }

  void verifyMath(const Operation &op) {
    expectAttr<MathFunctionKind>(op, "a math function");
    const MathFunction *fn = &mathFunction(op.attrAs<MathFunctionKind>());
    std::string name(fn->name);
    expectOperands(op, fn->arity);
    expectResult(op, true);
    Type type = op.operand(0)->type();
    if (!type.isFloat())
      fail(op, name + " needs a floating-point operand, got " + type.str());
    if (fn->half == HalfPrecision::Refused && isHalfPrecision(type.scalarKind()))
      fail(op, name + " does not take " + type.str() + " operands");
    for (unsigned i = 1; i < fn->arity; ++i)
      expectType(op, i, type);
    Type expected = fn->result == MathResult::Bool ? kBool : type;
    if (op.resultType() != expected)
      fail(op, name + " returns " + expected.str() + ", not " + op.resultType().str());
  }

  void verifyLibdevice(const Operation &op) {
    expectAttr<std::string>(op, "a libdevice function name");
    LibdeviceSelection selection = parseLibdeviceSelection(op.attrAs<std::string>());
    const LibdeviceFunction *fn = selection.function;
    if (!fn || selection.value >= fn->valueCount() ||
        libdeviceSelection(*fn, selection.value) != op.attrAs<std::string>())
      fail(op, "unknown libdevice function or value '" + op.attrAs<std::string>() + "'");
    expectOperands(op, unsigned(fn->parameters.size()));
    expectResult(op, true);
    for (size_t i = 0; i < fn->parameters.size(); ++i)
      expectType(op, unsigned(i), Type::scalar(fn->parameters[i]));
    Type expected = Type::scalar(fn->valueKind(selection.value));
    if (op.resultType() != expected)
      fail(op,
           std::string(fn->name) + " returns " + expected.str() + ", not " + op.resultType().str());
  }

  void verifyCall(const Operation &op) {
    expectAttr<std::string>(op, "a callee name");
    const std::string &name = op.attrAs<std::string>();
    const Function *callee = module_.lookup(name);
    if (!callee)
      fail(op, "calls unknown function @" + name);
    if (callee->exported() != Function::Export::None)
      fail(op, "calls exported @" + callee->name() + ", an entry point for code linked with it");
    if (callee->isKernel())
      fail(op, "calls kernel @" + name + "; only device functions can be called");
    std::vector<Type> params = callee->paramTypes();
    if (op.numOperands() != params.size())
      fail(op, "passes " + std::to_string(op.numOperands()) + " arguments to @" + name +
                   ", which takes " + std::to_string(params.size()));
    for (unsigned i = 0; i < params.size(); ++i)
      expectType(op, i, params[i]);
    if (op.resultType() != callee->returnType())
      fail(op, "result type " + op.resultType().str() + " does not match @" + name +
                   "'s return type " + callee->returnType().str());
  }

  // A linked CUDA C++ function takes scalars and returns a scalar or nothing (void); by
  // Numba's ABI through a pointer, by the C ABI as C returns it.
  void verifyExternCall(const Operation &op) {
    const std::string *symbol = std::get_if<std::string>(&op.attr());
    if (!symbol || symbol->empty())
      fail(op, "needs the linked function's symbol");
    if (op.result() && !op.resultType().isScalar())
      fail(op, "must return a scalar, not " + op.resultType().str());
    for (unsigned i = 0; i < op.numOperands(); ++i)
      if (!op.operand(i)->type().isScalar())
        fail(op, "passes " + op.operand(i)->type().str() + " to @" + *symbol +
                     "; a linked function takes scalars");
  }

  // Atomics act on 32- and 64-bit elements, as the GPU's atomic instructions do, and add and
  // sub on float16 and bfloat16 too; which kinds take which element types follows Numba's.
  void verifyAtomic(const Operation &op) {
    bool cas = op.opcode() == Opcode::AtomicCAS;
    unsigned values = cas ? 2 : 1;
    if (op.numOperands() < 1 + values)
      fail(op, "has too few operands");
    expectResult(op, true);
    Type array = op.operand(0)->type();
    if (!array.isArray() || array.isRecordArray() || array.isVectorArray())
      fail(op, "needs an array of numbers, got " + array.str());
    Type element = Type::scalar(array.scalarKind());
    unsigned bits = element.isBool() ? 1 : bitWidth(element.scalarKind());
    const auto *kind = std::get_if<AtomicOperationKind>(&op.attr());
    const AtomicOperation *operation = !cas && kind ? &atomicOperation(*kind) : nullptr;
    bool halfAddition =
        operation && operation->halfPrecision && isHalfPrecision(element.scalarKind());
    if ((!element.isInteger() && !element.isFloat()) || (bits != 32 && bits != 64 && !halfAddition))
      fail(op, "is not defined on " + element.str() + " elements (" +
                   (isHalfPrecision(element.scalarKind()) ? "add and sub only"
                                                          : "32- and 64-bit numbers only") +
                   ")");
    for (unsigned i = 1; i <= values; ++i)
      expectType(op, i, element);
    if (op.resultType() != element)
      fail(op, "result type " + op.resultType().str() + " does not match element type " +
                   element.str());
    if (cas) {
      expectNoAttr(op);
      if (!element.isInteger())
        fail(op, "compares integers only, not " + element.str());
    } else {
      expectAttr<AtomicOperationKind>(op, "an atomic operation");
      if (!operation->takes(element.scalarKind()))
        fail(op, "'" + std::string(operation->name) + "' needs " +
                     elementsName(operation->elements) + " elements, not " + element.str());
    }
    expectIndices(op, 1 + values, array);
  }

  void verifyArrayView(const Operation &op) {
    expectNoAttr(op);
    expectResult(op, true);
    if (op.numOperands() < 2)
      fail(op, "has too few operands");
    Type source = op.operand(0)->type(), view = op.resultType();
    if (!source.isArray())
      fail(op, "needs an array operand, got " + source.str());
    if (!view.isArray())
      fail(op, "result must be an array, not " + view.str());
    if (view.memorySpace() != source.memorySpace())
      fail(op, "views a " + source.str() + " as " + view.str() + ", in another memory space");
    // Vectors are aligned as CUDA's (float4: 16 bytes): only whole ones are viewed as vectors.
    if ((view.isVectorArray() || source.isVectorArray()) &&
        view.elementType() != source.elementType())
      fail(op, "views a " + source.str() + " as " + view.str() + ", another element type");
    expectPlacement(op, 1, "view takes an offset");
  }

  void verifyArrayAt(const Operation &op) {
    expectNoAttr(op);
    expectResult(op, true);
    Type array = op.resultType();
    if (!array.isArray() || array.memorySpace() != MemorySpace::Global)
      fail(op, "result must be an array in global memory, not " + array.str());
    expectPlacement(op, 0, "array takes an address");
  }

  // The i64 operands of an array_view or array_at from `first` on: where the result starts
  // (`start` says what), then its extents and its strides.
  void expectPlacement(const Operation &op, unsigned first, const std::string &start) {
    unsigned ndim = op.resultType().ndim();
    if (op.numOperands() != first + 1 + 2 * ndim)
      fail(op, "a " + std::to_string(ndim) + "-d " + start + ", " + std::to_string(ndim) +
                   " extents and " + std::to_string(ndim) + " strides, got " +
                   std::to_string(op.numOperands() - first) + " operands");
    for (unsigned i = first; i < op.numOperands(); ++i)
      expectType(op, i, kI64);
  }

  // The field's name must be one of the record's, and the field aligned in every element, so
  // that its loads and stores are of naturally aligned addresses.
  void verifyField(const Operation &op) {
    expectOperands(op, 1);
    expectAttr<std::string>(op, "a field name");
    expectResult(op, true);
    Type records = op.operand(0)->type();
    if (!records.isRecordArray())
      fail(op, "needs an array of records, got " + records.str());
    if (std::string problem = recordProblem(records.record()); !problem.empty())
      fail(op, problem);
    const std::string &name = op.attrAs<std::string>();
    const RecordField *f = records.record()->field(name);
    if (!f)
      fail(op, "names no field of " + records.record()->str() + ": '" + name + "'");
    if (std::string problem = records.record()->accessProblem(*f); !problem.empty())
      fail(op, problem);
    if (op.resultType() != fieldViewType(records, *f))
      fail(op,
           "result must be " + fieldViewType(records, *f).str() + ", not " + op.resultType().str());
  }

  void verifyAsyncCopy(const Operation &op) {
    expectOperands(op, 2);
    expectResult(op, false);
    expectAttr<int64_t>(op, "the bytes copied");
    Type destination = op.operand(0)->type(), source = op.operand(1)->type();
    for (const Type &array : {destination, source})
      if (!array.isArray() || array.isRecordArray() || array.isVectorArray() ||
          array.layout() != Layout::C || array.ndim() == 0)
        fail(op, "copies between C-contiguous arrays of numbers, not " + array.str());
    if (destination.memorySpace() != MemorySpace::Shared)
      fail(op, "copies into shared memory, not " + destination.str());
    if (source.memorySpace() != MemorySpace::Global)
      fail(op, "copies from global memory, not " + source.str());
    if (destination.scalarKind() != source.scalarKind())
      fail(op, "copies between arrays of one element type, not " + destination.str() + " and " +
                   source.str());
    int64_t bytes = op.attrAs<int64_t>();
    if ((bytes != 4 && bytes != 8 && bytes != 16) || bytes % byteSize(source.scalarKind()) != 0)
      fail(op, "copies 4, 8 or 16 bytes, whole elements of " + source.str() + ", not " +
                   std::to_string(bytes));
  }

  void verifyWarp(const Operation &op) {
    expectAttr<WarpCollectiveKind>(op, "a warp collective");
    expectResult(op, true);
    const WarpCollective *collective = &warpCollective(op.attrAs<WarpCollectiveKind>());
    std::string name(collective->name);
    WarpForm form = collective->form;
    expectOperands(op, collective->operandCount());
    if (form != WarpForm::ActiveMask) {
      expectType(op, 0, kU32);
      if (form == WarpForm::Shuffle)
        expectType(op, 2, kU32);
      Type value = op.operand(1)->type();
      if ((form == WarpForm::Vote || form == WarpForm::Ballot) && value != kBool)
        fail(op, name + " takes a bool predicate, not " + value.str());
      if ((form == WarpForm::Shuffle || form == WarpForm::Match) && !isWarpValue(value))
        fail(op, name + " exchanges 32- and 64-bit numbers, not " + value.str());
    }
    Type expected = form == WarpForm::Shuffle ? op.operand(1)->type()
                    : form == WarpForm::Vote  ? kI32
                                              : kU32;
    if (op.resultType() != expected)
      fail(op, name + " returns " + expected.str() + ", not " + op.resultType().str());
  }

  void verifyOperation(const Operation &op) {
    verifyVectorType(op.resultType(), op.location());
    verifyFragmentType(op.resultType(), op.location());
    switch (op.opcode()) {
#define KAJI_FRAGMENT_OPCODE(name, spelling) case Opcode::name:
#include "kaji/ir/Opcodes.def"
      return verifyFragmentOperation(op);
    case Opcode::Constant:
      return verifyConstant(op);
#define KAJI_BINARY_OPCODE(name, spelling) case Opcode::name:
#include "kaji/ir/Opcodes.def"
      return verifyArithmetic(op, 2);
    case Opcode::Neg:
    case Opcode::Not:
    case Opcode::Abs:
      return verifyArithmetic(op, 1);
    case Opcode::Cmp:
      expectOperands(op, 2);
      expectAttr<CmpPredicate>(op, "a comparison predicate");
      if (op.resultType() != kBool)
        fail(op, "result must be bool, not " + op.resultType().str());
      if (!op.operand(0)->type().isScalar())
        fail(op, "compares scalars, not " + op.operand(0)->type().str());
      if (op.operand(0)->type().isComplex())
        fail(op, "does not compare complex numbers (compare their parts)");
      if (isFloat8(op.operand(0)->type().scalarKind()))
        fail(op, "does not compare 8-bit floats (the frontend converts them first)");
      expectType(op, 1, op.operand(0)->type());
      return;
    case Opcode::Select:
      expectOperands(op, 3);
      expectResult(op, true);
      expectNoAttr(op);
      expectType(op, 0, kBool);
      expectType(op, 1, op.resultType());
      expectType(op, 2, op.resultType());
      return;
    case Opcode::Cast:
      expectOperands(op, 1);
      expectResult(op, true);
      expectNoAttr(op);
      if (!op.operand(0)->type().isScalar() || !op.resultType().isScalar())
        fail(op, "converts scalars only, not " + op.operand(0)->type().str() + " to " +
                     op.resultType().str());
      if (op.operand(0)->type().isComplex() || op.resultType().isComplex())
        fail(op, "does not convert complex numbers (convert their parts)");
      if (isFloat8(op.operand(0)->type().scalarKind()) || isFloat8(op.resultType().scalarKind()))
        fail(op, "does not convert 8-bit floats (the frontend converts them with integer "
                 "operations and bitcasts)");
      return;
    case Opcode::Bitcast:
      return verifyBitcast(op);
    case Opcode::Complex:
    case Opcode::Real:
    case Opcode::Imag:
      return verifyComplexParts(op);
    case Opcode::MakeVector:
    case Opcode::ExtractLane:
      return verifyVectorLanes(op);
    case Opcode::Math:
      return verifyMath(op);
    case Opcode::Libdevice:
      return verifyLibdevice(op);
    case Opcode::Bits: {
      expectOperands(op, 1);
      expectAttr<BitFunction>(op, "a bit function");
      std::string name(attributeName(op.attrAs<BitFunction>()));
      if (!op.operand(0)->type().isInteger())
        fail(op, name + " needs an integer operand, got " + op.operand(0)->type().str());
      if (op.resultType() != op.operand(0)->type())
        fail(op,
             name + " returns " + op.operand(0)->type().str() + ", not " + op.resultType().str());
      return;
    }
    case Opcode::BarrierReduce: {
      expectOperands(op, 1);
      expectAttr<BarrierReduction>(op, "a reduction");
      expectType(op, 0, kBool);
      if (op.resultType() != kI32)
        fail(op, "result must be i32, not " + op.resultType().str());
      return;
    }
    case Opcode::Print: {
      expectResult(op, false);
      expectAttr<std::string>(op, "a template");
      const std::string &format = op.attrAs<std::string>();
      size_t holes = 0;
      for (size_t i = 0; i < format.size(); ++i) {
        bool pair = i + 1 < format.size() && format[i + 1] == format[i];
        if (format[i] == '{' && i + 1 < format.size() && format[i + 1] == '}')
          ++holes, ++i;
        else if ((format[i] == '{' || format[i] == '}') && pair)
          ++i;
        else if (format[i] == '{' || format[i] == '}')
          fail(op, "template has an unmatched '" + std::string(1, format[i]) + "'");
      }
      if (holes != op.numOperands())
        fail(op, "template has " + std::to_string(holes) + " '{}' for " +
                     std::to_string(op.numOperands()) + " operands");
      for (unsigned i = 0; i < op.numOperands(); ++i)
        if (!op.operand(i)->type().isScalar() || op.operand(i)->type().isComplex() ||
            isFloat8(op.operand(i)->type().scalarKind()))
          fail(op, "prints real scalars but 8-bit floats, not " + op.operand(i)->type().str());
      return;
    }
    case Opcode::WarpSync:
    case Opcode::Nanosleep:
      expectOperands(op, 1);
      expectResult(op, false);
      expectType(op, 0, kU32);
      return;
    case Opcode::Warp:
      return verifyWarp(op);
    case Opcode::Fence: {
      expectOperands(op, 0);
      expectResult(op, false);
      expectAttr<FenceScope>(op, "a scope");
      return;
    }
    case Opcode::SpecialReg:
      expectOperands(op, 0);
      expectAttr<SpecialReg>(op, "a special register");
      if (op.attrAs<SpecialReg>().dim > 2)
        fail(op, "dimension must be 0 (x), 1 (y) or 2 (z)");
      if (op.resultType() != kI32)
        fail(op, "result must be i32, not " + op.resultType().str());
      return;
    case Opcode::Barrier:
    case Opcode::GridSync:
    case Opcode::AsyncCommit:
    case Opcode::WarpgroupCommit:
      expectOperands(op, 0);
      expectResult(op, false);
      return;
    case Opcode::AsyncCopy:
      return verifyAsyncCopy(op);
    case Opcode::AsyncWait:
    case Opcode::WarpgroupWait:
      expectOperands(op, 0);
      expectResult(op, false);
      expectAttr<int64_t>(op, "the number of groups left running");
      if (op.attrAs<int64_t>() < 0 || op.attrAs<int64_t>() > INT32_MAX)
        fail(op, "waits for 0 to 2^31-1 groups, not " + std::to_string(op.attrAs<int64_t>()));
      return;
    case Opcode::ArrayAddress:
      expectOperands(op, 1);
      if (!op.operand(0)->type().isArray())
        fail(op, "needs an array operand, got " + op.operand(0)->type().str());
      if (op.resultType() != Type::scalar(ScalarKind::UInt64))
        fail(op, "result must be u64, not " + op.resultType().str());
      return;
    case Opcode::ArrayDim:
    case Opcode::ArrayStride:
    case Opcode::ArrayIndex: {
      bool isIndex = op.opcode() == Opcode::ArrayIndex;
      expectOperands(op, isIndex ? 2 : 1);
      expectAttr<int64_t>(op, "a dimension");
      Type array = op.operand(0)->type();
      if (!array.isArray())
        fail(op, "needs an array operand, got " + array.str());
      int64_t dim = op.attrAs<int64_t>();
      if (dim < 0 || dim >= int64_t(array.ndim()))
        fail(op, "dimension " + std::to_string(dim) + " is out of range for " + array.str());
      if (isIndex && op.operand(1)->type() != kI64 &&
          op.operand(1)->type() != Type::scalar(ScalarKind::UInt64))
        fail(op, "index has type " + op.operand(1)->type().str() + ", expected i64 or u64");
      if (op.resultType() != kI64)
        fail(op, "result must be i64, not " + op.resultType().str());
      return;
    }
    case Opcode::ArrayView:
      return verifyArrayView(op);
    case Opcode::ArrayAt:
      return verifyArrayAt(op);
    case Opcode::Field:
      return verifyField(op);
    case Opcode::Atomic:
    case Opcode::AtomicCAS:
      return verifyAtomic(op);
    case Opcode::Load:
    case Opcode::Store: {
      bool isStore = op.opcode() == Opcode::Store;
      unsigned arrayIndex = isStore ? 1 : 0;
      if (op.numOperands() < arrayIndex + 1)
        fail(op, "has too few operands");
      const auto *cache = std::get_if<CacheOperator>(&op.attr());
      if (!cache)
        expectNoAttr(op);
      expectResult(op, !isStore);
      Type array = op.operand(arrayIndex)->type();
      if (!array.isArray())
        fail(op, "needs an array operand, got " + array.str());
      if (cache && !cacheOperatorApplies(*cache, !isStore))
        fail(op, "cannot take the cache operator '" + std::string(attributeName(*cache)) + "'");
      if (cache && array.memorySpace() != MemorySpace::Global)
        fail(op, "with a cache operator needs an array in global memory, not " + array.str());
      if (cache && array.isVectorArray())
        fail(op, "with a cache operator needs an array of numbers, not " + array.str());
      if (array.isRecordArray())
        fail(op, "cannot move whole records of " + array.str() + "; 'field' selects one field");
      Type element = array.elementType();
      if (op.opcode() == Opcode::Load) {
        if (op.resultType() != element)
          fail(op, "result type " + op.resultType().str() + " does not match element type " +
                       element.str());
        return expectIndices(op, 1, array);
      }
      expectType(op, 0, element);
      return expectIndices(op, 2, array);
    }
    case Opcode::ConstArray: {
      expectOperands(op, 0);
      expectAttr<ConstantData>(op, "the array's contents");
      Type type = op.resultType();
      const ConstantData &data = op.attrAs<ConstantData>();
      if (!type.isArray() || type.memorySpace() != MemorySpace::Constant ||
          type.layout() != Layout::C)
        fail(op, "result must be a C-layout const array, not " + type.str());
      if (data.shape.size() != type.ndim())
        fail(op, "shape has " + std::to_string(data.shape.size()) + " extents for " + type.str());
      uint64_t elements = 1;
      for (int64_t extent : data.shape) {
        if (extent < 0 || (extent > 0 && elements > (uint64_t(1) << 40) / uint64_t(extent)))
          fail(op, "extent " + std::to_string(extent) + " is out of range");
        elements *= uint64_t(extent);
      }
      if (data.bytes.size() != elements * type.elementSize())
        fail(op, "holds " + std::to_string(data.bytes.size()) + " bytes, not the " +
                     std::to_string(elements * type.elementSize()) + " of its shape");
      return verifyStaticArraySize(op, data.shape);
    }
    case Opcode::DynamicSharedArray: {
      expectOperands(op, 0);
      expectAttr<int64_t>(op, "an alignment");
      Type type = op.resultType();
      if (!type.isArray() || type.memorySpace() != MemorySpace::Shared ||
          type.layout() != Layout::C || type.ndim() != 1)
        fail(op, "result must be a one-dimensional C-layout shared array, not " + type.str());
      verifyAlignment(op, op.attrAs<int64_t>());
      return;
    }
    case Opcode::SharedArray:
    case Opcode::LocalArray: {
      expectOperands(op, 0);
      expectAttr<ArrayAllocation>(op, "a shape");
      Type type = op.resultType();
      const auto &shape = op.attrAs<ArrayAllocation>().shape;
      verifyAlignment(op, op.attrAs<ArrayAllocation>().alignment);
      bool shared = op.opcode() == Opcode::SharedArray;
      if (!type.isArray() ||
          type.memorySpace() != (shared ? MemorySpace::Shared : MemorySpace::Local) ||
          type.layout() != Layout::C)
        fail(op, std::string("result must be a C-layout ") + (shared ? "shared" : "local") +
                     " array, not " + type.str());
      if (shape.size() != type.ndim())
        fail(op, "shape has " + std::to_string(shape.size()) + " extents for " + type.str());
      for (int64_t extent : shape)
        if (extent <= 0)
          fail(op, "extents must be positive, got " + std::to_string(extent));
      return verifyStaticArraySize(op, shape);
    }
    case Opcode::Call:
      return verifyCall(op);
    case Opcode::ExternCall:
    case Opcode::ExternCallC:
      return verifyExternCall(op);
    case Opcode::Br:
      expectOperands(op, 0);
      expectSuccessors(op, 1);
      return;
    case Opcode::CondBr:
      expectOperands(op, 1);
      expectSuccessors(op, 2);
      expectType(op, 0, kBool);
      return;
    case Opcode::Return: {
      expectSuccessors(op, 0);
      Type expected = function_.returnType();
      if (expected.isVoid()) {
        if (op.numOperands() != 0)
          fail(op, "returns a value from @" + function_.name() + ", which returns void");
        return;
      }
      if (op.numOperands() != 1)
        fail(op, "must return a " + expected.str() + " value from @" + function_.name());
      expectType(op, 0, expected);
      return;
    }
    case Opcode::Raise:
      expectOperands(op, 0);
      expectSuccessors(op, 0);
      expectResult(op, false);
      if (const auto *exception = std::get_if<std::string>(&op.attr());
          exception && exception->empty())
        fail(op, "raises an exception without a class");
      return;
    }
  }

  const Module &module_;
  const Function &function_;
  DominatorTree dominance_;
  std::unordered_map<const Operation *, size_t> position_;
  std::unordered_map<const Block *, size_t> blockNumbers_;
};

} // namespace

void verify(const Module &module) {
  // A function's parameters are its entry block's arguments, and a call's are checked
  // against its callee's: every function needs its entry block before any is verified.
  for (const auto &function : module.functions())
    if (function->blocks().empty())
      throw CompileError(function->location(),
                         "function @" + function->name() + " has no body; it needs an entry block");
  std::unordered_set<std::string_view> names;
  for (const auto &function : module.functions()) {
    if (!names.insert(function->name()).second)
      throw CompileError(function->location(), "redefinition of function @" + function->name());
    FunctionVerifier(module, *function).run();
  }
}

} // namespace kaji::ir
