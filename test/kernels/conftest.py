"""pytest setup for the kernel conformance suite.

Every test that takes the `target` fixture runs once per target present: "cpu" always, "cuda"
when a CUDA device is usable. KAJI_TEST_TARGETS (e.g. "cpu,cuda") overrides the choice; naming
"cuda" there without a usable device makes those tests fail instead of disappearing.
"cuda-nvrtc" is the cuda target with the nvrtc backend: the test sees target "cuda" and runs
with KAJI_BACKEND=nvrtc, so every kernel it makes goes through CUDA C++ and NVRTC
(KAJI_TEST_TARGETS=cpu,cuda,cuda-nvrtc runs all three).
`jit` is `kaji.jit` bound to the test's target.

KAJI_TEST_PTXAS=1 (scripts/test.sh sets it where NVRTC and nvJitLink are present) also compiles
every kernel signature the suite compiles to PTX, by both backends, for the GPU architectures
and fast math settings ptxas_sweep.py picks, and assembles it with ptxas: the CI check that
the GPU code loads, on a machine with no GPU. KAJI_TEST_PTXAS=all compiles every signature
for every architecture, fast math off and on, by both backends. A test marked `checks_own_ptx` (the program differential,
whose hundreds of kernels assemble a sample of their PTX themselves) is left out.

`import kaji` finds an installed kaji, else the source package in python/."""

import functools
import importlib.util
import os
import pathlib
import sys
import weakref

import pytest

from ptxas_sweep import PtxasSweep

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


def _ptxas_sweep_enabled():
    return os.environ.get("KAJI_TEST_PTXAS") in ("1", "all")


# Every kernel alive, and (strongly, as a test's own kernels die when it returns) the ones
# a test of this directory made since the last check: kernels made elsewhere in the process
# (test/python's, in a worker that runs both) are only held weakly, and die when their owner
# lets go of them.
_kernels = weakref.WeakSet()
_new_kernels = []
_in_kernel_test = False
_sweep = None


def _record_kernels():
    from kaji.decorator import Kernel

    original = Kernel.__init__

    @functools.wraps(original)
    def recording_init(self, *args, **kwargs):
        original(self, *args, **kwargs)
        _kernels.add(self)
        if _in_kernel_test:
            _new_kernels.append(self)

    Kernel.__init__ = recording_init


@pytest.fixture(autouse=True)
def ptxas_sweep(request):
    """Under KAJI_TEST_PTXAS=1: the PTX of every kernel signature the test compiled, for
    each architecture and fast math setting, assembled by ptxas (ptxas_sweep.py)."""
    global _sweep, _in_kernel_test
    _in_kernel_test = True
    yield
    _in_kernel_test = False
    if not _ptxas_sweep_enabled():
        return
    if _sweep is None:
        _sweep = PtxasSweep(every_pair=os.environ["KAJI_TEST_PTXAS"] == "all")
    own_ptx = request.node.get_closest_marker("checks_own_ptx") is not None
    kernels = list(_kernels) + _new_kernels
    _new_kernels.clear()
    for kernel in kernels:
        checked = kernel.__dict__.setdefault("_ptxas_checked", set())
        for signature in kernel.signatures:
            if signature not in checked:
                checked.add(signature)
                if not own_ptx:
                    _sweep.check(kernel, signature, request.node.nodeid)


if _ptxas_sweep_enabled():
    _record_kernels()
