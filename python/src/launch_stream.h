// The stream a launch runs on, from whatever kernel[griddim, blockdim, stream] was given:
// a kaji stream, 0 or None (the default stream), or another library's stream object.
#pragma once

#include "kaji/runtime/Stream.h"

#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <optional>

namespace kaji::python {

namespace py = pybind11;

class LaunchStream {
public:
  LaunchStream() = default; // the default stream
  // Throws TypeError when `object` is not a stream kaji can launch on.
  explicit LaunchStream(py::handle object);

  // Null for the default stream.
  const runtime::Stream *get() const { return stream_.get(); }
  // The stream, keeping the Python object that owns it alive as long as the pointer lives:
  // for memory freed in the stream's order after the launch or copy returns.
  std::shared_ptr<const runtime::Stream> retained() const;

  template <class F> void forEachPythonReference(F &&f) const { f(owner_); }

private:
  py::object owner_; // the Python stream object, kept alive while launches use it
  std::shared_ptr<const runtime::Stream> stream_;
};

// The CUstream of another library's stream object: `__cuda_stream__()` (the CUDA stream
// protocol), PyTorch's `.cuda_stream` or CuPy's `.ptr`; nothing when `object` has none.
std::optional<uintptr_t> foreignStreamHandle(py::handle object);

} // namespace kaji::python
