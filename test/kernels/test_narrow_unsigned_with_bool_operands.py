"""Found by the H100 differential run of 2026-11-23 (seeds 303 and 301): a bool operand of `%`
or `//` with a narrow unsigned integer gave the wrong value on cuda, the cpu target was right.
LLVM's PTX computes `1 % x` as `max.u16 x, 1 == 1 ? 0 : 7`, and ptxas folds the 16-bit max and
the equality into one packed VIMNMX.U16x2 whose upper lane decides the predicate. kaji now
emits every 16-bit min/max as a 32-bit one (docs/codegen.md, "16-bit min and max on NVPTX")."""

import numpy as np


def bool_modulo(out, v):
    for i in range(v.size):
        t = True % (254 & v[i])
        t *= 7
        out[i] = t


def test_bool_modulo_of_masked_uint8(jit):
    v = np.array([6, 0, 1, 2, 255], dtype=np.uint8)
    out = np.zeros(v.size, dtype=np.int64)
    jit(bool_modulo)[1, 1](out, v)
    masked = (254 & v.astype(np.int64))
    expected = [7 * (1 % m) if m else 0 for m in masked]
    np.testing.assert_array_equal(out, expected)


def bool_floor_division_in_max(out, a, b, c):
    for i in range(a.size):
        out[i] = c[i] if max(a[i] * (-2) + 1, False // b[i]) else True


def test_bool_floor_division_of_uint16_in_max(jit):
    a = np.array([-2, 0, 3], dtype=np.int8)
    b = np.array([8453, 7, 1], dtype=np.uint16)
    c = np.array([9228165905754065018, 5, 6], dtype=np.uint64)
    out = np.zeros(a.size, dtype=np.uint64)
    jit(bool_floor_division_in_max)[1, 1](out, a, b, c)
    expected = [c[i] if max(int(a[i]) * -2 + 1, 0) else 1 for i in range(a.size)]
    np.testing.assert_array_equal(out, expected)
