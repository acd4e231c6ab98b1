"""Device arrays: creating them and copying host data in. When the default target is cpu
(kaji._target) they are host-backed: the same DeviceArray over host memory, so that code
written for the GPU runs unchanged."""

from kaji import _core
from kaji._core import DeviceArray
from kaji._target import default_target

__all__ = ["as_cuda_array", "device_array", "device_array_like", "from_cuda_array_interface",
           "is_cuda_array", "to_device"]


def _numba_type(array):
    """Numba's ``_numba_type_``: the type kernels see `array` as (kaji.typeof), and for a
    device record (shape (), a structured dtype) the record type, as Numba's DeviceRecord."""
    from kaji import types

    if array.ndim == 0 and array.dtype.names is not None:
        return types.from_dtype(array.dtype)
    return types.typeof(array)


DeviceArray._numba_type_ = property(_numba_type)


class DeviceMemory:
    """Numba's ``gpu_data`` of a device array: the device memory its elements occupy, from
    its first element's address (``device_pointer``, an int, as ``int(...)`` of Numba's
    reads it) over ``size`` bytes (its ``alloc_size``). Arrays over the same bytes give equal
    ones; kaji frees the memory with the last array viewing it."""

    __slots__ = ("device_pointer", "size")

    def __init__(self, device_pointer, size):
        self.device_pointer = device_pointer
        self.size = size

    @property
    def device_pointer_value(self):
        return self.device_pointer

    def __int__(self):
        return self.device_pointer

    def __eq__(self, other):
        return isinstance(other, DeviceMemory) and (self.device_pointer, self.size) == (
            other.device_pointer, other.size)

    def __hash__(self):
        return hash((self.device_pointer, self.size))

    def __repr__(self):
        return f"<kaji device memory at 0x{self.device_pointer:x}, {self.size} bytes>"


DeviceArray.gpu_data = property(lambda array: DeviceMemory(array.device_pointer,
                                                           array.alloc_size))


def _on_host():
    return default_target() == "cpu"


def _kaji_stream(stream):
    # Numba spells the default stream 0.
    return None if stream is None or (isinstance(stream, int) and stream == 0) else stream


def to_device(obj, stream=None, copy=True, to=None):
    """A device copy (host-backed for the cpu target) of `obj` (a numpy array or anything
    numpy.asarray takes), made after the work queued on `stream`; with `to`, copies into that
    device array instead; with ``copy=False``, only allocates. A DeviceArray is returned as it
    is. With a kaji `stream` the memory is stream-ordered (see device_array), and the copy
    from a page-locked `obj` (kaji.pinned_array, kaji.pinned) is left queued on it."""
    if isinstance(obj, DeviceArray) and to is None:
        return obj
    import numpy

    host = numpy.asarray(obj)
    stream = _kaji_stream(stream)
    if to is not None:
        to.copy_to_device(host, stream=stream)
        return to
    if not copy:
        return device_array_like(host, stream=stream)
    return _core.to_device(host, stream=stream, on_host=_on_host())


def device_array(shape, dtype="float64", order="C", stream=None):
    """An uninitialized device array. With a kaji `stream`, its memory comes from the
    device's stream-ordered pool and is freed in that stream's order: use it on that stream,
    or order other streams after it (an event). Without one, any stream may use it."""
    return _core.device_array(shape, dtype, order, on_host=_on_host(),
                              stream=_kaji_stream(stream))


def device_ndarray(shape, strides, dtype, stream=0, gpu_data=None):
    """Numba's ``DeviceNDArray(shape, strides, dtype, stream=0, gpu_data=None)`` (what
    ``kaji.DeviceArray(...)`` calls): an uninitialized array with those byte strides over the
    memory they span. kaji arrays own their memory, so `gpu_data` is NotImplementedError."""
    refuse_gpu_data(gpu_data, "DeviceNDArray")
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    strides = (strides,) if isinstance(strides, int) else tuple(strides)
    return _core.device_array(shape, dtype, on_host=_on_host(), strides=strides,
                              stream=_kaji_stream(stream))


def refuse_gpu_data(gpu_data, what):
    """NotImplementedError for Numba's `gpu_data` argument of `what`, unless None."""
    if gpu_data is not None:
        raise NotImplementedError(f"{what}(gpu_data=...): kaji device arrays own their memory; "
                                  "view memory another library owns with cuda.as_cuda_array or "
                                  "cuda.from_cuda_array_interface")


def device_array_like(ary, stream=None):
    """An uninitialized device array of `ary`'s shape and dtype, laid out as numpy's
    empty_like lays it out: C or F order for a contiguous `ary`, and for a strided view the
    dense layout whose axes go in the order of the view's strides. `stream` as for
    device_array."""
    flags = getattr(ary, "flags", None)
    if flags is None or flags["C_CONTIGUOUS"] or flags["F_CONTIGUOUS"] or len(ary.shape) <= 1:
        fortran = flags is not None and flags["F_CONTIGUOUS"] and not flags["C_CONTIGUOUS"]
        order = "F" if fortran else "C"
        return device_array(ary.shape, ary.dtype, order, stream=stream)
    return _core.device_array(ary.shape, ary.dtype, on_host=_on_host(),
                              axis_order=empty_like_axis_order(ary),
                              stream=_kaji_stream(stream))


def empty_like_axis_order(ary):
    """The axes of a strided `ary` in the order numpy's empty_like lays them out, fastest-
    varying first: by the size of the stride, the later axis first on a tie."""
    return sorted(range(len(ary.shape)), key=lambda axis: (abs(ary.strides[axis]), -axis))


def is_cuda_array(obj):
    """Whether `obj` exports ``__cuda_array_interface__`` (Numba's cuda.is_cuda_array)."""
    return hasattr(obj, "__cuda_array_interface__")


def as_cuda_array(obj, sync=True):
    """A DeviceArray viewing the memory of `obj`, which exports ``__cuda_array_interface__``
    (a CuPy array, a PyTorch tensor, ...), without copying; it keeps `obj` alive. With `sync`,
    the stream the interface names is synchronized first."""
    if isinstance(obj, DeviceArray):
        return obj
    return _viewed(obj, obj, sync)


def _viewed(exporter, owner, sync):
    """A DeviceArray over the memory `exporter`'s ``__cuda_array_interface__`` describes, on
    the stream it names; `sync` synchronizes that stream through its Python method (Numba's
    behaviour, which its tests observe by patching ``Stream.synchronize``), unless
    ``config.CUDA_ARRAY_INTERFACE_SYNC`` is off."""
    array = _core.as_cuda_array(exporter, owner=owner, sync=False)
    if sync and _core.array_interface_sync() and array.stream:
        array.stream.synchronize()
    return array


class _InterfaceHolder:
    __slots__ = ("__cuda_array_interface__",)

    def __init__(self, desc):
        self.__cuda_array_interface__ = desc


def from_cuda_array_interface(desc, owner=None, sync=True):
    """A DeviceArray over the memory a ``__cuda_array_interface__`` dict `desc` describes,
    keeping `owner` alive as long as the array (Numba's cuda.from_cuda_array_interface)."""
    if not isinstance(desc, dict):
        raise TypeError("from_cuda_array_interface takes a __cuda_array_interface__ dict, not "
                        f"{type(desc).__name__}")
    return _viewed(_InterfaceHolder(desc), owner, sync)
