"""Kernels whose signature takes Numba's C pointers (`types.CPointer(types.uint8)`, printed
`uint8*`), as the documentation's cpointer example: the argument is an address, a Python
int, and the kernel indexes the memory there; checked against numpy on every target."""

import numpy as np
import pytest

import kaji
from kaji import cuda
from kaji.cuda import types
from kaji.cuda.np.numpy_support import carray, farray


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


def fill_grid(p, rows, cols):
    c = carray(p, (rows, cols), dtype=np.float64)
    f = farray(p, (rows, cols))
    i, j = cuda.grid(2)
    if i < rows and j < cols:
        c[i, j] = i * 10 + j
    cuda.syncthreads()
    if i == 0 and j == 0:
        f[rows - 1, 0] += 0.5  # the element at index rows - 1 in memory, as Fortran order puts it


def test_carray_and_farray_view_a_pointer_in_c_and_fortran_order(jit, target):
    kernel = jit("void(float64*, int64, int64)")(fill_grid)
    x = Memory(np.zeros(12), target)
    kernel[1, (3, 4)](x.address, 3, 4)
    expected = np.add.outer(np.arange(3) * 10.0, np.arange(4)).ravel()
    expected[2] += 0.5
    np.testing.assert_array_equal(x.read(), expected)


@pytest.mark.parametrize("body, message", [
    ("a = carray(p, 4, dtype=np.int32)", "mismatching dtype 'int32' for a pointer to float64"),
    ("a = carray(p, (2, -1))", "carray\\(\\) takes a shape of non-negative integers"),
    ("a = farray(p)", "farray\\(\\) takes a pointer and a shape"),
    ("a = carray(p, 2, order='F')", "unexpected or repeated argument 'order'"),
    ("a = carray(n, 2)", "takes a C pointer"),
])
def test_carray_misuse_is_a_compile_error_at_the_call(jit, body, message):
    source = f"def kernel(p, n):\n    {body}\n"
    namespace = {"carray": carray, "farray": farray, "np": np}
    exec(compile(source, "<kernel>", "exec"), namespace)
    with pytest.raises(kaji.CompileError, match=message):
        jit("void(float64*, int64)")(namespace["kernel"])


def test_carray_in_python_views_a_ctypes_pointer():
    import ctypes

    values = np.arange(6, dtype=np.int32)
    pointer = values.ctypes.data_as(ctypes.POINTER(ctypes.c_int32))
    np.testing.assert_array_equal(carray(pointer, (2, 3)), values.reshape(2, 3))
    np.testing.assert_array_equal(farray(pointer, (2, 3)), values.reshape(2, 3, order="F"))
    np.testing.assert_array_equal(carray(values.ctypes.data, 6, dtype=np.int32), values)
    with pytest.raises(TypeError, match="mismatching dtype 'float32' for pointer type 'int32\\*'"):
        carray(pointer, 6, dtype=np.float32)
    with pytest.raises(TypeError, match="needs its dtype"):
        carray(values.ctypes.data, 6)
    with pytest.raises(TypeError, match="takes a ctypes pointer or an address, not list"):
        carray([1, 2], 2, dtype=np.int32)
