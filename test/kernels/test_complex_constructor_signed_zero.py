"""complex(a, b) of real a and b is exactly (a, b), as CPython builds it: its real part is
a, minus b's imaginary part only when b is complex, and its imaginary part b, plus a's
imaginary part only when a is complex. kaji added a real argument's zero imaginary part
too, so complex(1.5, -0.0) was 1.5+0j, not 1.5-0j (complex differential,
test/differential/complex_expressions.py, seed 1)."""

import math

import numpy as np


def construct(out, x, y, z):
    out[0] = complex(x[0], y[0])
    out[1] = complex(y[0], x[0])
    out[2] = complex(1.5, y[0])
    out[3] = complex(z[0], y[0])
    out[4] = complex(y[0], z[0])


def signs(values):
    return [(math.copysign(1, v.real), math.copysign(1, v.imag)) for v in values]


def test_complex_of_real_parts_keeps_their_signs_of_zero(jit):
    x, y = np.array([-0.0]), np.array([-0.0], dtype=np.float32)
    z = np.array([complex(-0.0, -0.0)])
    out = np.full(5, complex(np.nan, np.nan))
    jit(construct)[1, 1](out, x, y, z)
    a, b, c = float(x[0]), float(y[0]), complex(z[0])
    expected = [complex(a, b), complex(b, a), complex(1.5, b), complex(c, b), complex(b, c)]
    assert signs(out) == signs(expected)
