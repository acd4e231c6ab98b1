"""The program differential of docs/testing.md: random kernels with control flow, local and
shared arrays, atomics and device functions, run on every target present and compared with
the interpreter's per-thread evaluation, with a fixed seed. On cuda it runs cpu beside it (and
under cuda-nvrtc the nvrtc backend) and compares the targets too. A sample is also compiled
through both GPU backends to PTX and assembled by ptxas where ptxas exists.
`python3 test/differential --programs` runs it with a new seed and any count."""

import os
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from differential.kernels import bytecode_twin  # noqa: E402
from differential.program_campaign import ProgramCampaign, ptxas  # noqa: E402

SEED = 20261123
PROGRAMS = 500
ASSEMBLED = 20
BYTECODE_PROGRAMS = 40


def _failures(summary):
    return "\n\n".join(f"{what}\n{source}" for what, source in summary.mismatches)


@pytest.mark.checks_own_ptx
def test_random_programs_agree_with_the_interpreter(target):
    targets = ["cpu"]
    if target == "cuda":
        targets.append("cuda-nvrtc" if os.environ.get("KAJI_BACKEND") == "nvrtc" else "cuda")
    summary = ProgramCampaign(SEED, targets, log=lambda text: None).run(PROGRAMS)
    assert summary.programs == PROGRAMS
    assert summary.results > PROGRAMS * 100  # most threads' results are compared
    assert not summary.mismatches, _failures(summary)


@pytest.mark.checks_own_ptx
@pytest.mark.skipif(ptxas() is None, reason="needs ptxas (the CUDA toolkit)")
def test_random_programs_assemble_through_both_gpu_backends():
    summary = ProgramCampaign(SEED, [], ptx=True, log=lambda text: None).run(ASSEMBLED)
    assert summary.assembled == 2 * ASSEMBLED, _failures(summary)


# Programs whose conditions all hold a variable, compiled from source and from bytecode on
# the cpu target and compared exactly.
def test_random_programs_from_source_and_bytecode_agree():
    summary = ProgramCampaign(SEED, ["cpu", bytecode_twin("cpu")],
                              log=lambda text: None).run(BYTECODE_PROGRAMS)
    assert summary.programs == BYTECODE_PROGRAMS
    assert not summary.mismatches, _failures(summary)
