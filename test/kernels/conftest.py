"""pytest setup for the kernel conformance suite.

Every test that takes the `target` fixture runs once per target present: "cpu" always, "cuda"
when a CUDA device is usable. KAJI_TEST_TARGETS (e.g. "cpu,cuda") overrides the choice; naming
"cuda" there without a usable device makes those tests fail instead of disappearing.
`jit` is `kaji.jit` bound to the test's target.

`import kaji` finds an installed kaji, else the source package in python/."""

import functools
import importlib.util
import os
import pathlib
import sys

import pytest

_SOURCE_PACKAGE = pathlib.Path(__file__).resolve().parents[2] / "python"
if importlib.util.find_spec("kaji") is None:
    sys.path.insert(0, str(_SOURCE_PACKAGE))

_KNOWN_TARGETS = ("cpu", "cuda")


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
        metafunc.parametrize("target", targets, ids=targets)


@pytest.fixture
def jit(target):
    """kaji.jit for this test's target: `k = jit(plain_kernel)`."""
    import kaji

    return functools.partial(kaji.jit, target=target)
