"""One name holding values of different types at different points of a kernel, as Python
allows: each web of a variable (its assignments grouped by the reads they reach together) has
its own type (frontend/src/syntax/VariableWebs.h). Each kernel runs one thread and is checked
against the same function run by Python on NumPy arrays, from its source text and from its
bytecode."""

import linecache

import numpy as np
import pytest

import kaji

# A 2-d parameter rebound to a 1-d view and back inside a loop (Numba's issue 3931).
RESHAPED_IN_A_LOOP = """def reshaped(out, arr):
    for i in range(1):
        arr = arr.reshape(3 * 2)
        arr = arr.reshape(3, 2)
    for i in range(arr.shape[0]):
        for j in range(arr.shape[1]):
            out[i * 2 + j] = arr[i, j]
"""

# A loop counter rebound to an array each iteration (Numba's issue 5493).
COUNTER_REBOUND_TO_AN_ARRAY = """def counter(out, m, n, b):
    for t in range(1, m):
        for idx in range(n):
            t = b
            out[0] += t[0]
"""

# An int, then a float: the int's floor division stays an integer one.
INT_THEN_FLOAT = """def int_then_float(out, x):
    y = x * 7
    out[0] = y // 2
    out[1] = y % 4
    y = 0.5 * x
    out[2] = y
    x = float(x)
    out[3] = x / 4
"""

# A tuple, then its element; an array, then its sum.
TUPLE_THEN_ELEMENT = """def tuple_then_element(out, a):
    b = (a[0], a[1])
    b = b[0] + b[1]
    out[0] = b
    a = a.sum()
    out[1] = a
"""

# Rebound on both paths of a branch, then read: one web, whose types unify (int and float).
BOTH_BRANCHES = """def both_branches(out, flag):
    if flag:
        v = 3
    else:
        v = 2.5
    out[0] = v
    v = out[:2]
    v[1] = 9.0
"""

# An augmented assignment reads and writes one name: one web with what it reads.
AUGMENTED = """def augmented(out, x):
    s = x
    for i in range(3):
        s += 0.25
    out[0] = s
    s = out[1:]
    s[0] = 1.5
"""

PROGRAMS = {
    "reshaped": (RESHAPED_IN_A_LOOP, lambda: (np.zeros(6), np.arange(6.0).reshape(3, 2))),
    "counter": (COUNTER_REBOUND_TO_AN_ARRAY, lambda: (np.zeros(1), 4, 3, np.array([1.5, 2.0]))),
    "int_then_float": (INT_THEN_FLOAT, lambda: (np.zeros(4), 5)),
    "tuple_then_element": (TUPLE_THEN_ELEMENT, lambda: (np.zeros(2), np.array([2.0, 3.5, 4.0]))),
    "both_branches": (BOTH_BRANCHES, lambda: (np.zeros(3), True)),
    "augmented": (AUGMENTED, lambda: (np.zeros(3), 2)),
}


def _function(text, name, with_source):
    filename = f"<variable-webs-{name}>"
    if with_source:
        linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    namespace = {}
    exec(compile(text, filename, "exec"), namespace)
    return namespace[name]


@pytest.mark.parametrize("with_source", [True, False], ids=["source", "bytecode"])
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_a_rebound_name_computes_as_python(jit, name, with_source):
    text, make_arguments = PROGRAMS[name]
    expected = make_arguments()
    _function(text, name, True)(*expected)
    got = make_arguments()
    jit(_function(text, name, with_source))[1, 1](*got)
    np.testing.assert_array_equal(got[0], expected[0])


def test_each_web_has_its_type_under_its_ssa_name(jit):
    kernel = jit(_function(INT_THEN_FLOAT, "int_then_float", True))
    kernel[1, 1](np.zeros(4), 5)
    types = {name: str(t) for name, t in kernel.variable_types(kernel.signatures[0]).items()}
    assert types["y"] == "int64" and types["y.1"] == "float64"
    assert types["x"] == "int64" and types["x.1"] == "float64"


def test_a_read_that_two_types_reach_is_an_error_naming_the_source_variable(jit):
    def kernel(out, a, flag):
        x = a[0]
        out[0] = x
        x = a
        if flag:
            x = 1
        out[1] = x

    with pytest.raises(kaji.CompileError, match="variable 'x' is assigned both") as error:
        jit(kernel)[1, 1](np.zeros(2), np.array([1.0, 2.0]), True)
    assert "x.1" not in str(error.value)


def test_a_read_no_assignment_reaches_is_an_error_naming_the_source_variable(jit):
    def kernel(out, a):
        out[0] = x  # noqa: F821, as Python: UnboundLocalError
        x = a
        x[0] = 1.0
        x = 2.5
        out[1] = x

    with pytest.raises(kaji.CompileError,
                       match="local variable 'x' is referenced before assignment"):
        jit(kernel)[1, 1](np.zeros(2), np.array([1.0, 2.0]))


def test_a_read_some_paths_leave_unbound_reads_the_web_that_reaches_it(jit):
    def kernel(out, a, flag, other):
        if flag:
            x = 1.5
            out[0] = x
            return
        if other:
            x = a
        out[1] = x[0]

    got = np.zeros(2)
    jit(kernel)[1, 1](got, np.array([4.0, 5.0]), False, True)
    np.testing.assert_array_equal(got, [0.0, 4.0])
