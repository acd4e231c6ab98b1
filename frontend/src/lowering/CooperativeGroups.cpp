// cuda.cg: the grid group of cooperative launches. A grid group is a compile-time value (an
// empty tuple of class cuda.cg.GridGroup, so a variable can hold it); g.sync() is the IR's
// grid_sync, g.size and g.thread_rank() are arithmetic on the special registers.
#include "FunctionLowerer.h"

namespace kaji::frontend {

using ir::ScalarKind;

namespace {

constexpr const char *kGridGroupClass = "cuda.cg.GridGroup";

bool isGridGroup(const Operand &operand) {
  return operand.kind == Operand::Kind::Tuple && operand.tupleClass == kGridGroupClass;
}

} // namespace

// x + extent.x * (y + extent.y * z) of a kind of special register over `extents`' kind, as
// int64; with `extents` == `coordinates`, the product of the three extents instead.
ir::Value *FunctionLowerer::linearSpecialRegister(ir::SpecialReg::Kind coordinates,
                                                  ir::SpecialReg::Kind extents) {
  ir::Type i64 = ir::Type::scalar(ScalarKind::Int64);
  auto reg = [&](ir::SpecialReg::Kind kind, unsigned dim) {
    return builder_.cast(builder_.specialReg(kind, dim), i64);
  };
  if (coordinates == extents)
    return builder_.binary(ir::Opcode::Mul,
                           builder_.binary(ir::Opcode::Mul, reg(extents, 0), reg(extents, 1)),
                           reg(extents, 2));
  ir::Value *linear = reg(coordinates, 2);
  for (int dim = 1; dim >= 0; --dim)
    linear = builder_.binary(ir::Opcode::Add,
                             builder_.binary(ir::Opcode::Mul, linear, reg(extents, unsigned(dim))),
                             reg(coordinates, unsigned(dim)));
  return linear;
}

std::optional<Operand> FunctionLowerer::gridGroupAttribute(const Operand &base,
                                                           const std::string &attr,
                                                           const Expr &node) {
  if (!isGridGroup(base))
    return std::nullopt;
  if (attr == "sync" || attr == "thread_rank")
    return Operand::named(Operand::Kind::Builtin, "kaji.cg.GridGroup." + attr);
  if (attr == "size") {
    at(node.loc);
    return Operand::scalar(builder_.binary(
        ir::Opcode::Mul, linearSpecialRegister(ir::SpecialReg::GridDim, ir::SpecialReg::GridDim),
        linearSpecialRegister(ir::SpecialReg::BlockDim, ir::SpecialReg::BlockDim)));
  }
  throw ir::CompileError(node.loc, "cuda.cg.GridGroup has no attribute '" + attr +
                                       "' in kernels (it has sync(), size and thread_rank())");
}

Operand FunctionLowerer::callCooperativeGroups(const std::string &name, const CallExpr &expr) {
  if (!expr.args.empty() || !expr.keywords.empty())
    throw ir::CompileError(expr.loc, "cuda.cg." + name.substr(8) + "() takes no arguments");
  at(expr.loc);
  if (name == "kaji.cg.this_grid") {
    Operand group = Operand::tuple({});
    group.tupleClass = kGridGroupClass;
    return group;
  }
  if (name == "kaji.cg.GridGroup.sync") {
    builder_.create(ir::Opcode::GridSync, ir::Type());
    return Operand();
  }
  // thread_rank(): the block's rank times the threads of a block, plus the thread's rank in
  // the block, each linear with x fastest (CUDA's grid_group::thread_rank()).
  return Operand::scalar(builder_.binary(
      ir::Opcode::Add,
      builder_.binary(ir::Opcode::Mul,
                      linearSpecialRegister(ir::SpecialReg::BlockIdx, ir::SpecialReg::GridDim),
                      linearSpecialRegister(ir::SpecialReg::BlockDim, ir::SpecialReg::BlockDim)),
      linearSpecialRegister(ir::SpecialReg::ThreadIdx, ir::SpecialReg::BlockDim)));
}

} // namespace kaji::frontend
