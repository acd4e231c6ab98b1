"""The differential test of docs/testing.md over mostly float16 columns, beside float32 and
narrow integers and bools: float16 arithmetic, comparisons, math functions and conversions
dense enough that most items compute in float16 (the scalar tester's reference: each numpy
float16 operation rounded to float16). On cuda it runs cpu beside it; every kernel is also
compiled from its bytecode on the cpu target and compared exactly."""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from differential.campaign import Campaign  # noqa: E402
from differential.kernels import bytecode_twin  # noqa: E402
from differential.scalars import HALF_PRECISION_KINDS  # noqa: E402

SEED = 20261128
EXPRESSIONS = 480


def test_random_half_precision_expressions_agree_with_the_reference(target):
    targets = ["cpu", "cuda"] if target == "cuda" else ["cpu", bytecode_twin("cpu")]
    summary = Campaign(SEED, targets, kinds=HALF_PRECISION_KINDS, log=lambda text: None).run(EXPRESSIONS)
    assert summary.expressions >= EXPRESSIONS
    assert not summary.mismatches, "\n\n".join(
        f"{m.what}\n{m.reproducer}" for m in summary.mismatches)
