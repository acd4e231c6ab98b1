"""Kernels that compile differently from their source text and from their bytecode (exec()'d,
no source text: docs/python.md, "Kernels without source text"), found by the differential
test's bytecode twin (test/differential, --bytecode). Both paths must give the same kernel."""

import linecache
import sys

import numpy as np
import pytest

import kaji

TERNARY_CONDITION_TERNARY = """def product(out, x, y, a, b, c):
    out[0] = (x[0] if (a[0] if b[0] else c[0]) else y[0]) * x[0]
"""

DEAD_CONDITIONAL_VALUE = """def dead(out, x, a, b):
    out[0] = (True and False) and (b[0] or (2 if a[0] else x[0])) and b[0]
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


@pytest.mark.xfail(strict=True, reason="from bytecode, an operation applied to a ternary whose "
                   "condition is itself a ternary is computed in each branch's own type "
                   "(float16 * float16), not the ternary's (float64, of float16 and uint64)")
def test_a_ternary_with_a_ternary_condition_keeps_its_type_from_bytecode():
    from_source, from_bytecode = _results_of_both_paths(
        TERNARY_CONDITION_TERNARY, "product", np.array([0.1], np.float16),
        np.array([1], np.uint64), np.array([True]), np.array([True]), np.array([True]))
    assert from_source == from_bytecode


# CPython 3.12's bytecode for this function compiles (seen on the H100 machine's 3.12); 3.11's
# does not.
@pytest.mark.xfail(sys.version_info < (3, 12), strict=True,
                   reason="from bytecode, a conditional value after a constant "
                   "False condition (code CPython leaves unreachable) is a CompileError "
                   "('cannot compile this conditional value'); from source it compiles")
def test_a_conditional_value_after_a_constant_false_compiles_from_bytecode():
    from_source, from_bytecode = _results_of_both_paths(
        DEAD_CONDITIONAL_VALUE, "dead", np.array([0.1], np.float16), np.array([False]),
        np.array([True]))
    assert from_source == from_bytecode
