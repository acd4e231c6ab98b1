"""Numba's ``cuda.In``, ``cuda.Out`` and ``cuda.InOut``: a numpy array passed to a cuda kernel
with the copies it needs. A plain numpy array is copied to the GPU before the launch and back
after it (InOut); ``In(a)`` skips the copy back (the kernel's writes to it are dropped),
``Out(a)`` the copy to the GPU (the kernel sees uninitialized memory). The launch reads them
(python/src/arguments.cpp, which also takes Numba's own from numba.cuda.args)."""


class _TransferHint:
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __repr__(self):
        return f"{type(self).__name__}({self.value!r})"


class In(_TransferHint):
    """`value` is only read by the kernel: copied to the GPU, not back."""


class Out(_TransferHint):
    """`value` is only written by the kernel: copied back from the GPU, not to it."""


class InOut(_TransferHint):
    """`value` is copied to the GPU and back, as a plain numpy array is."""
