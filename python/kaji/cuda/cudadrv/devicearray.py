"""Numba's ``numba.cuda.cudadrv.devicearray``, over kaji's one device array class.

- ``DeviceNDArray`` (and ``DeviceNDArrayBase``) is ``kaji.DeviceArray`` itself: what
  ``cuda.to_device``, ``cuda.device_array`` and ``cuda.as_cuda_array`` return, so
  ``isinstance(d, DeviceNDArray)`` holds for every kaji device array (host-backed ones on the
  cpu target included). Unlike Numba's, it also holds for a device record.
- ``DeviceRecord`` is a device array of shape () of a structured dtype (what ``to_device`` of
  a record scalar gives): ``isinstance`` asks exactly that, and ``DeviceRecord(dtype)`` makes
  one. kaji has no ``gpu_data`` memory objects: passing one is NotImplementedError.
- ``MappedNDArray`` and ``ManagedNDArray`` are both ``kaji.cuda.MappedArray``, the numpy array
  over mapped or managed memory (on the cpu target those functions give plain numpy arrays).
- ``auto_device(obj, stream=0, copy=True, user_explicit=False)`` gives ``(device array,
  new)`` as Numba's, warning (kaji.PerformanceWarning) about the implicit copy of a numpy array
  to a GPU under the switch ``cuda.config.CUDA_WARN_ON_IMPLICIT_COPY`` that launches obey.
- ``is_cuda_ndarray``, ``require_cuda_ndarray``, ``verify_cuda_ndarray_interface``,
  ``from_array_like``, ``from_record_like``, ``array_core``, ``is_contiguous``,
  ``sentry_contiguous``, ``errmsg_contiguous_buffer`` as in Numba. ``from_array_like`` lays
  a strided view out densely (as ``device_array_like``), where Numba keeps its strides."""

import warnings

import numpy

from kaji import _core
from kaji._arrays import as_cuda_array, device_array, device_array_like, refuse_gpu_data
from kaji._core import DeviceArray, PerformanceWarning
from kaji._mapped_array import MappedArray

DeviceNDArray = DeviceNDArrayBase = DeviceArray
MappedNDArray = ManagedNDArray = MappedArray

errmsg_contiguous_buffer = ("Array contains non-contiguous buffer and cannot be transferred as a "
                            "single memory region. Please ensure contiguous buffer with numpy "
                            ".ascontiguousarray()")


class _DeviceRecordType(type):
    def __instancecheck__(cls, instance):
        return (isinstance(instance, DeviceArray) and instance.ndim == 0
                and instance.dtype.names is not None)


class DeviceRecord(metaclass=_DeviceRecordType):
    """A record on the device: a kaji.DeviceArray of shape () whose dtype is structured.
    ``DeviceRecord(dtype, stream=0)`` allocates one (uninitialized)."""

    def __new__(cls, dtype, stream=0, gpu_data=None):
        refuse_gpu_data(gpu_data, "DeviceRecord")
        dtype = numpy.dtype(dtype)
        if dtype.names is None:
            raise TypeError(f"DeviceRecord takes a structured dtype, not {dtype}")
        return device_array((), dtype, stream=stream)


def is_cuda_ndarray(obj):
    """Whether `obj` is a device array: a kaji.DeviceArray, or an object declaring Numba's
    ``__cuda_ndarray__``."""
    return isinstance(obj, DeviceArray) or bool(getattr(obj, "__cuda_ndarray__", False))


def require_cuda_ndarray(obj):
    """ValueError unless is_cuda_ndarray(obj)."""
    if not is_cuda_ndarray(obj):
        raise ValueError(f"require a device array (kaji.DeviceArray), not "
                         f"{type(obj).__name__}")


def verify_cuda_ndarray_interface(obj):
    """require_cuda_ndarray(obj), and AttributeError unless it has numpy's shape and strides
    (tuples), dtype (a numpy dtype) and size (an int)."""
    require_cuda_ndarray(obj)
    for name, kind in (("shape", tuple), ("strides", tuple), ("dtype", numpy.dtype),
                       ("size", int)):
        if not hasattr(obj, name):
            raise AttributeError(name)
        if not isinstance(getattr(obj, name), kind):
            raise AttributeError(f"{name} must be of type {kind}")


def from_array_like(ary, stream=0, gpu_data=None):
    """A new (uninitialized) device array of `ary`'s shape and dtype."""
    refuse_gpu_data(gpu_data, "from_array_like")
    return device_array_like(ary, stream=stream)


def from_record_like(rec, stream=0, gpu_data=None):
    """A new (uninitialized) device record of `rec`'s dtype."""
    refuse_gpu_data(gpu_data, "from_record_like")
    return DeviceRecord(rec.dtype, stream=stream)


def array_core(ary):
    """`ary` without its broadcast dimensions (stride 0), each taken at index 0."""
    if not ary.strides or not ary.size:
        return ary
    return ary[tuple(0 if stride == 0 else slice(None) for stride in ary.strides)]


def is_contiguous(ary):
    """Whether `ary`'s elements are C-contiguous once its broadcast dimensions (stride 0) and
    dimensions of extent 1 are left out: what ``array_core(ary).flags["C_CONTIGUOUS"]`` says,
    from the shape and strides alone (any array: numpy, device, ...)."""
    span = ary.dtype.itemsize
    for extent, stride in zip(reversed(ary.shape), reversed(ary.strides)):
        if extent > 1 and stride != 0:
            if stride != span:
                return False
            span *= extent
    return True


def sentry_contiguous(ary):
    """ValueError (errmsg_contiguous_buffer) unless `ary`'s elements, broadcast dimensions
    aside, are one C- or F-contiguous block."""
    core = array_core(ary)
    if not core.flags["C_CONTIGUOUS"] and not core.flags["F_CONTIGUOUS"]:
        raise ValueError(errmsg_contiguous_buffer)


def auto_device(obj, stream=0, copy=True, user_explicit=False):
    """(a device array of `obj`, whether it is new): a device array as it is, another
    library's (``__cuda_array_interface__``) viewed in place, anything else (a numpy array,
    a record scalar, a list) copied to a new one, or only allocated without `copy`."""
    if isinstance(obj, DeviceArray):
        return obj, False
    if hasattr(obj, "__cuda_array_interface__"):
        return as_cuda_array(obj), False
    if isinstance(obj, numpy.void):
        device = DeviceRecord(obj.dtype, stream=stream)
    else:
        obj = numpy.asarray(obj)
        sentry_contiguous(obj)
        device = from_array_like(obj, stream=stream)
    if copy:
        implicit_copy_warnings = _core.set_performance_warnings()[1]
        if (implicit_copy_warnings and not user_explicit and not device.on_host
                and isinstance(obj, numpy.ndarray)):
            warnings.warn("Host array used in CUDA kernel will incur copy overhead to/from "
                          "device.", PerformanceWarning, stacklevel=2)
        device.copy_to_device(obj, stream=stream)
    return device, True
