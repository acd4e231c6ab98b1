"""examples/dask_kernels.py on a 2-worker distributed.LocalCluster (real scheduler and worker
processes) on the cpu target: the kernel travels pickled to the workers, runs on the blocks
of a dask array, and the result equals numpy's (the example checks it and fails otherwise)."""

import os
import pathlib
import re
import subprocess
import sys

import pytest

import kaji

# scripts/setup.sh installs dask[distributed] (requirements-dev.txt), so CI runs this; a
# machine without it (the GPU machine has no network) skips it.
pytest.importorskip("distributed")

EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / "examples" / "dask_kernels.py"


def test_the_dask_example_runs_every_block_on_the_workers_and_matches_numpy():
    # kaji's package first, then whatever path found dask in this process (it may be a
    # --target directory, as on the GPU machine).
    source_package = pathlib.Path(kaji.__file__).resolve().parents[1]
    search_path = os.pathsep.join([str(source_package), os.environ.get("PYTHONPATH", "")])
    environment = dict(os.environ, KAJI_TARGET="cpu", PYTHONPATH=search_path.rstrip(os.pathsep))
    result = subprocess.run(
        [sys.executable, str(EXAMPLE), "--workers", "2", "--size", "200000", "--chunk", "25000"],
        capture_output=True, text=True, timeout=180, env=environment)
    assert result.returncode == 0, result.stdout + result.stderr
    summary = re.search(r"(\d+) blocks on (\d+) of 2 workers \(the cpu target\): result equals "
                        r"numpy's", result.stdout)
    assert summary, result.stdout
    assert summary.group(1) == "8"
    assert summary.group(2) == "2"  # both worker processes ran blocks
