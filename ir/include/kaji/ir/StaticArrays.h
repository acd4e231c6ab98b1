// The storage of a shared_array, local_array or const_array, as both GPU backends and the cpu
// target lay it out: C order, its records as bytes. The verifier has checked the shape against
// the type and the size against kMaxStaticArrayBytes.
#pragma once

#include "kaji/ir/IR.h"

#include <cstdint>
#include <vector>

namespace kaji::ir {

// The most bytes one static array may take.
inline constexpr uint64_t kMaxStaticArrayBytes = uint64_t(1) << 32;

// The array's extents, from its ArrayAllocation or ConstantData.
const std::vector<int64_t> &staticArrayShape(const Operation &op);

// How many storage elements it takes: its elements, or the bytes of its records.
uint64_t staticArrayStorageCount(const Operation &op);

// The byte stride of each dimension, C order.
std::vector<uint64_t> staticArrayStrides(const Operation &op);

} // namespace kaji::ir
