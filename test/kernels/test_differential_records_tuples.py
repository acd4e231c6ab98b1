"""The records and tuples differential of docs/testing.md (test/differential/aggregates.py):
the scalar tester's items over columns read as structured-array fields, tuple-argument
elements and local tuple elements (indexed and unpacked), results stored into record fields,
with a fixed seed. On cuda it runs cpu beside it. The same kernels compiled from their
bytecode agree exactly with the source path."""

import pathlib
import sys


sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from differential.aggregates import AggregateCampaign  # noqa: E402
from differential.kernels import bytecode_twin  # noqa: E402

SEED = 20261128
EXPRESSIONS = 480


def run_without_mismatches(targets, count=EXPRESSIONS):
    summary = AggregateCampaign(SEED, targets, log=lambda text: None).run(count)
    assert summary.expressions == count
    assert not summary.mismatches, "\n\n".join(
        f"{what}\n{text}" for what, text in summary.mismatches)


def test_random_items_through_records_and_tuples_agree(target):
    run_without_mismatches(["cpu", "cuda"] if target == "cuda" else ["cpu"])


def test_records_and_tuples_source_and_bytecode_paths_agree():
    run_without_mismatches(["cpu", bytecode_twin("cpu")], count=48)
