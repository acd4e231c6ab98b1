#include "kaji/ir/MatrixFragments.h"

#include "kaji/ir/IR.h"

#include <array>
#include <string>

namespace kaji::ir {

namespace {

struct ShapeRow {
  MatrixShape shape;
  std::string_view name;
  MatrixShapeExtents extents;
  MatrixInstruction instruction;
};

constexpr ShapeRow kShapes[] = {
#define KAJI_MATRIX_SHAPE(shape, m, n, k, instruction)                                             \
  {MatrixShape::shape, "m" #m "n" #n "k" #k, {m, n, k}, MatrixInstruction::instruction},
#include "kaji/ir/MatrixFragments.def"
};

struct MmaRow {
  MatrixShape shape;
  ScalarKind input, accumulator;
  unsigned architecture;
};

constexpr MmaRow kMmas[] = {
#define KAJI_MATRIX_MMA(shape, input, accumulator, architecture)                                   \
  {MatrixShape::shape, ScalarKind::input, ScalarKind::accumulator, architecture},
#include "kaji/ir/MatrixFragments.def"
};

constexpr std::array<std::string_view, 3> kUseNames = {"a", "b", "acc"};

} // namespace

std::string_view attributeName(MatrixLayout layout) {
  return layout == MatrixLayout::Row ? "row" : "col";
}

std::optional<MatrixLayout> findMatrixLayout(std::string_view name) {
  if (name == "row")
    return MatrixLayout::Row;
  if (name == "col")
    return MatrixLayout::Col;
  return std::nullopt;
}

MatrixShapeExtents extentsOf(MatrixShape shape) { return kShapes[size_t(shape)].extents; }

MatrixInstruction instructionOf(MatrixShape shape) { return kShapes[size_t(shape)].instruction; }

bool usesWarpgroupMma(const Module &module) {
  for (const auto &function : module.functions())
    for (const auto &block : function->blocks())
      for (const auto &op : block->operations())
        if (op->opcode() == Opcode::WarpgroupMma)
          return true;
  return false;
}

unsigned placedElements(const Type &fragment) {
  auto [rows, columns] = fragmentMatrixExtents(fragment);
  unsigned threads = isWarpgroupShape(fragment.matrixShape()) ? kWarpgroupThreads : 32;
  return rows * columns / threads;
}

// PTX ISA, "Matrix fragments for mma.m16n8k16" and "... mma.m16n8k8" (16-bit inputs two to a
// register, tf32 one) and "Register fragment of the wgmma accumulator D".
ElementPlacement elementPlacement(const Type &fragment, unsigned i) {
  bool tf32 = fragment.scalarKind() == ScalarKind::Float32;
  switch (fragment.matrixUse()) {
  case MatrixUse::A:
    if (tf32)
      return {{1, 0, 0, 8 * (i % 2)}, {0, 1, 0, 4 * (i / 2)}};
    return {{1, 0, 0, 8 * (i / 2 % 2)}, {0, 2, 0, i % 2 + 8 * (i / 4)}};
  case MatrixUse::B:
    if (tf32)
      return {{0, 1, 0, 4 * i}, {1, 0, 0, 0}};
    return {{0, 2, 0, i % 2 + 8 * (i / 2)}, {1, 0, 0, 0}};
  case MatrixUse::Accumulator:
    break;
  }
  if (isWarpgroupShape(fragment.matrixShape()))
    return {{1, 0, 16, 8 * (i / 2 % 2)}, {0, 2, 0, 8 * (i / 4) + i % 2}};
  return {{1, 0, 0, 8 * (i / 2)}, {0, 2, 0, i % 2}};
}

std::string_view matrixShapeName(MatrixShape shape) { return kShapes[size_t(shape)].name; }

std::optional<MatrixShape> matrixShapeFromName(std::string_view name) {
  for (const ShapeRow &row : kShapes)
    if (row.name == name)
      return row.shape;
  return std::nullopt;
}

std::string_view matrixUseName(MatrixUse use) { return kUseNames[size_t(use)]; }

std::optional<MatrixUse> matrixUseFromName(std::string_view name) {
  for (size_t i = 0; i < kUseNames.size(); ++i)
    if (kUseNames[i] == name)
      return MatrixUse(i);
  return std::nullopt;
}

std::pair<unsigned, unsigned> fragmentMatrixExtents(const Type &fragment) {
  MatrixShapeExtents extents = extentsOf(fragment.matrixShape());
  switch (fragment.matrixUse()) {
  case MatrixUse::A:
    return {extents.m, extents.k};
  case MatrixUse::B:
    return {extents.k, extents.n};
  case MatrixUse::Accumulator:
    break;
  }
  return {extents.m, extents.n};
}

std::optional<unsigned> mmaArchitecture(MatrixShape shape, ScalarKind input,
                                        ScalarKind accumulator) {
  for (const MmaRow &row : kMmas)
    if (row.shape == shape && row.input == input && row.accumulator == accumulator)
      return row.architecture;
  return std::nullopt;
}

unsigned fragmentArchitecture(const Type &fragment) {
  bool accumulator = fragment.matrixUse() == MatrixUse::Accumulator;
  unsigned oldest = 0;
  for (const MmaRow &row : kMmas)
    if (row.shape == fragment.matrixShape() &&
        (accumulator ? row.accumulator : row.input) == fragment.scalarKind() &&
        (oldest == 0 || row.architecture < oldest))
      oldest = row.architecture;
  return oldest;
}

std::string fragmentProblem(const Type &type) {
  bool accumulator = type.matrixUse() == MatrixUse::Accumulator;
  bool found = false;
  for (const MmaRow &row : kMmas)
    found |= row.shape == type.matrixShape() &&
             (accumulator ? row.accumulator : row.input) == type.scalarKind();
  std::string use = type.matrixUse() == MatrixUse::A   ? "A"
                    : type.matrixUse() == MatrixUse::B ? "B"
                                                       : "accumulator";
  if (!accumulator && isWarpgroupShape(type.matrixShape()))
    return "a warpgroup's " + std::string(matrixShapeName(type.matrixShape())) +
           " has accumulator fragments only: cuda.wgmma.mma_async reads A and B from shared "
           "memory";
  if (!found)
    return "no " + use + " fragment of " + std::string(matrixShapeName(type.matrixShape())) +
           " holds " + std::string(irName(type.scalarKind())) + " elements";
  if (accumulator && type.layout() != Layout::Any)
    return "an accumulator fragment has no layout";
  if (!accumulator && type.layout() == Layout::Any)
    return "an " + use + " fragment is row or column major";
  return "";
}

} // namespace kaji::ir
