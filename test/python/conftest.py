"""pytest setup for the Python API tests.

`import kaji` finds an installed kaji, else the source package in python/ (where a
development build places kaji/_core). Tests marked `gpu` need a usable CUDA device and are
skipped with the driver's reason otherwise; tests marked `bytecode` compile a function without
source text and are skipped, with the compiler's reason, on a Python whose bytecode kaji does
not translate."""

import importlib.util
import pathlib
import sys

import pytest

_SOURCE_PACKAGE = pathlib.Path(__file__).resolve().parents[2] / "python"
if importlib.util.find_spec("kaji") is None:
    sys.path.insert(0, str(_SOURCE_PACKAGE))


def pytest_configure(config):
    config.addinivalue_line("markers", "gpu: needs a usable CUDA GPU; skipped without one")
    config.addinivalue_line("markers", "bytecode: compiles a function without source text "
                            "(exec(), `python -c`, a lambda sharing its line) from its bytecode")


def _gpu_unusable_reason():
    import kaji

    if not kaji.is_available():
        return "no CUDA driver: " + kaji._core.unavailable_reason()
    if not kaji.devices():
        return "no CUDA device"
    return None


def _bytecode_untranslatable_reason():
    import kaji

    namespace = {}
    exec("def probe(out):\n    out[0] = 1\n", namespace)
    try:
        kaji.jit("void(int64[::1])", target="cpu")(namespace["probe"])
    except kaji.CompileError as error:
        return str(error)
    return None


def pytest_collection_modifyitems(config, items):
    for marker, unusable_reason in (("gpu", _gpu_unusable_reason),
                                    ("bytecode", _bytecode_untranslatable_reason)):
        marked = [item for item in items if marker in item.keywords]
        reason = unusable_reason() if marked else None
        for item in marked if reason else []:
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
