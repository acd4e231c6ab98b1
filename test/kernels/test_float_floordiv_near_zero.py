"""Float // and % of operands near zero (subnormal and tiny normal dividends, tiny to infinite
divisors), against numpy: the H100 differential run found float64 `//` giving -0.0 on cuda
where cpu and numpy give -1.0 (docs/testing.md, "### cuda"). Every pair is checked, the sign
of a zero included."""

import itertools

import numpy as np
import pytest

import kaji


def floor_div_mod(quotient, remainder, x, y):
    i = kaji.grid(1)
    if i < x.size:
        quotient[i] = x[i] // y[i]
        remainder[i] = x[i] % y[i]


def magnitudes(dtype):
    info = np.finfo(dtype)
    tiny, smallest = float(info.smallest_normal), float(info.smallest_subnormal)
    return [smallest, 3 * smallest, tiny / 3, tiny, 2 * tiny, 1e-30, 1e-3, 1.0, 3.0, 1e30,
            float(info.max), np.inf]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_floor_division_near_zero_follows_numpy(jit, dtype):
    values = magnitudes(dtype)
    signed = values + [-v for v in values]
    pairs = [(a, b) for a, b in itertools.product(signed, signed)
             if np.isfinite(a) and abs(a) <= 1.0]
    x = np.array([a for a, _ in pairs], dtype=dtype)
    y = np.array([b for _, b in pairs], dtype=dtype)
    quotient = np.zeros_like(x)
    remainder = np.zeros_like(x)
    jit(floor_div_mod)[(x.size + 127) // 128, 128](quotient, remainder, x, y)
    with np.errstate(all="ignore"):
        expected_quotient = np.floor_divide(x, y)
        expected_remainder = np.mod(x, y)
    for got, want in ((quotient, expected_quotient), (remainder, expected_remainder)):
        bad = ~((got == want) & (np.signbit(got) == np.signbit(want)) |
                (np.isnan(got) & np.isnan(want)))
        assert not bad.any(), [(x[i], y[i], got[i], want[i]) for i in np.flatnonzero(bad)][:10]
