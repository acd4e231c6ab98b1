"""Numba's ``cuda.In``, ``cuda.Out`` and ``cuda.InOut``: a numpy array passed to a cuda kernel
with the copies it needs. A plain numpy array is copied to the GPU before the launch and back
after it (InOut); ``In(a)`` skips the copy back (the kernel's writes to it are dropped),
``Out(a)`` the copy to the GPU (the kernel sees uninitialized memory). The launch reads them
(python/src/arguments.cpp, which also takes Numba's own from numba.cuda.args).
``hint.to_device(retr, stream)`` makes the same copies by hand, as Numba's argument
extensions call it."""


class _TransferHint:
    __slots__ = ("value",)
    # Whether the kernel reads the array's contents, and whether its writes come back.
    copies_in = True
    copies_out = True

    def __init__(self, value):
        self.value = value

    def __repr__(self):
        return f"{type(self).__name__}({self.value!r})"

    def to_device(self, retr, stream=0):
        """The array on the device for a launch on `stream`: a device array (or one exporting
        ``__cuda_array_interface__``) as it is, a host array copied as the hint says. `retr`
        gets what runs after the launch: the copy back, or a reference keeping the device
        copy alive until then."""
        from kaji import _arrays

        value = self.value
        if _arrays.is_cuda_array(value):
            return _arrays.as_cuda_array(value)
        stream = stream or None
        if self.copies_in:
            device = _arrays.to_device(value, stream=stream)
        else:
            device = _arrays.device_array_like(value, stream=stream)
        if self.copies_out:
            retr.append(lambda: device.copy_to_host(value, stream=stream or 0))
        else:
            retr.append(lambda: device)
        return device


class In(_TransferHint):
    """`value` is only read by the kernel: copied to the GPU, not back."""
    __slots__ = ()
    copies_out = False


class Out(_TransferHint):
    """`value` is only written by the kernel: copied back from the GPU, not to it."""
    __slots__ = ()
    copies_in = False


class InOut(_TransferHint):
    """`value` is copied to the GPU and back, as a plain numpy array is."""
    __slots__ = ()
