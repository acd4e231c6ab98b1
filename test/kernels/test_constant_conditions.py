"""Conditional expressions, and/or/not and chained comparisons whose condition is a constant:
the branch Python never evaluates is not compiled, and the value is Python's."""

import numpy as np

import kaji


def constant_conditions(out, y):
    v = y[0]
    out[0] = 1 if 1 else 2
    out[1] = 1 < 2 < 3
    out[2] = 1 > 2 < 3
    out[3] = 3 + (v if True else 7)
    out[4] = 3 + (7 if False else v)
    out[5] = v and 0
    out[6] = 0 or v
    out[7] = 0 and v
    out[8] = 1 or v
    out[9] = not 1
    out[10] = 1 if 0 else (2 if 1 else 3)
    out[11] = 1 if v else (2 if 1 else 3)
    out[12] = 1 if (v and 0) else 2
    out[13] = 1 if not 1 else 2
    out[14] = 5 < 3 < v
    out[15] = 1 < 2 < (3 if 1 else v)
    n = 0
    while 1 < 2 < 3:
        n += 1
        if n == 4:
            break
    while 0 and v:
        n += 100
    out[16] = n


def test_constant_conditions(jit):
    y = np.array([5], dtype=np.int64)
    out = np.zeros(17, dtype=np.int64)
    jit(constant_conditions)[1, 1](out, y)
    expected = np.zeros(17, dtype=np.int64)
    constant_conditions(expected, y)
    np.testing.assert_array_equal(out, expected)


def unevaluated_operand_types(out, y):
    u = y[0]
    out[0] = u * (u if 1 else 2.5) + u
    out[1] = u * (1 or 2.5) + u
    out[2] = u * (0 and 2.5) + u
    t = u
    t *= 2 if np.isfinite(u) else u > 0
    out[3] = t
    out[4] = (u > 250) or 2147483648 or np.uint16(u)


def test_an_unevaluated_operand_counts_in_the_type(jit):
    # The type of an and/or or a ternary promotes every operand's, also one a constant
    # condition skips (as Numba types it): folding the condition never changes the type.
    # They promote in source order: bool with 2147483648 is int64, which holds it.
    y = np.array([200], dtype=np.uint8)
    out = np.zeros(5, dtype=np.float64)
    jit(unevaluated_operand_types)[1, 1](out, y)
    np.testing.assert_array_equal(out, [40200.0, 400.0, 200.0, 400.0, 2147483648.0])


def variables_in_nested_unevaluated_operands(out, x, y):
    i = 0
    out[0] = (((x[i] if True else y[i]) + x[i]) if 0 else 1.5)
    out[1] = ((0 or x[i]) * x[i]) if False else 2.5
    out[2] = (((x[i] if False else y[i]) // y[i]) if 0 else -3.5)


def test_an_unevaluated_operand_reads_variables_past_its_own_constant_conditions(jit):
    # Inside an operand lowered only for its type, a constant condition of its own still
    # branches on: the variables read after it are those of the enclosing code.
    x = np.array([4.0])
    y = np.array([3], dtype=np.int32)
    out = np.zeros(3)
    jit(variables_in_nested_unevaluated_operands)[1, 1](out, x, y)
    np.testing.assert_array_equal(out, [1.5, 2.5, -3.5])


def literal_out_of_range_in_a_branch_never_taken(out, a, u):
    t = a[0]
    if np.isnan(a[0]):  # an integer is never NaN: the condition folds to False
        t = u[0] & 18446744073709551615
    out[0] = t


def test_a_statement_a_constant_condition_never_runs_is_not_compiled(jit):
    # Found by the differential test: the literal is out of range for uint32, which would be
    # a CompileError in code that runs (docs/sema.md: statements under a constant condition
    # are dropped unlowered).
    out = np.zeros(1, dtype=np.int64)
    jit(literal_out_of_range_in_a_branch_never_taken)[1, 1](
        out, np.array([-7], dtype=np.int8), np.array([3], dtype=np.uint32))
    assert out[0] == -7
