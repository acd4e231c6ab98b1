"""The differential test of docs/testing.md: random well-typed expressions and statements over
every scalar kind, evaluated by kaji and by a numpy/Python reference of kaji's documented
rules, with a fixed seed. On cuda it runs cpu beside it and compares the two row by row too.
Every kernel is also compiled from its bytecode (exec()'d, no source text) on the cpu target,
and the two paths' rows must be the same. `python3 test/differential [--bytecode]` runs it
with a new seed and any count."""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from differential.campaign import Campaign  # noqa: E402
from differential.kernels import bytecode_twin  # noqa: E402

SEED = 20261123
EXPRESSIONS = 5000


def run_without_mismatches(targets):
    summary = Campaign(SEED, targets, log=lambda text: None).run(EXPRESSIONS)
    assert summary.expressions >= EXPRESSIONS
    assert not summary.mismatches, "\n\n".join(
        f"{m.what}\n{m.reproducer}" for m in summary.mismatches)


def test_random_expressions_agree_with_the_reference(target):
    run_without_mismatches(["cpu", "cuda"] if target == "cuda" else ["cpu"])


def test_source_and_bytecode_paths_agree():
    run_without_mismatches(["cpu", bytecode_twin("cpu")])
