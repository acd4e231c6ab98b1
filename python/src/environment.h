// Builds the compiler's frontend::Environment from the Python side's description of the
// globals a function names. The description is a dict name → tuple:
//   ("module", "math")                    a module, by canonical name ("math", "numpy", "kaji")
//   ("builtin", "math.sqrt")              a module member, by canonical qualified name
//   ("constant", value)                   a Python or numpy scalar
//   ("enum_member", class, name, value, is_int_enum)
//                                         an Enum/IntEnum member whose value is a scalar;
//                                         `class` is the class's qualified name
//   ("enum", class, is_int_enum, [(attribute, enum_member), ...])
//                                         an Enum/IntEnum class and its (scalar) members by
//                                         each name the class has for them (aliases too)
//   ("tuple", [entries], class, fields)   a tuple of entries; a namedtuple's class name and
//                                         field names, or None and None
//   ("namedtuple", class, fields)         a namedtuple class: its name and field names
//   ("external", symbol, signature, files)
//                                         a CUDA C++ device function (cuda.declare_device): its
//                                         symbol, scalar signature text and the files that
//                                         define it (the runtime links them, not the compiler)
//   ("device_array", array)               a kaji DeviceArray, or any object exporting
//                                         __cuda_array_interface__: captured by its address
//   ("record", dtype)                     a numpy structured dtype (or a kaji Record type
//                                         object's), the dtype of local and shared arrays
//   ("unusable", why)                     a value kernels cannot use; naming it is an error
//                                         saying why (Numba's "untyped global name")
//   ("overloaded", name, pick, fingerprint)
//                                         a function with @overload implementations:
//                                         pick(types, keywords) gives the "function" entry of
//                                         the one a call with those argument types runs, or
//                                         None (frontend::OverloadedFunction says how types
//                                         are spelled); fingerprint tells it apart in the cache
//   ("function", source, describe, is_device, signatures[, inlining])
//                                         another @jit function: its FunctionSource, a
//                                         callable returning *its* globals' description,
//                                         a device function's eager signature texts, and
//                                         "default", "always" or "never" (inline=)
#pragma once

#include "kaji/driver/FunctionSource.h"

#include "kaji/driver/Compiler.h"
#include "kaji/frontend/Environment.h"

#include <pybind11/pybind11.h>

#include <map>
#include <memory>
#include <vector>

namespace kaji::python {

namespace py = pybind11;

// One per compile: it remembers every function it resolved, so a function reached twice (or
// through a cycle) is resolved once, and collects their sources for rendering diagnostics.
class EnvironmentBuilder {
public:
  // For kernels on `target`: a captured device array must live where they run.
  explicit EnvironmentBuilder(driver::Target target) : target_(target) {}

  // `source`'s function with its environment from `describeGlobals()`. Throws
  // ir::CompileError for a syntax error, TypeError for a malformed description.
  frontend::FunctionRef function(const std::shared_ptr<driver::FunctionSource> &source,
                                 const py::handle &describeGlobals, bool isDevice,
                                 std::vector<frontend::Signature> signatures = {});

  // The sources of every function resolved so far.
  const std::vector<const frontend::SourceFile *> &sources() const { return sources_; }

  // The device arrays captured so far: the compiled code holds their addresses, so whatever
  // keeps it must keep them.
  std::vector<py::object> takeCaptured() { return std::move(captured_); }

private:
  frontend::GlobalValue globalValue(const std::string &name, const py::handle &entry);
  frontend::GlobalValue deviceArray(const std::string &name, const py::handle &array);
  frontend::GlobalValue overloaded(const std::string &name, const std::string &function,
                                   const py::handle &pick, const std::string &fingerprint);

  driver::Target target_;
  std::vector<py::object> captured_;

  std::map<const driver::FunctionSource *, frontend::FunctionRef> functions_;
  std::vector<std::shared_ptr<driver::FunctionSource>> keepAlive_;
  std::vector<const frontend::SourceFile *> sources_;
};

} // namespace kaji::python
