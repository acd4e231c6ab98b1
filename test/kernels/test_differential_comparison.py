"""The differential tester's row comparison (test/differential/comparison.py): what it lets
through is exactly what docs/sema.md leaves open, and nothing else."""

import math
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from differential.comparison import differing_rows, ulps_apart  # noqa: E402

NAN_PATTERNS = np.array([0x7FF8000000000000, 0xFFF8000000000000, 0x7FF0000000000001,
                         0xFFF4000000000000], dtype=np.uint64)


def rows(*values):
    return np.array(values, dtype=np.float64)


def none_undefined(n):
    return np.zeros(n, dtype=bool)


def test_every_nan_equals_every_nan_whatever_its_sign_and_payload():
    nans = NAN_PATTERNS.view(np.float64)
    assert differing_rows(nans, nans[::-1], none_undefined(4)).size == 0


def test_nan_against_a_number_differs():
    assert list(differing_rows(rows(math.nan, 1.0), rows(1.0, math.nan), none_undefined(2))) \
        == [0, 1]


def test_signed_zeros_differ_where_the_reference_defines_them():
    got, expected = rows(0.0, -0.0, 0.0), rows(-0.0, 0.0, 0.0)
    assert list(differing_rows(got, expected, none_undefined(3))) == [0, 1]


def test_rows_the_reference_leaves_open_are_not_compared():
    # np.fmin(+0.0, -0.0) may be either zero; copysign(3.0, nan) either sign, and so may
    # anything computed from them.
    got, expected = rows(-0.0, -3.0, -7.5, 1.0), rows(0.0, 3.0, 7.5, 2.0)
    undefined = np.array([True, True, True, False])
    assert list(differing_rows(got, expected, undefined)) == [3]


def test_integers_compare_bit_for_bit():
    got = np.array([2 ** 63 - 1, -1, 5], dtype=np.int64)
    expected = np.array([2 ** 63 - 1, 1, 5], dtype=np.int64)
    assert list(differing_rows(got, expected, none_undefined(3))) == [1]


def test_ulps_are_counted_in_the_result_kind():
    one = rows(1.0)
    assert ulps_apart(rows(np.nextafter(1.0, 2.0)), one, "float64")[0] == 1
    above32 = float(np.nextafter(np.float32(1.0), np.float32(2.0)))
    assert ulps_apart(rows(above32), one, "float32")[0] == 1
    assert ulps_apart(rows(-0.0), rows(0.0), "float64")[0] == 0
    smallest = float(np.finfo(np.float16).smallest_subnormal)
    assert ulps_apart(rows(smallest), rows(-smallest), "float16")[0] == 2
    largest = float(np.finfo(np.float32).max)
    assert ulps_apart(rows(math.inf), rows(largest), "float32")[0] == 1


def test_a_tolerance_allows_that_many_ulps_and_no_more():
    x = 2.9999999999999996  # libdevice's 3.0 ** 1.0, 1 ulp below 3.0
    two_below = float(np.nextafter(x, 0.0))
    got, expected = rows(x, two_below, math.nan, math.inf), rows(3.0, 3.0, 3.0, math.inf)
    assert list(differing_rows(got, expected, none_undefined(4), "float64", 1)) == [1, 2]
    assert list(differing_rows(got, expected, none_undefined(4), "float64", 2)) == [2]
    assert list(differing_rows(got, expected, none_undefined(4))) == [0, 1, 2]

