#include "kaji/ir/StaticArrays.h"

namespace kaji::ir {

const std::vector<int64_t> &staticArrayShape(const Operation &op) {
  return op.opcode() == Opcode::ConstArray ? op.attrAs<ConstantData>().shape
                                           : op.attrAs<ArrayAllocation>().shape;
}

uint64_t staticArrayStorageCount(const Operation &op) {
  Type type = op.resultType();
  uint64_t count = 1;
  for (int64_t extent : staticArrayShape(op))
    count *= uint64_t(extent);
  return type.isRecordArray() ? count * type.elementSize() : count;
}

std::vector<uint64_t> staticArrayStrides(const Operation &op) {
  const std::vector<int64_t> &shape = staticArrayShape(op);
  std::vector<uint64_t> strides(shape.size());
  uint64_t stride = op.resultType().elementSize();
  for (size_t d = shape.size(); d-- > 0;) {
    strides[d] = stride;
    stride *= uint64_t(shape[d]);
  }
  return strides;
}

} // namespace kaji::ir
