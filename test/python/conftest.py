"""pytest setup for the Python API tests.

`import kaji` finds an installed kaji, else the source package in python/ (where a
development build places kaji/_core). Tests marked `gpu` need a usable CUDA device and are
skipped with the driver's reason otherwise."""

import importlib.util
import pathlib
import sys

import pytest

_SOURCE_PACKAGE = pathlib.Path(__file__).resolve().parents[2] / "python"
if importlib.util.find_spec("kaji") is None:
    sys.path.insert(0, str(_SOURCE_PACKAGE))


def pytest_configure(config):
    config.addinivalue_line("markers", "gpu: needs a usable CUDA GPU; skipped without one")


def _gpu_unusable_reason():
    import kaji

    if not kaji.is_available():
        return "no CUDA driver: " + kaji._core.unavailable_reason()
    if not kaji.devices():
        return "no CUDA device"
    return None


def pytest_collection_modifyitems(config, items):
    gpu_items = [item for item in items if "gpu" in item.keywords]
    if not gpu_items:
        return
    reason = _gpu_unusable_reason()
    if reason is None:
        return
    for item in gpu_items:
        item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(params=["cpu"] if _gpu_unusable_reason() else ["cpu", "cuda"])
def device(request, monkeypatch):
    """Where device arrays live: host-backed (the cpu target) always, device memory where a
    GPU is usable."""
    monkeypatch.setenv("KAJI_TARGET", request.param)
    return request.param


def pytest_generate_tests(metafunc):
    # Tests of the GPU ufuncs (vectorize, guvectorize, reduce) run on the cpu target, and on
    # cuda too where a GPU is usable.
    if "ufunc_target" in metafunc.fixturenames:
        targets = ["cpu"] if _gpu_unusable_reason() else ["cpu", "cuda"]
        metafunc.parametrize("ufunc_target", targets, ids=targets)
