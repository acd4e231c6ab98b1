"""Numba's loads and stores with PTX's cache operators (cuda.ldca, ldcg, ldcs, ldlu, ldcv;
cuda.stcg, stcs, stwb, stwt) against numpy on every target: each moves the element `a[i]`
would, for every element type, on 1-d and 2-d arrays and C pointers; on the GPU its PTX is
the cache operator's instruction."""

import numpy as np
import pytest

import kaji
from kaji import cuda, types

LOADS = {"ldca": "ca", "ldcg": "cg", "ldcs": "cs", "ldlu": "lu", "ldcv": "cv"}
STORES = {"stcg": "cg", "stcs": "cs", "stwb": "wb", "stwt": "wt"}
DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
          np.float16, np.float32, np.float64, np.bool_]


def values(dtype, shape):
    return (np.arange(1, np.prod(shape) + 1) % 7).astype(dtype).reshape(shape)


def element_copy(name):
    """A kernel copying x into r and m into y element by element through cuda.`name`."""
    operator = getattr(cuda, name)
    load = name in LOADS

    def move(out, at, source):
        if load:
            out[at] = operator(source, at)
        else:
            operator(out, at, source[at])

    device_move = kaji.jit(device=True)(move)

    def kernel(r, x, m, y):
        for i in range(len(r)):
            device_move(r, i, x)
        for i in range(m.shape[0]):
            for j in range(m.shape[1]):
                device_move(y, (i, j), m)

    return kernel


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", sorted(LOADS) + sorted(STORES))
def test_each_moves_the_element(jit, name, dtype):
    x, m = values(dtype, (5,)), values(dtype, (3, 4))
    r, y = np.zeros_like(x), np.zeros_like(m)
    jit(element_copy(name))[1, 1](r, x, m, y)
    np.testing.assert_array_equal(r, x)
    np.testing.assert_array_equal(y, m)


def test_a_stored_value_is_converted_and_an_index_counts_from_the_end(jit):
    def kernel(r, x):
        cuda.stwt(r, -1, 2.75)
        cuda.stcs(r, 0, cuda.ldcg(x, -1))

    r, x = np.zeros(3, np.int32), np.array([1, 2, 9], np.int32)
    jit(kernel)[1, 1](r, x)
    np.testing.assert_array_equal(r, [9, 0, 2])


def test_c_pointers_take_them_too(jit, target):
    def kernel(pointer, n):
        for i in range(n):
            cuda.stwb(pointer, i, cuda.ldcs(pointer, i) * 2)

    host = np.arange(6, dtype=np.float32)
    kernel = jit(types.void(types.CPointer(types.float32), types.intp))(kernel)
    if target == "cpu":
        kernel[1, 1](host.ctypes.data, host.size)
        result = host
    else:
        device = kaji.to_device(host)
        kernel[1, 1](device.__cuda_array_interface__["data"][0], host.size)
        result = device.copy_to_host()
    np.testing.assert_array_equal(result, np.arange(6) * 2)


@pytest.mark.parametrize("name", sorted(LOADS) + sorted(STORES))
def test_the_ptx_has_the_cache_operator(name):
    operator = getattr(cuda, name)
    load = name in LOADS

    def kernel(r, x):
        if load:
            r[0] = operator(x, 0)
        else:
            operator(r, 0, x[0])

    for dtype, bits in [(np.float32, 32), (np.int8, 8), (np.float64, 64), (np.float16, 16)]:
        array = types.Array(kaji.from_dtype(np.dtype(dtype)), 1, "C")
        ptx, _ = cuda.compile_ptx(kernel, (array, array))
        access = "ld" if load else "st"
        assert f"{access}.global.{(LOADS if load else STORES)[name]}.b{bits}" in ptx


@pytest.mark.parametrize("call, message", [
    ("cuda.ldcg(s, 0)", "needs an array in global memory"),
    ("cuda.ldcg(x)", "takes an array and an index"),
    ("cuda.stwb(x, 0)", "takes an array, an index and a value"),
    ("cuda.ldcg(1.0, 0)", "needs an array, not"),
    ("cuda.ldcg(x, (0, 0))", "Expected 1 indices, got 2"),
    ("cuda.ldcg(x, 1.0)", "float64 is not a valid index"),
    ("cuda.ldcg(c, 0)", "ldcg requires array of integer or float type"),
])
def test_misuse_is_a_compile_error(jit, call, message):
    source = ("def kernel(x, c):\n"
              "    s = cuda.shared.array(4, kaji.float32)\n"
              f"    x[0] = {call}\n")
    namespace = {"cuda": cuda, "kaji": kaji}
    exec(source, namespace)
    with pytest.raises(kaji.CompileError, match=message):
        jit(namespace["kernel"])[1, 1](np.zeros(2, np.float32), np.zeros(2, np.complex64))


def test_wb_is_no_load_and_ca_no_store():
    assert not hasattr(cuda, "ldwb") and not hasattr(cuda, "stca")
