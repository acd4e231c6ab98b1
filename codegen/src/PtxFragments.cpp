#include "kaji/codegen/PtxFragments.h"

#include "kaji/ir/MatrixFragments.h"

namespace kaji::codegen {

std::string_view ptxFragmentKind(const ir::Type &fragment) {
  switch (fragment.scalarKind()) {
  case ir::ScalarKind::Float16:
    return "f16";
  case ir::ScalarKind::BFloat16:
    return "bf16";
  case ir::ScalarKind::Int8:
    return "s8";
  case ir::ScalarKind::UInt8:
    return "u8";
  case ir::ScalarKind::Int32:
    return "s32";
  default:
    return fragment.matrixUse() == ir::MatrixUse::Accumulator ? "f32" : "tf32";
  }
}

unsigned ptxFragmentRegisters(const ir::Type &fragment) {
  if (ir::instructionOf(fragment.matrixShape()) != ir::MatrixInstruction::Wmma)
    return ir::placedElements(fragment) * ir::byteSize(fragment.scalarKind()) / 4;
  bool half = fragment.scalarKind() == ir::ScalarKind::Float16;
  if (fragment.matrixUse() == ir::MatrixUse::Accumulator)
    return half ? 4 : 8;
  if (half)
    return 8;
  auto [rows, columns] = ir::fragmentMatrixExtents(fragment);
  return rows * columns / 32 * ir::byteSize(fragment.scalarKind()) / 4;
}

unsigned ptxFragmentElements(const ir::Type &fragment) {
  return ptxFragmentRegisters(fragment) * 4 / ir::byteSize(fragment.scalarKind());
}

std::string warpgroupArchitecture(const ir::Module &module, const std::string &arch) {
  return arch == "sm_90" && ir::usesWarpgroupMma(module) ? "sm_90a" : arch;
}

std::string ptxWarpgroupMma(const ir::Type &accumulator, ir::ScalarKind input) {
  std::string kind = input == ir::ScalarKind::BFloat16 ? "bf16" : "f16";
  return "wgmma.mma_async.sync.aligned." +
         std::string(ir::matrixShapeName(accumulator.matrixShape())) + ".f32." + kind + "." + kind;
}

} // namespace kaji::codegen
