"""The truth of and/or (docs/sema.md, "Truth of and/or"): a condition tests each operand's own
truth, a used value is converted to the promoted type first. Found by the differential test:
with a float16 zero `h`, `if (h or 5e-324 or ...)` is taken, while the value of `h or 5e-324`
is float16(5e-324) == 0.0."""

import numpy as np


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
