"""kaji.cuda's MappedArray: a numpy array the GPU reads and writes in place. Its own module
because defining it imports numpy, which ``import kaji`` does not."""

import numpy


def byte_span(shape, strides, itemsize):
    """(lowest, highest + 1) byte offsets of the elements from the first one."""
    if any(extent == 0 for extent in shape):
        return 0, 0
    low = sum(min(0, (extent - 1) * stride) for extent, stride in zip(shape, strides))
    high = sum(max(0, (extent - 1) * stride) for extent, stride in zip(shape, strides))
    return low, high + itemsize


def address(array):
    return array.__array_interface__["data"][0]


class MappedArray(numpy.ndarray):
    """A numpy array in memory the GPU reads and writes in place (Numba's MappedNDArray):
    mapped_array's page-locked memory or managed_array's unified memory. Kernels take it
    without copies, through its ``__cuda_array_interface__``; the host reads it as any numpy
    array once the kernels writing it are done (``kaji.synchronize()``). Views of it are
    mapped too; new arrays computed from it (``a + 1``) are ordinary host memory."""

    # (host address, bytes, device address) of the memory this array lies in, or None.
    _mapping = None
    # The kaji Stream it was made with (Numba's `stream=`), or None.
    _stream = None

    def __array_finalize__(self, obj):
        self._mapping = getattr(obj, "_mapping", None)
        self._stream = getattr(obj, "_stream", None)

    @property
    def __cuda_array_interface__(self):
        device = self._device_address()
        if device is None:
            raise AttributeError("this array's memory is not mapped for the device: it was "
                                 "computed on the host from a mapped array")
        contiguous = self.flags["C_CONTIGUOUS"]
        return {"shape": self.shape, "strides": None if contiguous else self.strides,
                "typestr": self.dtype.str, "data": (device, False), "version": 3,
                "stream": self._stream_handle()}

    def _stream_handle(self):
        # Version 3's 'stream': the CUstream consumers wait for; None for none or stream 0.
        handle = self._stream.handle if self._stream is not None else 0
        return handle or None

    @property
    def device_ctypes_pointer(self):
        """The device address of the first element as a ctypes.c_size_t (Numba's)."""
        import ctypes

        return ctypes.c_size_t(self.__cuda_array_interface__["data"][0])

    def _device_address(self):
        if self._mapping is None:
            return None
        host, size, device = self._mapping
        first = address(self)
        low, high = byte_span(self.shape, self.strides, self.itemsize)
        if not host <= first + low <= first + high <= host + size:
            return None
        return device + (first - host)
