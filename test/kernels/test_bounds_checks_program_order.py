"""Random straight-line kernels of constant-index loads and stores, some past the end, against
a model of the semantics: the report names the first access out of range in program order (a
statement's load before its store); the stores before it are done; past it a GPU thread has
ended, and the cpu target's thread goes on, its loads out of range reading scratch and its
stores out of range going there. Their checks are deferred to one branch
(docs/cpu-backend.md, "Deferred checks of constant indices"), so this is the check that
deferring keeps the order."""

import importlib.util
import random
import re

import numpy as np
import pytest

import kaji

OUT_SIZE, IN_SIZE = 5, 4


def random_kernel(rng, statements):
    """Source of `kernel(out, a)` and its statements as (store index, load index, addend)."""
    body = []
    lines = []
    for _ in range(statements):
        store, load = rng.randrange(OUT_SIZE + 2), rng.randrange(IN_SIZE + 2)
        addend = float(rng.randrange(1, 100))
        body.append((store, load, addend))
        lines.append(f"    out[{store}] = a[{load}] + {addend}")
    return "def kernel(out, a):\n" + "\n".join(lines) + "\n", body


def generated(seed):
    rng = random.Random(seed)
    return random_kernel(rng, rng.randrange(3, 12))


def model(body, target):
    """The first failure as (line, index, size), and the expected `out` (NaN: unknown)."""
    out = np.zeros(OUT_SIZE)
    failure = None
    for line, (store, load, addend) in enumerate(body, start=2):
        load_fails, store_fails = load >= IN_SIZE, store >= OUT_SIZE
        if failure is None and (load_fails or store_fails):
            failure = (line, load, IN_SIZE) if load_fails else (line, store, OUT_SIZE)
        if failure is not None and target != "cpu":
            break
        if store_fails:
            continue
        out[store] = np.nan if load_fails else float(load) + addend
    return failure, out


@pytest.mark.parametrize("seed", range(12))
def test_the_first_failure_in_program_order_reports(jit, target, tmp_path, seed):
    source, body = generated(seed)
    path = tmp_path / f"straight_line_{seed}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    kernel = jit(module.kernel, boundscheck=True)
    failure, expected = model(body, target)
    on_host = target == "cpu"
    out = kaji._core.to_device(np.zeros(OUT_SIZE), on_host=on_host)
    a = kaji._core.to_device(np.arange(float(IN_SIZE)), on_host=on_host)
    if failure is None:
        kernel[1, 1](out, a)
        kaji.synchronize()
    else:
        line, index, size = failure
        with pytest.raises(IndexError, match=re.escape(f"{path}:{line}:") + r".*" +
                           f"index {index} is out of bounds for axis 0 with size {size}$"):
            kernel[1, 1](out, a)
            kaji.synchronize()
    known = ~np.isnan(expected)
    np.testing.assert_array_equal(out.copy_to_host()[known], expected[known])


def test_most_generated_kernels_fail():
    assert sum(model(generated(seed)[1], "cpu")[0] is not None for seed in range(12)) >= 8
