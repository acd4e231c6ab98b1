"""Device arrays: creating them and copying host data in. When the default target is cpu
(kaji._target) they are host-backed: the same DeviceArray over host memory, so that code
written for the GPU runs unchanged."""

from kaji import _core
from kaji._core import DeviceArray
from kaji._target import default_target


def _on_host():
    return default_target() == "cpu"


def _kaji_stream(stream):
    # Numba spells the default stream 0.
    return None if stream is None or (isinstance(stream, int) and stream == 0) else stream


def to_device(obj, stream=None, copy=True, to=None):
    """A device copy (host-backed for the cpu target) of `obj` (a numpy array or anything
    numpy.asarray takes), made after the work queued on `stream`; with `to`, copies into that
    device array instead; with ``copy=False``, only allocates. A DeviceArray is returned as it
    is."""
    if isinstance(obj, DeviceArray) and to is None:
        return obj
    import numpy

    host = numpy.asarray(obj)
    stream = _kaji_stream(stream)
    if to is not None:
        to.copy_to_device(host, stream=stream)
        return to
    if not copy:
        return device_array_like(host)
    return _core.to_device(host, stream=stream, on_host=_on_host())


def device_array(shape, dtype="float64", order="C", stream=None):
    """An uninitialized device array. Allocation is synchronous; `stream` is accepted for
    Numba compatibility."""
    return _core.device_array(shape, dtype, order, on_host=_on_host())


def device_array_like(ary, stream=None):
    """An uninitialized device array of `ary`'s shape, dtype and (C or F) order. `stream` is
    accepted for Numba compatibility."""
    flags = getattr(ary, "flags", None)
    fortran = flags is not None and flags["F_CONTIGUOUS"] and not flags["C_CONTIGUOUS"]
    if isinstance(ary, DeviceArray):
        fortran = ary.is_f_contiguous() and not ary.is_c_contiguous()
    return device_array(ary.shape, ary.dtype, "F" if fortran else "C")
