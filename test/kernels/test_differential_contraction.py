"""The differential tester's model of fma contraction (test/differential/contraction.py and
the reference's products): the fused result is the exact a * b + c rounded once, and the
cuda targets may give it where a product feeds an add or subtract, the cpu target never."""

import math
import pathlib
import sys
from fractions import Fraction

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from differential.campaign import expected_rows  # noqa: E402
from differential.contraction import fused, round_exact  # noqa: E402
from differential.expressions import Item, Node  # noqa: E402
from differential.reference import Evaluator, run_item  # noqa: E402


def test_rounding_to_float64_is_pythons_correct_rounding():
    rng = np.random.default_rng(5)
    for _ in range(2000):
        value = Fraction(int(rng.integers(1, 2 ** 62)), int(rng.integers(1, 2 ** 62))) * \
            Fraction(2) ** int(rng.integers(-1100, 1000))
        assert round_exact(value, "float64") == float(value)


def test_rounding_to_float32_and_float16_matches_numpy_from_exact_doubles():
    # A double with at most 53 significant bits is exact, and numpy rounds it once.
    rng = np.random.default_rng(6)
    for kind in ("float32", "float16"):
        for x in rng.standard_normal(2000) * 10.0 ** rng.uniform(-50, 50, 2000):
            with np.errstate(over="ignore"):
                expected = float(np.array(x).astype(kind))
            assert round_exact(Fraction(float(x)), kind) == expected, (x, kind)


def test_ties_round_to_even_and_overflow_to_infinity():
    tiny = Fraction(2) ** -1074
    assert round_exact(tiny / 2, "float64") == 0.0
    assert round_exact(tiny * 3 / 2, "float64") == 2 * float(tiny)
    largest = Fraction(float(np.finfo(np.float32).max))
    half_ulp = Fraction(2) ** (127 - 24)
    assert round_exact(largest + half_ulp, "float32") == math.inf
    assert round_exact(largest + half_ulp / 2, "float32") == float(largest)


def test_fused_is_rounded_once_and_keeps_ieee_zero_signs():
    x = np.array([1 + 2.0 ** -27, 0.0, -0.0, 5e-324, np.inf])
    y = np.array([1 - 2.0 ** -27, 1.0, 1.0, -0.5, 0.0])
    c = np.array([-1.0, -0.0, -0.0, 0.0, 1.0])
    result = fused(x, y, c, "float64")
    assert result[0] == -(2.0 ** -54)
    assert not np.signbit(result[1]) and np.signbit(result[2])
    assert result[3] == 0.0 and np.signbit(result[3])  # -2.5e-324 rounds to -0.0
    assert np.isnan(result[4])


def test_a_finite_product_never_overflows_before_a_non_finite_addend():
    # The product rounded on its own overflows to an infinity of the other sign, so the sum is
    # NaN; the exact product plus c is c.
    big = np.float32(3e38)
    x = np.array([big, big, -big, 2.0], dtype=np.float32)
    y = np.array([4.0, 4.0, 4.0, 3.0], dtype=np.float32)
    c = np.array([-np.inf, np.inf, np.inf, np.nan], dtype=np.float32)
    result = fused(x, y, c, "float32")
    assert list(result[:3]) == [-np.inf, np.inf, np.inf] and np.isnan(result[3])
    with np.errstate(all="ignore"):
        assert np.isnan(x[0] * y[0] + c[0])


def test_an_infinite_factor_gives_what_rounding_each_operation_gives():
    x = np.array([np.inf, np.inf, np.inf], dtype=np.float32)
    y = np.array([2.0, 0.0, -1.0], dtype=np.float32)
    c = np.array([1.0, 1.0, np.inf], dtype=np.float32)
    result = fused(x, y, c, "float32")
    assert result[0] == np.inf and np.isnan(result[1]) and np.isnan(result[2])


def test_a_product_overflowing_only_when_rounded_alone_comes_back_into_range():
    largest = float(np.finfo(np.float32).max)
    x = np.array([largest], dtype=np.float32)
    y = np.array([2.0], dtype=np.float32)
    c = np.array([-largest], dtype=np.float32)
    assert fused(x, y, c, "float32")[0] == np.float32(largest)


def item(tree):
    return Item("expr", (tree,))


def var(j):
    return Node("var", value=j)


def columns():
    a = np.array([1 + 2.0 ** -27, 2.0, 0.0])
    b = np.array([1 - 2.0 ** -27, 3.0, 0.0])
    c = np.array([-1.0, 1.0, 5e-324])
    return [a, b, c]


def test_product_plus_a_value_may_fuse_on_cuda_only():
    value = run_item(Evaluator(columns()), item(Node("bin", (Node("bin", (var(0), var(1)), "*"),
                                                           var(2)), "+")))
    want, unchecked, alternatives = expected_rows(value, "cpu")
    assert want[0] == 0.0 and alternatives == () and not unchecked.any()
    want, unchecked, alternatives = expected_rows(value, "cuda")
    assert want[0] == 0.0 and [a[0] for a in alternatives] == [-(2.0 ** -54)]


def test_a_division_by_a_literal_power_of_two_is_a_product():
    half = Node("bin", (var(2), Node("lit", value=2)), "/")
    value = run_item(Evaluator(columns()), item(Node("bin", (var(0), half), "-")))
    fused_rows = expected_rows(value, "cuda")[2][0]
    assert value.data[2] == 0.0 and not np.signbit(value.data[2])
    assert np.signbit(fused_rows[2])  # 0.0 - 5e-324 * 0.5 rounded once is -0.0


def test_a_fused_value_below_the_root_leaves_the_row_unchecked_on_cuda():
    fma = Node("bin", (Node("bin", (var(0), var(1)), "*"), var(2)), "+")
    value = run_item(Evaluator(columns()), item(Node("bin", (fma, Node("lit", value=2.0)), "*")))
    assert list(expected_rows(value, "cuda")[1]) == [True, False, False]
    assert not expected_rows(value, "cpu")[1].any()


def test_an_overflowing_product_minus_an_infinite_literal_may_be_infinite_on_cuda():
    # H100, 2026-11-23: `v13 * (-v21) - (-1.79e308)` with uint16 v13 and float32 v21 (the
    # literal is -inf in float32) was inf on cuda: the fused product does not overflow.
    v13 = np.array([60000, 2], dtype=np.uint16)
    v21 = np.array([1e35, 1.0], dtype=np.float32)
    product = Node("bin", (var(0), Node("unary", (var(1),), "-")), "*")
    tree = Node("bin", (product, Node("lit", value=-1.79e308)), "-")
    value = run_item(Evaluator([v13, v21]), item(tree))
    want, unchecked, alternatives = expected_rows(value, "cuda")
    assert np.isnan(want[0]) and want[1] == np.inf and not unchecked.any()
    assert [a[0] for a in alternatives] == [np.inf]
    assert expected_rows(value, "cpu")[2] == ()
