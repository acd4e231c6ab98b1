"""cuda.bf16's and cuda.fp16's conversions with a rounding mode and their bit
reinterpretations, by Numba's names (numpy's spelling in cuda.bf16: `int32_to_bfloat16_rz`,
`bfloat16_as_int16`; CUDA C++'s in cuda.fp16: `__int2half_rz`, `__half_as_short`).

Every conversion to float16 or bfloat16 is checked bit for bit against an exact reference:
the source value (a float32, a float64 or an integer, compared with Python's exact int/float
comparisons) is placed between the two neighbouring values of the target type, and the mode
picks one, over random bit patterns, ties, subnormals, infinities, NaN and values past the
largest finite one."""

import bisect
import functools
import math
from fractions import Fraction

import numpy as np
import pytest

import kaji
from kaji import cuda

ml_dtypes = pytest.importorskip("ml_dtypes")
bf16 = ml_dtypes.bfloat16

MODES = ("rn", "rz", "rd", "ru")
INTEGERS = ("int16", "uint16", "int32", "uint32", "int64", "uint64")
C_NAMES = {"int8": "char", "uint8": "uchar", "int16": "short", "uint16": "ushort",
           "int32": "int", "uint32": "uint", "int64": "ll", "uint64": "ull",
           "float32": "float", "float64": "double"}
HALF_TYPES = {"bfloat16": bf16, "float16": np.float16}


def conversion(half, source, target, mode=""):
    """The function cuda.bf16 or cuda.fp16 has for this conversion, by Numba's spelling."""
    suffix = f"_{mode}" if mode else ""
    if half == "bfloat16":
        return getattr(cuda.bf16, f"{source}_to_{target}{suffix}")
    c_name = {**C_NAMES, "float16": "half"}
    return getattr(cuda.fp16, f"__{c_name[source]}2{c_name[target]}{suffix}")


@functools.cache
def finite_values(half):
    """Every finite value of the type, ascending, as exact Python floats (one zero)."""
    with np.errstate(invalid="ignore"):
        bits = np.arange(1 << 16, dtype=np.uint16).view(HALF_TYPES[half]).astype(np.float64)
    return sorted(set(float(v) for v in bits if np.isfinite(v)))


def is_even(value, half):
    return int(np.array(value, HALF_TYPES[half]).view(np.uint16)) % 2 == 0


def rounded(x, half, mode):
    """x (a Python int or float, exact) rounded to the type in the mode, as a Python float."""
    if isinstance(x, float) and (math.isnan(x) or math.isinf(x)):
        return x
    values = finite_values(half)
    largest = values[-1]
    i = bisect.bisect_left(values, x)
    if i < len(values) and values[i] == x:
        return math.copysign(values[i], x) if x == 0 else values[i]
    # Past the largest finite value the upper neighbour is infinity, which nearest-even
    # rounding reaches from halfway to the next power of two.
    low = values[i - 1] if i > 0 else -math.inf
    high = values[i] if i < len(values) else math.inf
    if mode == "rd":
        result = low
    elif mode == "ru":
        result = high
    elif mode == "rz":
        result = low if x > 0 else high
    else:
        ulp = largest - values[-2]
        low_point = low if low != -math.inf else -(largest + ulp)
        high_point = high if high != math.inf else largest + ulp
        below = Fraction(x) - Fraction(low_point)
        above = Fraction(high_point) - Fraction(x)
        if below != above:
            result = low if below < above else high
        elif math.isinf(low) or math.isinf(high):  # the largest finite value's last bit is 1
            result = low if math.isinf(low) else high
        else:
            result = low if is_even(low, half) else high
    if result == 0:
        result = math.copysign(0.0, -1.0 if x < 0 else 1.0)
    return result


def assert_same_bits(got, want, half, message=""):
    got, want = np.asarray(got), np.asarray(want, HALF_TYPES[half])
    nan = np.isnan(want.astype(np.float32))
    np.testing.assert_array_equal(np.isnan(got.astype(np.float32)), nan, err_msg=message)
    np.testing.assert_array_equal(got[~nan].view(np.uint16), want[~nan].view(np.uint16),
                                  err_msg=message)


def converted(jit, function, a, dtype):
    """function(x) for every x of a, in a kernel, as an array of dtype."""
    def kernel(out, a):
        for i in range(a.size):
            out[i] = function(a[i])

    out = np.zeros(a.size, dtype)
    jit(kernel)[1, 1](out, a)
    return out


def float32_sources(half):
    """float32 values around the type's rounding points: ties, near-ties, subnormals, the
    range's ends, random bit patterns."""
    rng = np.random.default_rng(2026)
    dropped = 16 if half == "bfloat16" else 13  # significand bits the type does not keep
    # float16 keeps float32's exponents 2**-25 to 2**16 only; bfloat16 keeps them all.
    exponents = (0, 256) if half == "bfloat16" else (102, 143)
    kept = ((rng.integers(0, 2, 300) << 31) | (rng.integers(*exponents, 300) << 23)
            | (rng.integers(0, 1 << 23, 300) & ~((1 << dropped) - 1))).astype(np.uint32)
    tail = [0, 1, (1 << (dropped - 1)) - 1, 1 << (dropped - 1), (1 << (dropped - 1)) + 1,
            (1 << dropped) - 1]
    patterns = (kept[:, None] | np.array(tail, np.uint32)[None, :]).ravel()
    random_bits = rng.integers(0, 1 << 32, 400, dtype=np.uint64).astype(np.uint32)
    values = np.concatenate([patterns.view(np.float32), random_bits.view(np.float32)])
    finfo = np.finfo(np.float16) if half == "float16" else ml_dtypes.finfo(bf16)
    largest, tiny = float(finfo.max), float(finfo.smallest_subnormal)
    edges = [0.0, -0.0, np.inf, -np.inf, np.nan, largest, -largest, largest * 1.001,
             largest * (1 + 2.0 ** -(finfo.nmant + 1)), tiny, tiny / 2, tiny * 0.75,
             -tiny * 1.5, 1e-45, -1e-45, 3.4e38, -3.4e38, 1.0, -1.0, 1.0 + 2.0 ** -20]
    in_range = rng.uniform(-4, 4, 300) * 2.0 ** rng.integers(-30, 17, 300)
    with np.errstate(invalid="ignore"):
        return np.concatenate([values, np.array(edges), in_range]).astype(np.float32)


def integer_sources(integer):
    rng = np.random.default_rng(7)
    info = np.iinfo(integer)
    random = rng.integers(info.min, info.max, 400, dtype=integer, endpoint=True)
    powers = [sign * ((1 << k) + delta) for k in range(info.bits) for delta in (-1, 0, 1)
              for sign in (1, -1)]
    # Ties of both types: a power of two plus half a unit of its 8 or 11 kept bits, with and
    # without a lower bit set.
    ties = [(1 << k) + (1 << (k - kept)) + extra for kept in (8, 11)
            for k in range(kept, info.bits) for extra in (0, 1, 2 << (k - kept))]
    edges = [0, 1, -1, info.min, info.max, 65504, 65519, 65520, 65536, 257, 2049, 2051]
    candidates = [int(v) for v in random] + powers + ties + edges + [-v for v in ties]
    return np.array([v for v in candidates if info.min <= v <= info.max], integer)


@pytest.mark.parametrize("mode", ("",) + MODES)
@pytest.mark.parametrize("half", sorted(HALF_TYPES))
def test_float32_to_half_rounds_in_the_mode(jit, half, mode):
    function = conversion(half, "float32", half, mode)

    a = float32_sources(half)
    out = converted(jit, function, a, HALF_TYPES[half])
    want = [rounded(float(x), half, mode or "rn") for x in a]
    assert_same_bits(out, want, half, f"float32 to {half} {mode}")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("integer", INTEGERS)
@pytest.mark.parametrize("half", sorted(HALF_TYPES))
def test_integer_to_half_rounds_once_in_the_mode(jit, half, integer, mode):
    function = conversion(half, integer, half, mode)

    a = integer_sources(integer)
    out = converted(jit, function, a, HALF_TYPES[half])
    want = [rounded(int(x), half, mode) for x in a]
    assert_same_bits(out, want, half, f"{integer} to {half} {mode}")


@pytest.mark.parametrize("half", sorted(HALF_TYPES))
def test_float64_to_half_rounds_once(jit, half):
    """Not through float32: 1 + 2**-8 + 2**-30 is a float32 tie of bfloat16 (to 1.0) but
    nearer to 1 + 2**-7."""
    function = conversion(half, "float64", half)

    rng = np.random.default_rng(64)
    singles = float32_sources(half).astype(np.float64)
    nudged = np.concatenate([singles * (1 + 2.0 ** -40), singles * (1 - 2.0 ** -40)])
    a = np.concatenate([singles, nudged, [1 + 2.0 ** -8 + 2.0 ** -30, 1 + 2.0 ** -11 + 2.0 ** -40,
                                          1e300, -1e300, 1e-300, -1e-300],
                        rng.uniform(-1, 1, 200) * 2.0 ** rng.integers(-140, 130, 200)])
    out = converted(jit, function, a, HALF_TYPES[half])
    with np.errstate(all="ignore"):
        want = [rounded(float(x), half, "rn") for x in a]
    assert_same_bits(out, want, half, f"float64 to {half}")


@pytest.mark.parametrize("half", sorted(HALF_TYPES))
def test_half_to_float32_and_integers(jit, half):
    to_float = conversion(half, half, "float32")
    to_int_rn = conversion(half, half, "int32", "rn")
    to_uint_ru = conversion(half, half, "uint16", "ru")
    to_byte = conversion(half, half, "int8", "rz")
    to_unsigned_byte = conversion(half, half, "uint8", "rz")

    def kernel(wide, rn, ru, byte, unsigned_byte, a):
        for i in range(a.size):
            wide[i] = to_float(a[i])
            rn[i] = to_int_rn(a[i])
            ru[i] = to_uint_ru(abs(a[i]))
            byte[i] = to_byte(a[i])
            unsigned_byte[i] = to_unsigned_byte(abs(a[i]))

    a = np.array([1.5, 2.5, -2.5, -2.75, 100.5, -127.0, 0.25, 0.0, 3.5], HALF_TYPES[half])
    outs = [np.zeros(a.size, t) for t in (np.float32, np.int32, np.uint16, np.int8, np.uint8)]
    jit(kernel)[1, 1](*outs, a)
    wide = a.astype(np.float32)
    np.testing.assert_array_equal(outs[0], wide)
    np.testing.assert_array_equal(outs[1], np.rint(wide).astype(np.int32))
    np.testing.assert_array_equal(outs[2], np.ceil(np.abs(wide)).astype(np.uint16))
    np.testing.assert_array_equal(outs[3], np.trunc(wide).astype(np.int8))
    np.testing.assert_array_equal(outs[4], np.trunc(np.abs(wide)).astype(np.uint8))


@pytest.mark.parametrize("half", sorted(HALF_TYPES))
def test_reinterpretations_keep_every_bit(jit, half):
    if half == "bfloat16":
        as_short, as_ushort = cuda.bf16.bfloat16_as_int16, cuda.bf16.bfloat16_as_uint16
        from_short, from_ushort = cuda.bf16.int16_as_bfloat16, cuda.bf16.uint16_as_bfloat16
    else:
        as_short, as_ushort = cuda.fp16.__half_as_short, cuda.fp16.__half_as_ushort
        from_short, from_ushort = cuda.fp16.__short_as_half, cuda.fp16.__ushort_as_half

    def kernel(shorts, ushorts, back, back_unsigned, a, bits):
        for i in range(a.size):
            shorts[i] = as_short(a[i])
            ushorts[i] = as_ushort(a[i])
            back[i] = from_short(bits[i])
            back_unsigned[i] = from_ushort(np.uint16(bits[i]))

    # Every pattern, NaN payloads and signalling NaNs included.
    bits = np.arange(-32768, 32768, dtype=np.int16)
    a = bits.view(HALF_TYPES[half])
    shorts, back, back_unsigned = (np.zeros(bits.size, t) for t in
                                   (np.int16, HALF_TYPES[half], HALF_TYPES[half]))
    ushorts = np.zeros(bits.size, np.uint16)
    jit(kernel)[1, 1](shorts, ushorts, back, back_unsigned, a, bits)
    np.testing.assert_array_equal(shorts, bits)
    np.testing.assert_array_equal(ushorts, bits.view(np.uint16))
    np.testing.assert_array_equal(back.view(np.int16), bits)
    np.testing.assert_array_equal(back_unsigned.view(np.int16), bits)


def test_constant_reinterpretations_fold_to_the_same_bits(jit):
    def kernel(out, h):
        out[0] = cuda.bf16.bfloat16_as_int16(cuda.bf16.int16_as_bfloat16(-16512))
        out[1] = cuda.fp16.__half_as_ushort(cuda.fp16.__float2half_rz(np.float32(1.0009765625)))
        out[2] = cuda.bf16.bfloat16_as_uint16(cuda.bf16.int32_to_bfloat16_ru(257))
        out[3] = cuda.fp16.__half_as_short(h)

    out = np.zeros(4, np.int64)
    jit(kernel)[1, 1](out, np.float16(-2.0))
    assert list(out) == [-16512, int(np.float16(1.0).view(np.uint16)) + 1,
                         int(np.array(258.0, bf16).view(np.uint16)),
                         int(np.float16(-2.0).view(np.int16))]


def test_cuda_spelling_of_bf16_conversions_is_the_same_function(jit):
    def kernel(out, bits, x, n):
        out[0] = cuda.bf16.int2bfloat16_rz(n)
        out[1] = cuda.bf16.int32_to_bfloat16_rz(n)
        out[2] = cuda.bf16.float2bfloat16_ru(x)
        out[3] = cuda.bf16.float32_to_bfloat16_ru(x)
        bits[0] = cuda.bf16.bfloat16_as_ushort(out[2])
        bits[1] = cuda.bf16.bfloat16_as_uint16(out[3])

    out, bits = np.zeros(4, bf16), np.zeros(2, np.uint16)
    jit(kernel)[1, 1](out, bits, np.float32(1.001), np.int32(-1234567))
    assert out[0] == out[1] == bf16(-1228800.0)  # toward zero from -1234567
    assert out[2] == out[3] == bf16(1.0078125)  # up from 1.001
    assert bits[0] == bits[1] == np.array(1.0078125, bf16).view(np.uint16)


def test_a_float_is_no_integer_argument(jit):
    def kernel(out, x):
        out[0] = cuda.bf16.int32_to_bfloat16_rn(x)

    with pytest.raises(kaji.CompileError, match=r"int32_to_bfloat16_rn\(\) takes an int32 "
                                                r"value, not 'float32'"):
        jit(kernel)[1, 1](np.zeros(1, bf16), np.float32(1.0))


def test_a_reinterpretation_converts_another_number_first(jit):
    """As the C++ call Numba binds: bfloat16_as_int16 of an int16 is the bits of the bfloat16
    of its value."""
    def kernel(out, x, i):
        out[0] = cuda.fp16.__half_as_short(x)
        out[1] = cuda.bf16.bfloat16_as_int16(i)

    out = np.zeros(2, np.int16)
    jit(kernel)[1, 1](out, np.float32(1.5), np.int16(0x3FC0))
    assert out[0] == np.float16(1.5).view(np.int16)
    assert out[1] == np.array(0x3FC0, np.float32).astype(bf16).view(np.int16)


def test_names_are_numbas():
    for mode in MODES:
        for integer in INTEGERS:
            assert f"{integer}_to_bfloat16_{mode}" in dir(cuda.bf16)
            assert f"__{C_NAMES[integer]}2half_{mode}" in dir(cuda.fp16)
            assert f"__half2{C_NAMES[integer]}_{mode}" in dir(cuda.fp16)
        assert f"__float2half_{mode}" in dir(cuda.fp16)
        assert f"float32_to_bfloat16_{mode}" in dir(cuda.bf16)
    for name in ("float32_to_bfloat16", "float64_to_bfloat16", "bfloat16_as_int16",
                 "bfloat16_as_uint16", "int16_as_bfloat16", "uint16_as_bfloat16"):
        assert name in dir(cuda.bf16)
    for name in ("__float2half", "__double2half", "__half2float", "__half2char_rz",
                 "__half2uchar_rz", "__short_as_half", "__ushort_as_half", "__half_as_short",
                 "__half_as_ushort"):
        assert name in dir(cuda.fp16)
    for name in ("float2bfloat16", "double2bfloat16", "bfloat162float", "bfloat162char_rz",
                 "bfloat16_as_short", "ushort_as_bfloat16"):  # the names Numba imports
        assert name in dir(cuda.bf16)
    assert not hasattr(cuda.bf16, "float64_to_bfloat16_rz")  # Numba has float64's rn only
    assert not hasattr(cuda.fp16, "__int2half")  # integers always name a mode
