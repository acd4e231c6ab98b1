"""bfloat16 kernels against ml_dtypes, the reference numpy users have for it: arithmetic rounds
float32's result once (ml_dtypes' ufuncs), conversions from float64 and integers go through
float32 (two roundings, as ml_dtypes converts), subnormals are kept, never flushed. Arrays and
scalars of ml_dtypes.bfloat16 are arguments; atomic add and sub take float16 and bfloat16
arrays. cuda.bf16's functions are tested with cuda.fp16's (test_half_precision_functions.py)."""

import numpy as np
import pytest

import kaji
from kaji import cuda

ml_dtypes = pytest.importorskip("ml_dtypes")
bf16 = ml_dtypes.bfloat16

SMALLEST_SUBNORMAL = 2.0 ** -133
SMALLEST_NORMAL = 2.0 ** -126
LARGEST = float(ml_dtypes.finfo(bf16).max)
SPECIALS = [0.0, -0.0, 1.0, -1.5, 0.333, 2.5, 3.0e38, -3.0e38, LARGEST, SMALLEST_SUBNORMAL,
            -3 * SMALLEST_SUBNORMAL, SMALLEST_NORMAL, 1.5 * SMALLEST_NORMAL, np.inf, -np.inf,
            np.nan]


def operands():
    rng = np.random.default_rng(1616)
    a = np.concatenate([SPECIALS, rng.uniform(-40, 40, 200),
                        rng.uniform(-64, 64, 40) * SMALLEST_NORMAL]).astype(bf16)
    b = np.concatenate([SPECIALS[::-1], rng.uniform(-40, 40, 200),
                        rng.uniform(0.25, 2, 40)]).astype(bf16)
    return a, b


def assert_same_bits(got, want, message=""):
    """Equal as bfloat16 values, NaN where NaN (any NaN), -0.0 apart from 0.0."""
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype, message
    nan = np.isnan(got.astype(np.float32))
    np.testing.assert_array_equal(nan, np.isnan(want.astype(np.float32)), err_msg=message)
    np.testing.assert_array_equal(got[~nan].view(np.uint16), want[~nan].view(np.uint16),
                                  err_msg=message)


def arithmetic_kernel(out, a, b):
    for i in range(a.size):
        out[0, i] = a[i] + b[i]
        out[1, i] = a[i] - b[i]
        out[2, i] = a[i] * b[i]
        out[3, i] = a[i] / b[i]
        out[4, i] = -a[i]
        out[5, i] = abs(a[i])
        out[6, i] = a[i] // b[i]
        out[7, i] = a[i] % b[i]


def test_arithmetic_rounds_float32_once_as_ml_dtypes(jit):
    a, b = operands()
    out = np.zeros((8, a.size), bf16)
    jit(arithmetic_kernel)[1, 1](out, a, b)
    with np.errstate(all="ignore"):
        wide_a, wide_b = a.astype(np.float32), b.astype(np.float32)
        expected = [a + b, a - b, a * b, a / b, -a, np.abs(a),
                    np.floor_divide(wide_a, wide_b).astype(bf16),
                    np.remainder(wide_a, wide_b).astype(bf16)]
    for row, want in enumerate(expected):
        # `//` and `%` by zero are kaji's own (docs/ir.md), not numpy's.
        mask = wide_b != 0 if row >= 6 else np.ones(a.size, bool)
        assert_same_bits(out[row][mask], want[mask], f"row {row}")


def test_subnormal_results_are_kept(jit):
    a = np.array([SMALLEST_NORMAL, 3 * SMALLEST_SUBNORMAL, SMALLEST_SUBNORMAL, 2.0 ** -120],
                 bf16)
    b = np.array([0.5, 1 / 3, 0.5, 2.0 ** -10], bf16)
    out = np.zeros((8, a.size), bf16)
    jit(arithmetic_kernel)[1, 1](out, a, b)
    assert_same_bits(out[2], a * b)
    assert_same_bits(out[3], a / b)
    assert (out[2] != 0).sum() >= 3  # the products are subnormal, not zero


def comparison_kernel(out, a, b):
    for i in range(a.size):
        out[0, i] = a[i] == b[i]
        out[1, i] = a[i] != b[i]
        out[2, i] = a[i] < b[i]
        out[3, i] = a[i] <= b[i]
        out[4, i] = a[i] > b[i]
        out[5, i] = a[i] >= b[i]
        out[6, i] = bool(a[i])


def test_comparisons_and_truth(jit):
    a, b = operands()
    out = np.zeros((7, a.size), np.bool_)
    jit(comparison_kernel)[1, 1](out, a, b)
    with np.errstate(invalid="ignore"):
        expected = [a == b, a != b, a < b, a <= b, a > b, a >= b, a.astype(np.float32) != 0]
    for row, want in enumerate(expected):
        np.testing.assert_array_equal(out[row], want, err_msg=f"row {row}")


def widening_kernel(f32, f64, f16, i32, u8, a):
    for i in range(a.size):
        f32[i] = a[i]
        f64[i] = np.float64(a[i])
        f16[i] = np.float16(a[i])
        i32[i] = np.int32(a[i])
        u8[i] = np.uint8(a[i])


def test_conversions_from_bfloat16(jit):
    a = np.array([0.0, -0.0, 1.5, -2.75, 100.5, 255.0, 3.0e38, SMALLEST_SUBNORMAL, 70000.0,
                  1.0 / 3, np.inf, np.nan], bf16)
    f32, f64, f16, i32, u8 = (np.zeros(a.size, t) for t in
                              (np.float32, np.float64, np.float16, np.int32, np.uint8))
    jit(widening_kernel)[1, 1](f32, f64, f16, i32, u8, a)
    with np.errstate(all="ignore"):
        assert_same_bits(f32, a.astype(np.float32))
        assert_same_bits(f64, a.astype(np.float64))
        assert_same_bits(f16, a.astype(np.float32).astype(np.float16))
    in_range = np.arange(6)  # integer conversions of values an int32 and a uint8 hold
    np.testing.assert_array_equal(i32[in_range], a[in_range].astype(np.float32).astype(np.int32))
    np.testing.assert_array_equal(u8[:6][a[:6] >= 0], a[:6][a[:6] >= 0].astype(np.uint8))


def narrowing_kernel(out, f32, f64, f16, i32, i64):
    for i in range(f32.size):
        out[0, i] = f32[i]
        out[1, i] = kaji.bfloat16(f64[i])
        out[2, i] = cuda.bfloat16(f16[i])
        out[3, i] = i32[i]
        out[4, i] = np.int64(i64[i])


def test_conversions_to_bfloat16_go_through_float32(jit):
    # 1 + 2**-8 + 2**-30 rounds to 1 + 2**-8 in float32, a tie that rounds to 1.0 in bfloat16
    # (ml_dtypes); one rounding from float64 would give 1 + 2**-7. 2**24 + 2**16 + 1 likewise.
    f64 = np.array([1 + 2.0 ** -8 + 2.0 ** -30, 0.1, -3.0e38, 3.5e38, 1e-39, 1e-45, 2.0 ** -134,
                    np.inf, np.nan, -0.0])
    with np.errstate(over="ignore"):
        f32 = f64.astype(np.float32)
    f16 = np.array([1.0, 0.1, 65504, 6e-8, -np.inf, np.nan, 3.3, -0.0, 2.0, 1000.0],
                   np.float16)
    i32 = np.array([2 ** 24 + 2 ** 16 + 1, 255, -257, 2 ** 31 - 1, -2 ** 31, 0, 1, 12345678,
                    -7, 3], np.int32)
    i64 = np.array([2 ** 40 + 2 ** 32 + 1, 2 ** 63 - 1, -2 ** 63, 257, 0, -1, 99999, 2 ** 53 + 1,
                    5, 6], np.int64)
    out = np.zeros((5, f64.size), bf16)
    with np.errstate(all="ignore"):
        jit(narrowing_kernel)[1, 1](out, f32, f64, f16, i32, i64)
        expected = [f32.astype(bf16), f64.astype(bf16), f16.astype(np.float32).astype(bf16),
                    i32.astype(bf16), i64.astype(bf16)]
    for row, want in enumerate(expected):
        assert_same_bits(out[row], want, f"row {row}")


def promotion_kernel(out, a, h, s, i8, i16):
    out[0] = a[0] + h[0]      # bfloat16 with float16: float32, as ml_dtypes
    out[1] = a[0] + s[0]      # with float32: float32
    out[2] = a[0] * 0.1       # a Python float is weak: bfloat16
    out[3] = a[0] + i8[0]     # int8 fits in bfloat16
    out[4] = a[0] + i16[0]    # int16 does not: float32
    out[5] = a[0] + 1         # a Python int is weak: bfloat16


def test_promotion(jit):
    a = np.array([1.0], bf16)
    h = np.array([2.0 ** -10], np.float16)
    s = np.array([2.0 ** -20], np.float32)
    i8 = np.array([3], np.int8)
    i16 = np.array([256], np.int16)
    out = np.zeros(6, np.float64)
    jit(promotion_kernel)[1, 1](out, a, h, s, i8, i16)
    assert out[0] == 1 + 2.0 ** -10  # a bfloat16 sum would round to 1.0
    assert out[1] == 1 + 2.0 ** -20
    assert out[2] == float(a[0] * bf16(0.1))
    assert out[3] == 4.0
    assert out[4] == 257.0  # bfloat16 would round 257 to 256
    assert out[5] == 2.0


def test_promotion_keeps_weak_floats_in_bfloat16(jit):
    # Two statements, not a * 0.1 + 1e-3: the cuda targets may fuse that into one fma.
    def kernel(out, a):
        out[0] = a[0] * 0.1
        out[1] = a[0] + 1e-3

    a = np.array([3.0], bf16)
    out = np.zeros(2, np.float64)
    jit(kernel)[1, 1](out, a)
    assert out[0] == float(a[0] * bf16(0.1))
    assert out[1] == float(a[0] + bf16(1e-3)) == 3.0


def scalar_kernel(out, x, y):
    out[0] = x * y
    out[1] = x


def test_scalar_arguments(jit):
    out = np.zeros(2, bf16)
    jit(scalar_kernel)[1, 1](out, bf16(1.5), bf16(-2.25))
    assert_same_bits(out, np.array([bf16(1.5) * bf16(-2.25), 1.5], bf16))
    assert kaji.typeof(bf16(1.0), "cpu") == kaji.bfloat16
    assert kaji.typeof(np.zeros((2, 3), bf16), "cpu") == kaji.bfloat16[:, ::1]


def test_eager_signature_converts_scalars(jit):
    kernel = jit("void(bfloat16[:], bfloat16, bfloat16)")(scalar_kernel)
    out = np.zeros(2, bf16)
    kernel[1, 1](out, 0.1, np.float32(3.0))
    assert_same_bits(out, np.array([bf16(0.1) * bf16(3.0), 0.1], bf16))


GLOBAL_SCALE = bf16(0.375)
GLOBAL_TABLE = np.array([1.5, -0.1, 3e38], bf16)


def test_globals_of_bfloat16(jit):
    def kernel(out):
        table = cuda.const.array_like(GLOBAL_TABLE)
        for i in range(out.size):
            out[i] = table[i] * GLOBAL_SCALE

    out = np.zeros(3, bf16)
    jit(kernel)[1, 1](out)
    assert_same_bits(out, GLOBAL_TABLE * GLOBAL_SCALE)


def math_kernel(out, a):
    for i in range(a.size):
        out[0, i] = np.sqrt(a[i])
        out[1, i] = np.exp(a[i])
        out[2, i] = round(a[i])
        out[3, i] = np.floor(a[i])


def test_math_computes_in_float32_and_rounds(jit):
    a = np.array([0.25, 2.0, 3.5, 10.0, 0.1, 7.75, 88.0, -1.5], bf16)
    out = np.zeros((4, a.size), bf16)
    with np.errstate(all="ignore"):
        jit(math_kernel)[1, 1](out, a)
        wide = a.astype(np.float32)
        np.testing.assert_array_max_ulp(out[0].astype(np.float32),
                                        np.sqrt(wide).astype(bf16).astype(np.float32), 0)
        # float32's exp may differ from numpy's by a float32 ulp, which can move bfloat16's
        # rounding by one of its ulps (1/128 relative).
        np.testing.assert_allclose(out[1].astype(np.float32), np.exp(wide), rtol=2 ** -7)
    assert_same_bits(out[2], np.rint(wide).astype(bf16))
    assert_same_bits(out[3], np.floor(wide).astype(bf16))


ROUNDINGS = {"rd": np.floor, "rn": np.rint, "ru": np.ceil, "rz": np.trunc}


@pytest.mark.parametrize("mode", sorted(ROUNDINGS))
@pytest.mark.parametrize("integer", ["int16", "int32", "int64", "uint16", "uint32", "uint64"])
def test_bf16_conversions_to_integers_round_as_named(jit, integer, mode):
    function = getattr(cuda.bf16, f"bfloat16_to_{integer}_{mode}")

    def kernel(out, a):
        for i in range(a.size):
            out[i] = function(a[i])

    a = np.array([0.0, 1.5, 2.5, 3.75, 100.5, 200.0, 0.0078125], bf16)
    signed = not integer.startswith("u")
    if signed:
        a = np.concatenate([a, -a]).astype(bf16)
    out = np.zeros(a.size, integer)
    jit(kernel)[1, 1](out, a)
    np.testing.assert_array_equal(out, ROUNDINGS[mode](a.astype(np.float32)).astype(integer))


def test_bf16_conversions_to_float32_and_bytes(jit):
    def kernel(wide, small, unsigned_small, a):
        for i in range(a.size):
            wide[i] = cuda.bf16.bfloat16_to_float32(a[i])
            small[i] = cuda.bf16.bfloat16_to_int8_rz(a[i])
            unsigned_small[i] = cuda.bf16.bfloat16_to_uint8_rz(abs(a[i]))

    a = np.array([1.5, -2.75, 100.5, -127.0, 3e-39, 0.0], bf16)
    wide, small, unsigned_small = (np.zeros(6, t) for t in (np.float32, np.int8, np.uint8))
    jit(kernel)[1, 1](wide, small, unsigned_small, a)
    np.testing.assert_array_equal(wide, a.astype(np.float32))
    np.testing.assert_array_equal(small, np.trunc(wide).astype(np.int8))
    np.testing.assert_array_equal(unsigned_small, np.trunc(np.abs(wide)).astype(np.uint8))
    assert not hasattr(cuda.bf16, "bfloat16_to_int8_rn")  # CUDA has only the rz of bytes


@pytest.mark.parametrize("dtype", [np.float16, bf16], ids=["float16", "bfloat16"])
def test_atomic_add_and_sub(jit, dtype):
    def kernel(out, values):
        i = cuda.grid(1)
        if i < values.size:
            cuda.atomic.add(out, 0, values[i])
            cuda.atomic.sub(out, 1, values[i])
            cuda.atomic.add(out, (i % 2) + 2, 1)

    values = np.full(96, 0.5, dtype)
    out = np.zeros(4, dtype)
    jit(kernel)[3, 32](out, values)
    np.testing.assert_array_equal(out.astype(np.float32), [48.0, -48.0, 48.0, 48.0])


def test_atomic_max_of_bfloat16_is_a_compile_error(jit):
    def kernel(out):
        cuda.atomic.max(out, 0, 1)

    with pytest.raises(kaji.CompileError, match="add and sub only"):
        jit(kernel)[1, 1](np.zeros(1, bf16))


def test_is_bfloat16_supported_says_what_the_gpu_has():
    supported = cuda.is_bfloat16_supported()
    assert isinstance(supported, bool)
    if not kaji.is_available():
        assert not supported
    else:
        assert supported == (cuda.get_current_device().compute_capability >= (8, 0))
    assert cuda.is_float16_supported()
