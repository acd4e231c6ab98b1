"""backend="nvrtc": kernels whose GPU code is kaji's CUDA C++ compiled by NVRTC. No GPU needed:
eager signatures compile at decoration and inspect_* returns each stage."""

import os
import pathlib
import subprocess
import sys

import pytest

from toolkit_libraries import NVRTC

import kaji


needs_nvrtc = pytest.mark.skipif(not NVRTC, reason="no NVRTC here")


def saxpy(out, a, x, y):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = a * x[i] + y[i]


SAXPY = "void(float32[:], float32, float32[:], float32[:])"


def test_backend_defaults_to_llvm_and_takes_the_keyword_and_kaji_backend(monkeypatch):
    monkeypatch.delenv("KAJI_BACKEND", raising=False)
    assert kaji.jit(target="cpu")(saxpy).backend == "llvm"
    assert kaji.jit(target="cpu", backend="nvrtc")(saxpy).backend == "nvrtc"
    monkeypatch.setenv("KAJI_BACKEND", "nvrtc")
    assert kaji.jit(target="cpu")(saxpy).backend == "nvrtc"
    assert kaji.jit(target="cpu", backend="llvm")(saxpy).backend == "llvm"
    assert "backend=nvrtc" in repr(kaji.jit(target="cpu")(saxpy))


def test_unknown_backend_is_a_value_error(monkeypatch):
    with pytest.raises(ValueError, match="backend must be 'llvm' or 'nvrtc', not 'clang'"):
        kaji.jit(backend="clang")
    monkeypatch.setenv("KAJI_BACKEND", "gcc")
    with pytest.raises(ValueError, match="KAJI_BACKEND='gcc'"):
        kaji.jit(target="cpu")(saxpy)


def test_inspect_cuda_is_the_kernels_cuda_cxx():
    kernel = kaji.jit(target="cpu")(saxpy)
    source = kernel.inspect_cuda(SAXPY)
    assert '#include "kaji_prelude.cuh"' in source
    assert 'extern "C" __global__ void saxpy(f32 *out_data' in source


def test_cuda_cxx_names_the_python_file_and_lines():
    kernel = kaji.jit(target="cpu")(saxpy)
    first_line = saxpy.__code__.co_firstlineno
    source = kernel.inspect_cuda(SAXPY)
    assert f'#line {first_line + 1} "{__file__}"' in source
    assert f'#line {first_line + 3} "{__file__}"' in source


@needs_nvrtc
def test_inspect_ptx_of_an_nvrtc_kernel_comes_from_nvrtc():
    ptx = kaji.jit(target="cpu", backend="nvrtc")(saxpy).inspect_ptx(SAXPY)
    assert "NVVM" in ptx
    assert ".visible .entry saxpy(" in ptx
    llvm_ptx = kaji.jit(target="cpu")(saxpy).inspect_ptx(SAXPY)
    assert "NVVM" not in llvm_ptx


def test_nvrtc_kernel_has_no_llvm_ir():
    kernel = kaji.jit(target="cuda", backend="nvrtc")(saxpy)
    with pytest.raises(ValueError, match="the nvrtc backend makes no LLVM IR"):
        kernel.inspect_llvm(SAXPY)


def test_cpu_target_runs_through_llvm_whatever_the_backend():
    import numpy as np

    kernel = kaji.jit(target="cpu", backend="nvrtc")(saxpy)
    x = np.arange(8, dtype=np.float32)
    out = np.zeros_like(x)
    kernel[1, 8](out, np.float32(2.0), x, x)
    np.testing.assert_array_equal(out, 3 * x)


@needs_nvrtc
def test_eager_nvrtc_kernel_compiles_at_decoration():
    kernel = kaji.jit(SAXPY, target="cuda", backend="nvrtc")(saxpy)
    assert len(kernel.signatures) == 1


def test_compile_takes_the_backend_and_the_cuda_stage():
    kernel = kaji.jit(target="cpu")(saxpy)
    cuda = kaji._core.compile(kernel._source, kernel._describe_globals, SAXPY, stage="cuda",
                              backend="nvrtc")
    assert "kaji::element(" in cuda
    with pytest.raises(ValueError, match="backend must be"):
        kaji._core.compile(kernel._source, kernel._describe_globals, SAXPY, backend="clang")


@needs_nvrtc
def test_disk_cache_key_has_the_backend(monkeypatch, tmp_path):
    monkeypatch.setenv("KAJI_CACHE_DIR", str(tmp_path))
    before = kaji._core.disk_cache_stats()
    kaji.jit(SAXPY, target="cuda", cache=True, backend="llvm")(saxpy)
    kaji.jit(SAXPY, target="cuda", cache=True, backend="nvrtc")(saxpy)
    after = kaji._core.disk_cache_stats()
    assert after["stores"] - before["stores"] == 2
    assert after["hits"] == before["hits"]
    assert len(list(tmp_path.glob("*.kajicache"))) == 2
    kaji.jit(SAXPY, target="cuda", cache=True, backend="nvrtc")(saxpy)
    assert kaji._core.disk_cache_stats()["hits"] == before["hits"] + 1


def test_without_nvrtc_the_package_imports_and_compiles_and_nvrtc_is_a_clear_error(tmp_path):
    script = tmp_path / "no_nvrtc.py"
    script.write_text('''
import sys
import kaji


@kaji.jit(target="cpu", backend="nvrtc")
def scale(a):
    a[0] *= 2.0


assert "extern" in scale.inspect_cuda("void(float32[:])")
assert ".entry scale" in kaji.jit(target="cpu")(scale.py_func).inspect_ptx("void(float32[:])")
try:
    scale.inspect_ptx("void(float32[:])")
except RuntimeError as error:
    print(error)
    sys.exit(0)
sys.exit("no error")
''')
    package_dir = pathlib.Path(kaji.__file__).resolve().parents[1]
    env = dict(os.environ, KAJI_NVRTC="/nonexistent/libnvrtc.so.13",
               PYTHONPATH=os.pathsep.join([str(package_dir), os.environ.get("PYTHONPATH", "")]))
    result = subprocess.run([sys.executable, str(script)], env=env, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr + result.stdout
    assert "the nvrtc backend needs NVRTC" in result.stdout
    assert "$KAJI_NVRTC=/nonexistent/libnvrtc.so.13" in result.stdout
