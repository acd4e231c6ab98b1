#include "launch_stream.h"

#include "integers.h"
#include "shared_reference.h"

#include <string>

namespace kaji::python {

namespace {

std::optional<uintptr_t> intAttribute(py::handle object, const char *name) {
  if (!py::hasattr(object, name))
    return std::nullopt;
  py::object value = object.attr(name);
  if (!PyLong_Check(value.ptr()))
    return std::nullopt;
  return readUint64(value, "stream handle");
}

} // namespace

std::optional<uintptr_t> foreignStreamHandle(py::handle object) {
  if (py::hasattr(object, "__cuda_stream__")) {
    py::object protocol = object.attr("__cuda_stream__")();
    if (!py::isinstance<py::tuple>(protocol) || py::len(protocol) != 2 ||
        !PyLong_Check(py::tuple(protocol)[1].ptr()))
      throw py::type_error(std::string("__cuda_stream__() of '") + Py_TYPE(object.ptr())->tp_name +
                           "' must return (version, stream handle)");
    return readUint64(py::tuple(protocol)[1], "stream handle");
  }
  // Before the protocol: PyTorch streams have .cuda_stream, CuPy streams .ptr.
  if (std::optional<uintptr_t> handle = intAttribute(object, "cuda_stream"))
    return handle;
  return intAttribute(object, "ptr");
}

LaunchStream::LaunchStream(py::handle object) {
  if (object.is_none() || (PyLong_Check(object.ptr()) && !PyObject_IsTrue(object.ptr())))
    return;
  owner_ = py::reinterpret_borrow<py::object>(object);
  if (py::isinstance<runtime::Stream>(object)) {
    // Owned by the Python object held above.
    stream_ = std::shared_ptr<const runtime::Stream>(std::shared_ptr<void>(),
                                                     object.cast<const runtime::Stream *>());
  } else if (std::optional<uintptr_t> handle = foreignStreamHandle(object)) {
    stream_ = std::make_shared<const runtime::Stream>(
        runtime::Stream::external(reinterpret_cast<runtime::CUstream>(*handle)));
  } else {
    throw py::type_error(std::string("stream must be a kaji stream, 0, None or a stream "
                                     "object of another library (__cuda_stream__, a PyTorch or "
                                     "CuPy stream), not '") +
                         Py_TYPE(object.ptr())->tp_name +
                         "'; kaji.external_stream(handle) wraps a raw CUstream");
  }
}

std::shared_ptr<const runtime::Stream> LaunchStream::retained() const {
  // Another library's stream is already owned by stream_ (its handle by that library).
  if (!stream_ || !py::isinstance<runtime::Stream>(owner_))
    return stream_;
  return std::shared_ptr<const runtime::Stream>(sharedReference(owner_), stream_.get());
}

} // namespace kaji::python
