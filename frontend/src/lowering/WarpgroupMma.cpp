// cuda.wgmma, Hopper's warpgroup multiply-accumulate (PTX's wgmma.mma_async): the four warps of
// a warpgroup multiply matrices in shared memory into an accumulator fragment they hold
// together (a wmma.fragment of shape m64nNk16), asynchronously, in groups each thread commits
// and then waits for (the warpgroup_mma, warpgroup_commit and warpgroup_wait ops).
#include "FunctionLowerer.h"

#include "kaji/ir/MatrixFragments.h"

namespace kaji::frontend {

namespace {

constexpr std::string_view kPrefix = "kaji.wgmma.";

} // namespace

void FunctionLowerer::requireWarpgroupArchitecture(const std::string &what, const Location &loc) {
  std::optional<unsigned> compiledFor = compiledArchitecture();
  if (compiledFor && *compiledFor != 90)
    throw ir::CompileError(loc, what + " needs an sm_90 GPU (Hopper's wgmma; compiling for " +
                                    context_.options().gpuArch + ")");
}

Operand FunctionLowerer::callWarpgroupMma(const std::string &name, const CallExpr &expr) {
  std::string member = name.substr(kPrefix.size());
  std::string function = "cuda.wgmma." + member + "()";
  std::vector<Operand> args = positionalArguments(expr, function);
  auto argumentCount = [&](size_t count) {
    requireArgumentCount(args, count, count, function, expr.loc);
  };
  requireWarpgroupArchitecture(function, expr.loc);
  if (member == "commit_group") {
    argumentCount(0);
    at(expr.loc).create(ir::Opcode::WarpgroupCommit, ir::Type(), {});
    return Operand();
  }
  if (member == "wait_group") {
    argumentCount(1);
    std::optional<int64_t> pending = constantInt(args[0]);
    if (!pending || *pending < 0 || *pending > 7)
      throw ir::CompileError(expr.args[0]->loc,
                             function +
                                 " takes the number of groups that may still run as a "
                                 "constant integer from 0 to 7, not " +
                                 describe(args[0]));
    at(expr.loc).create(ir::Opcode::WarpgroupWait, ir::Type(), {}, *pending);
    return Operand();
  }
  if (member != "mma_async")
    throw ir::CompileError(expr.loc, "cuda.wgmma." + member + " is no function");
  argumentCount(3);
  if (args[0].kind != Operand::Kind::Fragment)
    throw ir::CompileError(expr.args[0]->loc, function +
                                                  " takes a warpgroup's accumulator fragment "
                                                  "(m64nNk16) first, not " +
                                                  describe(args[0]));
  ir::Type accumulator = args[0].value->type();
  if (accumulator.matrixUse() != ir::MatrixUse::Accumulator ||
      !ir::isWarpgroupShape(accumulator.matrixShape()))
    throw ir::CompileError(expr.args[0]->loc,
                           function +
                               " accumulates into a warpgroup's accumulator, "
                               "wmma.fragment(wmma.accumulator, 64, n, 16, float32), not " +
                               describe(args[0]));
  ir::MatrixShapeExtents extents = ir::extentsOf(accumulator.matrixShape());
  const char *roles[] = {"a", "b"};
  for (size_t i = 1; i < 3; ++i) {
    ir::Type type = args[i].type();
    if (args[i].kind != Operand::Kind::Array || type.isRecordArray() || type.isVectorArray() ||
        type.ndim() != 2 || type.memorySpace() != ir::MemorySpace::Shared)
      throw ir::CompileError(expr.args[i]->loc, function + " reads " + roles[i - 1] + " (" +
                                                    std::to_string(i == 1 ? extents.m : extents.n) +
                                                    " x " + std::to_string(extents.k) +
                                                    ") from a 2-d shared array, not " +
                                                    describe(args[i]));
  }
  ir::ScalarKind input = args[1].type().scalarKind();
  if (args[2].type().scalarKind() != input ||
      !ir::mmaArchitecture(accumulator.matrixShape(), input, accumulator.scalarKind()))
    throw ir::CompileError(expr.loc, function + ": the tensor cores multiply no " +
                                         describe(args[1]) + " by " + describe(args[2]) + " into " +
                                         describe(args[0]) + " (float16 or bfloat16 into float32)");
  at(expr.loc).create(ir::Opcode::WarpgroupMma, ir::Type(),
                      {args[0].value, args[1].value, args[2].value});
  return Operand();
}

} // namespace kaji::frontend
