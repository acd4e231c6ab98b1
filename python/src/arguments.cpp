#include "arguments.h"

#include "dtypes.h"
#include "instances.h"

#include "kaji/driver/Language.h"
#include "kaji/ir/RecordType.h"

namespace kaji::python {

namespace {

// Kernels access a record's fields as aligned as the record promises (RecordType.h).
void requireRecordAlignment(const Element &element, uintptr_t data) {
  if (element.record && data % uintptr_t(element.record->alignment()) != 0)
    throw py::type_error("an array of records whose data is not aligned to " +
                         std::to_string(element.record->alignment()) +
                         " bytes, as its fields need");
}

// `type`: the array's kaji type, `element`'s array of its rank and layout.
void assignView(Argument &argument, const Element &element, const ir::Type &type,
                runtime::CUdeviceptr data, std::span<const int64_t> shape,
                std::span<const int64_t> strides) {
  requireRecordAlignment(element, uintptr_t(data));
  argument.data = data;
  argument.shape = shape;
  argument.strides = strides;
  argument.type = type;
}

void viewArray(Argument &argument, const Element &element, runtime::CUdeviceptr data,
               std::span<const int64_t> shape, std::span<const int64_t> strides) {
  assignView(argument, element,
             element.arrayType(unsigned(shape.size()), layoutOf(shape, strides, element.size())),
             data, shape, strides);
}

// An array another library owns, as `argument.foreign` describes it.
void viewForeignArray(Argument &argument) {
  const ArrayView &view = argument.foreign;
  viewArray(argument, view.element, view.data, view.shape, view.strides);
}

// A numpy array's type: staging keeps its strides, so its layout is its own.
void readHostArray(Argument &argument, const py::array &host) {
  Element element = elementFromDtype(host.dtype());
  requireRecordAlignment(element, reinterpret_cast<uintptr_t>(host.data()));
  ir::Layout layout = layoutOf(std::span(host.shape(), size_t(host.ndim())),
                               std::span(host.strides(), size_t(host.ndim())), element.size());
  argument.host = host;
  argument.type = element.arrayType(unsigned(host.ndim()), layout);
}

// A record scalar (np.void of a structured dtype, what `records[i]` gives on the host) is
// passed as a 0-d array of its record: kernels read its fields through it. numpy.void is
// looked up once: a launch asks this of each CuPy or PyTorch array, and an import per
// argument cost half a microsecond.
bool isRecordScalar(py::handle object) {
  static auto *voidType = reinterpret_cast<PyTypeObject *>(
      py::object(py::module_::import("numpy").attr("void")).release().ptr());
  return PyObject_TypeCheck(object.ptr(), voidType) &&
         !object.attr("dtype").attr("names").is_none();
}

// The cpu target reads a numpy array in place: its own pointer, shape and strides.
void viewHostArray(Argument &argument, py::array host) {
  if (!host.writeable()) {
    host = py::module_::import("numpy").attr("array")(host);
    argument.hostCopy = host;
  }
  Element element = elementFromDtype(host.dtype());
  auto data = runtime::CUdeviceptr(reinterpret_cast<uintptr_t>(host.data()));
  viewArray(argument, element, data, std::span(host.shape(), size_t(host.ndim())),
            std::span(host.strides(), size_t(host.ndim())));
}

// A numpy subclass that exports __cuda_array_interface__ (kaji.cuda's mapped and managed
// arrays) is memory the device reads in place: passed without staging copies. Plain ndarrays
// skip the attribute lookup, which the launch fast path cannot afford.
bool isDeviceAccessibleNumpyArray(py::handle object) {
  auto *ndarray = reinterpret_cast<PyTypeObject *>(py::detail::npy_api::get().PyArray_Type_);
  return Py_TYPE(object.ptr()) != ndarray && py::isinstance<py::array>(object);
}

void readDeviceArray(Argument &argument, const DeviceArray &array, ArgumentTarget target) {
  if (array.onHost() && target == ArgumentTarget::Cuda)
    throw py::type_error("a host-backed device array (made while the default target was cpu) "
                         "cannot be passed to a cuda kernel; pass a numpy array or "
                         "kaji.to_device() it with KAJI_TARGET=cuda");
  if (!array.onHost() && target == ArgumentTarget::Cpu)
    throw py::type_error("a device array in GPU memory cannot be passed to a cpu kernel; pass "
                         "its copy_to_host() or a numpy array");
  assignView(argument, array.element(), array.argumentType(), array.data(), array.shape(),
             array.strides());
  argument.device = array.device();
}

// cuda.In(a), cuda.Out(a), cuda.InOut(a) (kaji's, or numba.cuda.args' own): the array `a`
// and which ways it is copied; none for any other object.
struct TransferHint {
  py::object value;
  bool copyIn, copyOut;
};
// The type's name is compared first: the launch asks this of every foreign GPU array.
std::optional<TransferHint> transferHint(py::handle object) {
  std::string_view name = Py_TYPE(object.ptr())->tp_name;
  if (name != "In" && name != "Out" && name != "InOut")
    return std::nullopt;
  py::object module = py::getattr(py::type::handle_of(object), "__module__", py::none());
  if (module.is_none())
    return std::nullopt;
  std::string moduleName = py::str(module);
  if (moduleName != "kaji._transfer_hints" && moduleName != "numba.cuda.args")
    return std::nullopt;
  return TransferHint{object.attr("value"), name != "Out", name != "In"};
}

void read(py::handle object, Argument &argument, ArgumentTarget target,
          KnownArrayReader &knownArrays);

// A transfer hint's array, read with the copies it asks for.
void readHinted(const TransferHint &hint, Argument &argument, ArgumentTarget target,
                KnownArrayReader &knownArrays) {
  if (!py::isinstance<py::array>(hint.value) && !isRecordScalar(hint.value))
    throw py::type_error("cuda.In/Out/InOut take a numpy array, not '" +
                         std::string(Py_TYPE(hint.value.ptr())->tp_name) + "'");
  read(hint.value, argument, target, knownArrays);
  argument.copyIn = hint.copyIn;
  argument.copyOut = hint.copyOut;
  // The cpu target reads the array in place: one the kernel must not change is a copy.
  if (target == ArgumentTarget::Cpu && !hint.copyOut && !argument.hostCopy) {
    argument.hostCopy = py::module_::import("numpy").attr("array")(hint.value);
    viewHostArray(argument, py::reinterpret_borrow<py::array>(argument.hostCopy));
  }
}

// The number type `object` is when it is one passed as a value (np.float32, kaji.float32,
// numba.float32, a numpy dtype): kaji.types says, for the objects no other kind of argument is.
std::optional<ir::ScalarKind> typeValue(py::handle object) {
  py::object name = py::module_::import("kaji.types").attr("type_value_kind")(object);
  if (name.is_none())
    return std::nullopt;
  return driver::parseType(name.cast<std::string>()).scalarKind();
}

void read(py::handle object, Argument &argument, ArgumentTarget target,
          KnownArrayReader &knownArrays) {
  // CuPy arrays and PyTorch tensors are recognized by their exact type, before the checks
  // for kaji arrays, scalars and numpy arrays they would fail.
  if (target == ArgumentTarget::Cuda && knownArrays.read(object, argument.foreign)) {
    viewForeignArray(argument);
  } else if (const DeviceArray *array = cppObjectIf<DeviceArray>(object)) {
    readDeviceArray(argument, *array, target);
  } else if (std::optional<ScalarValue> scalar = scalarValue(object)) {
    argument.scalar = *scalar;
    argument.type = ir::Type::scalar(scalar->kind);
  } else if (target == ArgumentTarget::Cuda && isDeviceAccessibleNumpyArray(object) &&
             cudaArrayInterfaceView(object, argument.foreign)) {
    viewForeignArray(argument);
  } else if (py::isinstance<py::array>(object) || isRecordScalar(object)) {
    py::array host = py::array::ensure(object);
    if (!host.is(object))
      argument.hostCopy = host; // a record scalar's copy lives as long as the launch
    if (target == ArgumentTarget::Cpu)
      viewHostArray(argument, host);
    else
      readHostArray(argument, host);
  } else if (std::optional<TransferHint> hint = transferHint(object)) {
    readHinted(*hint, argument, target, knownArrays);
  } else if (target == ArgumentTarget::Cuda && (cudaArrayInterfaceView(object, argument.foreign) ||
                                                dlpackView(object, argument.foreign))) {
    viewForeignArray(argument);
  } else if (std::optional<ir::ScalarKind> kind = typeValue(object)) {
    // Last: whatever an array protocol describes is an array, never a type.
    argument.typeValue = kind;
  } else if (target == ArgumentTarget::Cpu) {
    throw py::type_error("unsupported type '" + std::string(Py_TYPE(object.ptr())->tp_name) +
                         "'; kaji kernels for the cpu target take bool, int, float, numpy "
                         "scalars, numpy arrays and host-backed kaji device arrays");
  } else {
    throw py::type_error("unsupported type '" + std::string(Py_TYPE(object.ptr())->tp_name) +
                         "'; kaji kernels take bool, int, float, numpy scalars, numpy arrays, "
                         "kaji device arrays and GPU arrays exporting "
                         "__cuda_array_interface__ or DLPack (CuPy, PyTorch, JAX, Numba)");
  }
}

} // namespace

void Argument::stage(const runtime::Stream *stream) {
  // Not owning: the staged array dies with the launch, before the stream.
  AllocationStream allocateOn(std::shared_ptr<void>(), stream);
  auto array = py::reinterpret_borrow<py::array>(host);
  staged = std::make_unique<DeviceArray>(
      copyIn ? DeviceArray::fromHost(array, stream, false, std::move(allocateOn))
             : DeviceArray::emptyLike(array, std::move(allocateOn)));
  viewArray(*this, staged->element(), staged->data(), staged->shape(), staged->strides());
}

void Argument::unstage(const runtime::Stream *stream) {
  auto array = py::reinterpret_borrow<py::array>(host);
  if (!staged || !copyOut || !array.writeable())
    return;
  staged->copyToHost(array, stream);
  // A launch with numpy arguments returns with them updated, page-locked or not.
  if (stream)
    stream->synchronize();
}

void readArgument(py::handle object, Argument &argument, const std::string &kernel, size_t index,
                  const std::string &parameter, ArgumentTarget target,
                  KnownArrayReader &knownArrays) {
  auto named = [&](const char *problem) {
    return "argument " + std::to_string(index + 1) + " ('" + parameter + "') of kernel '" + kernel +
           "': " + problem;
  };
  try {
    read(object, argument, target, knownArrays);
  } catch (py::type_error &error) {
    throw py::type_error(named(error.what()));
  } catch (py::value_error &error) {
    throw py::value_error(named(error.what()));
  } catch (py::error_already_set &error) {
    if (!error.matches(PyExc_TypeError))
      throw;
    throw py::type_error(named(py::str(error.value()).cast<std::string>().c_str()));
  }
}

Argument inspectArgument(py::handle object, ArgumentTarget target) {
  Argument argument;
  KnownArrayReader knownArrays;
  read(object, argument, target, knownArrays);
  return argument;
}

} // namespace kaji::python
