"""Kernels without source text that once compiled from source but not from their bytecode,
found by the differential tests' bytecode twins (docs/testing.md): complex literals (the
complex differential, test/differential/complex_expressions.py), stores into record fields
(`res[i].r = x`, the records and tuples differential, aggregates.py), and a loop of the
program differential (`python3 test/differential --programs --bytecode --seed 20261123`,
program 38, shrunk): a `for` whose body is long enough that FOR_ITER takes an EXTENDED_ARG;
and its program 57, on 3.12: a conditional value whose arms CPython does not let meet."""

import importlib.util
import math
import sys

import numpy as np
import pytest


def define(source, name):
    """The function `name` of `source`, exec()'d: no source text, kaji reads its bytecode."""
    namespace = {"np": np}
    exec(source, namespace)
    return namespace[name]


def run_both_ways(jit, source, name, tmp_path, *args, same_ir=True):
    """Runs `name` of `source` exec()'d on `args` and from a file on copies of them, and
    checks that both give the same arrays and, on 3.11, the same kaji IR (3.12 copies
    returns and loop exits: same code, other IR, test_kernels_without_source.py)."""
    path = tmp_path / "kernels_in_a_file.py"
    path.write_text("import numpy as np\n" + source)
    spec = importlib.util.spec_from_file_location("kernels_in_a_file", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    kernel, from_file = jit(define(source, name)), jit(getattr(module, name))
    copies = [np.copy(a) for a in args]
    kernel[1, 1](*args)
    from_file[1, 1](*copies)
    for ran, expected in zip(args, copies):
        np.testing.assert_array_equal(ran, expected)
    if same_ir and sys.version_info < (3, 12):
        assert kernel.inspect_ir() == from_file.inspect_ir()


COMPLEX_LITERALS = """
def scale(out, z):
    out[0] = z[0] * 2j
    out[1] = z[0] * -1j
"""


def test_complex_literals(jit, tmp_path):
    z = np.array([1.5 - 2j])
    out = np.zeros(2, dtype=np.complex128)
    run_both_ways(jit, COMPLEX_LITERALS, "scale", tmp_path, out, z)
    assert out.tolist() == [z[0] * 2j, z[0] * -1j]


# Constants CPython folds, with their signed zeros: each part's sign bit has to survive.
FOLDED_COMPLEX = """
def folded(out):
    out[0] = 1.5 - 2j
    out[1] = -(1.5 + 0j)
    out[2] = -(0.0 - 2j)
    out[3] = -0j
    out[4] = -2.5 + 1e308j * 10
"""


def test_folded_complex_constants_keep_their_signed_zeros(jit):
    out = np.zeros(5, dtype=np.complex128)
    jit(define(FOLDED_COMPLEX, "folded"))[1, 1](out)
    expected = [1.5 - 2j, -(1.5 + 0j), -(0.0 - 2j), -0j, -2.5 + 1e308j * 10]
    assert [(np.signbit(v.real), np.signbit(v.imag)) for v in out] == \
        [(np.signbit(v.real), np.signbit(v.imag)) for v in expected]
    assert out.tolist() == expected


RECORD_FIELD_STORE = """
def store(res, x):
    res[0].r = x[0] + 1
"""


def test_store_into_a_record_field(jit, tmp_path):
    res, x = np.zeros(1, dtype=[("r", np.float64)]), np.array([2.5])
    run_both_ways(jit, RECORD_FIELD_STORE, "store", tmp_path, res, x)
    assert res["r"][0] == 3.5


RECORD_FIELD_UPDATE = """
def update(res, x):
    res[0].r += x[0]
    res[0].r, res[1].r = res[1].r, res[0].r
"""


def test_augmented_and_tuple_stores_into_record_fields(jit, tmp_path):
    res, x = np.array([(1.0,), (10.0,)], dtype=[("r", np.float64)]), np.array([2.5])
    run_both_ways(jit, RECORD_FIELD_UPDATE, "update", tmp_path, res, x)
    assert res["r"].tolist() == [10.0, 3.5]


# Shrunk by removing lines; with simpler conditions (no ternaries) the body is too short for
# an EXTENDED_ARG.
LOOP = """
def program(out, v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11):
    i = 0
    t0 = np.float64(0)
    t1 = np.float64(((v2[i] // v8[i]) if v4[i] else v11[i]))
    t2 = np.int64((v11[i] if t1 else v6[i]))
    for j20 in range(np.int64(np.int64(((t2 & v1[i]) % np.float32(t2)))) & 3):
        if (np.fmod(v7[i], v5[i]) and (v3[i] or v1[i]) and
                (v8[i] if v1[i] else 18446744073709551615)):
            if (np.int64(v9[i]) == (v10[i] if t2 else t2) == t1):
                break
        j21 = np.int64(0)
        while j21 < 2:
            j21 += 1
            if min(v2[i], (v0[i] if v4[i] else v4[i])):
                break
            t0 = np.float64((v3[i] / j20))
            t0 = np.float64((-(v0[i] or v3[i])))
    out[0] = t0
"""
KINDS = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
         "float16", "float32", "float64")


def test_loop_of_program_38(jit, tmp_path):
    inputs = [np.ones(1, dtype=kind) for kind in KINDS]
    out = np.zeros(1)
    # CPython drops the constant branch of `(v8[i] if v1[i] else 18446744073709551615)`, which
    # the source path types: same code, other IR.
    run_both_ways(jit, LOOP, "program", tmp_path, out, *inputs, same_ir=False)
    # j20 runs 0 trips: (1 & 1) % 1.0 is 0.
    assert out[0] == 0.0


# Program 38 also nested the rest of its loop body into an `else` of the inner `if`: a
# branch that begins where the enclosing `if` ends is no `else`.
NESTED_BREAK = """
def nested_break(out, x):
    for j in range(3):
        if x[j] > 0:
            out[j] = 10.0
            if x[j] > 1:
                break
        out[j] += j + 1
    out[0] += 100.0
"""


def test_an_if_inside_an_if_without_else_has_none(jit, tmp_path):
    out, x = np.zeros(3), np.array([0.0, 1.0, 2.0])
    run_both_ways(jit, NESTED_BREAK, "nested_break", tmp_path, out, x)
    assert out.tolist() == [101.0, 12.0, 10.0]


# Program 57 on 3.12, shrunk: CPython copies the block that calls, stores and returns into the
# arm `p1` of the inner conditional (it is short and returns), so the arms never meet; the
# copy is the other arm's block.
COPIED_EXIT = """
def pick(p0, p1, c):
    r = np.float64((math.isinf(p0) or np.uint32(p1) or (p1 if c else p0)))
    return r
"""


@pytest.mark.parametrize("p0, p1, c, expected", [(np.inf, 0.0, 0, 1.0), (1.5, 3.0, 0, 3.0),
                                                 (1.5, 0.0, 1, 0.0), (1.5, 0.0, 0, 1.5)])
def test_conditional_value_whose_exit_cpython_copies(jit, tmp_path, p0, p1, c, expected):
    namespace = {"np": np, "math": math}
    exec(COPIED_EXIT, namespace)
    pick = jit(device=True)(namespace["pick"])

    def kernel(out, x, y, c):
        out[0] = pick(x[0], y[0], c[0])

    out = np.zeros(1)
    jit(kernel)[1, 1](out, np.array([p0]), np.array([p1]), np.array([c], dtype=np.int32))
    assert out[0] == expected
