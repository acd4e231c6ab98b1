"""Numba's ``numba.cuda.cudadrv.driver``, over kaji's objects: the names Numba's users and
tests take from it.

- ``Stream``, ``Event``: kaji's stream and event classes (``kaji.Stream``, ``kaji.Event``),
  so that ``patch.object(driver.Stream, "synchronize")`` sees the synchronizations kaji makes
  through Python (``cuda.as_cuda_array`` of an array whose interface names a stream).
- ``CudaAPIError``: ``kaji.CudaError``, what a failing driver call raises
  (``CudaAPIError(code, message)`` makes one).
- Memory objects are kaji's device arrays (``Context.memalloc`` gives one of bytes) and the
  arrays the device reaches in place (``Context.memhostalloc(mapped=True)``,
  ``memallocmanaged``: ``kaji.cuda.MappedArray``):
  ``is_device_memory``, ``require_device_memory``, ``device_pointer``,
  ``device_ctypes_pointer``, ``device_memory_size``, and the byte copies
  ``host_to_device``, ``device_to_host``, ``device_to_device``, ``device_memset``.
- ``host_memory_extents``, ``host_memory_size``, ``memory_size_from_info``: the bytes host
  memory (anything with the buffer protocol) or an array layout spans.
- ``_have_nvjitlink()``: whether the nvJitLink kaji links LTO-IR with is found.
- ``IpcHandle``: kaji's (kaji/_ipc.py), which ``Context.get_ipc_handle`` gives.

Numba's ``driver`` object (the raw driver API) and its ``MemoryPointer`` family have no kaji
counterpart (kaji's runtime calls the driver in C++)."""

import ctypes

import numpy

from kaji import _core
from kaji._arrays import as_cuda_array
from kaji._core import CudaError, DeviceArray, Event, Stream
from kaji._ipc import IpcHandle
from kaji._mapped_array import MappedArray, address, byte_span

CudaAPIError = CudaError

__all__ = ["CudaAPIError", "Event", "IpcHandle", "Stream", "device_ctypes_pointer", "device_memory_size",
           "device_memset", "device_pointer", "device_to_device", "device_to_host",
           "host_memory_extents", "host_memory_size", "host_to_device", "is_device_memory",
           "memory_size_from_info", "require_device_memory"]


def _have_nvjitlink():
    """Whether libnvJitLink is found (kaji then links LTO-IR with it)."""
    try:
        _core.nvjitlink_version()
    except RuntimeError:
        return False
    return True


def is_device_memory(obj):
    """Whether `obj` is device memory: a kaji device array, an array the device reaches in
    place (mapped, managed: ``kaji.cuda.MappedArray``), or an object saying so with Numba's
    ``__cuda_memory__``."""
    return (isinstance(obj, (DeviceArray, MappedArray))
            or bool(getattr(obj, "__cuda_memory__", False)))


def require_device_memory(obj):
    """TypeError unless is_device_memory(obj)."""
    if not is_device_memory(obj):
        raise TypeError(f"not device memory (a kaji device array): {type(obj).__name__}")


def device_ctypes_pointer(obj):
    """The address of device memory `obj` as a ctypes.c_size_t (a NULL c_void_p for None),
    as Numba's."""
    if obj is None:
        return ctypes.c_void_p(0)
    require_device_memory(obj)
    return obj.device_ctypes_pointer


def device_pointer(obj):
    """The address of device memory `obj` as an int (None for NULL, as ctypes gives it)."""
    return device_ctypes_pointer(obj).value


def device_memory_size(obj):
    """The bytes device memory `obj` spans."""
    require_device_memory(obj)
    return memory_size_from_info(obj.shape, obj.strides, obj.itemsize)


def memory_size_from_info(shape, strides, itemsize):
    """The bytes an array of `shape`, `strides` and `itemsize` spans (0 without elements)."""
    low, high = byte_span(shape, strides, itemsize)
    return high - low


def host_memory_extents(obj):
    """(start, end): the addresses of the host memory `obj` (a numpy array or anything with
    the buffer protocol) spans, end excluded."""
    if isinstance(obj, numpy.ndarray):
        low, high = byte_span(obj.shape, obj.strides, obj.itemsize)
        return address(obj) + low, address(obj) + high
    raw = numpy.frombuffer(memoryview(obj).cast("B"), dtype=numpy.uint8)
    return raw.ctypes.data, raw.ctypes.data + raw.nbytes


def host_memory_size(obj):
    """The bytes of host memory `obj` spans."""
    start, end = host_memory_extents(obj)
    return end - start


def _host_bytes(obj):
    """The bytes of contiguous host memory `obj`, as a 1-d uint8 numpy view."""
    host = numpy.asarray(obj)
    if not (host.flags["C_CONTIGUOUS"] or host.flags["F_CONTIGUOUS"]):
        raise ValueError("the host memory must be contiguous")
    return host.reshape(-1, order="A").view(numpy.uint8)


def _device_bytes(obj):
    """The bytes of contiguous device memory `obj` (a device array, or an array the device
    reaches through ``__cuda_array_interface__``: mapped, managed), as a 1-d uint8 device
    array."""
    if not isinstance(obj, DeviceArray):
        obj = as_cuda_array(obj)
    return obj.ravel(order="A").view(numpy.uint8)


def host_to_device(dst, src, size, stream=0):
    """Copies the first `size` bytes of host memory `src` to device memory `dst`."""
    _device_bytes(dst)[:size].copy_to_device(_host_bytes(src)[:size], stream=stream)


def device_to_host(dst, src, size, stream=0):
    """Copies the first `size` bytes of device memory `src` to host memory `dst`."""
    _device_bytes(src)[:size].copy_to_host(_host_bytes(dst)[:size], stream=stream)


def device_to_device(dst, src, size, stream=0):
    """Copies the first `size` bytes of device memory `src` to device memory `dst`."""
    _device_bytes(dst)[:size].copy_to_device(_device_bytes(src)[:size], stream=stream)


def device_memset(dst, val, size, stream=0):
    """Sets the first `size` bytes of device memory `dst` to the byte `val`."""
    filled = numpy.full(size, val, dtype=numpy.uint8)
    _device_bytes(dst)[:size].copy_to_device(filled, stream=stream)
