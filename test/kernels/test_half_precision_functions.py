"""Numba's cuda.fp16 and cuda.bf16 functions against numpy's float16 and ml_dtypes' bfloat16
arithmetic: the arithmetic rounds once to the type; the math functions are float32's,
rounded to it; the comparisons are IEEE's (hne too: false when either operand is NaN, as
CUDA's __hne)."""

import importlib

import numpy as np
import pytest

import kaji
from kaji import cuda

try:
    import ml_dtypes
except ImportError:
    ml_dtypes = None

# (module, dtype, the largest finite value, a subnormal)
FLOAT16 = ("fp16", np.float16, 65504.0, 6e-8)
BFLOAT16 = ("bf16", ml_dtypes and ml_dtypes.bfloat16, 3.3895e38, 2.0 ** -130)
PRECISIONS = [FLOAT16, pytest.param(BFLOAT16, marks=pytest.mark.skipif(
    ml_dtypes is None, reason="bfloat16 on the host needs ml_dtypes"))]


@pytest.fixture(params=PRECISIONS, ids=["fp16", "bf16"])
def precision(request):
    return request.param


def operands(precision):
    _, dtype, largest, subnormal = precision
    specials = [0.0, -0.0, 1.0, -1.5, 0.333, 2.5, largest, -largest, subnormal, np.inf, -np.inf,
                np.nan]
    rng = np.random.default_rng(16)
    a = np.concatenate([specials, rng.uniform(-40, 40, 200)]).astype(dtype)
    b = np.concatenate([specials[::-1], rng.uniform(-40, 40, 200)]).astype(dtype)
    return a, b


def wide(x):
    return x.astype(np.float32)


def assert_same_values(got, want, message=""):
    """Equal values of one type, NaN where NaN, -0.0 apart from 0.0."""
    assert got.dtype == want.dtype, message
    nan = np.isnan(wide(got))
    np.testing.assert_array_equal(nan, np.isnan(wide(want)), err_msg=message)
    np.testing.assert_array_equal(got[~nan].view(np.uint16), want[~nan].view(np.uint16),
                                  err_msg=message)


def run(jit, precision, name, *args, out_dtype=None):
    """cuda.<module>.<name> of each element of `args`, computed by a kernel."""
    function = getattr(getattr(cuda, precision[0]), name)

    def unary(out, a):
        for i in range(a.size):
            out[i] = function(a[i])

    def binary(out, a, b):
        for i in range(a.size):
            out[i] = function(a[i], b[i])

    def ternary(out, a, b, c):
        for i in range(a.size):
            out[i] = function(a[i], b[i], c[i])

    out = np.zeros(args[0].size, out_dtype or precision[1])
    jit([unary, binary, ternary][len(args) - 1])[1, 1](out, *args)
    return out


ARITHMETIC = {
    "hadd": lambda a, b: a + b, "hsub": lambda a, b: a - b, "hmul": lambda a, b: a * b,
    "hdiv": lambda a, b: a / b, "hneg": lambda a, b: -a, "habs": lambda a, b: np.abs(a),
    "hrcp": lambda a, b: (1 / wide(b)).astype(b.dtype),
    "hmax": lambda a, b: np.fmax(wide(a), wide(b)).astype(a.dtype),
    "hmin": lambda a, b: np.fmin(wide(a), wide(b)).astype(a.dtype),
}


@pytest.mark.parametrize("name", sorted(ARITHMETIC))
def test_arithmetic_rounds_once(jit, precision, name):
    a, b = operands(precision)
    args = (b,) if name == "hrcp" else (a,) if name in ("hneg", "habs") else (a, b)
    out = run(jit, precision, name, *args)
    with np.errstate(all="ignore"):
        want = ARITHMETIC[name](a, b)
    mask = np.ones(a.size, bool)
    if name in ("hmax", "hmin"):  # fmax/fmin of +0 and -0 may give either zero (docs/sema.md)
        mask = ~((wide(out) == 0) & (wide(want) == 0))
    assert_same_values(out[mask], want[mask])


COMPARISONS = {
    "heq": lambda a, b: a == b, "hge": lambda a, b: a >= b, "hgt": lambda a, b: a > b,
    "hle": lambda a, b: a <= b, "hlt": lambda a, b: a < b,
    "hne": lambda a, b: (a != b) & ~(np.isnan(wide(a)) | np.isnan(wide(b))),
}


@pytest.mark.parametrize("name", sorted(COMPARISONS))
def test_comparisons_are_ordered(jit, precision, name):
    a, b = operands(precision)
    out = run(jit, precision, name, a, b, out_dtype=np.bool_)
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(out, COMPARISONS[name](a, b))


FUNCTIONS = {
    "hsin": np.sin, "hcos": np.cos, "hlog": np.log, "hlog10": np.log10, "hlog2": np.log2,
    "hexp": np.exp, "hexp10": lambda x: np.power(np.float32(10), x), "hexp2": np.exp2,
    "hsqrt": np.sqrt, "hrsqrt": lambda x: np.float32(1) / np.sqrt(x), "hfloor": np.floor,
    "hceil": np.ceil, "hrint": np.rint, "htrunc": np.trunc, "htanh": np.tanh,
    # kaji computes the approximation as exactly as htanh (CUDA's tanh.approx is a few ulps off)
    "htanh_approx": np.tanh,
}


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_functions_are_float32_rounded(jit, precision, name):
    _, dtype, largest, subnormal = precision
    a = np.concatenate([[0.0, -0.0, 1.0, -1.5, 2.5, largest, subnormal, np.inf, -np.inf,
                         np.nan], np.linspace(-6, 6, 97), np.linspace(0.01, 11, 50)]).astype(dtype)
    out = run(jit, precision, name, a)
    with np.errstate(all="ignore"):
        want = FUNCTIONS[name](wide(a)).astype(dtype)
    # float32 libm/libdevice results may differ by an ulp of float32, which can move the
    # rounding to the narrow type by one of its ulps.
    nan = np.isnan(wide(want))
    np.testing.assert_array_equal(np.isnan(wide(out)), nan)
    assert np.abs(ordered(out[~nan]) - ordered(want[~nan])).max() <= 1


def ordered(x):
    """16-bit floats as integers in their order, one apart where the values are adjacent."""
    bits = x.view(np.uint16).astype(np.int32)
    return np.where(bits & 0x8000, -(bits & 0x7fff), bits)


def fma_reference(a, b, c):
    with np.errstate(all="ignore"):
        return (a.astype(np.float64) * b.astype(np.float64) + c.astype(np.float64)).astype(
            np.float32).astype(a.dtype)


def test_fma_is_float32s_fma_rounded(jit, precision):
    a, b = operands(precision)
    c = b[::-1].copy()
    assert_same_values(run(jit, precision, "hfma", a, b, c), fma_reference(a, b, c))


def test_other_real_numbers_are_converted_first(jit, precision):
    """As the C++ calls Numba binds convert them: hadd(float32, int) is hadd of their values
    converted to the half type; a complex number is a compile error."""
    module, dtype = precision[0], precision[1]
    a, b = operands(precision)
    want = run(jit, precision, "hmul", a, np.full(a.size, 2, dtype))
    got = run(jit, precision, "hmul", wide(a), np.full(a.size, 2, np.int64))
    assert_same_values(got, want)
    with pytest.raises(kaji.CompileError, match=rf"cuda.{module}.hadd\(\) takes "
                                                rf"{np.dtype(dtype).name} values \(or real "
                                                r"numbers, converted\), not 'complex64'"):
        run(jit, precision, "hadd", np.ones(1, np.complex64), np.ones(1, np.complex64))


def test_the_modules_at_numbas_paths_give_the_same_functions(jit, precision):
    """``from numba.cuda.bf16 import hadd``, the module itself as a global, and CUDA C++'s
    spellings in numba.cuda._internal.cuda_bf16 (``__hadd``) are cuda.bf16's functions."""
    name, dtype = precision[0], precision[1]
    module = importlib.import_module(f"kaji.cuda.{name}")
    internal = importlib.import_module(f"kaji.cuda._internal.cuda_{name}")
    hadd, internal_hsub, htrunc = module.hadd, getattr(internal, "__hsub"), internal.htrunc
    make = module.bfloat16 if name == "bf16" else module.float16

    def kernel(out, a, b):
        for i in range(a.size):
            out[0, i] = hadd(a[i], b[i])
            out[1, i] = internal_hsub(a[i], b[i])
            out[2, i] = module.hmul(a[i], b[i])
            out[3, i] = htrunc(a[i])
            out[4, i] = make(2.5)

    a, b = operands(precision)
    out = np.zeros((5, a.size), dtype)
    jit(kernel)[1, 1](out, a, b)
    for row, function, args in [(0, "hadd", (a, b)), (1, "hsub", (a, b)), (2, "hmul", (a, b)),
                                (3, "htrunc", (a,))]:
        assert_same_values(out[row], run(jit, precision, function, *args), function)
    assert (wide(out[4]) == 2.5).all()


def saturated(x):
    """CUDA's saturation to [0, 1]: NaN and -0 give +0."""
    w = wide(x)
    return np.where(w > 0, np.minimum(w, 1), 0).astype(x.dtype)


def bounded_operands(precision):
    """operands() and values whose results land on and around the saturation bounds 0 and 1."""
    a, b = operands(precision)
    near = np.array([0.5, 0.25, 1.0, -0.25, 0.75, 1.0, 0.0, -0.0, 0.5, 2.0], precision[1])
    return np.concatenate([a, near]), np.concatenate([b, near[::-1]])


ROUNDED_ARITHMETIC = {"hadd": lambda a, b: a + b, "hsub": lambda a, b: a - b,
                      "hmul": lambda a, b: a * b}


@pytest.mark.parametrize("name", sorted(ROUNDED_ARITHMETIC))
def test_rn_arithmetic_is_the_plain_arithmetic(jit, precision, name):
    a, b = bounded_operands(precision)
    with np.errstate(all="ignore"):
        want = ROUNDED_ARITHMETIC[name](a, b)
    assert_same_values(run(jit, precision, f"{name}_rn", a, b), want)


@pytest.mark.parametrize("name", sorted(ROUNDED_ARITHMETIC))
def test_sat_arithmetic_clamps_to_zero_one(jit, precision, name):
    a, b = bounded_operands(precision)
    with np.errstate(all="ignore"):
        want = saturated(ROUNDED_ARITHMETIC[name](a, b))
    out = run(jit, precision, f"{name}_sat", a, b)
    assert_same_values(out, want)
    assert ((wide(out) >= 0) & (wide(out) <= 1)).all()


def test_fma_sat_and_relu(jit, precision):
    a, b = bounded_operands(precision)
    c = b[::-1].copy()
    exact = fma_reference(a, b, c)
    assert_same_values(run(jit, precision, "hfma_sat", a, b, c), saturated(exact))
    relu = np.where(wide(exact) <= 0, 0, wide(exact)).astype(exact.dtype)  # NaN stays NaN
    assert_same_values(run(jit, precision, "hfma_relu", a, b, c), relu)


def zero_pairs(precision):
    a, b = operands(precision)
    zeros = np.array([0.0, -0.0, 0.0, -0.0, np.nan, 1.0], precision[1])
    return np.concatenate([a, zeros]), np.concatenate([b, zeros[[1, 0, 0, 1, 4, 4]]])


@pytest.mark.parametrize("name", ["hmax_nan", "hmin_nan"])
def test_nan_extrema_propagate_nan_and_order_zeros(jit, precision, name):
    a, b = zero_pairs(precision)
    wa, wb = wide(a), wide(b)
    if name == "hmax_nan":
        ordered = np.where(wa > wb, wa, np.where(wb > wa, wb, np.where(np.signbit(wa), wb, wa)))
    else:
        ordered = np.where(wa < wb, wa, np.where(wb < wa, wb, np.where(np.signbit(wa), wa, wb)))
    want = np.where(np.isnan(wa) | np.isnan(wb), np.nan, ordered).astype(a.dtype)
    assert_same_values(run(jit, precision, name, a, b), want)


def test_classification(jit, precision):
    a, _ = operands(precision)
    w = wide(a)
    np.testing.assert_array_equal(run(jit, precision, "hisnan", a, out_dtype=np.bool_),
                                  np.isnan(w))
    np.testing.assert_array_equal(run(jit, precision, "hisinf", a, out_dtype=np.int32),
                                  np.where(w == np.inf, 1, np.where(w == -np.inf, -1, 0)))


UNORDERED = {"hequ": "heq", "hneu": "hne", "hltu": "hlt", "hleu": "hle", "hgtu": "hgt",
             "hgeu": "hge"}


@pytest.mark.parametrize("name", sorted(UNORDERED))
def test_unordered_comparisons_are_true_on_nan(jit, precision, name):
    a, b = zero_pairs(precision)
    either_nan = np.isnan(wide(a)) | np.isnan(wide(b))
    with np.errstate(all="ignore"):
        want = COMPARISONS[UNORDERED[name]](a, b) | either_nan
    np.testing.assert_array_equal(run(jit, precision, name, a, b, out_dtype=np.bool_), want)


CUDA_SPELLED = ("habs", "hadd", "hdiv", "heq", "hfma", "hge", "hgt", "hle", "hlt", "hmax",
                "hmin", "hmul", "hne", "hneg", "hsub", "hadd_rn", "hsub_rn", "hmul_rn",
                "hadd_sat", "hsub_sat", "hmul_sat", "hfma_sat", "hfma_relu", "hmax_nan",
                "hmin_nan", "hisinf", "hisnan", *UNORDERED)


@pytest.mark.parametrize("name", CUDA_SPELLED)
def test_fp16_cuda_spelling_is_the_same_function(jit, name):
    """cuda.fp16.__hadd is hadd, as Numba's fp16 module exports both (cuda.bf16 has no
    underscored names)."""
    a, b = operands(FLOAT16)
    arity = 3 if name.startswith("hfma") else 1 if name in ("habs", "hneg", "hisinf",
                                                            "hisnan") else 2
    args = (a, b, a[::-1].copy())[:arity]
    out_dtype = (np.bool_ if name in COMPARISONS or name in UNORDERED or name == "hisnan"
                 else np.int32 if name == "hisinf" else None)
    got = run(jit, FLOAT16, f"__{name}", *args, out_dtype=out_dtype)
    want = run(jit, FLOAT16, name, *args, out_dtype=out_dtype)
    np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8))
    assert not hasattr(cuda.bf16, f"__{name}")
