"""Numba's CPU dispatchers (`@numba.jit` functions) called from kaji kernels, as Numba-CUDA's
documentation calls them (its cpu_gpu_compat and montecarlo examples): kaji compiles the
dispatcher's Python function as a device function. numba is not needed: a stand-in class from
a `numba.` module with a `py_func`, as Numba's `CPUDispatcher` has, is what kaji recognises."""

import math

import numpy as np
import pytest

import kaji


class CPUDispatcher:
    """What kaji reads of Numba's dispatcher: its module and `py_func`."""

    def __init__(self, py_func):
        self.py_func = py_func

    def __call__(self, *args):
        return self.py_func(*args)


CPUDispatcher.__module__ = "numba.core.registry"


def numba_jit(func):
    return CPUDispatcher(func)


@numba_jit
def business_logic(x, y, z):
    return 4 * z * (2 * x - (4 * y) / 2 * math.pi)


def test_a_numba_jit_function_is_a_device_function():
    @kaji.jit(target="cpu")
    def kernel(res, x, y, z):
        i = kaji.grid(1)
        if i < x.size:
            res[i] = business_logic(x[i], y[i], z[i])

    x, y, z = np.array([1, 10, 234]), np.array([2, 2, 4014]), np.array([3, 14, 2211])
    res = np.zeros(3)
    kernel.forall(3)(res, x, y, z)
    np.testing.assert_array_equal(res, [business_logic(*v) for v in zip(x, y, z)])


def test_a_numba_jit_function_bound_after_the_kernel_is_defined():
    @kaji.jit(target="cpu")
    def kernel(out, x):
        i = kaji.grid(1)
        if i < x.size:
            out[i] = func(x[i])

    @numba_jit
    def func(v):
        return 1.0 / v

    x = np.array([1.0, 2.0, 4.0], dtype=np.float32)
    out = np.zeros_like(x)
    kernel[1, 32](out, x)
    np.testing.assert_array_equal(out, 1.0 / x)


def test_an_object_of_another_module_with_a_py_func_is_not_taken():
    class Wrapper:
        def __init__(self, func):
            self.py_func = func

    wrapped = Wrapper(lambda v: v)

    @kaji.jit(target="cpu")
    def kernel(out):
        out[0] = wrapped(1.0)

    with pytest.raises(kaji.CompileError, match="wrapped"):
        kernel[1, 1](np.zeros(1))
