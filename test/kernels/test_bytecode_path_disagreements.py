"""Kernels that compiled differently from their source text and from their bytecode (exec()'d,
no source text: docs/python.md, "Kernels without source text"), found by the differential
test's bytecode twin (test/differential, --bytecode), shrunk. Both paths must give the same
kernel."""

import linecache

import numpy as np
import pytest

import kaji

TERNARY_CONDITION_TERNARY = """def product(out, x, y, a, b, c):
    out[0] = (x[0] if (a[0] if b[0] else c[0]) else y[0]) * x[0]
"""

DEAD_CONDITIONAL_VALUE = """def dead(out, x, a, b):
    out[0] = (True and False) and (b[0] or (2 if a[0] else x[0])) and b[0]
"""

OUT_OF_RANGE_LITERAL = """import math
def literal(out, b, v):
    out[0] = ((0 % math.isnan(b[0])) and ((-129 + v[0]) or b[0])) or b[0]
"""


def _from_source(text, name):
    filename = f"<bytecode-path-{name}>"
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    namespace = {}
    exec(compile(text, filename, "exec"), namespace)
    return kaji.jit(namespace[name], target="cpu")


def _from_bytecode(text, name):
    namespace = {}
    exec(text, namespace)  # "<string>": inspect finds no source, kaji translates the bytecode
    return kaji.jit(namespace[name], target="cpu")


def _results_of_both_paths(text, name, *inputs):
    """out[0] of the kernel `name` of `text` compiled from source, then from bytecode."""
    results = []
    for compile_path in (_from_source, _from_bytecode):
        out = np.zeros(1)
        compile_path(text, name)[1, 1](out, *inputs)
        results.append(out[0])
    return results


# The ternary condition was an `if` of its own, which copied the multiplication into each
# branch (float16 * float16, not the ternary's float64 of float16 and uint64).
def test_a_ternary_with_a_ternary_condition_keeps_its_type_from_bytecode():
    from_source, from_bytecode = _results_of_both_paths(
        TERNARY_CONDITION_TERNARY, "product", np.array([0.1], np.float16),
        np.array([1], np.uint64), np.array([True]), np.array([True]), np.array([True]))
    assert from_source == from_bytecode


# CPython 3.11 makes `b[0]`, when true, jump past the `and` test of the `or` value (3.12
# does not): the value was a CompileError ('cannot compile this conditional value').
def test_a_conditional_value_after_a_constant_false_compiles_from_bytecode():
    from_source, from_bytecode = _results_of_both_paths(
        DEAD_CONDITIONAL_VALUE, "dead", np.array([0.1], np.float16), np.array([False]),
        np.array([True]))
    assert from_source == from_bytecode


# CPython 3.11 makes the first operand of `and`, when false, jump past the `or` that tests
# the `and` value: the expression became an `if` whose branch with -129 + int8 (out of
# range, a CompileError from source) the compiler dropped as dead (math.isnan of a bool is
# False).
def test_an_out_of_range_literal_is_an_error_from_bytecode():
    inputs = (np.array([True]), np.array([1], np.int8))
    for compile_path in (_from_source, _from_bytecode):
        with pytest.raises(kaji.CompileError, match="-129 out of bounds for int8"):
            compile_path(OUT_OF_RANGE_LITERAL, "literal")[1, 1](np.zeros(1), *inputs)
