"""Kernels name the members of the user's modules (`import helpers; helpers.clamp(x)`), as
Numba's do: device functions, constants, tuples and arrays, and modules reached through them,
each as if the kernel named it directly; other members are errors naming them."""

import types

import numpy as np
import pytest

import kaji
import module_globals_helpers as helpers
from kaji import cuda


def through_the_module(out, x):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = helpers.clamp(x[i] * helpers.SCALE) + helpers.TABLE[i % 3] \
            + helpers.maths.sqrt(4.0) + helpers.LIMITS[1]


def test_members_of_a_module_work_as_globals(jit):
    x = np.linspace(-1, 1, 16)
    out = np.zeros_like(x)
    jit(through_the_module)[1, 16](out, x)
    expected = np.clip(x * 2.5, 0, 1) + np.array([1.0, 10.0, 100.0])[np.arange(16) % 3] + 3
    np.testing.assert_allclose(out, expected)


made_at_run_time = types.ModuleType("made_at_run_time")
made_at_run_time.add = cuda.jit(device=True)(lambda a, b: a + b)
made_at_run_time.OFFSET = 7


def through_a_module_made_at_run_time(out):
    out[0] = made_at_run_time.add(out[0], made_at_run_time.OFFSET)


def test_a_module_made_at_run_time(jit):
    out = np.ones(1, dtype=np.int64)
    jit(through_a_module_made_at_run_time)[1, 1](out)
    assert out[0] == 8


def names_a_missing_member(out):
    out[0] = helpers.missing


def names_a_plain_function(out):
    out[0] = helpers.plain(1.0)


def names_the_module_through_itself(out):
    out[0] = helpers.itself.SCALE



@pytest.mark.parametrize("kernel, message", [
    (names_the_module_through_itself, "Untyped global name 'module_globals_helpers.itself': it "
                                      "is the module 'module_globals_helpers' again"),
    (names_a_missing_member, "module 'module_globals_helpers' has no attribute 'missing'"),
    (names_a_plain_function, "Untyped global name 'module_globals_helpers.plain': the Python "
                             "function 'plain' is not compiled for kernels"),
])
def test_what_a_module_lacks_is_a_compile_error(jit, kernel, message):
    with pytest.raises(kaji.CompileError, match=message):
        jit(kernel)[1, 1](np.zeros(1))
