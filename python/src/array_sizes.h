// Sizes computed from an array's shape and strides, checked: a shape whose byte count exceeds
// 2**62 (kernels' bound on extents) is refused where the array is made, so that every size and byte
// offset computed later from an existing array (nbytes, copies, views, kernel indices) fits.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace kaji::python {

namespace py = pybind11;

// "(3, 4)", "(5,)", "()".
std::string shapeText(std::span<const int64_t> shape);

// A shape as Python gives it: an int, or a sequence of ints. TypeError for anything else,
// ValueError for an extent outside int64.
std::vector<int64_t> readShape(py::handle shape);

// The element count of an array of `shape` with `itemSize`-byte elements. As in numpy,
// extents must be non-negative; the bytes of the nonzero extents must not exceed
// abi::kMaxArrayBytes (2**62: kernels are compiled on that bound; a zero extent does not
// make an absurd one acceptable). ValueError naming the shape otherwise.
int64_t checkedElementCount(std::span<const int64_t> shape, int64_t itemSize);

// The bytes [low, high), relative to the first element, that a strided array's elements span.
// ValueError when the span does not fit an int64 (strides a numpy view can be given freely).
std::pair<int64_t, int64_t> byteExtent(std::span<const int64_t> shape,
                                       std::span<const int64_t> strides, int64_t itemSize);

} // namespace kaji::python
