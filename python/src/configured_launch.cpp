// The dispatcher's CPython side: `kernel[config]` (mp_subscript) gives a ConfiguredLaunch,
// kept while the configuration stays the same, and `launch(*args)` (tp_call) launches it,
// both without pybind11's argument dispatch; bindDispatcher binds the two classes.
#include "configured_launch.h"

#include "bindings.h"
#include "cycle_collection.h"
#include "instances.h"
#include "integers.h"
#include "performance_warnings.h"

#include "kaji/driver/Language.h"
#include "kaji/runtime/Launch.h"

#include <pybind11/stl.h>

#include <array>
#include <limits>
#include <optional>

namespace kaji::python {

namespace {

// Limits no launch shape can exceed: checking against them finds what is wrong with a shape
// (zero or negative extents, negative shared memory) before any device is involved.
const runtime::DeviceLimits &shapeOnlyLimits() {
  static const runtime::DeviceLimits limits = [] {
    constexpr int64_t unlimited = std::numeric_limits<int64_t>::max();
    runtime::DeviceLimits result;
    result.maxThreadsPerBlock = unlimited;
    result.maxBlockDim = {unlimited, unlimited, unlimited};
    result.maxGridDim = {unlimited, unlimited, unlimited};
    result.maxSharedBytesPerBlock = unlimited;
    result.maxSharedBytesPerBlockOptin = unlimited;
    return result;
  }();
  return limits;
}

runtime::Extent3 readExtent(const py::handle &value, const char *what) {
  bool sequence = py::isinstance<py::tuple>(value) || py::isinstance<py::list>(value);
  // Numba's messages show the extents as a list: "griddim ... got [2.0]".
  auto given = [&] {
    py::object items = sequence ? py::list(py::reinterpret_borrow<py::object>(value))
                                : py::list(py::make_tuple(value));
    return py::repr(items).cast<std::string>();
  };
  auto component = [&](const py::handle &item) -> int64_t {
    if (!PyIndex_Check(item.ptr()) || PyBool_Check(item.ptr()))
      throw py::type_error(std::string(what) + " must be a sequence of integers, got " + given() +
                           " (an int or a tuple of 1 to 3 ints)");
    return readInt64(item, std::string(what) + " dimension");
  };
  if (!sequence)
    return {component(value), 1, 1};
  py::sequence items = py::reinterpret_borrow<py::sequence>(value);
  if (items.size() < 1 || items.size() > 3)
    throw py::value_error(std::string(what) + " must be a sequence of 1, 2 or 3 integers, got " +
                          given());
  runtime::Extent3 extent{1, 1, 1};
  for (size_t axis = 0; axis < items.size(); ++axis)
    extent[axis] = component(items[axis]);
  return extent;
}

} // namespace

ConfiguredLaunch::ConfiguredLaunch(py::object dispatcher, const py::handle &config)
    : dispatcherObject_(std::move(dispatcher)), config_(py::reinterpret_borrow<py::object>(config)),
      dispatcher_(dispatcherObject_.cast<Dispatcher *>()) {
  if (!py::isinstance<py::tuple>(config) || py::len(config) < 2 || py::len(config) > 4)
    throw py::value_error("launch configuration must be kernel[griddim, blockdim], "
                          "kernel[griddim, blockdim, stream] or "
                          "kernel[griddim, blockdim, stream, sharedmem]");
  py::tuple items = py::reinterpret_borrow<py::tuple>(config);
  shape_.grid = readExtent(items[0], "griddim");
  shape_.block = readExtent(items[1], "blockdim");
  if (items.size() > 2)
    stream_ = LaunchStream(items[2]);
  if (items.size() > 3) {
    shape_.sharedBytes = readInt64(items[3], "sharedmem");
  }
  // What is wrong with a shape whatever the device is said here, before any device is touched.
  runtime::validateLaunch(shapeOnlyLimits(), shape_.grid, shape_.block, shape_.sharedBytes);
  // At kernel[griddim, blockdim], as Numba; once per configuration the kernel keeps.
  if (dispatcher_->target() == driver::Target::CUDA)
    warnIfLowOccupancy(shape_.grid[0] * shape_.grid[1] * shape_.grid[2]);
}

void ConfiguredLaunch::operator()(py::handle self, py::handle args) const {
  // A copy: a callback may change the list.
  if (PyList_GET_SIZE(preLaunchCallbacks_.ptr()) != 0)
    for (py::handle callback : py::list(preLaunchCallbacks_))
      callback(dispatcherObject_, self);
  if (PyList_GET_SIZE(dispatcher_->extensions().ptr()) == 0) {
    dispatcher_->launch(shape_, stream_.get(), dispatcherObject_, args);
    return;
  }
  // As Numba's: the arguments through the extensions (Kernel._prepare_arguments), then the
  // work they left for after the launch, in order.
  py::list afterLaunch;
  py::object prepared = dispatcherObject_.attr("_prepare_arguments")(args, stream(), afterLaunch);
  dispatcher_->launch(shape_, stream_.get(), dispatcherObject_, prepared);
  for (py::handle work : afterLaunch)
    work();
}

py::object ConfiguredLaunch::stream() const {
  py::tuple items = py::reinterpret_borrow<py::tuple>(config_);
  return items.size() > 2 ? py::object(items[2]) : py::int_(0);
}

namespace {

// Whether two launch configurations are the same: item by item the same object, or equal ints
// (a grid computed at each call is a new int), or tuples of such. Nothing else is compared, so
// no user __eq__ runs on the launch path.
bool sameConfiguration(PyObject *a, PyObject *b) {
  if (a == b)
    return true;
  if (PyLong_CheckExact(a) && PyLong_CheckExact(b))
    return PyObject_RichCompareBool(a, b, Py_EQ) == 1;
  if (!PyTuple_CheckExact(a) || !PyTuple_CheckExact(b) ||
      PyTuple_GET_SIZE(a) != PyTuple_GET_SIZE(b))
    return false;
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(a); ++i)
    if (!sameConfiguration(PyTuple_GET_ITEM(a, i), PyTuple_GET_ITEM(b, i)))
      return false;
  return true;
}

// Dispatcher's mp_subscript (kernel[config]) and ConfiguredLaunch's tp_call (launch(*args)):
// slots CPython calls directly, without pybind11's argument dispatch.
PyObject *subscriptSlot(PyObject *self, PyObject *config) {
  if (!py::detail::is_holder_constructed(self)) {
    PyErr_SetString(PyExc_TypeError, "the kernel was not initialized (Dispatcher.__init__ was "
                                     "not called)");
    return nullptr;
  }
  try {
    return cppObject<Dispatcher>(self).configure(self, config).release().ptr();
  } catch (...) {
    py::detail::try_translate_exceptions();
    return nullptr;
  }
}

PyObject *callSlot(PyObject *self, PyObject *args, PyObject *kwargs) {
  if (kwargs && PyDict_GET_SIZE(kwargs) != 0) {
    PyErr_SetString(PyExc_TypeError, "kernel arguments are positional; keywords are not taken");
    return nullptr;
  }
  try {
    cppObject<ConfiguredLaunch>(self)(self, args);
    Py_RETURN_NONE;
  } catch (...) {
    py::detail::try_translate_exceptions();
    return nullptr;
  }
}

} // namespace

py::object Dispatcher::configure(py::handle self, py::handle config) {
  // A launch the user gave callbacks is that launch's only: `kernel[config]` is then new.
  if (lastLaunch_ && sameConfiguration(config.ptr(), lastConfig_.ptr()) &&
      cppObject<ConfiguredLaunch>(lastLaunch_.ptr()).preLaunchCallbacks().empty())
    return lastLaunch_;
  py::object launch = py::cast(ConfiguredLaunch(py::reinterpret_borrow<py::object>(self), config));
  lastConfig_ = py::reinterpret_borrow<py::object>(config);
  lastLaunch_ = launch;
  return launch;
}

py::tuple ConfiguredLaunch::reduce() const {
  if (!preLaunchCallbacks_.empty()) {
    PyErr_SetString(py::module_::import("pickle").attr("PicklingError").ptr(),
                    "Cannot pickle configured launches with pre-launch callbacks");
    throw py::error_already_set();
  }
  return py::make_tuple(py::module_::import("operator").attr("getitem"),
                        py::make_tuple(dispatcherObject_, config_));
}

void bindDispatcher(py::module_ &m) {
  py::class_<Dispatcher>(m, "Dispatcher",
                         "A @jit kernel: its specializations and the launch fast path.",
                         cycleCollected<Dispatcher>([](PyHeapTypeObject *type) {
                           type->as_mapping.mp_subscript = subscriptSlot;
                         }))
      .def(py::init([](std::shared_ptr<driver::FunctionSource> source, py::object describeGlobals,
                       std::vector<std::string> parameterNames, bool fastMath, py::handle opt,
                       const std::string &target, std::optional<bool> boundsCheck, bool cache,
                       bool lineInfo, bool debug, std::array<unsigned, 3> launchBounds,
                       unsigned maxRegisters, std::optional<int> sharedCarveout,
                       const std::string &backend, std::vector<std::string> link, bool lto) {
             unsigned optLevel = readOptLevel(opt);
             if (target != "cuda" && target != "cpu")
               throw py::value_error("target must be 'cpu' or 'cuda', not '" + target + "'");
             std::optional<driver::Backend> driverBackend = driver::backendFromName(backend);
             if (!driverBackend)
               throw py::value_error("backend must be 'llvm' or 'nvrtc', not '" + backend + "'");
             driver::Target driverTarget =
                 target == "cpu" ? driver::Target::CPU : driver::Target::CUDA;
             codegen::KernelLimits limits{launchBounds[0], launchBounds[1], launchBounds[2],
                                          maxRegisters};
             // As Numba: checked on the cpu target, and on cuda with debug=True.
             bool checked = boundsCheck.value_or(driverTarget == driver::Target::CPU || debug);
             return Dispatcher(std::move(source), std::move(describeGlobals),
                               std::move(parameterNames),
                               {fastMath, optLevel, driverTarget, checked, cache, lineInfo, debug,
                                limits, sharedCarveout, *driverBackend, std::move(link), lto});
           }),
           py::arg("source"), py::arg("describe_globals"), py::arg("parameters"),
           py::arg("fast_math") = false, py::arg("opt") = true, py::arg("target") = "cuda",
           py::arg("bounds_check") = py::none(), py::arg("cache") = false,
           py::arg("lineinfo") = false, py::arg("debug") = false,
           py::arg("launch_bounds") = std::array<unsigned, 3>{0, 0, 0},
           py::arg("max_registers") = 0u, py::arg("shared_memory_carveout") = py::none(),
           py::arg("backend") = "llvm", py::arg("link") = std::vector<std::string>{},
           py::arg("lto") = false)
      .def("add_signature", &Dispatcher::addSignature, py::arg("signature"))
      .def("compile_signature", &Dispatcher::compileSignature, py::arg("signature"))
      .def("occupancy_block_size", &Dispatcher::occupancyBlockSize, py::arg("args"),
           py::arg("sharedmem") = 0,
           "The block size giving the kernel, specialized for `args`, the most resident threads "
           "(cuOccupancyMaxPotentialBlockSize; 256 on the cpu target).")
      .def_property_readonly("target",
                             [](const Dispatcher &dispatcher) {
                               return dispatcher.target() == driver::Target::CPU ? "cpu" : "cuda";
                             })
      .def_property_readonly(
          "backend",
          [](const Dispatcher &dispatcher) { return driver::backendName(dispatcher.backend()); })
      .def_property_readonly("signatures", &Dispatcher::signatures)
      .def_property_readonly("extensions", &Dispatcher::extensions,
                             "Numba's argument extensions, which the user appends to.")
      .def("signature_for", &Dispatcher::signatureFor, py::arg("args"),
           "The signature a launch with `args` compiles for.")
      .def("sass", &Dispatcher::sass, py::arg("signature"))
      .def("is_cooperative", &Dispatcher::cooperative, py::arg("signature"),
           "Whether the kernel for `signature` synchronizes its grid, and so launches "
           "cooperatively.")
      .def("max_cooperative_grid_blocks", &Dispatcher::maxCooperativeGridBlocks,
           py::arg("signature"), py::arg("block_threads"), py::arg("dynamic_shared_bytes") = 0,
           "The most blocks a cooperative launch of the kernel for `signature` may have.")
      .def(
          "resource_usage",
          [](Dispatcher &dispatcher, const std::string &signature) {
            driver::ResourceUsage usage = dispatcher.resourceUsage(signature);
            py::dict result;
            result["regs_per_thread"] = usage.registersPerThread;
            result["shared_mem_per_block"] = usage.sharedBytesPerBlock;
            result["local_mem_per_thread"] = usage.localBytesPerThread;
            result["const_mem_size"] = usage.constBytes;
            result["max_threads_per_block"] = usage.maxThreadsPerBlock;
            return result;
          },
          py::arg("signature"))
      .def(
          "inspect",
          [](const Dispatcher &dispatcher, const std::string &signature, const std::string &stage,
             const std::string &arch) -> py::object {
            driver::Stage named = stageNamed(stage);
            std::string code = dispatcher.inspect(signature, named, arch);
            if (named == driver::Stage::LtoIr)
              return py::bytes(code);
            return py::str(code);
          },
          py::arg("signature"), py::arg("stage"), py::arg("arch") = "",
          "The kernel's code at `stage` for `signature`, for `arch` ('sm_75') where given: text, "
          "or bytes for 'ltoir' (the nvrtc backend's LTO-IR).")
      .def("local_types", &Dispatcher::localVariableTypes, py::arg("signature"),
           "[(name, type text)] of the kernel's variables, its parameters among them, for "
           "`signature`: each type as Numba spells it ('float32[::1]', 'UniTuple(int64 x 2)').")
      .def(
          "lto_ptx",
          [](const Dispatcher &dispatcher, const std::string &signature, const std::string &arch) {
            LtoLinkedPtx linked = dispatcher.ltoPtx(signature, arch);
            return py::make_tuple(linked.ptx, linked.notLtoIr);
          },
          py::arg("signature"), py::arg("arch") = "",
          "(PTX, files left out): the PTX of the lto=True kernel for `signature` linked with its "
          "LTO-IR files and optimised together by nvJitLink, and the files that are not LTO-IR. "
          "RuntimeError 'LTO is not enabled' without lto=True.")
      .def(
          "export_device_function",
          [](const Dispatcher &dispatcher, const std::string &signature, bool resultDeclared,
             std::string symbol, const std::string &abi, const std::string &stage,
             const std::string &arch) {
            if (abi != "c" && abi != "numba")
              throw py::value_error("abi must be 'c' or 'numba', not '" + abi + "'");
            driver::ExportedDeviceFunction exported = dispatcher.exportDeviceFunction(
                signature, resultDeclared, std::move(symbol),
                abi == "c" ? ir::Function::Export::CAbi : ir::Function::Export::NumbaAbi,
                stageNamed(stage), arch);
            py::object code = stage == "ltoir" ? py::object(py::bytes(exported.code))
                                               : py::object(py::str(exported.code));
            return py::make_tuple(code, driver::typeString(exported.result));
          },
          py::arg("signature"), py::arg("result_declared"), py::arg("symbol"), py::arg("abi"),
          py::arg("stage") = "ptx", py::arg("arch") = "",
          "(code at `stage`, return type text) of the function compiled as a device function "
          "on its own, visible as `symbol` by the C ABI or Numba's ('c', 'numba').");

  py::class_<ConfiguredLaunch>(m, "ConfiguredLaunch", "kernel[griddim, blockdim, ...]",
                               cycleCollected<ConfiguredLaunch>([](PyHeapTypeObject *type) {
                                 type->ht_type.tp_call = callSlot;
                               }))
      .def("__reduce__", &ConfiguredLaunch::reduce)
      .def_property_readonly("dispatcher", &ConfiguredLaunch::dispatcher, "The kernel.")
      .def_property_readonly(
          "griddim", [](const ConfiguredLaunch &l) { return py::tuple(py::cast(l.shape().grid)); },
          "The grid's extents, always three (Numba's).")
      .def_property_readonly(
          "blockdim",
          [](const ConfiguredLaunch &l) { return py::tuple(py::cast(l.shape().block)); },
          "The block's extents, always three (Numba's).")
      .def_property_readonly(
          "sharedmem", [](const ConfiguredLaunch &l) { return l.shape().sharedBytes; },
          "The bytes of dynamic shared memory.")
      .def_property_readonly("stream", &ConfiguredLaunch::stream,
                             "The stream as configured, 0 when none was.")
      .def_property_readonly("pre_launch_callbacks", &ConfiguredLaunch::preLaunchCallbacks,
                             "Numba's: `callback(kernel, launch)` is called before each launch "
                             "of this configured launch, for each callback appended here.");
}

} // namespace kaji::python
