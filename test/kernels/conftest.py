"""pytest setup for the kernel conformance suite.

Every test that takes the `target` fixture runs once per target present: "cpu" always, "cuda"
when a CUDA device is usable. KAJI_TEST_TARGETS (e.g. "cpu,cuda") overrides the choice; naming
"cuda" there without a usable device makes those tests fail instead of disappearing.
"cuda-nvrtc" is the cuda target with the nvrtc backend: the test sees target "cuda" and runs
with KAJI_BACKEND=nvrtc, so every kernel it makes goes through CUDA C++ and NVRTC
(KAJI_TEST_TARGETS=cpu,cuda,cuda-nvrtc runs all three).
`jit` is `kaji.jit` bound to the test's target.

KAJI_TEST_NVRTC_PTX=1 (scripts/test.sh sets it where NVRTC and ptxas are present) also
compiles, after each test, every signature of every kernel compiled so far through the nvrtc
backend to PTX and assembles it with ptxas: the nvrtc path's CI check on a machine with no
GPU. A test marked `checks_own_ptx` (the program differential, whose hundreds of kernels
assemble a sample of their PTX themselves) is left out.

`import kaji` finds an installed kaji, else the source package in python/."""

import functools
import importlib.util
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import weakref

import pytest

_SOURCE_PACKAGE = pathlib.Path(__file__).resolve().parents[2] / "python"
if importlib.util.find_spec("kaji") is None:
    sys.path.insert(0, str(_SOURCE_PACKAGE))

_KNOWN_TARGETS = ("cpu", "cuda", "cuda-nvrtc")


def _cuda_usable():
    import kaji

    try:
        return len(kaji.devices()) > 0
    except kaji.CudaUnavailable:
        return False


def _targets():
    override = os.environ.get("KAJI_TEST_TARGETS")
    if override is None:
        return ["cpu", "cuda"] if _cuda_usable() else ["cpu"]
    targets = [name.strip() for name in override.split(",") if name.strip()]
    unknown = [name for name in targets if name not in _KNOWN_TARGETS]
    if unknown or not targets:
        raise pytest.UsageError(
            f"KAJI_TEST_TARGETS={override!r}: expected a comma-separated list of "
            f"{', '.join(_KNOWN_TARGETS)}")
    return targets


def pytest_generate_tests(metafunc):
    if "target" in metafunc.fixturenames:
        targets = _targets()
        metafunc.parametrize("target", targets, ids=targets, indirect=True)


@pytest.fixture
def target(request, monkeypatch):
    """The test's kernel target, "cpu" or "cuda"; under "cuda-nvrtc", "cuda" with kernels
    that name no backend made by the nvrtc backend."""
    if request.param == "cuda-nvrtc":
        monkeypatch.setenv("KAJI_BACKEND", "nvrtc")
        return "cuda"
    return request.param


@pytest.fixture
def jit(target):
    """kaji.jit for this test's target: `k = jit(plain_kernel)`."""
    import kaji

    return functools.partial(kaji.jit, target=target)


def _nvrtc_ptx_check_enabled():
    return os.environ.get("KAJI_TEST_NVRTC_PTX") == "1"


# Every kernel alive, and (strongly, as a test's own kernels die when it returns) the ones
# made since the last check.
_kernels = weakref.WeakSet()
_new_kernels = []


def _record_kernels():
    from kaji.decorator import Kernel

    original = Kernel.__init__

    @functools.wraps(original)
    def recording_init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        _kernels.add(self)
        _new_kernels.append(self)

    Kernel.__init__ = recording_init


def _ptxas():
    found = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
    if not os.path.exists(found):
        raise pytest.UsageError("KAJI_TEST_NVRTC_PTX=1 needs ptxas (the CUDA toolkit)")
    return found


def _assemble_with_nvrtc(kernel, signature, ptxas):
    from kaji import _core

    ptx = _core.compile(kernel._source, kernel._describe_globals, signature, stage="ptx",
                        backend="nvrtc")
    with tempfile.NamedTemporaryFile("w", suffix=".ptx") as file:
        file.write(ptx)
        file.flush()
        result = subprocess.run([ptxas, "--gpu-name", "sm_90", "-o", os.devnull, file.name],
                                capture_output=True, text=True)
    if result.returncode != 0:
        pytest.fail(f"ptxas rejected the nvrtc backend's PTX of kernel '{kernel.__name__}' "
                    f"for {signature}:\n{result.stderr}", pytrace=False)


@pytest.fixture(autouse=True)
def nvrtc_ptx_parity(request):
    """Under KAJI_TEST_NVRTC_PTX=1: the nvrtc backend's PTX of every kernel signature the
    test compiled, assembled by ptxas."""
    yield
    if not _nvrtc_ptx_check_enabled():
        return
    if request.node.get_closest_marker("checks_own_ptx"):
        for kernel in _new_kernels:
            kernel.__dict__["_nvrtc_assembled"] = set(kernel.signatures)
        _new_kernels.clear()
        return
    ptxas = _ptxas()
    kernels = list(_kernels) + _new_kernels
    _new_kernels.clear()
    for kernel in kernels:
        assembled = kernel.__dict__.setdefault("_nvrtc_assembled", set())
        for signature in kernel.signatures:
            if signature not in assembled:
                assembled.add(signature)
                _assemble_with_nvrtc(kernel, signature, ptxas)


if _nvrtc_ptx_check_enabled():
    _record_kernels()
