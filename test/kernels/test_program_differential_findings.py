"""Programs of the program differential that once gave wrong results, rerun on every target
present (with cpu beside cuda, as test_program_differential.py does). Program n of a seed
depends on the seed and n only (docs/testing.md). Found on 2026-11-24 by the 2 x H200 run:
- 1010/22 and 1010/228: float16 on a Sapphire Rapids host (LLVM 19's AVX512-FP16 code,
  codegen/cpu/src/CpuJIT.cpp);
- 1012/593: float16(2**31 >> b) on every target (LLVM 19's InstCombine, clamped in
  codegen/llvm/src/LLVMLowering.cpp);
- 1013/272: min(1.0, NaN) converted to an integer on cuda (ptxas reordering LLVM's expansion
  of the saturating conversion, codegen/nvptx/src/NVPTXTarget.cpp);
- the others on cuda (LLVM backend only; ptxas -O0 and NVRTC right): 16-bit integer code that
  ptxas -O1 and above miscompiles (docs/testing.md).
Found on 2026-11-30 by the dev VM's test run:
- 20261123/53: on the cpu target, a local array cleared and written at an index the data picks,
  in a loop over threads marked parallel with the array's accesses in its access group (every
  thread reuses the one alloca; codegen/llvm/src/ParallelThreadLoops.cpp leaves them out)."""

import os
import pathlib
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from differential.program_campaign import ProgramCampaign  # noqa: E402

FINDINGS = ["1010/22", "1010/228", "1012/593", "1013/272", "1012/172", "1012/195", "1013/317",
            "1015/59", "1015/361", "1017/150", "1021/703", "20261123/53"]


@pytest.mark.checks_own_ptx
@pytest.mark.parametrize("finding", FINDINGS)
def test_program_agrees_with_the_interpreter(target, finding):
    seed, number = map(int, finding.split("/"))
    targets = ["cpu"]
    if target == "cuda":
        targets.append("cuda-nvrtc" if os.environ.get("KAJI_BACKEND") == "nvrtc" else "cuda")
    campaign = ProgramCampaign(seed, targets, log=lambda text: None)
    summary = campaign.run(1, first=number)
    assert summary.programs == 1
    assert not summary.mismatches, "\n\n".join(f"{what}\n{source}"
                                               for what, source in summary.mismatches)
