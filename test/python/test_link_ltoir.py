"""LTO-IR (.ltoir) in link=: nvJitLink links the kernel's PTX with it on the CPU, so these run
without a GPU where the toolkit's libnvJitLink and NVRTC are installed. The LTO-IR is made here
by NVRTC -dlto from the example's ops.cu. With a GPU, the example runs with its LTO-IR
(test_runs_on_the_gpu_with_lto_ir)."""

import os
import pathlib
import re
import subprocess
import sys

import pytest

import kaji
from kaji import cuda
from toolkit_libraries import NVJITLINK, NVRTC, run_without_nvjitlink

EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / "examples" / "cuda_device_function"
OPS = EXAMPLE / "ops.cu"
# Defines a function no kernel here calls: an LTO-IR input that leaves `hypotenuse` undefined.
UNRELATED = 'extern "C" __device__ int unrelated(float *r, float a) { *r = a; return 0; }'


needs_lto = pytest.mark.skipif(not (NVRTC and NVJITLINK), reason="needs NVRTC and nvJitLink")

hypotenuse = cuda.declare_device("hypotenuse", "float32(float32, float32)", link=str(OPS))


def scaled_hypotenuse(out, a, b):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = 2 * hypotenuse(a[i], b[i])


def kernel_ptx(backend):
    """The kernel's PTX and its entry point's name."""
    kernel = kaji.jit(target="cpu", backend=backend)(scaled_hypotenuse)
    ptx = kaji._core.compile(kernel._source, kernel._describe_globals,
                             "void(float32[:], float32[:], float32[:])", stage="ptx",
                             backend=backend)
    return ptx, re.search(r"\.entry\s+(\w+)", ptx).group(1)


def lto_ir(source, directory, name):
    path = directory / f"{name}.ltoir"
    path.write_bytes(kaji._core.compile_cuda_source(source, f"{name}.cu", lto=True))
    return str(path)


@needs_lto
def test_nvrtc_makes_lto_ir_of_a_cuda_file():
    code = kaji._core.compile_cuda_source(OPS.read_text(), str(OPS), lto=True)
    assert isinstance(code, bytes) and code
    assert b".visible" not in code  # not PTX


@needs_lto
@pytest.mark.parametrize("backend", ["llvm", "nvrtc"])
def test_the_kernels_ptx_links_with_lto_ir_into_a_cubin(backend, tmp_path):
    ptx, entry = kernel_ptx(backend)
    cubin = kaji._core.link_kernel(ptx, "scaled_hypotenuse", "sm_90",
                                   [lto_ir(OPS.read_text(), tmp_path, "ops")])
    assert cubin[:4] == b"\x7fELF"
    assert entry.encode() in cubin


@needs_lto
def test_cuda_files_become_lto_ir_when_linked_with_lto_ir(tmp_path):
    # ops.cu defines hypotenuse; with an .ltoir beside it, NVRTC compiles it to LTO-IR too,
    # so that nvJitLink optimises it with the rest.
    ptx, entry = kernel_ptx("llvm")
    cubin = kaji._core.link_kernel(ptx, "scaled_hypotenuse", "sm_90",
                                   [lto_ir(UNRELATED, tmp_path, "unrelated"), str(OPS)])
    assert entry.encode() in cubin


@needs_lto
def test_a_missing_symbol_names_it_and_the_files(tmp_path):
    ptx, _ = kernel_ptx("llvm")
    unrelated = lto_ir(UNRELATED, tmp_path, "unrelated")
    with pytest.raises(kaji.LinkError) as raised:
        kaji._core.link_kernel(ptx, "scaled_hypotenuse", "sm_90", [unrelated])
    message = str(raised.value)
    assert "'hypotenuse'" in message and "unrelated.ltoir" in message
    assert "scaled_hypotenuse.ptx" in message


@needs_lto
def test_a_file_that_is_not_lto_ir_names_it(tmp_path):
    ptx, _ = kernel_ptx("llvm")
    bogus = tmp_path / "bogus.ltoir"
    bogus.write_bytes(b"not LTO-IR at all")
    with pytest.raises(kaji.LinkError, match="bogus.ltoir"):
        kaji._core.link_kernel(ptx, "scaled_hypotenuse", "sm_90", [str(bogus)])


def test_without_nvjitlink_the_error_names_the_ltoir_file_and_the_library(tmp_path):
    bogus = tmp_path / "ops.ltoir"
    bogus.write_bytes(b"LTO-IR")
    program = ("import kaji\n"
               "try:\n"
               f"    kaji._core.link_kernel('.version 8.0', 'k', 'sm_90', [{str(bogus)!r}])\n"
               "except RuntimeError as error:\n"
               "    print(type(error).__name__, error)\n")
    output = run_without_nvjitlink(program, tmp_path)
    assert "cannot link" in output and "ops.ltoir" in output
    assert "libnvJitLink.so" in output and "KAJI_NVJITLINK" in output


def test_link_takes_ltoir_files(tmp_path):
    ltoir = tmp_path / "ops.ltoir"
    ltoir.write_bytes(b"LTO-IR")  # not read until a kernel is loaded
    declared = cuda.declare_device("f", "float32(float32)", link=str(ltoir))
    assert declared.link == (str(ltoir),)
    with pytest.raises(ValueError, match=r"\.ltoir"):
        kaji.jit(link=str(tmp_path / "ops.txt"))


@needs_lto
@pytest.mark.parametrize("backend", ["llvm", "nvrtc"])
def test_runs_on_the_gpu_with_lto_ir(backend, tmp_path):
    if not cuda.is_available():
        pytest.skip("needs a GPU")
    package = str(pathlib.Path(kaji.__file__).resolve().parents[1])
    environment = {**os.environ, "KAJI_TARGET": "cuda", "KAJI_BACKEND": backend,
                   "PYTHONPATH": package + os.pathsep + os.environ.get("PYTHONPATH", "")}
    ltoir = lto_ir(OPS.read_text(), tmp_path, "ops")
    result = subprocess.run([sys.executable, str(EXAMPLE / "hypotenuse.py"), ltoir],
                            capture_output=True, text=True, env=environment)
    assert result.returncode == 0, result.stderr
    error = float(result.stdout.split(":")[1])
    assert error < 1e-3
