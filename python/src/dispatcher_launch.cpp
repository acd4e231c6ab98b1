// A launch: its arguments read (tuples taken apart), checked against the device, the
// producers of foreign arrays waited for, numpy arrays staged, the parameters packed into the
// specialization's buffer and the kernel launched, on the GPU or by the cpu executor.
#include "dispatcher.h"

#include "cpu_interrupt.h"
#include "errors.h"
#include "graph_capture.h"
#include "kernel_exceptions.h"
#include "performance_warnings.h"

#include "kaji/runtime/Context.h"
#include "kaji/runtime/CpuExecutor.h"
#include "kaji/runtime/Device.h"
#include "kaji/runtime/Launch.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <optional>

namespace kaji::python {

namespace {

// The launch limits of the cpu target: CUDA's, so a shape that runs on the CPU runs on a GPU.
// The cpu target's limits are an H100's, so that a launch that runs on the cpu target runs on
// the GPU: 48 KiB of shared memory per block, up to 227 KiB of it dynamic with the opt-in kaji
// makes.
const runtime::DeviceLimits &cpuLimits() {
  static const runtime::DeviceLimits limits = [] {
    runtime::DeviceLimits result;
    result.maxThreadsPerBlock = 1024;
    result.maxBlockDim = {1024, 1024, 64};
    result.maxGridDim = {(int64_t(1) << 31) - 1, 65535, 65535};
    result.maxSharedBytesPerBlock = 48 * 1024;
    result.maxSharedBytesPerBlockOptin = 227 * 1024;
    result.warpSize = 32;
    return result;
  }();
  return limits;
}

// What ptxas allows a kernel's shared arrays of constant size (.shared variables).
constexpr uint64_t kMaxStaticSharedBytes = 48 * 1024;

// How deep tuple arguments may nest: far beyond what programs pass, and shallow enough for the
// recursion of reading, keying and compiling them.
constexpr unsigned kMaxTupleNesting = 64;

// Reads one parameter's argument, a tuple taken apart into its leaves (recursively).
void readParameter(py::handle object, std::vector<Argument> &arguments,
                   frontend::ParameterStructure &structure, const std::string &kernel, size_t index,
                   const std::string &parameter, ArgumentTarget target,
                   KnownArrayReader &knownArrays, unsigned depth = 0) {
  if (!PyTuple_Check(object.ptr())) {
    readArgument(object, arguments.emplace_back(), kernel, index, parameter, target, knownArrays);
    if ((structure.typeValue = arguments.back().typeValue))
      arguments.pop_back(); // no leaf
    return;
  }
  if (depth == kMaxTupleNesting)
    throw py::type_error("argument '" + parameter + "' of kernel '" + kernel +
                         "' nests tuples more than " + std::to_string(kMaxTupleNesting) +
                         " deep; a kernel argument may nest at most that many");
  structure.tuple = true;
  py::handle type = py::handle(reinterpret_cast<PyObject *>(Py_TYPE(object.ptr())));
  if (py::hasattr(type, "_fields")) {
    structure.tupleClass = py::str(type.attr("__name__"));
    for (py::handle field : type.attr("_fields"))
      structure.fields.push_back(py::str(field));
  }
  for (py::handle element : py::reinterpret_borrow<py::tuple>(object))
    readParameter(element, arguments, structure.elements.emplace_back(), kernel, index, parameter,
                  target, knownArrays, depth + 1);
}

// Writes the arguments per the flattened ABI, converted to the parameter types. A Python int
// beyond its (eagerly compiled) parameter type's width raises OverflowError naming the
// argument, as NumPy 2 raises for np.int32(2**40); Numba wraps it (docs/numba-compat.md).
void pack(const std::vector<ir::Type> &paramTypes, const std::vector<Argument> &arguments,
          ParameterBuffer &buffer, const std::string &kernel,
          const std::vector<std::string> &parameterNames) {
  uint64_t *slot = buffer.slots.data();
  for (size_t i = 0; i < arguments.size(); ++i) {
    const ir::Type &param = paramTypes[i];
    const Argument &argument = arguments[i];
    if (param.isScalar()) {
      try {
        if (param.isComplex()) { // two parameters, the real and the imaginary part (Codegen.h)
          std::array<std::byte, 16> value;
          storeScalar(argument.scalar, param.scalarKind(), value.data());
          size_t part = ir::byteSize(param.scalarKind()) / 2;
          std::memcpy(slot++, value.data(), part);
          std::memcpy(slot++, value.data() + part, part);
          continue;
        }
        storeScalar(argument.scalar, param.scalarKind(), reinterpret_cast<std::byte *>(slot++));
      } catch (py::error_already_set &error) {
        if (!error.matches(PyExc_OverflowError))
          throw;
        std::string message = "argument " + std::to_string(i + 1) + " ('" + parameterNames[i] +
                              "') of kernel '" + kernel +
                              "': " + py::repr(argument.scalar.object).cast<std::string>() +
                              " is out of range for its parameter type " +
                              std::string(ir::numpyName(param.scalarKind()));
        PyErr_SetString(PyExc_OverflowError, message.c_str());
        throw py::error_already_set();
      }
      continue;
    }
    *slot++ = argument.data;
    for (int64_t extent : argument.shape)
      *slot++ = uint64_t(extent);
    for (int64_t stride : argument.strides)
      *slot++ = uint64_t(stride);
  }
}

} // namespace

std::vector<Argument> Dispatcher::readArguments(py::handle args) {
  size_t count = size_t(PyTuple_GET_SIZE(args.ptr()));
  if (count != parameterNames_.size())
    throw py::type_error("kernel '" + name() + "' takes " + std::to_string(parameterNames_.size()) +
                         " arguments but " + std::to_string(count) + " were given");
  ArgumentTarget argumentTarget =
      target() == driver::Target::CPU ? ArgumentTarget::Cpu : ArgumentTarget::Cuda;
  KnownArrayReader knownArrays;
  structureScratch_.clear();
  bool tuples = false;
  for (size_t i = 0; i < count; ++i)
    tuples = tuples || PyTuple_Check(PyTuple_GET_ITEM(args.ptr(), Py_ssize_t(i)));
  if (tuples) {
    std::vector<Argument> arguments;
    structureScratch_.resize(count);
    for (size_t i = 0; i < count; ++i)
      readParameter(PyTuple_GET_ITEM(args.ptr(), Py_ssize_t(i)), arguments, structureScratch_[i],
                    name(), i, parameterNames_[i], argumentTarget, knownArrays);
    return arguments;
  }
  std::vector<Argument> arguments(count);
  bool typeValues = false;
  for (size_t i = 0; i < count; ++i) {
    readArgument(PyTuple_GET_ITEM(args.ptr(), Py_ssize_t(i)), arguments[i], name(), i,
                 parameterNames_[i], argumentTarget, knownArrays);
    typeValues = typeValues || arguments[i].typeValue;
  }
  if (!typeValues)
    return arguments;
  // Types passed as values have no leaves: the structure says where they are.
  structureScratch_.resize(count);
  std::vector<Argument> leaves;
  for (size_t i = 0; i < count; ++i) {
    structureScratch_[i].typeValue = arguments[i].typeValue;
    if (!arguments[i].typeValue)
      leaves.push_back(std::move(arguments[i]));
  }
  return leaves;
}

void Dispatcher::launch(const LaunchShape &shape, const runtime::Stream *stream, py::handle self,
                        py::handle args) {
  std::vector<Argument> arguments = readArguments(args);
  if (target() == driver::Target::CPU)
    launchOnCpu(shape, arguments);
  else
    launchOnDevice(shape, stream, self, args, arguments);
}

void **Dispatcher::packedParameters(LoadedKernel &kernel, py::handle args) {
  std::vector<Argument> arguments = readArguments(args);
  if (&specialization(arguments) != &kernel)
    throw py::type_error("kernel '" + name() + "' was captured with arguments " +
                         signatureText(kernel.compiled->paramTypes, kernel.compiled->structure) +
                         "; a graph update must keep their types (and layouts)");
  for (const Argument &argument : arguments)
    if (argument.needsStaging())
      throw py::type_error(GraphCapture::numpyArgumentProblem(name()));
  pack(kernel.compiled->paramTypes, arguments, kernel.buffer, name(), parameterNames_);
  return kernel.buffer.params.data();
}

namespace {

// A foreign array may still be being written by work its producer queued on another stream:
// the launch stream waits for that work on the device. The legacy default stream (a null
// launch stream) already waits for both default streams' work. Not with
// CUDA_ARRAY_INTERFACE_SYNC off, where the producer answers for its ordering.
void waitForProducers(const std::vector<Argument> &arguments, const runtime::Stream *stream) {
  if (!waitsForProducers())
    return;
  std::optional<runtime::Stream> defaultStream;
  for (const Argument &argument : arguments) {
    runtime::CUstream producer = argument.foreign.producerStream;
    if (!producer)
      continue;
    runtime::CUstream consumer = stream ? stream->handle() : nullptr;
    bool consumerIsLegacy = !consumer || consumer == runtime::CU_STREAM_LEGACY;
    bool producerIsDefault =
        producer == runtime::CU_STREAM_LEGACY || producer == runtime::CU_STREAM_PER_THREAD;
    if (producer == consumer || (consumerIsLegacy && producerIsDefault))
      continue;
    (stream ? *stream : defaultStream.emplace()).waitFor(producer);
  }
}

std::string onDevice(int device) { return "device " + std::to_string(device); }

} // namespace

// A launch goes to the selected device: the kaji device arrays it takes and its stream must
// be there (the default streams' pseudo-handles are every device's).
void Dispatcher::requireOnSelectedDevice(const std::vector<Argument> &arguments,
                                         const runtime::Stream *stream) const {
  int device = runtime::selectedDevice();
  auto launchesOn = [&] {
    return "kernel '" + name() + "' launches on " + onDevice(device) + " (the current device)";
  };
  for (size_t i = 0; i < arguments.size(); ++i)
    if (arguments[i].device >= 0 && arguments[i].device != device)
      throw py::value_error("argument " + std::to_string(i + 1) + " ('" + parameterNames_[i] +
                            "') is on " + onDevice(arguments[i].device) + " but " + launchesOn() +
                            "; select_device(" + std::to_string(arguments[i].device) +
                            ") first, or copy it over with copy_to_device");
  bool ownStream = stream && !stream->isDefault() &&
                   stream->handle() != runtime::CU_STREAM_LEGACY &&
                   stream->handle() != runtime::CU_STREAM_PER_THREAD;
  if (ownStream && stream->device() != device)
    throw py::value_error("the launch stream belongs to " + onDevice(stream->device()) + " but " +
                          launchesOn());
}

void Dispatcher::launchOnDevice(const LaunchShape &shape, const runtime::Stream *stream,
                                py::handle self, py::handle args,
                                std::vector<Argument> &arguments) {
  requireOnSelectedDevice(arguments, stream);
  GraphCapture *capture = GraphCapture::on(stream);
  if (capture)
    for (const Argument &argument : arguments)
      if (argument.needsStaging())
        throw py::type_error(GraphCapture::numpyArgumentProblem(name()));
  LoadedKernel &kernel = specialization(arguments);
  if (kernel.lastShape != shape) {
    runtime::LaunchConfig config =
        runtime::validateLaunch(kernel.function, shape.grid, shape.block, shape.sharedBytes);
    if (config.sharedBytes > kernel.sharedBytesOptedIn &&
        config.sharedBytes >
            runtime::Device::get(kernel.function.device()).limits().maxSharedBytesPerBlock) {
      kernel.function.setMaxDynamicSharedBytes(int(config.sharedBytes));
      kernel.sharedBytesOptedIn = config.sharedBytes;
    }
    if (kernel.compiled->cooperative) {
      if (capture)
        throw py::type_error("kernel '" + name() +
                             "' synchronizes its grid (cuda.cg), which needs a cooperative "
                             "launch; a CUDA graph cannot capture one");
      int64_t blocks = int64_t(config.grid.x) * config.grid.y * config.grid.z;
      int64_t threads = int64_t(config.block.x) * config.block.y * config.block.z;
      int64_t limit =
          kernel.function.maxCooperativeGridBlocks(int(threads), size_t(config.sharedBytes));
      if (blocks > limit)
        throw py::value_error("kernel '" + name() +
                              "' synchronizes its grid (cuda.cg), so every block must be "
                              "resident at once: the device holds " +
                              std::to_string(limit) + " blocks of " + std::to_string(threads) +
                              " threads (max_cooperative_grid_blocks), and the grid has " +
                              std::to_string(blocks));
    }
    if (!kernel.compiled->recursiveFunctions.empty()) {
      int device = kernel.function.device();
      noteRecursiveLaunch(device, name(), kernel.compiled->recursiveFunctions,
                          runtime::Context::primary(device).stackSize());
    }
    kernel.lastShape = shape;
    kernel.lastConfig = config;
  }
  const runtime::LaunchConfig &config = kernel.lastConfig;
  // A graph replays without the producers: their work must be ordered before the replay.
  if (!capture)
    waitForProducers(arguments, stream);
  if (std::any_of(arguments.begin(), arguments.end(),
                  [](const Argument &argument) { return argument.needsStaging(); }))
    warnImplicitCopy();
  for (Argument &argument : arguments)
    if (argument.needsStaging())
      argument.stage(stream);
  pack(kernel.compiled->paramTypes, arguments, kernel.buffer, name(), parameterNames_);
  if (kernel.compiled->cooperative)
    runtime::launchCooperative(kernel.function, config, stream, kernel.buffer.params.data());
  else
    runtime::launch(kernel.function, config, stream, kernel.buffer.params.data());
  if (kernel.exceptionSlot.slot)
    armExceptionSlot(kernel.exceptionSlot, kernel.compiled->exceptions);
  for (Argument &argument : arguments)
    argument.unstage(stream);
  if (capture) {
    capture->recordKernel(self, kernel, config, args);
  } else if (settings_.debug && kernel.exceptionSlot.slot) {
    // Numba's debug=True reads the exception after each launch: the launch waits for the
    // kernel and raises what it raised, at the launch's line.
    if (stream)
      stream->synchronize();
    else
      runtime::synchronize();
    raiseKernelExceptions();
  }
}

// Synchronous: the executor returns when every block is done. The GIL stays held, which is
// what keeps the specialization's parameter buffer to one launch at a time.
void Dispatcher::launchOnCpu(const LaunchShape &shape, std::vector<Argument> &arguments) {
  if (GraphCapture::anyOnThisThread())
    throw std::runtime_error("kernel '" + name() +
                             "' targets the cpu: it runs when launched, so it cannot be part of "
                             "the CUDA graph this thread is capturing");
  unsigned bound = settings_.ptx.limits.maxThreadsPerBlock;
  runtime::LaunchConfig config =
      bound ? runtime::validateLaunch(cpuLimits(), bound,
                                      "the maximum kernel '" + name() + "''s launch_bounds set",
                                      shape.grid, shape.block, shape.sharedBytes)
            : runtime::validateLaunch(cpuLimits(), shape.grid, shape.block, shape.sharedBytes);
  CpuSpecialization &specialization = cpuSpecialization(arguments);
  const codegen::CpuKernel &kernel = specialization.kernel;
  if (kernel.staticSharedBytes > kMaxStaticSharedBytes)
    throw py::value_error("kernel '" + name() + "' declares " +
                          std::to_string(kernel.staticSharedBytes) +
                          " bytes of shared arrays of constant size; CUDA allows " +
                          std::to_string(kMaxStaticSharedBytes) +
                          " per block (a GPU would not load it): take more as dynamic shared "
                          "memory, cuda.shared.array(0, dtype) and the launch's fourth item");
  if (kernel.staticSharedBytes + config.sharedBytes >
      uint64_t(cpuLimits().maxSharedBytesPerBlockOptin))
    throw py::value_error("kernel '" + name() + "' needs " +
                          std::to_string(kernel.staticSharedBytes) + " bytes of static and " +
                          std::to_string(config.sharedBytes) +
                          " of dynamic shared memory; a block may have at most " +
                          std::to_string(cpuLimits().maxSharedBytesPerBlockOptin));
  pack(specialization.paramTypes, arguments, specialization.buffer, name(), parameterNames_);
  runtime::CpuThreads threads = kernel.usesGridSync  ? runtime::CpuThreads::Cooperative
                                : kernel.usesBarrier ? runtime::CpuThreads::Fibers
                                                     : runtime::CpuThreads::LoopInEntry;
  SigintStopsCpuLaunch sigintStopsLaunch;
  runtime::CpuExecutor::shared().launch(kernel.entry, threads, config.grid, config.block,
                                        kernel.staticSharedBytes + config.sharedBytes,
                                        specialization.buffer.params.data(), kernel.frameBytes,
                                        kernel.recursive, kernel.threadStorageBytes);
}

} // namespace kaji::python
