"""complex64 and complex128: arrays and scalars as arguments, arithmetic with NumPy 2's
promotion, abs, .real/.imag/.conjugate(), ==/!=, complex(), literals, ** and cmath, against
numpy and Python's cmath.

Tolerances: + -, negation and conjugate are exact; * is within a few ulps (the targets may
fuse a product and a sum into one fma, numpy does not); division follows numpy's Smith
algorithm; those and cmath functions are compared with rtol 1e-12 (complex128, CPython's
formulas in double) and 2e-5 (complex64, computed in float32, where CPython computes in
double)."""

import cmath
import math

import numpy as np
import pytest

import kaji

COMPLEX_TYPES = [np.complex64, np.complex128]
TOLERANCE = {np.complex64: 2e-5, np.complex128: 1e-12}

VALUES = [0j, 1 + 0j, -1 + 0j, 1j, -1j, 0.5 + 0.25j, -2.5 + 3.75j, 3 - 4j, -0.75 - 0.5j,
          1e-3 + 2e3j, 10 - 0.1j]


def pairs(dtype):
    values = np.array(VALUES, dtype=dtype)
    x, y = np.meshgrid(values, values)
    return x.ravel().copy(), y.ravel().copy()


def close(actual, expected, dtype):
    np.testing.assert_allclose(actual, expected, rtol=TOLERANCE[dtype], atol=TOLERANCE[dtype])


def arithmetic(out, x, y):
    i = kaji.grid(1)
    if i < x.size:
        out[0, i] = x[i] + y[i]
        out[1, i] = x[i] - y[i]
        out[2, i] = x[i] * y[i]
        out[3, i] = -x[i]
        out[4, i] = x[i].conjugate()


@pytest.mark.parametrize("dtype", COMPLEX_TYPES)
def test_arithmetic_is_numpys(jit, dtype):
    x, y = pairs(dtype)
    out = np.zeros((5, x.size), dtype=dtype)
    jit(arithmetic)[(x.size + 31) // 32, 32](out, x, y)
    np.testing.assert_array_equal(out[[0, 1, 3, 4]], np.array([x + y, x - y, -x, np.conj(x)]))
    close(out[2], x * y, dtype)


def divide(out, x, y):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = x[i] / y[i]


@pytest.mark.parametrize("dtype", COMPLEX_TYPES)
def test_division_is_numpys(jit, dtype):
    x, y = pairs(dtype)
    nonzero = y != 0
    x, y = x[nonzero].copy(), y[nonzero].copy()
    out = np.zeros_like(x)
    jit(divide)[(x.size + 31) // 32, 32](out, x, y)
    close(out, x / y, dtype)


def test_division_by_zero_gives_inf_and_nan_as_numpy(jit):
    x = np.array([1 + 1j, 0j, -2 + 0j], dtype=np.complex128)
    y = np.zeros(3, dtype=np.complex128)
    out = np.zeros_like(x)
    jit(divide)[1, 3](out, x, y)
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(out, x / y)


def division_without_overflow(out, x, y):
    out[0] = x[0] / y[0]


def test_division_scales_so_large_parts_do_not_overflow(jit):
    # |y|**2 overflows a double; Smith's algorithm never forms it.
    x = np.array([1e300 + 1e300j])
    y = np.array([1e300 + 1e300j])
    out = np.zeros(1, dtype=np.complex128)
    jit(division_without_overflow)[1, 1](out, x, y)
    np.testing.assert_allclose(out, [1 + 0j])


def parts(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[0, i] = x[i].real
        out[1, i] = x[i].imag
        out[2, i] = abs(x[i])


@pytest.mark.parametrize("dtype", COMPLEX_TYPES)
def test_real_imag_abs(jit, dtype):
    x = np.array(VALUES, dtype=dtype)
    part = np.float32 if dtype == np.complex64 else np.float64
    out = np.zeros((3, x.size), dtype=part)
    jit(parts)[1, x.size](out, x)
    np.testing.assert_array_equal(out[:2], [x.real, x.imag])
    close(out[2], np.abs(x), dtype)


def equality(out, x, y):
    i = kaji.grid(1)
    if i < x.size:
        out[0, i] = x[i] == y[i]
        out[1, i] = x[i] != y[i]
        out[2, i] = bool(x[i])


def test_equality_and_truth(jit):
    x, y = pairs(np.complex128)
    x[0] = complex(math.nan, 0)
    out = np.zeros((3, x.size), dtype=np.bool_)
    jit(equality)[(x.size + 31) // 32, 32](out, x, y)
    np.testing.assert_array_equal(out, [x == y, x != y, x != 0])


def promotion(out64, out128, c64, f32, f64, i32):
    out64[0] = c64 * f32
    out64[1] = c64 + 2.0  # a Python float keeps complex64
    out64[2] = f32 * 1j  # a Python complex keeps float32's precision
    out128[0] = c64 * f64
    out128[1] = c64 + i32
    out128[2] = i32 * 1j


def test_promotion_follows_numpy2(jit):
    out64 = np.zeros(3, dtype=np.complex64)
    out128 = np.zeros(3, dtype=np.complex128)
    kernel = jit(promotion)
    c64, f32, f64, i32 = np.complex64(1 + 2j), np.float32(3), np.float64(0.1), np.int32(7)
    kernel[1, 1](out64, out128, c64, f32, f64, i32)
    np.testing.assert_array_equal(out64, [c64 * f32, c64 + 2.0, f32 * np.complex64(1j)])
    np.testing.assert_array_equal(out128, [c64 * f64, c64 + i32, i32 * 1j])


def result_kinds(out, x):
    out[0] = x * 2.0
    out[1] = x / 3


def test_literal_arithmetic_stays_complex64(jit):
    x = np.complex64(0.1 + 0.2j)
    out = np.zeros(2, dtype=np.complex64)
    jit(result_kinds)[1, 1](out, x)
    np.testing.assert_array_equal(out, [x * np.float32(2.0), x / np.complex64(3)])


def construct(out, a, b):
    out[0] = complex(a, b)
    out[1] = complex(a)
    out[2] = a + b * 1j
    out[3] = 2j
    out[4] = complex(1j, 1j)  # (0+1j) + (0+1j)*1j
    out[5] = np.complex64(a)


def test_constructor_and_literals(jit):
    out = np.zeros(6, dtype=np.complex128)
    jit(construct)[1, 1](out, 1.5, -2.25)
    np.testing.assert_array_equal(
        out, [complex(1.5, -2.25), 1.5 + 0j, 1.5 - 2.25j, 2j, complex(1j, 1j), 1.5 + 0j])


def scalar_argument(out, z):
    out[0] = z
    out[1] = z * z


@pytest.mark.parametrize("value", [np.complex64(1.5 - 2j), np.complex128(0.1 + 3.3j), 2 - 0.5j])
def test_complex_scalar_arguments(jit, value):
    dtype = np.complex64 if isinstance(value, np.complex64) else np.complex128
    out = np.zeros(2, dtype=dtype)
    jit(scalar_argument)[1, 1](out, value)
    np.testing.assert_array_equal(out, [value, dtype(value) * dtype(value)])


def test_eager_signature_with_complex(target):
    @kaji.jit("void(complex64[:], complex64, float32)", target=target)
    def scaled(out, z, s):
        i = kaji.grid(1)
        if i < out.size:
            out[i] = z * s + out[i]

    out = np.arange(4).astype(np.complex64)
    scaled[1, 4](out, 1 + 1j, 2.0)
    np.testing.assert_array_equal(out, np.arange(4) + np.complex64(2 + 2j))


def powers(out, z, w):
    out[0] = z ** 2
    out[1] = z ** 3
    out[2] = z ** -2
    out[3] = z ** 0
    out[4] = z ** w
    out[5] = z ** 0.5


@pytest.mark.parametrize("dtype", COMPLEX_TYPES)
def test_powers(jit, dtype):
    z, w = dtype(0.75 - 1.25j), dtype(0.5 + 0.25j)
    out = np.zeros(6, dtype=dtype)
    jit(powers)[1, 1](out, z, w)
    zc, wc = complex(z), complex(w)
    close(out, [zc ** 2, zc ** 3, zc ** -2, 1, zc ** wc, zc ** 0.5], dtype)


def zero_powers(out, z, w):
    out[0] = z ** w
    out[1] = z ** 0j


def test_zero_base_powers_follow_python(jit):
    out = np.zeros(2, dtype=np.complex128)
    jit(zero_powers)[1, 1](out, 0j, 2 + 0j)
    np.testing.assert_array_equal(out, [0j ** (2 + 0j), 1])


CMATH_FUNCTIONS = ["sqrt", "exp", "log", "log10", "sin", "cos", "tan", "asin", "acos", "atan",
                   "sinh", "cosh", "tanh", "asinh", "acosh", "atanh"]
CMATH_ARGUMENTS = [0.5 + 0.25j, -2.5 + 3.75j, 3 - 4j, -0.75 - 0.5j, 0.1 + 0.9j, -1.5 + 0j,
                   2 + 0j, 1e-3 - 2j, -0.3 - 0.0j]


@pytest.mark.parametrize("dtype", COMPLEX_TYPES)
@pytest.mark.parametrize("name", CMATH_FUNCTIONS)
def test_cmath_matches_python(jit, name, dtype, tmp_path, monkeypatch):
    source = tmp_path / f"cmath_{name}.py"
    source.write_text("import cmath\nimport kaji\n\n\n"
                      "def apply(out, x):\n"
                      "    i = kaji.grid(1)\n"
                      "    if i < x.size:\n"
                      f"        out[i] = cmath.{name}(x[i])\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    module = __import__(f"cmath_{name}")
    x = np.array(CMATH_ARGUMENTS, dtype=dtype)
    out = np.zeros_like(x)
    jit(module.apply)[1, x.size](out, x)
    expected = [getattr(cmath, name)(complex(value)) for value in x]
    close(out, expected, dtype)


def predicates(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[0, i] = cmath.isnan(x[i])
        out[1, i] = cmath.isinf(x[i])
        out[2, i] = cmath.isfinite(x[i])


def test_cmath_predicates(jit):
    x = np.array([1 + 1j, complex(math.nan, 1), complex(1, math.inf), complex(-math.inf, math.nan)])
    out = np.zeros((3, x.size), dtype=np.bool_)
    jit(predicates)[1, x.size](out, x)
    expected = [[f(complex(v)) for v in x] for f in (cmath.isnan, cmath.isinf, cmath.isfinite)]
    np.testing.assert_array_equal(out, expected)


def polar_rect(out, phases, z, r, phi):
    out[0] = cmath.rect(r, phi)
    modulus, angle = cmath.polar(z)
    phases[0] = modulus
    phases[1] = angle
    phases[2] = cmath.phase(z)
    out[1] = cmath.sqrt(-4.0)
    out[2] = cmath.log(z, 10.0)


def test_polar_rect_phase_and_real_arguments(jit):
    out = np.zeros(3, dtype=np.complex128)
    phases = np.zeros(3)
    z = -1.5 + 2j
    jit(polar_rect)[1, 1](out, phases, z, 2.0, 0.75)
    close(out, [cmath.rect(2.0, 0.75), 2j, cmath.log(z, 10.0)], np.complex128)
    close(phases, [*cmath.polar(z), cmath.phase(z)], np.complex128)


def numpy_functions(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[0, i] = np.sqrt(x[i])
        out[1, i] = np.exp(x[i])
        out[2, i] = np.abs(x[i])
        out[3, i] = np.conj(x[i]) + np.conjugate(x[i])
        out[4, i] = np.real(x[i]) + np.imag(x[i]) * 1j


def test_numpy_functions_on_complex(jit):
    x = np.array(CMATH_ARGUMENTS)
    out = np.zeros((5, x.size), dtype=np.complex128)
    jit(numpy_functions)[1, x.size](out, x)
    close(out, [np.sqrt(x), np.exp(x), np.abs(x), 2 * np.conj(x), x], np.complex128)


def two_dimensional(out, x):
    i, j = kaji.grid(2)
    if i < x.shape[0] and j < x.shape[1]:
        out[i, j] = x[i, j] * x[j, i].conjugate()


def test_strided_two_dimensional_arrays(jit):
    rng = np.random.default_rng(1)
    x = (rng.standard_normal((8, 8)) + 1j * rng.standard_normal((8, 8))).astype(np.complex64)
    x = np.asfortranarray(x)
    out = np.zeros((8, 8), dtype=np.complex64)
    jit(two_dimensional)[(1, 1), (8, 8)](out, x)
    close(out, x * np.conj(x.T), np.complex64)


def atomic_parts(parts, values):
    i = kaji.grid(1)
    if i < values.size:
        kaji.atomic.add(parts, 0, values[i].real)
        kaji.atomic.add(parts, 1, values[i].imag)


@pytest.mark.parametrize("dtype", COMPLEX_TYPES)
def test_atomics_on_parts_through_a_float_view(jit, dtype):
    part = np.float32 if dtype == np.complex64 else np.float64
    total = np.zeros(1, dtype=dtype)
    values = (np.arange(64) + 0.5j * np.arange(64)).astype(dtype)
    view = total.view(part)  # the real and imaginary parts, as floats
    jit(atomic_parts)[2, 32](view, values)
    np.testing.assert_array_equal(total, [values.sum()])


def local_values(out, x):
    i = kaji.grid(1)
    if i < x.size:
        acc = 0j
        for k in range(3):
            acc = acc * x[i] + (k + 1)
        out[i] = acc if x[i].real > 0 else -acc


def test_loop_carried_and_merged_complex_values(jit):
    x = np.array(VALUES)
    out = np.zeros_like(x)
    jit(local_values)[1, x.size](out, x)
    expected = (x * x + 2 * x + 3) * np.where(x.real > 0, 1, -1)
    close(out, expected, np.complex128)


@kaji.jit(device=True)
def rotate(z, turns):
    return z * 1j ** turns


def calls_device(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = rotate(x[i], 3)


def test_device_function_takes_and_returns_complex(jit):
    x = np.array(VALUES, dtype=np.complex64)
    out = np.zeros_like(x)
    jit(calls_device)[1, x.size](out, x)
    close(out, x * np.complex64(-1j), np.complex64)


def test_typeof_complex(target):
    assert str(kaji.typeof(1j, target)) == "complex128"
    assert str(kaji.typeof(np.complex64(1), target)) == "complex64"
    assert str(kaji.typeof(np.zeros(3, np.complex64), target)) == "array(complex64, 1d, C)"
    assert kaji.types.complex128 == kaji.typeof(np.zeros(1, np.complex128)[0], target)
