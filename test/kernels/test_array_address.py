"""`a.ctypes.data` in kernels: the address of an array's first element as an integer (Numba's
uintp), for argument arrays (the address the launch passed), views (offset by the bytes they
skip), and local and shared arrays (aligned as `alignment=` asks)."""

import numpy as np
import pytest

import kaji
from kaji import cuda


def test_an_argument_array_and_its_views_have_their_addresses(jit, target):
    @jit
    def addresses(values, out):
        out[0] = values.ctypes.data
        out[1] = values[3:].ctypes.data
        out[2] = values[::2].ctypes.data - values.ctypes.data

    values = np.arange(8, dtype=np.float32)
    out = np.zeros(3, dtype=np.uint64)
    if target == "cuda":
        device_values = cuda.to_device(values)
        addresses[1, 1](device_values, out)
        base = device_values.__cuda_array_interface__["data"][0]
    else:
        addresses[1, 1](values, out)
        base = values.ctypes.data
    assert out[0] == base
    assert out[1] == base + 3 * 4
    assert out[2] == 0


@pytest.mark.parametrize("alignment", [16, 64, 256])
def test_local_and_shared_arrays_are_aligned_as_asked(jit, alignment):
    @jit
    def addresses(out):
        local = cuda.local.array(3, np.uint8, alignment=alignment)
        shared = cuda.shared.array(5, np.uint8, alignment=alignment)
        local[0] = 1
        shared[0] = 1
        out[0] = local.ctypes.data
        out[1] = shared.ctypes.data

    out = np.zeros(2, dtype=np.uint64)
    addresses[1, 1](out)
    assert out[0] % alignment == 0 and out[1] % alignment == 0
    assert out[0] != 0 and out[1] != 0


def test_ctypes_has_only_data_in_kernels(jit):
    @jit
    def other(values, out):
        out[0] = values.ctypes.shape

    with pytest.raises(kaji.CompileError, match="ctypes has only .data"):
        other[1, 1](np.zeros(2), np.zeros(1, dtype=np.uint64))
