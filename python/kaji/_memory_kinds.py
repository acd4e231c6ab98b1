"""Numba's memory kinds: page-locked (pinned) host arrays, whose copies to and from the
device run asynchronously on a stream; mapped arrays, host memory that kernels read and write
in place; managed (unified) arrays, one address for host and device; and ``pinned()`` /
``mapped()``, which page-lock existing numpy arrays for a ``with`` block.

When the default target is cpu (no GPU) there is only host memory: every function returns an
ordinary numpy array (which kernels of the cpu target read in place; a managed one's memory
counts against the memory limit, as managed memory does on a GPU), and ``pinned()`` /
``mapped()`` change nothing, as in Numba's simulator."""

import contextlib

from kaji import _core
from kaji._arrays import empty_like_axis_order, from_cuda_array_interface
from kaji._target import default_target

__all__ = ["managed_array", "mapped", "mapped_array", "mapped_array_like", "pinned",
           "pinned_array", "pinned_array_like"]


def _on_host():
    return default_target() == "cpu"


def _layout(shape, dtype, strides, order):
    """(shape tuple, dtype, bytes the elements need) for numpy.ndarray's arguments."""
    import numpy

    shape = (shape,) if isinstance(shape, (int, numpy.integer)) else tuple(shape)
    dtype = numpy.dtype(dtype)
    if order not in ("C", "F"):
        raise ValueError(f"order must be 'C' or 'F', not {order!r}")
    if any(not isinstance(extent, (int, numpy.integer)) or extent < 0 for extent in shape):
        raise ValueError(f"a shape is a tuple of non-negative ints, not {shape!r}")
    if strides is None:
        return shape, dtype, int(numpy.prod(shape, dtype=numpy.int64)) * dtype.itemsize
    from kaji._mapped_array import byte_span

    low, high = byte_span(shape, tuple(strides), dtype.itemsize)
    if low < 0:
        raise ValueError(f"strides {tuple(strides)!r} are negative: new memory is laid out with "
                         "non-negative strides")
    return shape, dtype, high


def _array(memory, shape, dtype, strides, order, device_address=None, stream=0):
    """A numpy array over `memory` (new pageable memory when None): a MappedArray when the
    device sees `memory` at `device_address`, whose ``__cuda_array_interface__`` names
    `stream` (a kaji Stream; 0 or None: none)."""
    import numpy

    if device_address is None:
        return numpy.ndarray(shape, dtype, buffer=memory, strides=strides, order=order)
    from kaji._mapped_array import MappedArray, address

    array = MappedArray(shape, dtype, buffer=memory, strides=strides, order=order)
    array._mapping = (address(memory), memory.nbytes, device_address)
    array._stream = _array_stream(stream)
    return array


def _array_stream(stream):
    """Numba's `stream=` of a mapped or managed array: the stream its consumers wait for, as
    Numba's arrays name theirs in ``__cuda_array_interface__``."""
    if stream is None or (isinstance(stream, int) and stream == 0):
        return None
    if not isinstance(stream, _core.Stream):
        raise TypeError(f"stream must be a kaji Stream, 0 or None, not {type(stream).__name__}")
    return stream


def pinned_array(shape, dtype="float64", strides=None, order="C"):
    """An uninitialized numpy array in page-locked host memory: ``copy_to_device`` and
    ``copy_to_host`` with a stream leave its copies queued on the stream (synchronize before
    reading or reusing it), and copies run at the bus's full speed."""
    shape, dtype, nbytes = _layout(shape, dtype, strides, order)
    if _on_host():
        return _array(None, shape, dtype, strides, order)
    memory, _ = _core.pinned_host_memory(nbytes)
    return _array(memory, shape, dtype, strides, order)


def _layout_like(ary):
    """(order, strides) of a dense array laid out as numpy's empty_like lays out `ary`: C or F
    for a contiguous one, the order of its strides for a strided view (Numba's *_like)."""
    flags = ary.flags
    if flags["C_CONTIGUOUS"] or flags["F_CONTIGUOUS"] or ary.ndim <= 1:
        return ("F" if flags["F_CONTIGUOUS"] and not flags["C_CONTIGUOUS"] else "C"), None
    strides = [0] * ary.ndim
    stride = ary.dtype.itemsize
    for axis in empty_like_axis_order(ary):
        strides[axis] = stride
        stride *= ary.shape[axis]
    return "C", tuple(strides)


def pinned_array_like(ary):
    """pinned_array with `ary`'s shape and dtype, laid out as numpy's empty_like would."""
    order, strides = _layout_like(ary)
    return pinned_array(ary.shape, ary.dtype, strides=strides, order=order)


def mapped_array(shape, dtype="float64", strides=None, order="C", stream=0, portable=False,
                 wc=False):
    """An uninitialized MappedArray in page-locked host memory mapped into the device's
    address space: kernels read and write it over the bus, without copies. `portable` maps it
    for every device's context; `wc` (write-combined) makes the host's writes and the
    device's reads faster and the host's reads very slow. The allocation is synchronous;
    `stream` is the stream the array's ``__cuda_array_interface__`` names, as in Numba."""
    shape, dtype, nbytes = _layout(shape, dtype, strides, order)
    if _on_host():
        return _array(None, shape, dtype, strides, order)
    memory, device = _core.pinned_host_memory(nbytes, portable=portable, mapped=True,
                                              write_combined=wc)
    return _array(memory, shape, dtype, strides, order, device_address=device, stream=stream)


def mapped_array_like(ary, stream=0, portable=False, wc=False):
    """mapped_array with `ary`'s shape and dtype, laid out as numpy's empty_like would."""
    order, strides = _layout_like(ary)
    return mapped_array(ary.shape, ary.dtype, strides=strides, order=order, stream=stream,
                        portable=portable, wc=wc)


def managed_array(shape, dtype="float64", strides=None, order="C", stream=0,
                  attach_global=True):
    """An uninitialized MappedArray in managed (unified) memory, migrated between host and
    device on demand. kaji never asks for more than the device has free (MemoryError naming
    the size and the free memory), and counts it against the memory limit. With
    ``attach_global=False`` it starts attached to the host. `stream` is the stream the array's
    ``__cuda_array_interface__`` names, as in Numba."""
    shape, dtype, nbytes = _layout(shape, dtype, strides, order)
    if _on_host():
        # Host memory standing in for managed memory: counted against the limit as it is.
        return _array(_core.limited_host_memory(nbytes), shape, dtype, strides, order)
    memory = _core.managed_memory(nbytes, attach_global=attach_global)
    return _array(memory, shape, dtype, strides, order,
                  device_address=memory.__array_interface__["data"][0], stream=stream)


def _numpy_arrays(arrays, what):
    import numpy

    for array in arrays:
        if not isinstance(array, numpy.ndarray):
            raise TypeError(f"{what} takes numpy arrays, not {type(array).__name__}")
    return arrays


@contextlib.contextmanager
def pinned(*arrays):
    """Page-locks the numpy `arrays` for the ``with`` block, so that their copies run
    asynchronously on a stream; memory already page-locked is left as it is."""
    _numpy_arrays(arrays, "pinned()")
    with contextlib.ExitStack() as unlock:
        if not _on_host():
            for array in arrays:
                unlock.callback(_core.PageLock(array).release)
        yield


@contextlib.contextmanager
def mapped(*arrays, stream=0, portable=False):
    """Page-locks and maps the numpy `arrays` for the ``with`` block and gives device arrays
    over the same memory (one, or a list for several), which kernels read and write in place;
    they are invalid after the block. `portable` (kaji's) maps them for every device's
    context. Without a GPU it gives the numpy arrays themselves."""
    _numpy_arrays(arrays, "mapped()")
    with contextlib.ExitStack() as unlock:
        if _on_host():
            views = list(arrays)
        else:
            views = []
            for array in arrays:
                lock = _core.PageLock(array, portable=portable, mapped=True)
                unlock.callback(lock.release)
                desc = {"shape": array.shape, "strides": array.strides,
                        "typestr": array.dtype.str, "data": (lock.device_pointer, False),
                        "version": 3}
                views.append(from_cuda_array_interface(desc, owner=array, sync=False))
        yield views[0] if len(views) == 1 else views
