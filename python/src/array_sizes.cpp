#include "array_sizes.h"

#include "integers.h"
#include "kaji/abi/KernelABI.h"

namespace kaji::python {

namespace {

[[noreturn]] void tooLarge(std::span<const int64_t> shape, int64_t itemSize, const char *what,
                           const char *limit) {
  throw py::value_error("array of shape " + shapeText(shape) + " with " + std::to_string(itemSize) +
                        "-byte elements is too large: its " + what + " exceeds " + limit +
                        " bytes");
}

} // namespace

std::string shapeText(std::span<const int64_t> shape) {
  std::string text = "(";
  for (size_t i = 0; i < shape.size(); ++i)
    text.append(i ? ", " : "").append(std::to_string(shape[i]));
  return text + (shape.size() == 1 ? ",)" : ")");
}

std::vector<int64_t> readShape(py::handle shape) {
  // A numpy array of extents is a sequence, though its type converts to an index; a 0-d one
  // is an index only.
  bool zeroDimensional =
      py::hasattr(shape, "ndim") && py::int_(shape.attr("ndim")).cast<int>() == 0;
  bool sequence = PySequence_Check(shape.ptr()) && !zeroDimensional;
  if (PyIndex_Check(shape.ptr()) && !sequence)
    return {readInt64(shape, "array dimension")};
  if (!PySequence_Check(shape.ptr()) || PyUnicode_Check(shape.ptr()))
    throw py::type_error(std::string("a shape is an int or a tuple of ints, not '") +
                         Py_TYPE(shape.ptr())->tp_name + "'");
  std::vector<int64_t> extents;
  for (py::handle extent : py::reinterpret_borrow<py::sequence>(shape))
    extents.push_back(readInt64(extent, "array dimension"));
  return extents;
}

int64_t checkedElementCount(std::span<const int64_t> shape, int64_t itemSize) {
  int64_t bytes = itemSize;
  bool empty = false;
  for (int64_t extent : shape) {
    if (extent < 0)
      throw py::value_error("negative dimensions are not allowed: shape " + shapeText(shape));
    empty |= extent == 0;
    if (extent != 0 &&
        (__builtin_mul_overflow(bytes, extent, &bytes) || bytes > abi::kMaxArrayBytes))
      tooLarge(shape, itemSize, "size", "2**62");
  }
  return empty ? 0 : bytes / itemSize;
}

std::pair<int64_t, int64_t> byteExtent(std::span<const int64_t> shape,
                                       std::span<const int64_t> strides, int64_t itemSize) {
  int64_t low = 0, high = itemSize;
  for (size_t axis = 0; axis < shape.size(); ++axis) {
    if (shape[axis] == 0)
      return {0, 0};
    int64_t reach;
    bool overflow = __builtin_mul_overflow(shape[axis] - 1, strides[axis], &reach);
    int64_t &end = reach < 0 ? low : high;
    if (overflow || __builtin_add_overflow(end, reach, &end))
      tooLarge(shape, itemSize, "span of memory", "2**63-1");
  }
  if (int64_t span; __builtin_sub_overflow(high, low, &span))
    tooLarge(shape, itemSize, "span of memory", "2**63-1");
  return {low, high};
}

} // namespace kaji::python
