"""Integers past float16's range convert to ±inf, as numpy's astype(float16). The program
differential found `np.float16(2**31 >> b)` widened to float64 giving 2**31 on cpu (LLVM 19's
InstCombine folds fpext(sitofp x to half) by x's known bits, ignoring the exponent range;
codegen/llvm/src/LLVMLowering.cpp clamps first)."""

import numpy as np
import pytest


def shifted_power_of_two(out, flags):
    for i in range(flags.size):
        out[i] = np.float16(2147483648 >> flags[i])


def shifted_left(out, x):
    for i in range(x.size):
        out[i] = np.float16(x[i] << 20)


def widened_half(out, x):
    for i in range(x.size):
        out[i] = np.float16(x[i])


def test_known_power_of_two_overflows_to_inf(jit, target):
    flags = np.array([False, True, True, False])
    out = np.zeros(flags.size, dtype=np.float64)
    jit(shifted_power_of_two)[1, 1](out, flags)
    np.testing.assert_array_equal(out, np.full(flags.size, np.inf))


def test_known_trailing_zeros_overflow_to_inf(jit, target):
    x = np.array([0, 1, -1, 2, -3], dtype=np.int64)
    out = np.zeros(x.size, dtype=np.float64)
    jit(shifted_left)[1, 1](out, x)
    with np.errstate(over="ignore"):
        expected = (x << 20).astype(np.float16).astype(np.float64)
    np.testing.assert_array_equal(out, expected)


EDGES = [0, 1, 2047, 2049, 32767, 65503, 65504, 65505, 65519, 65520, 65521, 65535, 65536,
         2**24 + 1, 2**31 - 1, 2**32 - 1, 2**53 + 1, 2**63 - 1]


@pytest.mark.parametrize("dtype", [np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64])
def test_edge_values_round_as_numpy(jit, target, dtype):
    info = np.iinfo(dtype)
    values = [v for v in EDGES + [-v for v in EDGES] + [info.min, info.max]
              if info.min <= v <= info.max]
    x = np.array(values, dtype=dtype)
    out = np.zeros(x.size, dtype=np.float64)
    jit(widened_half)[1, 1](out, x)
    with np.errstate(over="ignore"):
        expected = x.astype(np.float16).astype(np.float64)
    np.testing.assert_array_equal(out, expected)
