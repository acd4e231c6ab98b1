"""The complex differential of docs/testing.md (test/differential/complex_expressions.py):
random complex64/complex128 expressions mixed with real columns and literals, compared with
numpy's scalar arithmetic, with a fixed seed. On cuda it runs cpu beside it. The same kernels
compiled from their bytecode agree exactly with the source path. `python3 test/differential
--complex [--bytecode]` runs it with a new seed and any count."""

import pathlib
import sys


sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from differential.complex_expressions import ComplexCampaign  # noqa: E402
from differential.kernels import bytecode_twin  # noqa: E402

SEED = 20261128
EXPRESSIONS = 480


def run_without_mismatches(targets, count=EXPRESSIONS):
    summary = ComplexCampaign(SEED, targets, log=lambda text: None).run(count)
    assert summary.expressions == count
    assert summary.compared > count * 32  # most rows are compared
    assert not summary.mismatches, "\n\n".join(
        f"{what}\n{text}" for what, text in summary.mismatches)


def test_random_complex_expressions_agree_with_numpy(target):
    run_without_mismatches(["cpu", "cuda"] if target == "cuda" else ["cpu"])


def test_complex_source_and_bytecode_paths_agree():
    run_without_mismatches(["cpu", bytecode_twin("cpu")], count=48)
