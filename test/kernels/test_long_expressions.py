"""Long flat expressions (issue 21, item 23). A chain of left-associative operators (`x[0] +
x[1] + ...`, also mixing `+ - * ...` on the left spine) is one level of nesting however long:
the parser, Sema and lowering walk it in a loop, so its length is limited neither by the nesting
limit (200, docs/language.md "Limits") nor by the compiling thread's stack. The limit is the
same for source text and for code objects: a 200-term sum from a file was "expression nested
too deeply" while exec() compiled 2 000 terms."""

import importlib
import sys

import numpy as np
import pytest

import kaji

TERMS = 10000


@pytest.fixture
def python_compiles_long_chains():
    """CPython's own compiler recurses per term and stops near 3 * the recursion limit
    (RecursionError at about 3 000 terms by default); raised, 3.11 compiles 10 000. From 3.12
    its compiler has a C recursion limit of its own, which no setting raises: there the
    function cannot exist, and test/lit/cli/long_chain_compiles.py compiles such a file without
    CPython."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20000))
    try:
        compile(chain_source(TERMS), "<chain>", "exec")
    except RecursionError:
        sys.setrecursionlimit(limit)
        pytest.skip(f"CPython {sys.version_info.major}.{sys.version_info.minor} cannot compile "
                    f"a {TERMS}-term chain itself")
    yield
    sys.setrecursionlimit(limit)


def chain_source(terms):
    # x[0] - x[1] * 2.0 + x[2] - ... : a chain of + and -, products on its right.
    parts = ["x[0]"]
    for i in range(1, terms):
        parts.append(("+ " if i % 2 else "- ") + (f"x[{i % 7}] * 2.0" if i % 3 == 0 else
                                                   f"x[{i % 7}]"))
    return "def long_chain(out, x):\n    out[0] = " + " ".join(parts) + "\n"


def chain_reference(terms, x):
    total = x[0]
    for i in range(1, terms):
        term = x[i % 7] * 2.0 if i % 3 == 0 else x[i % 7]
        total = total + term if i % 2 else total - term
    return total


def kernel_from_file(tmp_path, monkeypatch, name, source):
    (tmp_path / f"{name}.py").write_text("import kaji\n\n" + source)
    monkeypatch.syspath_prepend(str(tmp_path))
    sys.modules.pop(name, None)
    return importlib.import_module(name)


@pytest.mark.usefixtures("python_compiles_long_chains")
def test_a_chain_of_ten_thousand_terms_from_a_file(jit, tmp_path, monkeypatch):
    module = kernel_from_file(tmp_path, monkeypatch, "long_chain_file", chain_source(TERMS))
    x = np.arange(1.0, 8.0)
    out = np.zeros(1)
    jit(module.long_chain, boundscheck=False)[1, 1](out, x)
    assert out[0] == chain_reference(TERMS, x)


@pytest.mark.usefixtures("python_compiles_long_chains")
def test_a_chain_of_ten_thousand_terms_from_exec(jit):
    namespace = {}
    exec(chain_source(TERMS), namespace)
    x = np.arange(1.0, 8.0)
    out = np.zeros(1)
    jit(namespace["long_chain"], boundscheck=False)[1, 1](out, x)
    assert out[0] == chain_reference(TERMS, x)


def nested_negations_source(depth):
    # Unary operators nest without parentheses, which CPython limits to 200 itself.
    return "def nested(out, x):\n    out[0] = " + "-" * depth + "x[0]\n"


@pytest.mark.parametrize("depth", [190, 250])
def test_the_nesting_limit_is_the_same_from_a_file_and_from_exec(jit, tmp_path, monkeypatch,
                                                                  depth):
    source = nested_negations_source(depth)
    module = kernel_from_file(tmp_path, monkeypatch, f"nested_negations_{depth}", source)
    namespace = {}
    exec(source, namespace)
    x = np.array([3.0])
    for kernel in (module.nested, namespace["nested"]):
        out = np.zeros(1)
        if depth < 200:
            jit(kernel)[1, 1](out, x)
            assert out[0] == (-1) ** depth * 3.0
        else:
            with pytest.raises(kaji.CompileError, match="expression nested too deeply"):
                jit(kernel)[1, 1](out, x)
