// cuda.pipeline, CUDA C++'s pipeline primitives (__pipeline_memcpy_async, __pipeline_commit,
// __pipeline_wait_prior): copies from global to shared memory that run while the thread goes
// on, in groups it commits and then waits for (the async_copy, async_commit and async_wait
// ops). GPUs older than sm_80 have no such copies: there, as in CUDA, each copy is made at once
// and commits and waits do nothing.
#include "FunctionLowerer.h"

namespace kaji::frontend {

namespace {

constexpr std::string_view kPrefix = "kaji.pipeline.";

} // namespace

Operand FunctionLowerer::callAsyncCopies(const std::string &name, const CallExpr &expr) {
  std::string member = name.substr(kPrefix.size());
  std::string function = "cuda.pipeline." + member + "()";
  std::vector<Operand> args = positionalArguments(expr, function);
  auto argumentCount = [&](size_t count) {
    requireArgumentCount(args, count, count, function, expr.loc);
  };
  std::optional<unsigned> architecture = compiledArchitecture();
  bool asynchronous = !architecture || *architecture >= 80;
  if (member == "commit") {
    argumentCount(0);
    if (asynchronous)
      at(expr.loc).create(ir::Opcode::AsyncCommit, ir::Type(), {});
    return Operand();
  }
  if (member == "wait_prior") {
    argumentCount(1);
    std::optional<int64_t> pending = constantInt(args[0]);
    if (!pending || *pending < 0 || *pending > INT32_MAX)
      throw ir::CompileError(expr.args[0]->loc,
                             function +
                                 " takes the number of groups that may still be copying "
                                 "as a constant integer from 0 to 2**31-1, not " +
                                 describe(args[0]));
    if (asynchronous)
      at(expr.loc).create(ir::Opcode::AsyncWait, ir::Type(), {}, *pending);
    return Operand();
  }
  if (member != "memcpy_async")
    throw ir::CompileError(expr.loc, "cuda.pipeline." + member + " is no function");
  argumentCount(3);
  const char *roles[] = {"destination", "source"};
  const ir::MemorySpace spaces[] = {ir::MemorySpace::Shared, ir::MemorySpace::Global};
  for (size_t i = 0; i < 2; ++i) {
    ir::Type type = args[i].type();
    if (args[i].kind != Operand::Kind::Array || type.isRecordArray() || type.isVectorArray())
      throw ir::CompileError(expr.args[i]->loc,
                             function + " takes an array of numbers as its " + roles[i] +
                                 " (the copy starts at its first element), not " +
                                 describe(args[i]));
    if (type.memorySpace() != spaces[i])
      throw ir::CompileError(expr.args[i]->loc,
                             function + " copies from global memory into shared memory: its " +
                                 roles[i] + " is in " +
                                 std::string(ir::memorySpaceName(type.memorySpace())) + " memory");
    if (type.layout() != ir::Layout::C)
      throw ir::CompileError(expr.args[i]->loc,
                             function + " copies along a contiguous last axis: its " + roles[i] +
                                 " must be C-contiguous, not " + describe(args[i]));
  }
  ir::Type destination = args[0].type(), source = args[1].type();
  if (destination.scalarKind() != source.scalarKind())
    throw ir::CompileError(expr.loc, function + " copies between arrays of one element type, not " +
                                         describe(args[0]) + " and " + describe(args[1]) +
                                         " (view one as the other's type)");
  int64_t itemSize = ir::byteSize(source.scalarKind());
  std::optional<int64_t> bytes = constantInt(args[2]);
  if (!bytes || (*bytes != 4 && *bytes != 8 && *bytes != 16) || *bytes % itemSize != 0)
    throw ir::CompileError(
        expr.args[2]->loc,
        function + " copies 4, 8 or 16 bytes, a constant number of whole " +
            std::string(ir::irName(source.scalarKind())) + " elements, not " +
            (bytes ? std::to_string(*bytes) : "a variable " + describe(args[2])));
  if (asynchronous) {
    at(expr.loc).create(ir::Opcode::AsyncCopy, ir::Type(), {args[0].value, args[1].value}, *bytes);
    return Operand();
  }
  for (int64_t element = 0; element < *bytes / itemSize; ++element) {
    auto indices = [&](const ir::Value *array, ir::Value *first) {
      std::vector<ir::Value *> operands{const_cast<ir::Value *>(array)};
      unsigned ndim = array->type().ndim();
      for (unsigned d = 0; d < ndim; ++d)
        operands.push_back(at(expr.loc).intConstant(ir::Type::scalar(ir::ScalarKind::Int64),
                                                    d + 1 == ndim ? element : 0));
      if (first)
        operands.insert(operands.begin(), first);
      return operands;
    };
    ir::Value *value = at(expr.loc)
                           .create(ir::Opcode::Load, ir::Type::scalar(source.scalarKind()),
                                   indices(args[1].value, nullptr))
                           ->result();
    at(expr.loc).create(ir::Opcode::Store, ir::Type(), indices(args[0].value, value));
  }
  return Operand();
}

} // namespace kaji::frontend
