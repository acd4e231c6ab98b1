"""8-bit floats (float8_e4m3fn, float8_e5m2, float8_e8m0fnu) against a numpy model of CUDA's
conversions: to e4m3 and e5m2 to nearest even, saturating at the largest finite value (rounded
once on the format's grid in float64; ml_dtypes gives the bits); to e8m0 the
magnitude rounded up to a power of two within 2^-127 .. 2^127; NaN stays NaN. Back to other
types every value is exact in float32 (ml_dtypes decodes all 256 codes). kaji.fp8's cvt
functions, Numba's numba.cuda._internal.cuda_fp8, and the error for computing with one."""

import re

import numpy as np
import pytest

import kaji
from kaji import float8_e4m3fn, float8_e5m2, float8_e8m0fnu, float32, int64
from kaji.cuda._internal.cuda_fp8 import (cvt_bfloat16raw_to_e8m0, cvt_bfloat16raw_to_fp8,
                                          cvt_double_to_e8m0, cvt_double_to_fp8,
                                          cvt_e8m0_to_bf16raw, cvt_float_to_e8m0,
                                          cvt_float_to_fp8, fp8_interpretation_t, saturation_t)

ml_dtypes = pytest.importorskip("ml_dtypes")

FORMATS = {"e4m3": ml_dtypes.float8_e4m3fn, "e5m2": ml_dtypes.float8_e5m2,
           "e8m0": ml_dtypes.float8_e8m0fnu}
LARGEST = {"e4m3": 448.0, "e5m2": 57344.0}
NOSAT, SATFINITE = 0, 1
E4M3, E5M2 = 0, 1
ROUND_ZERO, ROUND_UP = 1, 2  # cudaRoundMode's cudaRoundZero and cudaRoundPosInf


def e8m0_model(x, round_up=True, saturate=True):
    """CUDA's e8m0 bits of float64 `x`: the power of two at or above |x| (at or below without
    `round_up`), 2^-127 .. 2^127, beyond that 2^127 (`saturate`) or NaN. A finite magnitude
    beyond float32's range reads as float32's largest, as CUDA's conversion from double has it
    (so rounding it down gives 2^127)."""
    x = np.abs(np.asarray(x, dtype=np.float64))
    x = np.where(np.isfinite(x), np.minimum(x, np.finfo(np.float32).max), x)
    mantissa, exponent = np.frexp(x)  # x = mantissa * 2**exponent, mantissa in [0.5, 1)
    power = np.where(mantissa == 0.5, exponent - 1, exponent - (0 if round_up else 1))
    code = np.where(x == 0, 0, power + 127)
    code = np.where(code > 254, 254 if saturate else 255, np.maximum(code, 0))
    code = np.where(np.isinf(x), 254 if saturate else 255, code)
    return np.where(np.isnan(x), 255, code).astype(np.uint8)


FRACTION_BITS = {"e4m3": 3, "e5m2": 2}
SMALLEST_NORMAL = {"e4m3": 2.0 ** -6, "e5m2": 2.0 ** -14}


def nearest_on_grid(x, name):
    """float64 `x` rounded once to nearest even on `name`'s grid of values (unbounded above):
    exact, where ml_dtypes would round through float32 first."""
    magnitude = np.abs(x)
    _, exponent = np.frexp(np.maximum(np.nan_to_num(magnitude), SMALLEST_NORMAL[name]))
    unit = np.ldexp(1.0, exponent - 1 - FRACTION_BITS[name])
    with np.errstate(invalid="ignore"):
        return np.copysign(np.round(magnitude / unit) * unit, x)


def e8m0_of_integer(value):
    """e8m0's bits of the integer `value`: its magnitude rounded up to a power of two."""
    magnitude = abs(value)
    if magnitude == 0:
        return 0
    power = magnitude.bit_length() - 1
    return min(127 + power + (magnitude != 1 << power), 254)


def small_float_model(x, name, saturate=True):
    """CUDA's e4m3 or e5m2 bits of float64 `x`: to nearest even, beyond the largest finite value
    that value (`saturate`) or infinity (e5m2) / NaN (e4m3). Past the largest value and half a
    unit a magnitude overflows; e4m3's tie there (464) goes to 448, e5m2's (61440) beyond."""
    x = np.asarray(x, dtype=np.float64)
    largest = LARGEST[name]
    bits = np.clip(nearest_on_grid(x, name), -largest, largest).astype(FORMATS[name])
    bits = bits.view(np.uint8)
    if not saturate:
        magnitude = np.abs(x)
        overflow = magnitude > 464 if name == "e4m3" else magnitude >= 61440
        beyond = 0x7F if name == "e4m3" else 0x7C
        bits = np.where(overflow, beyond | (np.signbit(x).astype(np.uint8) << 7), bits)
    return np.where(np.isnan(x), 0x7F, bits).astype(np.uint8)


def sources():
    """float64 values around every format's edges: ties, the largest values, subnormals."""
    rng = np.random.default_rng(8)
    edges = [0.0, -0.0, 1.0, -3.0, 1.5, 2.5, 0.3, 448.0, 449.0, 464.0, 464.0001, 465.0, 480.0,
             57344.0, 61439.9, 61440.0, 61441.0, 65504.0, 1e20, -1e20, 2.0 ** -6, 2.0 ** -9,
             2.0 ** -10, 2.0 ** -10 * (1 + 2 ** -40), 3 * 2.0 ** -11, 2.0 ** -14, 2.0 ** -16,
             2.0 ** -17, 2.0 ** -17 * (1 + 2 ** -40), 2.0 ** -127, 2.0 ** -127 * (1 + 2 ** -30),
             2.0 ** 127, 2.0 ** 127 * (1 + 2 ** -30), 1e-300, 1e300, np.inf, -np.inf, np.nan]
    return np.concatenate([edges, -np.array(edges[:-1]), rng.uniform(-600, 600, 300),
                           rng.uniform(-1, 1, 200) * 2.0 ** -8,
                           2.0 ** rng.uniform(-130, 130, 200)])


def to_float8(out4, out5, out0, x):
    for i in range(x.size):
        out4[i] = float8_e4m3fn(x[i])
        out5[i] = float8_e5m2(x[i])
        out0[i] = float8_e8m0fnu(x[i])


def assert_bits(got, want, message):
    np.testing.assert_array_equal(np.asarray(got).view(np.uint8), want, err_msg=message)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16])
def test_floats_convert_to_each_format_as_cuda_converts(jit, dtype):
    with np.errstate(over="ignore"):  # float16 and float32 take the large ones as inf
        x = sources().astype(dtype)
    outs = [np.zeros(x.size, FORMATS[name]) for name in ("e4m3", "e5m2", "e8m0")]
    jit(to_float8)[1, 1](*outs, x)
    wide = x.astype(np.float64)
    assert_bits(outs[0], small_float_model(wide, "e4m3"), "e4m3")
    assert_bits(outs[1], small_float_model(wide, "e5m2"), "e5m2")
    assert_bits(outs[2], e8m0_model(wide), "e8m0")


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.int32, np.uint32, np.int64,
                                   np.uint64])
def test_integers_convert_by_value(jit, dtype):
    info = np.iinfo(dtype)
    values = [0, 1, 2, 3, 7, 17, 100, 447, 449, 465, 1000, 57000, 61440, 70000, 2 ** 31 - 1,
              2 ** 40 + 2 ** 30, 2 ** 53 + 1, info.max, info.min, -1, -17, -465]
    x = np.array([v for v in values if info.min <= v <= info.max], dtype=dtype)
    outs = [np.zeros(x.size, FORMATS[name]) for name in ("e4m3", "e5m2", "e8m0")]
    jit(to_float8)[1, 1](*outs, x)
    # Every integer beyond 2**53 saturates e4m3 and e5m2, so float64 holds what matters there;
    # e8m0 rounds the exact value up (CUDA's rounds a 64-bit integer to double first).
    near = [float(v) for v in x.tolist()]
    assert_bits(outs[0], small_float_model(near, "e4m3"), "e4m3")
    assert_bits(outs[1], small_float_model(near, "e5m2"), "e5m2")
    assert_bits(outs[2], [e8m0_of_integer(v) for v in x.tolist()], "e8m0")


def from_float8(f32, f64, f16, i64, u8, x):
    for i in range(x.size):
        f32[i] = float32(x[i])
        f64[i] = x[i]
        f16[i] = x[i]
        i64[i] = int64(x[i])
        u8[i] = bool(float32(x[i]) != 0)


@pytest.mark.parametrize("name", FORMATS)
def test_every_code_converts_back_exactly(jit, name):
    codes = np.arange(256, dtype=np.uint8).view(FORMATS[name])
    want = codes.astype(np.float32)
    in_int64 = np.abs(want) < 2.0 ** 63  # beyond, kaji's conversion saturates (NaN gives 0)
    outs = [np.zeros(256, t) for t in (np.float32, np.float64, np.float16, np.int64, np.uint8)]
    jit(from_float8)[1, 1](*outs, codes)
    np.testing.assert_array_equal(outs[0], want)
    np.testing.assert_array_equal(outs[1], want.astype(np.float64))
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(outs[2], want.astype(np.float16))
    np.testing.assert_array_equal(outs[3][in_int64], np.trunc(want[in_int64]).astype(np.int64))
    np.testing.assert_array_equal(outs[4], (want != 0).astype(np.uint8))


def between_formats(out5, out0, x):
    for i in range(x.size):
        out5[i] = float8_e5m2(x[i])
        out0[i] = float8_e8m0fnu(x[i])


def test_one_format_converts_to_another_by_value(jit):
    codes = np.arange(256, dtype=np.uint8).view(ml_dtypes.float8_e4m3fn)
    out5 = np.zeros(256, ml_dtypes.float8_e5m2)
    out0 = np.zeros(256, ml_dtypes.float8_e8m0fnu)
    jit(between_formats)[1, 1](out5, out0, codes)
    values = codes.astype(np.float64)
    assert_bits(out5, small_float_model(values, "e5m2"), "e4m3 -> e5m2")
    assert_bits(out0, e8m0_model(values), "e4m3 -> e8m0")


def cvt_functions(fp8, e8m0, x, d):
    for i in range(x.size):
        for saturate in range(2):
            for interpretation in range(2):
                fp8[i, saturate, interpretation, 0] = cvt_float_to_fp8(x[i], saturate,
                                                                       interpretation)
                fp8[i, saturate, interpretation, 1] = cvt_double_to_fp8(d[i], saturate,
                                                                        interpretation)
            for rounding in range(1, 3):
                e8m0[i, saturate, rounding - 1, 0] = cvt_float_to_e8m0(x[i], saturate, rounding)
                e8m0[i, saturate, rounding - 1, 1] = cvt_double_to_e8m0(d[i], saturate,
                                                                        rounding)


def test_cvt_functions_take_the_modes_at_run_time(jit):
    d = sources()
    with np.errstate(over="ignore"):
        x = d.astype(np.float32)
    fp8 = np.zeros((d.size, 2, 2, 2), np.uint8)
    e8m0 = np.zeros((d.size, 2, 2, 2), np.uint8)
    jit(cvt_functions)[1, 1](fp8, e8m0, x, d)
    for saturate in (NOSAT, SATFINITE):
        for interpretation, name in ((E4M3, "e4m3"), (E5M2, "e5m2")):
            for source, values in ((0, x.astype(np.float64)), (1, d)):
                np.testing.assert_array_equal(
                    fp8[:, saturate, interpretation, source],
                    small_float_model(values, name, saturate == SATFINITE),
                    err_msg=f"{name} saturate={saturate} source={source}")
        for rounding in (ROUND_ZERO, ROUND_UP):
            for source, values in ((0, x.astype(np.float64)), (1, d)):
                np.testing.assert_array_equal(
                    e8m0[:, saturate, rounding - 1, source],
                    e8m0_model(values, rounding == ROUND_UP, saturate == SATFINITE),
                    err_msg=f"e8m0 saturate={saturate} rounding={rounding} source={source}")


def bfloat16_raw_functions(raws, fp8, e8m0, codes):
    for i in range(codes.size):
        raw = cvt_e8m0_to_bf16raw(codes[i])
        raws[i] = raw.x
        fp8[i, 0] = cvt_bfloat16raw_to_fp8(raw, saturation_t.NOSAT, fp8_interpretation_t.E5M2)
        fp8[i, 1] = cvt_bfloat16raw_to_fp8(raw, saturation_t.SATFINITE,
                                           fp8_interpretation_t.E4M3)
        e8m0[i, 0] = cvt_bfloat16raw_to_e8m0(raw, saturation_t.NOSAT, ROUND_ZERO)
        e8m0[i, 1] = cvt_bfloat16raw_to_e8m0(raw, saturation_t.SATFINITE, ROUND_UP)


def test_bfloat16_raw_conversions_of_every_e8m0_code(jit):
    codes = np.arange(256, dtype=np.uint8)
    raws = np.zeros(256, np.uint16)
    fp8 = np.zeros((256, 2), np.uint8)
    e8m0 = np.zeros((256, 2), np.uint8)
    jit(bfloat16_raw_functions)[1, 1](raws, fp8, e8m0, codes)
    values = codes.view(ml_dtypes.float8_e8m0fnu).astype(np.float64)
    np.testing.assert_array_equal(raws.view(ml_dtypes.bfloat16).astype(np.float64)[:255],
                                  values[:255])
    assert raws[255] == 0x7FFF
    np.testing.assert_array_equal(fp8[:, 0], small_float_model(values, "e5m2", saturate=False))
    np.testing.assert_array_equal(fp8[:, 1], small_float_model(values, "e4m3"))
    np.testing.assert_array_equal(e8m0[:, 0], codes)
    np.testing.assert_array_equal(e8m0[:, 1], codes)


@pytest.mark.parametrize("body, where", [
    ("out[0] = float32(float8_e4m3fn(x[0]) * 2)", "float8_e4m3fn(x[0]) * 2"),
    ("out[0] = float32(-float8_e5m2(x[0]))", "-float8_e5m2(x[0])"),
    ("out[0] = float8_e8m0fnu(x[0]) < 1", "float8_e8m0fnu(x[0]) < 1"),
    ("out[0] = float32(abs(float8_e4m3fn(x[0])))", "abs(float8_e4m3fn(x[0]))"),
    ("out[0] = float32(max(float8_e5m2(x[0]), float8_e5m2(x[0])))",
     "max(float8_e5m2(x[0]), float8_e5m2(x[0]))"),
])
def test_computing_with_an_8_bit_float_is_an_error_that_says_to_convert(jit, body, where):
    namespace = {"float32": float32, "float8_e4m3fn": float8_e4m3fn, "float8_e5m2": float8_e5m2,
                 "float8_e8m0fnu": float8_e8m0fnu}
    exec(f"def kernel(out, x):\n    {body}\n", namespace)
    with pytest.raises(kaji.CompileError, match=r"value only converts .*write float32\(x\) to "
                                                rf"compute with it, in '{re.escape(where)}'"):
        jit(namespace["kernel"])[1, 1](np.zeros(1, np.float32), np.ones(1, np.float32))


@pytest.mark.parametrize("reduction", ["sum", "prod", "max", "mean", "argmin", "any"])
def test_reducing_an_8_bit_float_array_is_an_error_that_says_to_convert(jit, reduction):
    namespace = {}
    exec(f"def kernel(out, x):\n    out[0] = x.{reduction}()\n", namespace)
    with pytest.raises(kaji.CompileError, match=r"cannot reduce .*float8_e4m3fn.* in "
                                                rf"'x\.{reduction}\(\)': 8-bit floats only "
                                                r"convert"):
        jit(namespace["kernel"])[1, 1](np.zeros(1), np.zeros(3, ml_dtypes.float8_e4m3fn))


def truth_values(out, x):
    for i in range(x.size):
        out[i] = 1 if x[i] else 0
        out[x.size + i] = bool(x[i])


@pytest.mark.parametrize("name", FORMATS)
def test_truth_is_not_zero_as_cudas_explicit_bool(jit, name):
    codes = np.arange(256, dtype=np.uint8).view(FORMATS[name])
    out = np.zeros(512, np.int64)
    jit(truth_values)[1, 1](out, codes)
    want = (codes.astype(np.float32) != 0).astype(np.int64)  # NaN is true
    np.testing.assert_array_equal(out, np.concatenate([want, want]))


def copy_codes(out, x):
    for i in range(x.size):
        out[i] = x[i]


@pytest.mark.parametrize("name", FORMATS)
def test_arrays_of_8_bit_floats_keep_their_bits(jit, name):
    codes = np.arange(256, dtype=np.uint8).view(FORMATS[name])
    out = np.zeros(256, FORMATS[name])
    jit(copy_codes)[1, 1](out, codes)
    np.testing.assert_array_equal(out.view(np.uint8), np.arange(256, dtype=np.uint8))
    assert kaji.typeof(codes) == getattr(kaji.types, FORMATS[name].__name__)[::1]


def print_values(x):
    print(float8_e4m3fn(x[0]), float8_e5m2(x[0]), float8_e8m0fnu(x[0]))


def test_print_shows_the_value(jit, capfd):
    jit(print_values)[1, 1](np.array([2.5], np.float32))
    kaji.synchronize()
    assert capfd.readouterr().out == "2.500000 2.500000 4.000000\n"  # as float32 prints


def scalar_argument(out, v):
    out[0] = float32(v)


@pytest.mark.parametrize("name", FORMATS)
def test_an_ml_dtypes_scalar_is_an_argument_of_its_type(jit, name):
    out = np.zeros(1, np.float32)
    kernel = jit(scalar_argument)
    kernel[1, 1](out, FORMATS[name](4.0))
    assert out[0] == 4.0
    assert kernel.signatures == [f"void(float32[::1], {FORMATS[name].__name__})"]
