#include "dispatcher.h"

#include "cpu_interrupt.h"
#include "cycle_collection.h"
#include "errors.h"
#include "graph_capture.h"
#include "instances.h"
#include "integers.h"
#include "linked_module.h"
#include "performance_warnings.h"

#include "kaji/abi/KernelABI.h"
#include "kaji/driver/SassDisassembler.h"
#include "kaji/runtime/Context.h"
#include "kaji/runtime/Device.h"
#include "kaji/runtime/Driver.h"

#include "bindings.h"

#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <optional>
#include <tuple>

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

// The key's first entry for host specializations (devices are numbered from 0).
constexpr uint32_t cpuKey = std::numeric_limits<uint32_t>::max();

uint32_t typeCode(const ir::Type &type) {
  return uint32_t(type.kind()) | uint32_t(type.scalarKind()) << 2 | uint32_t(type.layout()) << 6 |
         uint32_t(type.memorySpace()) << 8 | uint32_t(type.ndim()) << 10;
}

// The newest target LLVM 19's NVPTX backend knows is sm_90; newer GPUs JIT its PTX.
std::string archFor(runtime::ComputeCapability capability) {
  return "sm_" + std::to_string(std::min(capability.major * 10 + capability.minor, 90));
}

std::string signatureText(const std::vector<ir::Type> &params,
                          const std::vector<frontend::ParameterStructure> &structure) {
  return frontend::signatureString(frontend::Signature{ir::Type::voidType(), params, structure});
}

// A namedtuple's class and fields in a specialization key, exactly.
void appendText(std::vector<uint32_t> &key, const std::string &text) {
  key.push_back(uint32_t(text.size()));
  for (char c : text)
    key.push_back(uint32_t(static_cast<unsigned char>(c)));
}

void appendStructure(std::vector<uint32_t> &key, const frontend::ParameterStructure &structure) {
  key.push_back(structure.tuple ? uint32_t(structure.elements.size()) + 1 : 0);
  if (!structure.tuple)
    return;
  appendText(key, structure.tupleClass);
  for (const std::string &field : structure.fields)
    appendText(key, field);
  for (const frontend::ParameterStructure &element : structure.elements)
    appendStructure(key, element);
}

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

// How an argument becomes an eagerly compiled parameter's type, from the best to the worst, as
// Numba ranks overloads: Promote keeps every value and its kind (float32 to float64, int32 to
// int64, a C array to one of any layout), Safe keeps every value (int32 to float64), Unsafe
// may not (float64 to float32).
enum class Conversion { Exact, Promote, Safe, Unsafe };

// The bits of a scalar kind's values that a float must hold to keep them all.
unsigned significantBits(ir::ScalarKind kind) {
  switch (kind) {
  case ir::ScalarKind::Float16:
    return 11;
  case ir::ScalarKind::BFloat16:
    return 8;
  case ir::ScalarKind::Float32:
    return 24;
  case ir::ScalarKind::Float64:
    return 53;
  default:
    return ir::bitWidth(kind) - (ir::isSigned(kind) ? 1 : 0);
  }
}

// A real scalar kind to another, or a complex one's parts to another's.
Conversion realConversion(ir::ScalarKind param, ir::ScalarKind arg) {
  if (param == arg)
    return Conversion::Exact;
  bool keepsValues = significantBits(param) >= significantBits(arg) &&
                     (!ir::isInteger(param) || ir::isSigned(param) || !ir::isSigned(arg));
  // float16 and bfloat16 hold each other's values only partly.
  bool halves = ir::isHalfPrecision(param) && ir::isHalfPrecision(arg);
  if (!keepsValues || halves)
    return Conversion::Unsafe;
  bool sameFamily = ir::isFloat(param) == ir::isFloat(arg) &&
                    (ir::isFloat(param) || ir::isSigned(param) == ir::isSigned(arg));
  return sameFamily ? Conversion::Promote : Conversion::Safe;
}

// How an argument of type `arg` becomes a parameter of type `param`, if it can: arrays of the
// same element type and rank and a layout the parameter allows; any number to a float or a
// complex number, integers to integers, bool to bool.
std::optional<Conversion> conversion(const ir::Type &param, const ir::Type &arg) {
  if (param == arg)
    return Conversion::Exact;
  if (param.isArray() || arg.isArray()) {
    bool accepted = param.isArray() && arg.isArray() && param.scalarKind() == arg.scalarKind() &&
                    param.record() == arg.record() && param.ndim() == arg.ndim() &&
                    param.layout() == ir::Layout::Any;
    return accepted ? std::optional(Conversion::Promote) : std::nullopt;
  }
  if (param.isBool() || arg.isBool())
    return std::nullopt;
  if (arg.isComplex() && !param.isComplex())
    return std::nullopt;
  if (!param.isFloat() && !param.isComplex() && !arg.isInteger())
    return std::nullopt;
  Conversion parts =
      realConversion(ir::componentKind(param.scalarKind()), ir::componentKind(arg.scalarKind()));
  // A real number becomes a complex one's real part.
  if (param.isComplex() && !arg.isComplex() && parts != Conversion::Unsafe)
    return Conversion::Safe;
  return parts;
}

// An overload's conversions of a launch's arguments, compared as Numba rates them: fewer
// unsafe ones first, then fewer safe ones, then fewer promotions.
struct ConversionRating {
  unsigned unsafe = 0, safe = 0, promote = 0;
  void add(Conversion kind) {
    unsafe += kind == Conversion::Unsafe;
    safe += kind == Conversion::Safe;
    promote += kind == Conversion::Promote;
  }
  bool operator<(const ConversionRating &other) const {
    return std::tie(unsafe, safe, promote) < std::tie(other.unsafe, other.safe, other.promote);
  }
};

size_t slotCount(const std::vector<ir::Type> &params) {
  size_t count = 0;
  for (const ir::Type &param : params)
    count += param.isArray() ? 1 + 2 * param.ndim() : param.isComplex() ? 2 : 1;
  return count;
}

// Writes the arguments per the flattened ABI, converted to the parameter types. A Python int
// out of range for its (eagerly compiled) parameter type raises OverflowError naming the
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

runtime::Extent3 readExtent(const py::handle &value, const char *what) {
  auto component = [what](const py::handle &item) -> int64_t {
    if (!PyIndex_Check(item.ptr()) || PyBool_Check(item.ptr()))
      throw py::type_error(std::string(what) + " dimensions must be ints, not '" +
                           Py_TYPE(item.ptr())->tp_name + "'");
    return readInt64(item, std::string(what) + " dimension");
  };
  if (PyIndex_Check(value.ptr()))
    return {component(value), 1, 1};
  if (!py::isinstance<py::tuple>(value) && !py::isinstance<py::list>(value))
    throw py::type_error(std::string(what) + " must be an int or a tuple of 1 to 3 ints, not '" +
                         Py_TYPE(value.ptr())->tp_name + "'");
  py::sequence items = py::reinterpret_borrow<py::sequence>(value);
  if (items.size() < 1 || items.size() > 3)
    throw py::value_error(std::string(what) + " must have 1 to 3 dimensions, not " +
                          std::to_string(items.size()));
  runtime::Extent3 extent{1, 1, 1};
  for (size_t axis = 0; axis < items.size(); ++axis)
    extent[axis] = component(items[axis]);
  return extent;
}

} // namespace

ParameterBuffer::ParameterBuffer(const std::vector<ir::Type> &paramTypes)
    : slots(slotCount(paramTypes)) {
  for (uint64_t &slot : slots)
    params.push_back(&slot);
}

size_t Dispatcher::TypesHash::operator()(const std::vector<uint32_t> &key) const {
  size_t hash = 0xcbf29ce484222325ull;
  for (uint32_t code : key)
    hash = (hash ^ code) * 0x100000001b3ull;
  return hash;
}

Dispatcher::Dispatcher(std::shared_ptr<FunctionSource> source, py::object describeGlobals,
                       std::vector<std::string> parameterNames, Options options)
    : kernel_{std::move(source), std::move(describeGlobals)},
      parameterNames_(std::move(parameterNames)), diskCache_(options.diskCache),
      sharedCarveout_(options.sharedCarveout), linkFiles_(std::move(options.linkFiles)) {
  settings_.target = options.target;
  settings_.ptx.fastMath = settings_.cpu.fastMath = options.fastMath;
  settings_.ptx.optLevel = settings_.cpu.optLevel = options.optLevel;
  settings_.ptx.lineInfo = options.lineInfo;
  settings_.backend = options.backend;
  settings_.ptx.limits = options.limits;
  settings_.cpu.boundsCheck = settings_.ptx.boundsCheck = options.boundsCheck;
  settings_.cpu.hooks = runtime::CpuExecutor::hooks();
  settings_.debug = options.debug;
}

frontend::Signature Dispatcher::parameterTypes(const std::string &signature) const {
  frontend::Signature parsed = parseKernelSignature(signature);
  if (parsed.structure.size() != parameterNames_.size())
    throw py::type_error("kernel '" + name() + "' takes " + std::to_string(parameterNames_.size()) +
                         " arguments but the signature '" + signature + "' has " +
                         std::to_string(parsed.structure.size()));
  if (std::none_of(parsed.structure.begin(), parsed.structure.end(),
                   [](const frontend::ParameterStructure &p) { return p.tuple; }))
    parsed.structure.clear();
  return parsed;
}

void Dispatcher::addSignature(const std::string &signature) {
  frontend::Signature params = parameterTypes(signature);
  if (target() == driver::Target::CPU)
    compiledForCpu(params);
  else
    compiled(params, settings_.ptx.arch);
  eagerSignatures_.push_back(std::move(params));
}

std::vector<std::string> Dispatcher::signatures() const {
  std::vector<std::string> result;
  auto add = [&result](const std::vector<ir::Type> &paramTypes,
                       const std::vector<frontend::ParameterStructure> &structure) {
    std::string text = signatureText(paramTypes, structure);
    if (std::find(result.begin(), result.end(), text) == result.end())
      result.push_back(std::move(text));
  };
  for (const auto &kernel : compiled_)
    add(kernel->paramTypes, kernel->structure);
  for (const auto &kernel : cpuCompiled_)
    add(kernel->paramTypes, kernel->structure);
  return result;
}

std::string Dispatcher::inspect(const std::string &signature, driver::Stage stage) const {
  // PTX needs no GPU, so every kernel has it, whatever its target: what it would run on one.
  driver::CompileRequest settings = settings_;
  if (stage == driver::Stage::PTX || stage == driver::Stage::CudaCpp)
    settings.target = driver::Target::CUDA;
  return emitKernelStage(kernel_, parameterTypes(signature), stage, settings);
}

std::string Dispatcher::sass(const std::string &signature) const {
  std::string ptx = inspect(signature, driver::Stage::PTX);
  return driver::disassembleSass(
      driver::assemblePTX(ptx, settings_.ptx.arch, settings_.ptx.optLevel));
}

driver::ResourceUsage Dispatcher::resourceUsage(const std::string &signature) {
  frontend::Signature params = parameterTypes(signature);
  if (target() == driver::Target::CUDA && runtime::Driver::available() &&
      runtime::Device::count() > 0) {
    int device = runtime::selectedDevice();
    std::string arch = archFor(runtime::Device::get(device).computeCapability());
    const runtime::Function &function = load(compiled(params, arch), device).function;
    driver::ResourceUsage usage;
    usage.registersPerThread = function.attribute(runtime::CU_FUNC_ATTRIBUTE_NUM_REGS);
    usage.sharedBytesPerBlock = function.attribute(runtime::CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
    usage.localBytesPerThread = function.attribute(runtime::CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES);
    usage.constBytes = function.attribute(runtime::CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES);
    usage.maxThreadsPerBlock = function.maxThreadsPerBlock();
    return usage;
  }
  driver::CompileRequest settings = settings_;
  settings.target = driver::Target::CUDA;
  driver::CompiledModule module = compileKernel(kernel_, params, settings);
  return driver::ptxasResourceUsage(module.ptx, module.kernels.at(0).entryName, settings.ptx.arch,
                                    settings.ptx.optLevel);
}

int64_t Dispatcher::maxCooperativeGridBlocks(const std::string &signature, int64_t blockThreads,
                                             int64_t dynamicSharedBytes) {
  if (blockThreads < 1 || blockThreads > 1024)
    throw py::value_error("a block has 1 to 1024 threads, not " + std::to_string(blockThreads));
  if (dynamicSharedBytes < 0)
    throw py::value_error("dynsmemsize must not be negative");
  if (target() == driver::Target::CPU)
    return int64_t(runtime::CpuExecutor::kMaxCooperativeBlocks);
  int device = runtime::selectedDevice();
  std::string arch = archFor(runtime::Device::get(device).computeCapability());
  return load(compiled(parameterTypes(signature), arch), device)
      .function.maxCooperativeGridBlocks(int(blockThreads), size_t(dynamicSharedBytes));
}

std::string Dispatcher::signatureFor(const py::tuple &args) {
  frontend::Signature types = launchTypes(readArguments(args));
  return signatureText(types.params, types.structure);
}

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
  for (size_t i = 0; i < count; ++i)
    readArgument(PyTuple_GET_ITEM(args.ptr(), Py_ssize_t(i)), arguments[i], name(), i,
                 parameterNames_[i], argumentTarget, knownArrays);
  return arguments;
}

int Dispatcher::occupancyBlockSize(const py::tuple &args, py::handle sharedmem) {
  int64_t sharedBytes = readInt64(sharedmem, "sharedmem");
  if (sharedBytes < 0)
    throw py::value_error("sharedmem must not be negative");
  std::vector<Argument> arguments = readArguments(args);
  // The cpu executor runs a block's threads as one vectorised loop, or as fibers with a stack
  // each: 256 keeps both efficient.
  if (target() == driver::Target::CPU)
    return 256;
  return specialization(arguments).function.occupancyBlockSize(size_t(sharedBytes));
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
// launch stream) already waits for both default streams' work.
void waitForProducers(const std::vector<Argument> &arguments, const runtime::Stream *stream) {
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
    // Warned of when a specialization first launches with a shape, not at every launch.
    warnIfLowOccupancy(int64_t(config.grid.x) * config.grid.y * config.grid.z,
                       kernel.lowOccupancyBlocks);
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
  if (capture)
    capture->recordKernel(self, kernel, config, args);
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
      bound ? runtime::validateLaunch(cpuLimits(), bound, "kernel '" + name() + "''s launch_bounds",
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
                                        kernel.recursive);
}

const Dispatcher::Key &Dispatcher::keyOf(uint32_t where, const std::vector<Argument> &arguments) {
  keyScratch_.clear();
  keyScratch_.push_back(where);
  for (const Argument &argument : arguments) {
    keyScratch_.push_back(typeCode(argument.type));
    // Records are interned: the address names the layout for the life of the process.
    if (auto record = reinterpret_cast<uintptr_t>(argument.type.record())) {
      keyScratch_.push_back(uint32_t(record));
      keyScratch_.push_back(uint32_t(uint64_t(record) >> 32));
    }
  }
  for (const frontend::ParameterStructure &parameter : structureScratch_)
    appendStructure(keyScratch_, parameter);
  return keyScratch_;
}

frontend::Signature Dispatcher::launchTypes(const std::vector<Argument> &arguments) const {
  frontend::Signature argTypes{ir::Type::voidType(), {}, structureScratch_};
  for (const Argument &argument : arguments)
    argTypes.params.push_back(argument.type);
  if (eagerSignatures_.empty())
    return argTypes;
  // The best overload; of equally good ones the first declared.
  const frontend::Signature *best = nullptr;
  ConversionRating bestRating;
  for (const frontend::Signature &params : eagerSignatures_) {
    bool match = params.structure == structureScratch_ && params.params.size() == arguments.size();
    ConversionRating rating;
    for (size_t i = 0; match && i < arguments.size(); ++i) {
      std::optional<Conversion> converted = conversion(params.params[i], arguments[i].type);
      match = converted.has_value();
      if (match)
        rating.add(*converted);
    }
    if (match && (!best || rating < bestRating)) {
      best = &params;
      bestRating = rating;
    }
  }
  if (best)
    return *best;
  std::string known;
  for (const frontend::Signature &params : eagerSignatures_)
    known += "\n  " + frontend::signatureString(params);
  throw py::type_error("kernel '" + name() + "' has no signature for arguments " +
                       frontend::signatureString(argTypes) + "; it was compiled for:" + known);
}

LoadedKernel &Dispatcher::specialization(std::vector<Argument> &arguments) {
  int device = runtime::selectedDevice();
  const Key &scratchKey = keyOf(uint32_t(device), arguments);
  if (lastLaunched_ && scratchKey == lastLaunchedKey_)
    return *lastLaunched_;
  if (auto found = launchCache_.find(scratchKey); found != launchCache_.end()) {
    lastLaunchedKey_ = scratchKey;
    lastLaunched_ = found->second;
    return *found->second;
  }
  Key key = keyScratch_; // compiling may run Python that launches, reusing the scratch key
  std::string arch = archFor(runtime::Device::get(device).computeCapability());
  LoadedKernel &loadedKernel = load(compiled(launchTypes(arguments), arch), device);
  launchCache_.emplace(std::move(key), &loadedKernel);
  return loadedKernel;
}

CpuSpecialization &Dispatcher::cpuSpecialization(const std::vector<Argument> &arguments) {
  if (auto found = cpuLaunchCache_.find(keyOf(cpuKey, arguments)); found != cpuLaunchCache_.end())
    return *found->second;
  Key key = keyScratch_; // compiling may run Python that launches, reusing the scratch key
  CpuSpecialization &specialization = compiledForCpu(launchTypes(arguments));
  cpuLaunchCache_.emplace(std::move(key), &specialization);
  return specialization;
}

CpuSpecialization &Dispatcher::compiledForCpu(const frontend::Signature &params) {
  for (const auto &kernel : cpuCompiled_)
    if (kernel->paramTypes == params.params && kernel->structure == params.structure)
      return *kernel;
  CapturedObjects captured;
  codegen::CpuKernel kernel = compileCpuKernel(kernel_, params, settings_, &captured);
  cpuCompiled_.push_back(std::make_unique<CpuSpecialization>(
      CpuSpecialization{params.params, params.structure, std::move(kernel),
                        ParameterBuffer(params.params), std::move(captured)}));
  return *cpuCompiled_.back();
}

const CompiledKernel &Dispatcher::compiled(const frontend::Signature &params,
                                           const std::string &arch) {
  for (const auto &kernel : compiled_)
    if (kernel->arch == arch && kernel->paramTypes == params.params &&
        kernel->structure == params.structure)
      return *kernel;
  driver::CompileRequest settings = settings_;
  settings.ptx.arch = arch;
  // The directory is looked up at each compile, so KAJI_CACHE_DIR set later still counts.
  std::optional<driver::DiskCache> diskCache;
  if (diskCache_)
    settings.diskCache = &diskCache.emplace(driver::DiskCache::defaultDirectory());
  CapturedObjects captured;
  driver::CompiledModule module = compileKernel(kernel_, params, settings, &captured);
  const driver::CompiledKernelInfo &info = module.kernels.at(0);
  ExceptionTable exceptions = module.exceptions.empty()
                                  ? nullptr
                                  : std::make_shared<const std::vector<driver::ReportedException>>(
                                        std::move(module.exceptions));
  std::vector<std::string> recursive;
  for (const driver::RecursiveFunction &function : info.recursiveFunctions)
    recursive.push_back("'" + function.name + "' (line " + std::to_string(function.line) + ")");
  compiled_.push_back(std::make_unique<CompiledKernel>(CompiledKernel{
      arch, params.params, params.structure, std::move(module.ptx), info.entryName,
      info.cooperative, std::move(recursive), std::move(exceptions), std::move(captured)}));
  return *compiled_.back();
}

LoadedKernel &Dispatcher::load(const CompiledKernel &compiled, int device) {
  for (const auto &kernel : loaded_)
    if (kernel->compiled == &compiled && kernel->function.device() == device)
      return *kernel;
  std::vector<std::string> files =
      py::module_::import("kaji.linking")
          .attr("kernel_link_files")(linkFiles_, kernel_.describeGlobals)
          .cast<std::vector<std::string>>();
  runtime::Module module = files.empty()
                               ? runtime::Module::loadPtx(compiled.ptx)
                               : loadLinkedModule(compiled.ptx, name(), compiled.arch, files);
  runtime::Function function = module.function(compiled.entry);
  if (sharedCarveout_)
    function.setPreferredSharedCarveout(*sharedCarveout_);
  // Only code that reports defines the slot and the record: where the optimizer removed every
  // report (or every index error), there is none to read.
  auto defined = [&](const char *symbol) -> runtime::CUdeviceptr {
    if (!compiled.exceptions)
      return 0;
    std::optional<runtime::Module::Global> global = module.findGlobal(symbol);
    return global ? global->address : 0;
  };
  ExceptionSlot exceptionSlot{defined(abi::kExceptionSlotSymbol), defined(abi::kIndexErrorSymbol)};
  auto kernel = std::make_unique<LoadedKernel>(
      LoadedKernel{&compiled,
                   std::move(module),
                   function,
                   ParameterBuffer(compiled.paramTypes),
                   0,
                   std::nullopt,
                   {},
                   2 * int64_t(runtime::Device::get(device).multiprocessorCount()),
                   exceptionSlot});
  loaded_.push_back(std::move(kernel));
  return *loaded_.back();
}

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
}

void ConfiguredLaunch::operator()(py::handle args) const {
  dispatcher_->launch(shape_, stream_.get(), dispatcherObject_, args);
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
    cppObject<ConfiguredLaunch>(self)(args);
    Py_RETURN_NONE;
  } catch (...) {
    py::detail::try_translate_exceptions();
    return nullptr;
  }
}

} // namespace

py::object Dispatcher::configure(py::handle self, py::handle config) {
  if (lastLaunch_ && sameConfiguration(config.ptr(), lastConfig_.ptr()))
    return lastLaunch_;
  py::object launch = py::cast(ConfiguredLaunch(py::reinterpret_borrow<py::object>(self), config));
  lastConfig_ = py::reinterpret_borrow<py::object>(config);
  lastLaunch_ = launch;
  return launch;
}

py::tuple ConfiguredLaunch::reduce() const {
  return py::make_tuple(py::module_::import("operator").attr("getitem"),
                        py::make_tuple(dispatcherObject_, config_));
}

void bindDispatcher(py::module_ &m) {
  py::class_<Dispatcher>(m, "Dispatcher",
                         "A @jit kernel: its specializations and the launch fast path.",
                         cycleCollected<Dispatcher>([](PyHeapTypeObject *type) {
                           type->as_mapping.mp_subscript = subscriptSlot;
                         }))
      .def(py::init([](std::shared_ptr<FunctionSource> source, py::object describeGlobals,
                       std::vector<std::string> parameterNames, bool fastMath, py::handle opt,
                       const std::string &target, std::optional<bool> boundsCheck, bool cache,
                       bool lineInfo, bool debug, std::array<unsigned, 3> launchBounds,
                       unsigned maxRegisters, std::optional<int> sharedCarveout,
                       const std::string &backend, std::vector<std::string> link) {
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
                                limits, sharedCarveout, *driverBackend, std::move(link)});
           }),
           py::arg("source"), py::arg("describe_globals"), py::arg("parameters"),
           py::arg("fast_math") = false, py::arg("opt") = true, py::arg("target") = "cuda",
           py::arg("bounds_check") = py::none(), py::arg("cache") = false,
           py::arg("lineinfo") = false, py::arg("debug") = false,
           py::arg("launch_bounds") = std::array<unsigned, 3>{0, 0, 0},
           py::arg("max_registers") = 0u, py::arg("shared_memory_carveout") = py::none(),
           py::arg("backend") = "llvm", py::arg("link") = std::vector<std::string>{})
      .def("add_signature", &Dispatcher::addSignature, py::arg("signature"))
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
      .def("signature_for", &Dispatcher::signatureFor, py::arg("args"),
           "The signature a launch with `args` compiles for.")
      .def("sass", &Dispatcher::sass, py::arg("signature"))
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
          [](const Dispatcher &dispatcher, const std::string &signature, const std::string &stage) {
            if (stage == "ir")
              return dispatcher.inspect(signature, driver::Stage::IR);
            if (stage == "llvm")
              return dispatcher.inspect(signature, driver::Stage::LLVM);
            if (stage == "ptx")
              return dispatcher.inspect(signature, driver::Stage::PTX);
            if (stage == "cuda")
              return dispatcher.inspect(signature, driver::Stage::CudaCpp);
            throw py::value_error("stage must be 'ir', 'llvm', 'cuda' or 'ptx', not '" + stage +
                                  "'");
          },
          py::arg("signature"), py::arg("stage"));

  py::class_<ConfiguredLaunch>(m, "ConfiguredLaunch", "kernel[griddim, blockdim, ...]",
                               cycleCollected<ConfiguredLaunch>([](PyHeapTypeObject *type) {
                                 type->ht_type.tp_call = callSlot;
                               }))
      .def("__reduce__", &ConfiguredLaunch::reduce);
}

} // namespace kaji::python
