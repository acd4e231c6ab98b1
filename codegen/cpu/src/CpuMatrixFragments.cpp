#include "CpuMatrixFragments.h"

#include "CompilerRuntimeBuiltins.h"
#include "kaji/ir/MatrixFragments.h"
#include "kaji/ir/Type.h"

#include <bit>
#include <cstring>
#include <vector>

namespace kaji::codegen {

namespace {

void copyMatrix(char *matrix, char *storage, int64_t ldm, uint32_t rows, uint32_t columns,
                uint32_t elementBytes, bool columnMajor, bool load) {
  for (uint32_t row = 0; row < rows; ++row)
    for (uint32_t column = 0; column < columns; ++column) {
      int64_t offset = columnMajor ? int64_t(column) * ldm + row : int64_t(row) * ldm + column;
      char *inMatrix = matrix + offset * int64_t(elementBytes);
      char *inStorage = storage + (uint64_t(row) * columns + column) * elementBytes;
      if (load)
        std::memcpy(inStorage, inMatrix, elementBytes);
      else
        std::memcpy(inMatrix, inStorage, elementBytes);
    }
}

double floatElement(const void *elements, size_t i, ir::ScalarKind kind) {
  switch (kind) {
  case ir::ScalarKind::Float16: {
    uint16_t bits;
    std::memcpy(&bits, static_cast<const uint16_t *>(elements) + i, 2);
    return doubleFromHalf(bits);
  }
  case ir::ScalarKind::BFloat16: {
    uint16_t bits;
    std::memcpy(&bits, static_cast<const uint16_t *>(elements) + i, 2);
    return std::bit_cast<float>(uint32_t(bits) << 16);
  }
  default: {
    float value;
    std::memcpy(&value, static_cast<const float *>(elements) + i, 4);
    return value;
  }
  }
}

// The element at row `row`, column `column` of a 128-byte swizzled matrix from `matrix` on.
double swizzledElement(const char *matrix, uint32_t row, uint32_t column, ir::ScalarKind kind) {
  auto address = reinterpret_cast<uintptr_t>(matrix) + 128 * uintptr_t(row) + 2 * uintptr_t(column);
  address ^= (address >> 7 & 7) << 4;
  return floatElement(reinterpret_cast<const void *>(address), 0, kind);
}

float tf32(float value) { return std::bit_cast<float>(std::bit_cast<uint32_t>(value) & ~0x1FFFu); }

int64_t integerElement(const void *elements, size_t i, ir::ScalarKind kind) {
  switch (kind) {
  case ir::ScalarKind::Int8:
    return static_cast<const int8_t *>(elements)[i];
  case ir::ScalarKind::UInt8:
    return static_cast<const uint8_t *>(elements)[i];
  default: {
    int32_t value;
    std::memcpy(&value, static_cast<const int32_t *>(elements) + i, 4);
    return value;
  }
  }
}

} // namespace

extern "C" {

void kaji_fragment_load(void *storage, const void *matrix, int64_t ldm, uint32_t rows,
                        uint32_t columns, uint32_t elementBytes, uint32_t columnMajor) {
  copyMatrix(static_cast<char *>(const_cast<void *>(matrix)), static_cast<char *>(storage), ldm,
             rows, columns, elementBytes, columnMajor != 0, true);
}

void kaji_fragment_store(void *matrix, const void *storage, int64_t ldm, uint32_t rows,
                         uint32_t columns, uint32_t elementBytes, uint32_t columnMajor) {
  copyMatrix(static_cast<char *>(matrix), static_cast<char *>(const_cast<void *>(storage)), ldm,
             rows, columns, elementBytes, columnMajor != 0, false);
}

void kaji_fragment_mma(void *d, const void *a, const void *b, const void *c, uint32_t m, uint32_t n,
                       uint32_t k, uint32_t input, uint32_t accumulator) {
  auto inputKind = ir::ScalarKind(input), accumulatorKind = ir::ScalarKind(accumulator);
  bool integers = ir::isInteger(inputKind);
  // d may be c: the results are written once all are computed.
  std::vector<double> sums(size_t(m) * n);
  std::vector<int64_t> integerSums(size_t(m) * n);
  for (uint32_t row = 0; row < m; ++row)
    for (uint32_t column = 0; column < n; ++column) {
      size_t at = size_t(row) * n + column;
      if (integers) {
        int64_t sum = integerElement(c, at, accumulatorKind);
        for (uint32_t l = 0; l < k; ++l)
          sum += integerElement(a, size_t(row) * k + l, inputKind) *
                 integerElement(b, size_t(l) * n + column, inputKind);
        integerSums[at] = sum;
        continue;
      }
      auto operand = [&](const void *elements, size_t i) {
        double value = floatElement(elements, i, inputKind);
        return inputKind == ir::ScalarKind::Float32 ? double(tf32(float(value))) : value;
      };
      double sum = floatElement(c, at, accumulatorKind);
      for (uint32_t l = 0; l < k; ++l)
        sum += operand(a, size_t(row) * k + l) * operand(b, size_t(l) * n + column);
      sums[at] = sum;
    }
  for (size_t at = 0; at < size_t(m) * n; ++at) {
    if (integers) {
      auto wrapped = int32_t(uint32_t(uint64_t(integerSums[at])));
      std::memcpy(static_cast<int32_t *>(d) + at, &wrapped, 4);
    } else if (accumulatorKind == ir::ScalarKind::Float16) {
      uint16_t bits = halfFromDouble(sums[at]);
      std::memcpy(static_cast<uint16_t *>(d) + at, &bits, 2);
    } else {
      auto value = float(sums[at]);
      std::memcpy(static_cast<float *>(d) + at, &value, 4);
    }
  }
}

void kaji_warpgroup_mma(float *d, const char *a, const char *b, uint32_t shape, uint32_t input,
                        uint64_t thread) {
  auto kind = ir::ScalarKind(input);
  ir::Type accumulator = ir::Type::fragment(ir::MatrixUse::Accumulator, ir::MatrixShape(shape),
                                            ir::ScalarKind::Float32, ir::Layout::Any);
  uint32_t k = ir::extentsOf(ir::MatrixShape(shape)).k;
  uint32_t lane = thread % 32, group = lane / 4, inGroup = lane % 4, warp = thread / 32 % 4;
  auto place = [&](const ir::LanePlacement &placement) {
    return placement.group * group + placement.thread * inGroup + placement.warp * warp +
           placement.offset;
  };
  for (uint32_t i = 0; i < ir::placedElements(accumulator); ++i) {
    ir::ElementPlacement placement = ir::elementPlacement(accumulator, i);
    uint32_t row = place(placement.row), column = place(placement.column);
    double sum = d[i];
    for (uint32_t l = 0; l < k; ++l)
      sum += swizzledElement(a, row, l, kind) * swizzledElement(b, column, l, kind);
    d[i] = float(sum);
  }
}
}

} // namespace kaji::codegen
