"""Numba's ``cuda.kernels``: ready-made kernels. ``transpose(a, b=None, stream=0)`` transposes a
2-D array through 32x33 shared-memory tiles (the padding column keeps the tile's column reads
free of bank conflicts), as Numba's does."""

from kaji import _core
from kaji._arrays import _kaji_stream
from kaji._core import DeviceArray
from kaji._generated import generated_kernel
from kaji._target import default_target

_TILE = 32

_TRANSPOSE = f"""\
def transpose_tiles(source, destination):
    tile = kaji.shared.array(({_TILE}, {_TILE + 1}), DTYPE)
    tx = kaji.threadIdx.x
    ty = kaji.threadIdx.y
    column0 = kaji.blockIdx.x * {_TILE}
    row0 = kaji.blockIdx.y * {_TILE}
    if row0 + ty < source.shape[0] and column0 + tx < source.shape[1]:
        tile[ty, tx] = source[row0 + ty, column0 + tx]
    kaji.syncthreads()
    if column0 + ty < destination.shape[0] and row0 + tx < destination.shape[1]:
        destination[column0 + ty, row0 + tx] = tile[tx, ty]
"""

_transpose_kernels = {}


def _transpose_kernel(target, dtype):
    """The tiled transpose for elements of `dtype`, a scalar or structured numpy dtype."""
    key = (target, dtype)
    if key not in _transpose_kernels:
        _transpose_kernels[key] = generated_kernel(
            "transpose_tiles", _TRANSPOSE, {"DTYPE": dtype}, target,
            "kaji.cuda.kernels.transpose")
    return _transpose_kernels[key]


def transpose(a, b=None, stream=0):
    """Numba's ``cuda.kernels.transpose``: the transpose of the 2-D array `a` written into
    `b` (a device array of shape a.shape[::-1] and a's dtype), or into a new device array;
    returns it. A numpy `a` is copied to the device first. The copy, the new array and the
    kernel are queued on `stream` (0, the default stream, as in Numba)."""
    stream = _kaji_stream(stream)
    if isinstance(a, DeviceArray):
        on_host = a.on_host
    else:
        import numpy

        a = numpy.asarray(a)
        on_host = default_target() == "cpu"
        a = _core.to_device(numpy.ascontiguousarray(a), stream=stream, on_host=on_host)
    if a.ndim != 2:
        raise ValueError(f"transpose takes a 2-D array, not {a.ndim}-D")
    rows, columns = a.shape
    if b is None:
        b = _core.device_array((columns, rows), a.dtype, "C", on_host=on_host, stream=stream)
    elif not isinstance(b, DeviceArray) or tuple(b.shape) != (columns, rows) or \
            b.dtype != a.dtype:
        raise ValueError(f"transpose: b must be a device array of shape {(columns, rows)} and "
                         f"dtype {a.dtype}")
    if rows and columns:
        kernel = _transpose_kernel("cpu" if on_host else "cuda", a.dtype)
        blocks = ((columns + _TILE - 1) // _TILE, (rows + _TILE - 1) // _TILE)
        kernel[blocks, (_TILE, _TILE), 0 if stream is None else stream](a, b)
    return b
