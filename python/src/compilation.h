// Compiling a @jit function through the driver, with compile errors rendered against the
// sources of every function involved (kernel, device functions, signature text).
#pragma once

#include "kaji/driver/FunctionSource.h"

#include "kaji/driver/Compiler.h"
#include "kaji/frontend/Signature.h"

#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <vector>

namespace kaji::python {

namespace py = pybind11;

// What a kernel is compiled from: its source and the callable describing its globals (see
// environment.h); the globals are read at each compile, as Numba does.
struct KernelDefinition {
  std::shared_ptr<driver::FunctionSource> source;
  py::object describeGlobals;
};

// Objects compiled code refers to by address (device arrays captured as globals): whatever
// keeps the code keeps them.
using CapturedObjects = std::vector<py::object>;

// All of these throw RenderedCompileError (errors.h) for errors in the user's code.
// `settings` is a request without kernels: its target and that target's options.
// `params` gives the kernel's parameter types (its return type is ignored). `captured`, when
// given, receives the objects the code refers to.
driver::CompiledModule compileKernel(const KernelDefinition &kernel,
                                     const frontend::Signature &params,
                                     const driver::CompileRequest &settings,
                                     CapturedObjects *captured = nullptr);
codegen::CpuKernel compileCpuKernel(const KernelDefinition &kernel,
                                    const frontend::Signature &params,
                                    const driver::CompileRequest &settings,
                                    CapturedObjects *captured = nullptr);
std::string emitKernelStage(const KernelDefinition &kernel, const frontend::Signature &params,
                            driver::Stage stage, const driver::CompileRequest &settings);
// The types of `kernel`'s variables for `params`, by name (driver::localVariableTypes).
std::vector<std::pair<std::string, std::string>>
localVariableTypes(const KernelDefinition &kernel, const frontend::Signature &params,
                   const driver::CompileRequest &settings);
// `kernel`'s function compiled as a device function on its own, exported as `how` says.
driver::ExportedDeviceFunction emitDeviceFunction(const KernelDefinition &kernel,
                                                  const frontend::Signature &params,
                                                  const driver::DeviceFunctionExport &how,
                                                  driver::Stage stage,
                                                  const driver::CompileRequest &settings);
// The stage Python names "ir", "llvm", "ptx", "cuda" or "ltoir"; ValueError for another name.
driver::Stage stageNamed(const std::string &stage);
// `opt` as @jit takes it: True (LLVM's -O3), False (-O0) or a level from 0 to 3.
unsigned readOptLevel(py::handle opt);
// A Numba-style signature, "void(float32[:], float32)" or "(array(float32, 1d, A)) -> none";
// a kernel's must return void. Raises CompileError pointing into `<signature>`.
frontend::Signature parseSignatureText(const std::string &text, bool kernel);
frontend::Signature parseKernelSignature(const std::string &text);

} // namespace kaji::python
