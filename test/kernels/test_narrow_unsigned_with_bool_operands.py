"""Found by the H100 differential run of 2026-11-23 (seeds 303 and 301), not fixed yet: a bool
operand of `%` or `//` with a narrow unsigned integer gives the wrong value on cuda, and the
cpu target is right. For the first kernel, LLVM's PTX computes `1 % x` as
`max.u16 x, 1 == 1 ? 0 : 7`, which reads as correct; the fault is not located yet (ptxas has
mishandled 16-bit operations before: docs/codegen.md, "16-bit negation on NVPTX"). Strict
xfails on cuda: a fix shows up as an unexpected pass there."""

import os

import numpy as np
import pytest


@pytest.fixture
def cuda_fault(request, target):
    # Seen with the LLVM backend; the nvrtc backend (KAJI_BACKEND=nvrtc under cuda-nvrtc) was
    # not run on these kernels, so a pass there is no surprise.
    if target == "cuda":
        nvrtc = os.environ.get("KAJI_BACKEND") == "nvrtc"
        request.applymarker(pytest.mark.xfail(
            strict=not nvrtc, reason="H100 differential finding, open (docs/testing.md)"))


def bool_modulo(out, v):
    for i in range(v.size):
        t = True % (254 & v[i])
        t *= 7
        out[i] = t


def test_bool_modulo_of_masked_uint8(jit, cuda_fault):
    v = np.array([6, 0, 1, 2, 255], dtype=np.uint8)
    out = np.zeros(v.size, dtype=np.int64)
    jit(bool_modulo)[1, 1](out, v)
    masked = (254 & v.astype(np.int64))
    expected = [7 * (1 % m) if m else 0 for m in masked]
    np.testing.assert_array_equal(out, expected)


def bool_floor_division_in_max(out, a, b, c):
    for i in range(a.size):
        out[i] = c[i] if max(a[i] * (-2) + 1, False // b[i]) else True


def test_bool_floor_division_of_uint16_in_max(jit, cuda_fault):
    a = np.array([-2, 0, 3], dtype=np.int8)
    b = np.array([8453, 7, 1], dtype=np.uint16)
    c = np.array([9228165905754065018, 5, 6], dtype=np.uint64)
    out = np.zeros(a.size, dtype=np.uint64)
    jit(bool_floor_division_in_max)[1, 1](out, a, b, c)
    expected = [c[i] if max(int(a[i]) * -2 + 1, 0) else 1 for i in range(a.size)]
    np.testing.assert_array_equal(out, expected)
