"""bench/kernels/run.py --compile-only, which needs no GPU: every backend compiles the
benchmark kernels it is given and the table shows a time for each."""

import os
import pathlib
import subprocess
import sys

import pytest

import kaji
from toolkit_libraries import NVRTC

RUN = pathlib.Path(__file__).resolve().parents[2] / "bench" / "kernels" / "run.py"


@pytest.mark.skipif(not NVRTC, reason="the nvrtc backend needs NVRTC")
def test_compile_only_times_each_backend_on_each_kernel():
    package = str(pathlib.Path(kaji.__file__).resolve().parents[1])
    environment = {**os.environ,
                   "PYTHONPATH": package + os.pathsep + os.environ.get("PYTHONPATH", "")}
    result = subprocess.run([sys.executable, str(RUN), "--compile-only", "--only",
                             "saxpy,matmul", "--reps", "1"], capture_output=True, text=True,
                            env=environment)
    assert result.returncode == 0, result.stderr
    rows = {line.split()[0]: line.split()[1:] for line in result.stdout.splitlines()
            if line.split() and line.split()[0] in ("saxpy", "matmul", "total")}
    assert set(rows) == {"saxpy", "matmul", "total"}, result.stdout
    for name, (llvm_ms, nvrtc_ms, ratio) in rows.items():
        assert float(llvm_ms) > 0 and float(nvrtc_ms) > 0, name
        assert float(ratio) == pytest.approx(float(nvrtc_ms) / float(llvm_ms), rel=0.05)


def test_compile_only_and_check_are_exclusive():
    result = subprocess.run([sys.executable, str(RUN), "--compile-only", "--check"],
                            capture_output=True, text=True)
    assert result.returncode != 0 and "pick one" in result.stderr
