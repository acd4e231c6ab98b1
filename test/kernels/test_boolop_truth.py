"""The truth of and/or (docs/sema.md, "Truth of and/or"): a condition tests each operand's own
truth, a used value is converted to the promoted type first. Found by the differential test:
with a float16 zero `h`, `if (h or 5e-324 or ...)` is taken, while the value of `h or 5e-324`
is float16(5e-324) == 0.0.`x is True` of a bool is Python's identity of the singletons.
"""

import numpy as np
import pytest

import kaji


def truths(out, h):
    if h[0] or 5e-324:
        out[0] = 1
    out[1] = 1 if (h[0] or 5e-324) else 0
    out[2] = 1 if not (h[0] or 5e-324) else 0  # a condition: not of Python's truth
    out[3] = not (h[0] or 5e-324)  # a value: not of the float16 value
    value = h[0] or 5e-324
    out[4] = 1 if value else 0
    out[5] = bool(h[0] or 5e-324)


def test_conditions_test_each_operand_values_are_converted_first(jit):
    out = np.full(6, -1, dtype=np.int64)
    jit(truths)[1, 1](out, np.zeros(1, dtype=np.float16))
    assert list(out) == [1, 1, 0, 1, 0, 0]


def identity_of_bools(out, flag):
    out[0] = flag is True
    out[1] = flag is False
    out[2] = flag is not True
    i = 3
    if flag is True:
        out[i] = 1
        i += 1
        out[i] = 1


@pytest.mark.parametrize("flag", [True, False])
def test_a_bool_is_true_or_false_as_python_says(jit, flag):
    # True and False are singletons: `x is True` of a bool is `x == True`.
    out = np.zeros(5, np.int64)
    jit(identity_of_bools)[1, 1](out, flag)
    assert list(out) == [flag, not flag, not flag, flag, flag]


def test_is_between_numbers_stays_a_compile_error(jit):
    def kernel(out, x):
        one = 1
        out[0] = x is one

    with pytest.raises(kaji.CompileError, match="'is' is supported only against None"):
        jit(kernel)[1, 1](np.zeros(1), 1)
