#include "errors.h"

#include "kaji/runtime/CpuExecutor.h"
#include "kaji/runtime/Error.h"
#include "kaji/runtime/NvJitLink.h"

#include <map>
#include <mutex>
#include <string_view>

namespace kaji::python {

namespace {

// Raised exception classes live as long as the interpreter: the module keeps a reference too.
PyObject *cudaUnavailableType = nullptr;
PyObject *linkErrorType = nullptr;

PyObject *newExceptionType(py::module_ &m, const char *name, PyObject *base, const char *doc) {
  std::string qualified = std::string("kaji.") + name;
  PyObject *type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, base, nullptr);
  if (!type)
    throw py::error_already_set();
  m.add_object(name, py::handle(type));
  return type;
}

// The class to raise for kaji's exception class `name`: it, or its subclass that is also the
// class code written for Numba-CUDA catches (kaji/_error_classes.py).
py::object errorClass(const char *name) {
  return py::module_::import("kaji._error_classes").attr("error_class")(name);
}

// Raises `type(message)` with `attributes` set on the instance.
void raise(PyObject *type, const std::string &message, const py::dict &attributes) {
  py::object instance = py::reinterpret_borrow<py::object>(type)(message);
  for (auto [key, value] : attributes)
    py::setattr(instance, key, value);
  PyErr_SetObject(type, instance.ptr());
}

// The last recursive kernel noteRecursiveLaunch saw per device, as the sentence naming it.
struct RecursiveLaunches {
  std::mutex mutex;
  std::map<int, std::string> byDevice;
};

RecursiveLaunches &recursiveLaunches() {
  static auto *launches = new RecursiveLaunches; // outlives the exception translator's users
  return *launches;
}

// How a stack overflow of a GPU thread is reported: an illegal address, or a launch failure.
bool mayBeStackOverflow(runtime::CUresult code) {
  return code == runtime::CUDA_ERROR_ILLEGAL_ADDRESS || code == runtime::CUDA_ERROR_LAUNCH_FAILED;
}

// What a launch failure may owe to recursion: empty when no recursive kernel was launched.
std::string recursionHint() {
  RecursiveLaunches &launches = recursiveLaunches();
  std::lock_guard lock(launches.mutex);
  std::string hint;
  for (const auto &[device, launch] : launches.byDevice)
    hint += "\n" + launch;
  if (hint.empty())
    return hint;
  return hint + "\nRecursion deeper than a thread's stack holds overflows it, which the "
                "driver reports as this error; the context cannot be used after it. Raise the "
                "stack before launching (cuda.current_context().set_stack_size(nbytes)), or "
                "recurse less deeply.";
}

} // namespace

void noteRecursiveLaunch(int device, const std::string &kernel,
                         const std::vector<std::string> &recursiveFunctions, size_t stackBytes) {
  std::string functions;
  for (const std::string &function : recursiveFunctions)
    functions += (functions.empty() ? "" : ", ") + function;
  RecursiveLaunches &launches = recursiveLaunches();
  std::lock_guard lock(launches.mutex);
  launches.byDevice[device] = "kaji: kernel '" + kernel + "' was launched on device " +
                              std::to_string(device) + ", where a GPU thread has " +
                              std::to_string(stackBytes) + " bytes of stack, and calls " +
                              functions + " recursively.";
}

void registerErrors(py::module_ &m) {
  newExceptionType(
      m, "CompileError", PyExc_Exception,
      "The kernel's source was rejected. str() is the rendered diagnostic (file:line:col: "
      "error: message, the source line, a caret); .filename, .lineno, .col and .msg hold its "
      "parts.");
  newExceptionType(
      m, "InvalidLaunch", PyExc_ValueError,
      "A launch configuration the driver refuses with CUDA_ERROR_INVALID_VALUE (a zero "
      "dimension, a block or grid past the device's or the kernel's limits, too much dynamic "
      "shared memory), found before the launch; the message names the value and the limit.");
  newExceptionType(m, "CudaError", PyExc_RuntimeError,
                   "A CUDA driver call failed: .call (the driver function), .code (the CUresult), "
                   ".error_name (e.g. 'CUDA_ERROR_INVALID_PTX'), .description and .detail.");
  cudaUnavailableType = newExceptionType(
      m, "CudaUnavailable", PyExc_RuntimeError,
      "No usable CUDA driver or GPU in this process; the message says why. Compiling still "
      "works.");
  linkErrorType = newExceptionType(
      m, "LinkError", PyExc_RuntimeError,
      "nvJitLink could not link a kernel with its link= files (.ltoir among them); the message "
      "names the files and carries the linker's log, which names a missing symbol.");

  py::register_exception_translator([](std::exception_ptr error) {
    try {
      std::rethrow_exception(error);
    } catch (const RenderedCompileError &e) {
      const ir::Location &loc = e.location();
      py::dict attributes;
      attributes["msg"] = e.message();
      attributes["filename"] = loc.file ? py::object(py::str(*loc.file)) : py::none();
      attributes["lineno"] = loc.known() ? py::object(py::int_(loc.line)) : py::none();
      attributes["col"] = loc.known() ? py::object(py::int_(loc.col)) : py::none();
      std::string_view rendered = e.what();
      raise(errorClass("CompileError").ptr(),
            std::string(rendered.substr(0, rendered.find_last_not_of('\n') + 1)), attributes);
    } catch (const runtime::KernelException &e) {
      py::object exceptionClass =
          py::module_::import("kaji._exceptions").attr("exception_class")(e.exceptionClass());
      raise(exceptionClass.ptr(), e.what(), py::dict());
    } catch (const runtime::LaunchInterrupted &e) {
      // The SIGINT that stopped the launch also ran Python's handler: what it raises.
      if (PyErr_CheckSignals() == 0)
        PyErr_SetString(PyExc_KeyboardInterrupt, e.what());
    } catch (const runtime::LinkError &e) {
      PyErr_SetString(linkErrorType, e.what());
    } catch (const runtime::InvalidLaunch &e) {
      raise(errorClass("InvalidLaunch").ptr(),
            std::string(e.what()) + " (the driver refuses such a launch: CUDA_ERROR_INVALID_VALUE)",
            py::dict());
    } catch (const runtime::OutOfMemory &e) {
      PyErr_SetString(PyExc_MemoryError, e.what());
    } catch (const runtime::DriverUnavailable &e) {
      PyErr_SetString(cudaUnavailableType, e.what());
    } catch (const runtime::CudaError &e) {
      py::dict attributes;
      attributes["call"] = e.call();
      attributes["code"] = e.code();
      attributes["error_name"] = e.errorName();
      attributes["description"] = e.description();
      attributes["detail"] = e.detail();
      std::string message = e.what();
      if (mayBeStackOverflow(e.code()))
        message += recursionHint();
      raise(errorClass("CudaError").ptr(), message, attributes);
    }
  });
}

} // namespace kaji::python
