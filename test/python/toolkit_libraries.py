"""Whether the CUDA toolkit libraries kaji opens with dlopen, and its programs, are here, for
skipping the tests that need one; ptxas's relocatable assembly, which tests link with nvlink;
and a program run where no nvJitLink loads."""

import os
import pathlib
import shutil
import subprocess
import sys

import kaji

TOOLKIT_BIN = pathlib.Path(os.environ.get("CUDA_HOME", "/usr/local/cuda")) / "bin"


def loadable(version_probe):
    """True when `version_probe` (kaji._core.nvrtc_version, nvjitlink_version) finds its
    library."""
    try:
        version_probe()
        return True
    except RuntimeError:
        return False


NVRTC = loadable(kaji._core.nvrtc_version)
NVJITLINK = loadable(kaji._core.nvjitlink_version)


def program(name):
    """The toolkit program `name` (ptxas, nvlink) on PATH or in the toolkit, or None."""
    found = shutil.which(name) or str(TOOLKIT_BIN / name)
    return found if os.path.exists(found) else None


def assemble_relocatable(ptx, directory, name):
    """`ptx` assembled by ptxas -c for sm_90 into directory/name.o, for nvlink."""
    path = directory / f"{name}.ptx"
    path.write_text(ptx)
    result = subprocess.run([program("ptxas"), "-c", "--gpu-name", "sm_90", str(path), "-o",
                             str(directory / f"{name}.o")], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return directory / f"{name}.o"


def run_without_nvjitlink(program, directory):
    """The standard output of Python `program` run with this kaji where no nvJitLink loads
    (KAJI_NVJITLINK names a missing file in `directory`); AssertionError if it fails."""
    package = str(pathlib.Path(kaji.__file__).resolve().parents[1])
    environment = {**os.environ, "KAJI_NVJITLINK": str(directory / "libnvJitLink.so.missing"),
                   "PYTHONPATH": package + os.pathsep + os.environ.get("PYTHONPATH", "")}
    result = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                            env=environment)
    assert result.returncode == 0, result.stderr
    return result.stdout
