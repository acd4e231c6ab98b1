// The exceptions kaji raises in Python, and the translation of the C++ ones into them:
// ir::CompileError → kaji.CompileError (rendered with source line and caret),
// runtime::DriverUnavailable → kaji.CudaUnavailable, runtime::CudaError → kaji.CudaError.
#pragma once

#include "kaji/ir/Location.h"

#include <pybind11/pybind11.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace kaji::python {

namespace py = pybind11;

// A CompileError already rendered against the sources of its compile.
class RenderedCompileError : public std::runtime_error {
public:
  RenderedCompileError(std::string rendered, std::string message, ir::Location location)
      : std::runtime_error(std::move(rendered)), message_(std::move(message)),
        location_(std::move(location)) {}
  const std::string &message() const { return message_; }
  const ir::Location &location() const { return location_; }

private:
  std::string message_;
  ir::Location location_;
};

// Remembers that `kernel` (a GPU kernel calling `recursiveFunctions`, "'f' (line 3)") was
// launched on `device`, whose threads have `stackBytes` of stack, so that a later launch
// failure the driver reports as an illegal address names the likely stack overflow.
void noteRecursiveLaunch(int device, const std::string &kernel,
                         const std::vector<std::string> &recursiveFunctions, size_t stackBytes);

// Creates kaji._core.CompileError, CudaError and CudaUnavailable and registers the translator.
void registerErrors(py::module_ &m);

} // namespace kaji::python
