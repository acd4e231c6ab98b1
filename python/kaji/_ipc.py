"""CUDA IPC, as Numba's: device memory one process shares with others on the same machine.

The exporting process asks for a handle (``array.get_ipc_handle()``, an IpcArrayHandle, or
``cuda.current_context().get_ipc_handle(array.gpu_data)``, an IpcHandle), pickles it to another
process, which opens it (``with handle as array:``, ``handle.open_array(ctx, shape, dtype)``,
``cuda.open_ipc_array(handle_bytes, shape, dtype)``) and then sees the exporter's memory itself,
without a copy, until it closes the handle. The exporter must keep its array alive meanwhile.

Only memory kaji allocates without a stream can be shared (the driver's rule for
``cuIpcGetMemHandle``: an array made with ``stream=...`` comes from the device's memory pool);
the handle covers the whole allocation and records where the array starts in it. A process
cannot open its own handle. On a device that cannot reach the exporter's directly,
``open()`` copies the memory to it instead (``open_staged``), as Numba does."""

import contextlib
import math

from kaji import _core
from kaji._arrays import DeviceArray, DeviceMemory, _InterfaceHolder, _viewed, device_array


class IpcMemHandle:
    """The driver's handle (Numba's ``CUipcMemHandle``): its 64 bytes are ``reserved``."""

    __slots__ = ("reserved",)

    def __init__(self, reserved):
        self.reserved = bytes(reserved)

    def __eq__(self, other):
        return isinstance(other, IpcMemHandle) and other.reserved == self.reserved

    def __hash__(self):
        return hash(self.reserved)

    def __repr__(self):
        return f"<CUDA IPC memory handle {self.reserved[:8].hex()}...>"


class IpcMemory(DeviceMemory):
    """Memory an IpcHandle opened: Numba's MemoryPointer of it. It lives until the handle is
    closed; arrays over it keep this object, not the memory."""

    __slots__ = ("_keep",)

    def __init__(self, device_pointer, size, keep):
        super().__init__(device_pointer, size)
        self._keep = keep

    @property
    def __cuda_array_interface__(self):
        """Its bytes, as an array of uint8 (for ``cuda.driver.device_to_host`` and the like)."""
        return {"shape": (self.size,), "strides": None, "typestr": "|u1",
                "data": (self.device_pointer, False), "version": 3}

    def array(self, shape, dtype, strides=None):
        """A device array of `shape` and `dtype` over this memory, C-contiguous unless
        `strides` (bytes) says otherwise."""
        import numpy as np

        dtype = np.dtype(dtype)
        shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
        if strides is None:
            strides = _contiguous_strides(shape, dtype.itemsize)
        elif isinstance(strides, (int, np.integer)):
            strides = (strides,)
        interface = {"shape": tuple(int(n) for n in shape),
                     "strides": tuple(int(s) for s in strides), "typestr": dtype.str,
                     "descr": dtype.descr, "data": (self.device_pointer, False), "version": 3}
        return _viewed(_InterfaceHolder(interface), self, sync=False)


def _contiguous_strides(shape, itemsize):
    strides, step = [], itemsize
    for extent in reversed(shape):
        strides.append(step)
        step *= extent
    return tuple(reversed(strides))


def _device_by_uuid(uuid):
    for ordinal in range(_core.device_count()):
        if _core.get_device(ordinal).uuid == uuid:
            return ordinal
    raise RuntimeError(f"the IPC handle's memory is on device {uuid}, which this process "
                       "does not see (CUDA_VISIBLE_DEVICES?)")


class IpcHandle:
    """Numba's IpcHandle: the handle of the allocation under `size` bytes of device memory
    at `offset` in it, made on the device `source_info` (its UUID). `base` keeps the
    exporter's memory alive; it is None once pickled. open() maps the memory into this
    process (once: ValueError "IpcHandle is already opened" before close())."""

    def __init__(self, base, handle, size, source_info=None, offset=0):
        self.base = base
        self.handle = handle if isinstance(handle, IpcMemHandle) else IpcMemHandle(handle)
        self.size = size
        self.source_info = source_info
        self.offset = offset
        self._opened = None

    def _claim(self):
        if self._opened is not None:
            raise ValueError("IpcHandle is already opened")

    def can_access_peer(self, context):
        """Whether `context`'s device reaches the source device's memory directly."""
        if self.source_info is None:
            raise RuntimeError("IPC handle doesn't have source info")
        source = _device_by_uuid(self.source_info)
        return source == context.device.id or context.device.can_access_peer(source)

    def open_direct(self, context):
        """Maps the memory into `context`'s device; an IpcMemory over the shared bytes."""
        self._claim()
        mapping = _core.IpcMapping(self.handle.reserved, context.device.id)
        self._opened = mapping
        return IpcMemory(mapping.pointer + self.offset, self.size, mapping)

    def open_staged(self, context):
        """Copies the memory to `context`'s device (through the source device, or the host
        where the devices are no peers); an IpcMemory over the copy."""
        self._claim()
        if self.source_info is None:
            raise RuntimeError("IPC handle doesn't have source info")
        source = _device_by_uuid(self.source_info)
        mapping = _core.IpcMapping(self.handle.reserved, source)
        try:
            shared = IpcMemory(mapping.pointer + self.offset, self.size, mapping)
            with _selected(context.device.id):
                copy = device_array(self.size, "uint8")
                copy.copy_to_device(shared.array(self.size, "uint8"))
                _core.synchronize()
        finally:
            mapping.close()
        self._opened = copy
        return IpcMemory(copy.device_pointer, self.size, copy)

    def open(self, context):
        """The memory in `context`: mapped where its device reaches the source device,
        copied otherwise."""
        if self.source_info is None or self.can_access_peer(context):
            return self.open_direct(context)
        return self.open_staged(context)

    def open_array(self, context, shape, dtype, strides=None):
        """open(), as a device array of `shape` and `dtype` (strides in bytes; by default
        C-contiguous)."""
        return self.open(context).array(shape, dtype, strides)

    def close(self):
        """Unmaps the memory (or frees the copy); arrays over it must not be used after."""
        if self._opened is None:
            raise ValueError("IpcHandle not opened")
        if isinstance(self._opened, _core.IpcMapping):
            self._opened.close()
        self._opened = None

    def __reduce__(self):
        return (IpcHandle, (None, self.handle.reserved, self.size, self.source_info,
                            self.offset))


class IpcArrayHandle:
    """Numba's IpcArrayHandle (``array.get_ipc_handle()``): an IpcHandle and the array's
    shape, strides and dtype, to pickle to another process, where ``with handle as array:``
    opens it as a device array and closes it after the block."""

    def __init__(self, ipc_handle, array_desc):
        self._ipc_handle = ipc_handle
        self._array_desc = array_desc

    def open(self):
        """A device array over the shared memory, on the current device."""
        desc = self._array_desc
        return self._ipc_handle.open_array(_current_context(), desc["shape"], desc["dtype"],
                                           desc["strides"])

    def close(self):
        self._ipc_handle.close()

    def __enter__(self):
        return self.open()

    def __exit__(self, *exception):
        self.close()


class _DeviceContext:
    """A device's primary context as IpcHandle's methods read one (its ``device``), like
    Numba's ``cuda.current_context()``, which they also take."""

    __slots__ = ("device",)

    def __init__(self, ordinal):
        self.device = _core.get_device(ordinal)


def _current_context():
    return _DeviceContext(_core.selected_device())


@contextlib.contextmanager
def _selected(ordinal):
    previous = _core.selected_device()
    _core.select_device(ordinal)
    try:
        yield
    finally:
        _core.select_device(previous)


def context_ipc_handle(context, memory):
    """``Context.get_ipc_handle(memory)``: the IpcHandle of device memory `memory` (a device
    array's ``gpu_data``, or anything with ``device_pointer`` and ``size``)."""
    handle, offset, _ = _core.ipc_export(int(memory.device_pointer), context.device.id)
    return IpcHandle(memory, handle, memory.size, context.device.uuid, offset)


def array_ipc_handle(array):
    """``DeviceArray.get_ipc_handle()``: the IpcArrayHandle of `array`'s memory."""
    if array.device_id is None:
        raise TypeError("a host-backed array (the cpu target) cannot be shared with another "
                        "process through CUDA IPC")
    # Another library's array viewed by kaji has no device kaji knows: the current one's.
    device = array.device_id if array.device_id >= 0 else _core.selected_device()
    handle = context_ipc_handle(_DeviceContext(device), array.gpu_data)
    return IpcArrayHandle(handle, {"shape": array.shape, "strides": array.strides,
                                   "dtype": array.dtype})


@contextlib.contextmanager
def open_ipc_array(handle, shape, dtype, strides=None, offset=0):
    """Numba's ``cuda.open_ipc_array``: the memory of IPC handle `handle` (its 64 bytes, as
    ``ipc_handle.handle.reserved``) at `offset` as a device array of `shape` and `dtype`
    (C-contiguous without `strides`) for the ``with`` block, closed after it."""
    import numpy as np

    dtype = np.dtype(dtype)
    count = math.prod(shape) if isinstance(shape, tuple) else int(shape)
    ipc_handle = IpcHandle(None, bytes(handle), count * dtype.itemsize, offset=offset)
    array = ipc_handle.open_array(_current_context(), shape, dtype, strides)
    try:
        yield array
    finally:
        ipc_handle.close()


DeviceArray.get_ipc_handle = array_ipc_handle
