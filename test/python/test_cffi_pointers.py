"""C pointers into CUDA C++ functions: ffi.from_buffer(array) in a kernel gives the pointer to
the array's data, which a cuda.declare_device function declared with `CPointer(float32)`
(or `float32*`) takes, as in Numba's documentation (docs/numba-compat.md)."""

import subprocess

import cffi  # requirements-dev.txt
import numpy as np
import pytest
from toolkit_libraries import NVRTC, assemble_relocatable
from toolkit_libraries import program as tool

import kaji
from kaji import cuda

ffi = cffi.FFI()

SUM_REDUCE = """
extern "C" __device__ int sum_reduce(float *result, float *array, int n) {
  float total = 0.0f;
  for (int i = 0; i < n; ++i)
    total += array[i];
  *result = total;
  return 0;
}
"""

sum_reduce = cuda.declare_device("sum_reduce", "float32(CPointer(float32), int32)")


def reduction_caller(result, array):
    result[0] = sum_reduce(ffi.from_buffer(array), len(array))


SIGNATURE = "void(float32[::1], float32[::1])"


def ptx_of(backend):
    kernel = kaji.jit(target="cpu", backend=backend)(reduction_caller)
    return kaji._core.compile(kernel._source, kernel._describe_globals, SIGNATURE, stage="ptx",
                              backend=backend)


def test_cpointer_is_numbas_spelling_of_a_pointer():
    assert sum_reduce.sig.args == (kaji.types.CPointer(kaji.float32), kaji.int32)
    assert kaji._core.canonical_signature("float32(CPointer(float32), int32)") == \
        kaji._core.canonical_signature("float32(float32*, int32)")


@pytest.mark.parametrize("backend", ["llvm", pytest.param(
    "nvrtc", marks=pytest.mark.skipif(not NVRTC, reason="no NVRTC here"))])
def test_the_pointer_passes_as_an_address_and_links(backend, tmp_path):
    ptx = " ".join(ptx_of(backend).split())
    assert (".extern .func (.param .b32 func_retval0) sum_reduce ( .param .b64 sum_reduce_param_0,"
            " .param .b64 sum_reduce_param_1, .param .b32 sum_reduce_param_2 ) ;") in ptx, ptx
    if not NVRTC or tool("nvlink") is None or tool("ptxas") is None:
        pytest.skip("linking needs NVRTC, ptxas and nvlink")
    caller = assemble_relocatable(ptx_of(backend), tmp_path, "caller")
    callee = assemble_relocatable(kaji._core.compile_cuda_source(SUM_REDUCE, "sum.cu"),
                                  tmp_path, "sum")
    linked = subprocess.run([tool("nvlink"), "-arch=sm_90", str(caller), str(callee), "-o",
                             str(tmp_path / "linked.cubin")], capture_output=True, text=True)
    assert linked.returncode == 0, linked.stderr


def pass_local_and_shared_arrays(result, array):
    local = cuda.local.array(4, np.float32)
    shared = cuda.shared.array(4, np.float32)
    for i in range(4):
        local[i] = array[i]
        shared[i] = array[i] * 2
    result[0] = sum_reduce(ffi.from_buffer(local), 4) + sum_reduce(shared, 4)


@pytest.mark.parametrize("backend", ["llvm", pytest.param(
    "nvrtc", marks=pytest.mark.skipif(not NVRTC, reason="no NVRTC here"))])
def test_local_and_shared_arrays_pass_their_generic_address(backend):
    # As Numba's ffi.from_buffer(cuda.local.array(...)): the callee reads a generic pointer.
    jitted = kaji.jit(target="cpu")(pass_local_and_shared_arrays)
    ptx = kaji._core.compile(jitted._source, jitted._describe_globals, SIGNATURE, stage="ptx",
                             backend=backend)
    assert "cvta.shared" in ptx and "call.uni" in ptx and ptx.count("sum_reduce,") == 2, ptx
    if tool("ptxas") is not None:
        subprocess.run([tool("ptxas"), "--gpu-name", "sm_90", "-c", "-o", "/dev/null", "-"],
                       input=ptx, text=True, check=True)


def pass_a_strided_buffer(result, array):
    result[0] = sum_reduce(ffi.from_buffer(array[::2]), 2)


def pass_float64(result, array):
    result[0] = sum_reduce(ffi.from_buffer(array), len(array))


def pass_a_number(result, array):
    result[0] = sum_reduce(array[0], len(array))


@pytest.mark.parametrize("kernel, signature, message", [
    (pass_a_strided_buffer, SIGNATURE, r"from_buffer\(\) unsupported on non-contiguous buffers: "
                                       r"'array\[::2\]' is float32\[:\]"),
    (pass_float64, "void(float32[::1], float64[::1])",
     r"cannot pass 'float64\[::1\]' as argument 1 of CUDA C\+\+ device function 'sum_reduce', "
     r"a pointer to float32"),
    (pass_a_number, SIGNATURE, r"cannot pass 'float32' as argument 1 of CUDA C\+\+ device "
                               r"function 'sum_reduce', a pointer to float32"),
])
def test_what_is_no_pointer_of_the_declared_type_is_a_compile_error(kernel, signature, message):
    jitted = kaji.jit(target="cpu")(kernel)
    with pytest.raises(kaji.CompileError, match=message):
        kaji._core.compile(jitted._source, jitted._describe_globals, signature, stage="ptx")


def test_the_documentation_example_runs_on_the_gpu():
    if not cuda.is_available():
        pytest.skip("needs a GPU")
    declared = cuda.declare_device("sum_reduce", "float32(CPointer(float32), int32)",
                                   link=cuda.CUSource(SUM_REDUCE))

    @cuda.jit
    def kernel(result, array):
        result[()] = declared(ffi.from_buffer(array), len(array))

    x = np.arange(10).astype(np.float32)
    r = np.ndarray((), dtype=np.float32)
    kernel[1, 1](r, x)
    np.testing.assert_allclose(r[()], x.sum())


def test_a_void_function_mutates_the_array_on_the_gpu():
    if not cuda.is_available():
        pytest.skip("needs a GPU")
    mutator = cuda.declare_device("array_mutator", "void(CPointer(int32))", link=cuda.CUSource(
        'extern "C" __device__ int array_mutator(void *out, int *a) { a[0] = a[1]; return 0; }'))

    @cuda.jit
    def kernel(x):
        mutator(ffi.from_buffer(x))

    x = np.arange(2).astype(np.int32)
    kernel[1, 1](x)
    assert x[0] == x[1] == 1
