"""Kernels whose signature takes Numba's C pointers (`types.CPointer(types.uint8)`, printed
`uint8*`), as the documentation's cpointer example: the argument is an address, a Python
int, and the kernel indexes the memory there; checked against numpy on every target."""

import numpy as np
import pytest

import kaji
from kaji import cuda
from kaji.cuda import types


class Memory:
    """`host` where a kernel on `target` can write it, and the address it writes it at: on
    the cpu target the numpy array itself, on cuda a device array."""

    def __init__(self, host, target):
        if target == "cpu":
            self.array = host
            self.address = host.ctypes.data
        else:
            self.array = kaji.to_device(host)
            self.address = self.array.__cuda_array_interface__["data"][0]

    def read(self):
        return self.array if isinstance(self.array, np.ndarray) else self.array.copy_to_host()


def add_one(x, n):
    i = cuda.grid(1)
    if i < n:
        x[i] += 1


@pytest.mark.parametrize("element", [types.uint8, types.int32, types.float64])
def test_the_documentations_cpointer_example(jit, target, element):
    kernel = jit(types.void(types.CPointer(element), types.uint32))(add_one)
    start = np.arange(10, dtype=str(element))
    x = Memory(start.copy(), target)
    kernel[1, 32](x.address, len(start))
    np.testing.assert_array_equal(x.read(), start + 1)


def test_a_pointer_and_an_array_in_one_signature(jit, target):
    @jit("void(float32*, float32[::1], int64)")
    def scale_into(out, x, factor):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = x[i] * factor

    x = np.linspace(0, 1, 40, dtype=np.float32)
    out = Memory(np.zeros(48, dtype=np.float32), target)
    scale_into[2, 32](out.address, x, 3)
    np.testing.assert_array_equal(out.read()[:40], x * 3)
    np.testing.assert_array_equal(out.read()[40:], 0)


def test_the_signature_prints_as_numba_prints_it(jit):
    sig = types.void(types.CPointer(types.uint8), types.uint32)
    assert str(sig) == "(uint8*, uint32) -> none"
    kernel = jit(sig)(add_one)
    assert kernel.signatures == ["void(uint8*, uint32)"]


def test_a_pointer_to_an_array_type_is_an_error(jit):
    with pytest.raises(kaji.CompileError, match="a C pointer points to numbers"):
        jit("void(float32[:]*, uint32)")(add_one)
