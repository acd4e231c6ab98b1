"""The package's surface: names, the Numba spelling, and a light import."""

import subprocess
import sys

import kaji
from kaji import cuda


def test_public_names():
    for name in ("jit", "to_device", "device_array", "device_array_like", "synchronize",
                 "stream", "devices", "select_device", "CompileError", "CudaError",
                 "CudaUnavailable", "DeviceArray", "grid", "gridsize", "threadIdx", "blockIdx",
                 "blockDim", "gridDim", "syncthreads", "shared", "local", "atomic"):
        assert hasattr(kaji, name), name


def test_numba_spelling():
    assert cuda.jit is kaji.jit
    assert cuda.grid is kaji.grid
    assert cuda.to_device is kaji.to_device
    assert cuda.device_array is kaji.device_array
    assert cuda.synchronize is kaji.synchronize
    assert cuda.threadIdx.x._kaji_name == "kaji.threadIdx.x"
    assert cuda.shared.array._kaji_name == "kaji.shared.array"
    assert cuda.atomic.add._kaji_name == "kaji.atomic.add"


def test_exception_hierarchy():
    assert issubclass(kaji.CudaUnavailable, RuntimeError)
    assert issubclass(kaji.CudaError, RuntimeError)
    assert issubclass(kaji.CompileError, Exception)
    assert not issubclass(kaji.CompileError, RuntimeError)


def test_intrinsics_are_not_callable_from_python():
    try:
        kaji.grid(1)
    except TypeError as error:
        assert "inside a kaji kernel" in str(error)
    else:
        raise AssertionError("kaji.grid(1) ran in Python")


def test_import_loads_no_heavy_modules():
    probe = ("import sys; before = set(sys.modules); import kaji; "
             "print(sorted(m for m in ('numpy', 'inspect', 'torch', 'cupy') "
             "if m in sys.modules and m not in before))")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            check=True, env=_child_env())
    assert result.stdout.strip() == "[]"


def _child_env():
    import os

    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    return env


def test_extension_exports_only_its_init_function():
    # libkaji.so resolves its libstdc++ references in this module first; an exported copy
    # built by another compiler would replace libstdc++'s own (see python/CMakeLists.txt).
    import shutil

    import pytest

    nm = shutil.which("nm")
    if nm is None:
        pytest.skip("nm (binutils) is not installed")
    result = subprocess.run([nm, "-D", "--defined-only", kaji._core.__file__],
                            capture_output=True, text=True, check=True)
    exported = [line.split()[-1] for line in result.stdout.splitlines() if line.strip()]
    assert exported == ["PyInit__core"]
