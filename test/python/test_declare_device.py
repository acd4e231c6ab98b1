"""CUDA C++ device functions called from kernels: cuda.declare_device and @jit(link=...).

Without a GPU: both GPU backends' PTX calls the declared symbol by Numba's ABI and ptxas
assembles it (relocatably, -c); NVRTC compiles the example's ops.cu; nvlink joins the two, which
proves the ABIs match; the cpu target and bad declarations are clear errors. With a GPU the
example runs (test_runs_on_the_gpu)."""

import os
import pathlib
import re
import subprocess

import numpy as np
import pytest
from toolkit_libraries import NVRTC, assemble_relocatable
from toolkit_libraries import program as tool

import kaji
from kaji import cuda

EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / "examples" / "cuda_device_function"
OPS = str(EXAMPLE / "ops.cu")

needs_nvrtc = pytest.mark.skipif(not NVRTC, reason="no NVRTC here")
needs_ptxas = pytest.mark.skipif(tool("ptxas") is None, reason="no ptxas here")

hypotenuse = cuda.declare_device("hypotenuse", "float32(float32, float32)", link=OPS)


def scaled_hypotenuse(out, a, b):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = 2 * hypotenuse(a[i], b[i])


SIGNATURE = "void(float32[:], float32[:], float32[:])"


def gpu_code(backend, stage):
    kernel = kaji.jit(target="cpu", backend=backend)(scaled_hypotenuse)
    return kaji._core.compile(kernel._source, kernel._describe_globals, SIGNATURE, stage=stage,
                              backend=backend)


@pytest.mark.parametrize("backend", ["llvm", pytest.param("nvrtc", marks=needs_nvrtc)])
def test_the_ptx_calls_the_declared_symbol_by_numbas_abi(backend):
    ptx = gpu_code(backend, "ptx")
    # int hypotenuse(float *result, float a, float b): a 32-bit status, a pointer, two floats.
    start = ptx.index(".extern .func")
    declaration = " ".join(ptx[start:ptx.index(";", start)].split())
    assert "(.param .b32" in declaration and "hypotenuse" in declaration
    assert [word for word in declaration.split() if word in (".b64", ".b32", ".f32")][1:] \
        in ([".b64", ".b32", ".b32"], [".b64", ".f32", ".f32"])
    assert "hypotenuse," in ptx.replace(" ", "").replace("\t", "")


def test_the_cuda_cpp_declares_and_calls_it():
    source = gpu_code("nvrtc", "cuda")
    assert 'extern "C" __device__ int hypotenuse(f32 *, f32, f32);' in source
    assert "hypotenuse(&" in source


@needs_ptxas
@pytest.mark.parametrize("backend", ["llvm", pytest.param("nvrtc", marks=needs_nvrtc)])
def test_ptxas_assembles_the_caller_and_nvlink_resolves_it_with_nvrtcs_ops(backend, tmp_path):
    caller = assemble_relocatable(gpu_code(backend, "ptx"), tmp_path, "caller")
    if not NVRTC or tool("nvlink") is None:
        pytest.skip("linking needs NVRTC and nvlink")
    ops = assemble_relocatable(kaji._core.compile_cuda_source(open(OPS).read(), OPS), tmp_path,
                               "ops")
    linked = subprocess.run([tool("nvlink"), "-arch=sm_90", str(caller), str(ops), "-o",
                             str(tmp_path / "linked.cubin")], capture_output=True, text=True)
    assert linked.returncode == 0, linked.stderr
    alone = subprocess.run([tool("nvlink"), "-arch=sm_90", str(caller), "-o",
                            str(tmp_path / "alone.cubin")], capture_output=True, text=True)
    assert alone.returncode != 0 and "hypotenuse" in alone.stderr


@needs_nvrtc
def test_nvrtc_compiles_the_cuda_file_keeping_its_functions():
    ptx = kaji._core.compile_cuda_source(open(OPS).read(), OPS)
    assert ".visible .func" in ptx and "hypotenuse" in ptx and "clamp_index" in ptx


@needs_nvrtc
def test_a_cuda_file_nvrtc_rejects_names_the_file():
    with pytest.raises(RuntimeError, match=r"NVRTC could not compile 'bad\.cu'"):
        kaji._core.compile_cuda_source('extern "C" __device__ int f(float *r) { return x; }',
                                       "bad.cu")


def test_the_cpu_target_cannot_call_it():
    kernel = kaji.jit(target="cpu")(scaled_hypotenuse)
    with pytest.raises(kaji.CompileError,
                       match="'hypotenuse' is a CUDA C\\+\\+ device function .* only the cuda "
                             "target can link it"):
        kernel[1, 1](np.zeros(1, np.float32), np.ones(1, np.float32), np.ones(1, np.float32))


def test_arguments_are_checked_against_the_declaration():
    def wrong_count(out, a):
        out[0] = hypotenuse(a[0])

    kernel = kaji.jit(target="cpu")(wrong_count)
    with pytest.raises(kaji.CompileError, match="'hypotenuse' takes 2 argument"):
        kernel[1, 1](np.zeros(1, np.float32), np.ones(1, np.float32))


def test_declarations_take_strings_and_signature_objects():
    for sig in ("int32(float32[:])", kaji.int32(kaji.float32[:])):
        declared = cuda.declare_device("f1", sig)
        assert declared.name == "f1"
        assert declared.sig.args == (kaji.float32[:],)
        assert declared.sig.return_type == kaji.int32
    assert cuda.declare_device("g", kaji.float64(kaji.int32, kaji.float32)).sig.args == (
        kaji.int32, kaji.float32)


def test_only_c_numbers_pass_to_a_declared_function():
    takes_array = cuda.declare_device("takes_array", "int32(float32[:])")
    returns_bool = cuda.declare_device("returns_bool", "bool(float32)")

    def call_with_array(out, a):
        out[0] = takes_array(a)

    def call_returning_bool(out, a):
        out[0] = returns_bool(a[0])

    for kernel, declared in ((call_with_array, "int32(float32[:])"),
                             (call_returning_bool, "bool(float32)")):
        with pytest.raises(kaji.CompileError, match=re.escape(
                f"is declared '{declared}'; kernels call declared functions that take and "
                "return C integers and floats")):
            kaji.jit(target="cpu")(kernel)[1, 1](np.zeros(1, np.float32),
                                                 np.ones(1, np.float32))


def test_declarations_are_checked():
    for sig in ((kaji.float32[:],), "(float32[:],)"):
        with pytest.raises(TypeError, match="Return type must be given"):
            cuda.declare_device("f1", sig)
    with pytest.raises(ValueError, match="C identifier"):
        cuda.declare_device("not a name", "float32(float32)")
    with pytest.raises(FileNotFoundError, match="missing.cu"):
        cuda.declare_device("f", "float32(float32)", link="missing.cu")
    with pytest.raises(ValueError, match=r"Don't know how to link file with extension \.txt "
                                         r"\('ops.txt'"):
        kaji.jit(link="ops.txt")
    with pytest.raises(RuntimeError, match="Don't know how to link file with no extension"):
        kaji.jit(link="data")  # Numba's class too


@pytest.mark.parametrize("backend", ["llvm", "nvrtc"])
def test_runs_on_the_gpu(backend):
    if not cuda.is_available():
        pytest.skip("needs a GPU")
    package = str(pathlib.Path(kaji.__file__).resolve().parents[1])
    environment = {**os.environ, "KAJI_TARGET": "cuda", "KAJI_BACKEND": backend,
                   "PYTHONPATH": package + os.pathsep + os.environ.get("PYTHONPATH", "")}
    result = subprocess.run(["python3", str(EXAMPLE / "hypotenuse.py")], capture_output=True,
                            text=True, env=environment)
    assert result.returncode == 0, result.stderr
    error = float(result.stdout.split(":")[1])
    assert error < 1e-3


C_ABI_SOURCE = """
extern "C" __device__ int add2(int a, int b) { return a + b; }
extern "C" __device__ int const42() { return 42; }
extern "C" __device__ void consume(int a) { asm volatile("" : : "r"(a) : "memory"); }
"""

add2 = cuda.declare_device("add2", "int32(int32, int32)", abi="c")
const42 = cuda.declare_device("const42", "int32()", abi="c")
consume = cuda.declare_device("consume", "void(int32)", abi="c")


def calls_by_the_c_abi(out, x):
    i = cuda.grid(1)
    if i < out.size:
        consume(x[i])
        out[i] = add2(x[i], i) + const42()


C_ABI_SIGNATURE = "void(int32[::1], int32[::1])"


def c_abi_code(backend, stage):
    kernel = kaji.jit(target="cpu", backend=backend)(calls_by_the_c_abi)
    return kaji._core.compile(kernel._source, kernel._describe_globals, C_ABI_SIGNATURE,
                              stage=stage, backend=backend)


def test_declarations_by_the_c_abi_are_checked():
    with pytest.raises(ValueError, match="abi must be 'numba' or 'c', not 'cpp'"):
        cuda.declare_device("f", "int32(int32)", abi="cpp")


NUMBA_ABI_VOID_SOURCE = """
extern "C" __device__ int consume_numba(void *unused, int a) {
  asm volatile("" : : "r"(a) : "memory");
  return 0;
}
"""

consume_numba = cuda.declare_device("consume_numba", "void(int32)")


def calls_void_by_numbas_abi(out, x):
    consume_numba(x[0])


@pytest.mark.parametrize("backend", ["llvm", pytest.param("nvrtc", marks=needs_nvrtc)])
def test_a_void_function_by_numbas_abi_still_takes_the_result_pointer(backend, tmp_path):
    kernel = kaji.jit(target="cpu", backend=backend)(calls_void_by_numbas_abi)
    ptx = kaji._core.compile(kernel._source, kernel._describe_globals, C_ABI_SIGNATURE,
                             stage="ptx", backend=backend)
    assert (".extern .func (.param .b32 func_retval0) consume_numba ( .param .b64 "
            "consume_numba_param_0, .param .b32 consume_numba_param_1 ) ;") in " ".join(
                ptx.split())
    if not NVRTC or tool("nvlink") is None or tool("ptxas") is None:
        pytest.skip("linking needs NVRTC, ptxas and nvlink")
    caller = assemble_relocatable(ptx, tmp_path, "caller")
    callee = assemble_relocatable(
        kaji._core.compile_cuda_source(NUMBA_ABI_VOID_SOURCE, "void.cu"), tmp_path, "void")
    linked = subprocess.run([tool("nvlink"), "-arch=sm_90", str(caller), str(callee), "-o",
                             str(tmp_path / "linked.cubin")], capture_output=True, text=True)
    assert linked.returncode == 0, linked.stderr


@pytest.mark.parametrize("backend", ["llvm", pytest.param("nvrtc", marks=needs_nvrtc)])
def test_the_ptx_calls_c_abi_functions_with_their_results_returned(backend):
    ptx = " ".join(c_abi_code(backend, "ptx").split())
    for declaration in (".extern .func consume ( .param .b32 consume_param_0 ) ;",
                        ".extern .func (.param .b32 func_retval0) add2 ( .param .b32 "
                        "add2_param_0, .param .b32 add2_param_1 ) ;",
                        ".extern .func (.param .b32 func_retval0) const42 () ;"):
        assert declaration in ptx, ptx


def test_the_cuda_cpp_declares_c_abi_functions_as_they_are():
    source = c_abi_code("nvrtc", "cuda")
    assert 'extern "C" __device__ i32 add2(i32, i32);' in source
    assert 'extern "C" __device__ i32 const42();' in source
    assert 'extern "C" __device__ void consume(i32);' in source


@needs_ptxas
@pytest.mark.parametrize("backend", ["llvm", pytest.param("nvrtc", marks=needs_nvrtc)])
def test_nvlink_resolves_c_abi_calls_with_nvrtcs_code(backend, tmp_path):
    if not NVRTC or tool("nvlink") is None:
        pytest.skip("linking needs NVRTC and nvlink")
    caller = assemble_relocatable(c_abi_code(backend, "ptx"), tmp_path, "caller")
    functions = assemble_relocatable(
        kaji._core.compile_cuda_source(C_ABI_SOURCE, "c_abi.cu"), tmp_path, "c_abi")
    linked = subprocess.run([tool("nvlink"), "-arch=sm_90", str(caller), str(functions), "-o",
                             str(tmp_path / "linked.cubin")], capture_output=True, text=True)
    assert linked.returncode == 0, linked.stderr


@pytest.mark.parametrize("backend", ["llvm", "nvrtc"])
def test_c_abi_functions_run_on_the_gpu(backend):
    if not cuda.is_available():
        pytest.skip("needs a GPU")
    source = cuda.CUSource(C_ABI_SOURCE)
    adds, answer, swallow = [
        cuda.declare_device(name, sig, link=source, abi="c")
        for name, sig in (("add2", "int32(int32, int32)"), ("const42", "int32()"),
                          ("consume", "void(int32)"))]

    @cuda.jit(backend=backend)
    def kernel(out, x):
        i = cuda.grid(1)
        if i < out.size:
            swallow(x[i])
            out[i] = adds(x[i], i) + answer()

    x = np.arange(10, dtype=np.int32)
    out = np.zeros_like(x)
    kernel[1, 32](out, x)
    np.testing.assert_array_equal(out, x + np.arange(10) + 42)


@needs_nvrtc
def test_nvrtc_searches_the_configured_include_directories(tmp_path):
    from kaji.cuda import config

    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    (tmp_path / "one" / "twice.h").write_text("__device__ float twice(float x) { return 2 * x; }\n")
    (tmp_path / "two" / "thrice.h").write_text("__device__ float thrice(float x) { return 3 * x; }\n")
    source = ('#include "twice.h"\n#include "thrice.h"\n'
              'extern "C" __device__ int both(float *r, float x) { *r = twice(thrice(x)); '
              "return 0; }\n")
    assert config.CUDA_NVRTC_EXTRA_SEARCH_PATHS == ""
    with pytest.raises(RuntimeError, match="twice.h"):
        kaji._core.compile_cuda_source(source, "both.cu")
    config.CUDA_NVRTC_EXTRA_SEARCH_PATHS = f"{tmp_path / 'one'}:{tmp_path / 'two'}"
    try:
        assert config.CUDA_NVRTC_EXTRA_SEARCH_PATHS == f"{tmp_path / 'one'}:{tmp_path / 'two'}"
        assert ".func" in kaji._core.compile_cuda_source(source, "both.cu")
    finally:
        config.CUDA_NVRTC_EXTRA_SEARCH_PATHS = ""
    with pytest.raises(TypeError, match="separated by ':'"):
        config.CUDA_NVRTC_EXTRA_SEARCH_PATHS = 3


@needs_nvrtc
@pytest.mark.parametrize("header, body", [
    ("cuda_fp16.h", "*r = __float2half(x) + __float2half(1.0f); return 0;"),
    ("curand_kernel.h", "curandStateXORWOW_t s; curand_init(7, 0, 0, &s); *r = curand(&s); "
                        "return 0;"),
])
def test_nvrtc_finds_the_cuda_toolkits_headers(header, body):
    # As Numba's NVRTC compile: linked CUDA C++ includes the toolkit's headers without a
    # configured search path (curand's need libcu++, which CUDA 13 keeps in include/cccl).
    library = pathlib.Path(kaji._core.nvrtc_version()[2])
    roots = [library.resolve().parent.parent] if library.is_absolute() else []
    roots += [pathlib.Path(os.environ.get(name) or "/nonexistent") for name in ("CUDA_HOME",
                                                                               "CUDA_PATH")]
    if not any((root / "include" / header).exists()
               for root in roots + [pathlib.Path("/usr/local/cuda")]):
        pytest.skip(f"no CUDA toolkit with {header} here")
    result = "__half" if header == "cuda_fp16.h" else "unsigned int"
    source = (f"#include <{header}>\n"
              f'extern "C" __device__ int f({result} *r, float x) {{ {body} }}\n')
    assert ".visible .func" in kaji._core.compile_cuda_source(source, "uses_toolkit.cu")


def test_use_cooperative_makes_a_kernel_that_calls_it_cooperative():
    waits = cuda.declare_device("grid_wait", "int32(int32)", use_cooperative=True)
    plain = cuda.declare_device("block_wait", "int32(int32)")

    def calls_cooperative(out):
        out[0] = waits(1)

    def calls_plain(out):
        out[0] = plain(1)

    for func, cooperative in ((calls_cooperative, True), (calls_plain, False)):
        kernel = kaji.jit(target="cuda")(func)
        assert kernel.is_cooperative("(int32[::1],)") is cooperative
    with pytest.raises(TypeError, match="use_cooperative is True or False, not 1"):
        cuda.declare_device("grid_wait", "int32(int32)", use_cooperative=1)
