"""@jit(lto=True) (Numba's link-time optimisation): the kernel is compiled to LTO-IR by the nvrtc
backend and linked with the LTO-IR of its link= files by nvJitLink, which optimises them
together; inspect_lto_ptx shows the result. Making LTO-IR and linking it into PTX happen on the
CPU, so all but the launches run without a GPU where the toolkit's NVRTC and nvJitLink are
installed: kernels with eager signatures compile for the cuda target's sm_90 without loading
(the cpu target refuses calls of declared CUDA C++ functions)."""

import pickle
import re
import warnings

import numpy as np
import pytest

import kaji
from kaji import cuda
from kaji.types import f2
from test_memory_paths import fake_driver, run_on_fake  # noqa: F401 (a fixture)
from toolkit_libraries import NVJITLINK, NVRTC, run_without_nvjitlink

needs_lto = pytest.mark.skipif(not (NVRTC and NVJITLINK), reason="needs NVRTC and nvJitLink")

# Inlined into the kernel only by link-time optimisation; scale_ptx, the same in PTX, never.
SCALE = cuda.CUSource('extern "C" __device__ int scale(float *r, float x) '
                      '{ *r = x * 1.5f; return 0; }', name="scale")
scale = cuda.declare_device("scale", "float32(float32)", link=SCALE)

SCALE_PTX = """.version 8.0
.target sm_90
.address_size 64
.visible .func (.param .b32 status) scale_ptx(.param .b64 result, .param .b32 x)
{
  .reg .b64 %rd<2>;
  .reg .f32 %f<3>;
  ld.param.u64 %rd1, [result];
  ld.param.f32 %f1, [x];
  mul.rn.f32 %f2, %f1, 0f3FC00000;
  st.f32 [%rd1], %f2;
  st.param.b32 [status], 0;
  ret;
}
"""


def scaled(out, x):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = scale(x[i])


scale_ptx = cuda.declare_device("scale_ptx", "float32(float32)")


def scaled_by_ptx(out, x):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = scale_ptx(x[i])


def half_add(out, a, b):
    out[0] = cuda.fp16.hadd(a, b)


SCALED = "void(float32[:], float32[:])"
SCALED_DEVICE = "void(float32[::1], float32[::1])"  # as a launch with device arrays types it


def test_lto_picks_the_nvrtc_backend_and_refuses_llvm(monkeypatch):
    monkeypatch.setenv("KAJI_BACKEND", "llvm")
    if NVJITLINK:
        assert cuda.jit(lto=True, target="cpu")(scaled).backend == "nvrtc"
        assert cuda.jit(lto=True, backend="nvrtc", target="cpu")(scaled).targetoptions["lto"]
    assert cuda.jit(target="cpu")(scaled).targetoptions["lto"] is False
    with pytest.raises(ValueError, match="lto=True needs the nvrtc backend"):
        cuda.jit(lto=True, backend="llvm")


def test_without_lto_inspect_lto_ptx_is_numbas_runtime_error():
    kernel = cuda.jit(target="cpu")(scaled)
    with pytest.raises(RuntimeError, match="^LTO is not enabled$"):
        kernel.inspect_lto_ptx(SCALED)


def test_without_nvjitlink_lto_is_a_runtime_error_naming_where_it_looked(tmp_path):
    program = ("from kaji import cuda\n"
               "try:\n"
               "    cuda.jit(lto=True)(lambda a: None)\n"
               "except RuntimeError as error:\n"
               "    print(error)\n")
    output = run_without_nvjitlink(program, tmp_path)
    assert "lto=True needs nvJitLink" in output
    assert "libnvJitLink.so.missing" in output and "KAJI_NVJITLINK" in output


@needs_lto
def test_numbas_spelling_takes_a_tuple_of_argument_types():
    # Numba's tests write it so. (They also look for add.f16 in the PTX: the nvrtc backend
    # adds float16 with the GPU's add.f16 too, rounded (.rn) without fast math, as the
    # multiply it might fuse with is missing.)
    compiled = cuda.jit("void(f2[:], f2, f2)", lto=True)(half_add)
    ptx = compiled.inspect_lto_ptx((f2[:], f2, f2))
    assert ".entry half_add" in ptx and "add.rn.f16" in ptx


@needs_lto
def test_the_linked_cuda_function_is_inlined_after_lto():
    kernel = cuda.jit(SCALED, lto=True, target="cuda")(scaled)
    assert re.search(r"call(.|\n)*scale", kernel.inspect_ptx(SCALED))
    ptx = kernel.inspect_lto_ptx(SCALED)
    assert ".entry scaled" in ptx
    assert "call" not in ptx and "0f3FC00000" in ptx  # x * 1.5f, in the kernel itself
    assert kaji._core.assemble_ptx(ptx, "sm_90")[:4] == b"\x7fELF"


@needs_lto
def test_without_a_signature_it_is_by_signature():
    kernel = cuda.jit(SCALED, lto=True, target="cuda")(scaled)
    by_signature = kernel.inspect_lto_ptx()
    assert list(by_signature) == kernel.signatures
    assert ".entry scaled" in by_signature[SCALED]
    assert kernel.overloads[SCALED].inspect_lto_ptx() == by_signature[SCALED]


@needs_lto
def test_code_that_is_not_lto_ir_is_left_out_with_a_warning(tmp_path):
    ops = tmp_path / "scale.ptx"
    ops.write_text(SCALE_PTX)
    kernel = cuda.jit(SCALED, lto=True, link=[str(ops)], target="cuda")(scaled_by_ptx)
    with pytest.warns(UserWarning, match="scale.ptx.*it is not optimizable at link time"):
        ptx = kernel.inspect_lto_ptx(SCALED)
    assert ".extern .func" in ptx and "scale_ptx" in ptx


@needs_lto
def test_lto_ir_files_join_the_optimisation(tmp_path):
    ltoir = tmp_path / "scale.ltoir"
    ltoir.write_bytes(kaji._core.compile_cuda_source(SCALE.data, "scale.cu", lto=True))
    declared = cuda.declare_device("scale", "float32(float32)", link=str(ltoir))

    def kernel_body(out, x):
        out[0] = declared(x[0])

    kernel = cuda.jit(SCALED, lto=True, target="cuda")(kernel_body)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ptx = kernel.inspect_lto_ptx(SCALED)
    assert "call" not in ptx and "0f3FC00000" in ptx


@needs_lto
def test_compile_makes_lto_ir_of_a_kernel():
    code, returned = cuda.compile(scaled, SCALED, device=False, abi="numba", output="ltoir")
    assert isinstance(code, bytes) and code and b".entry" not in code
    assert returned == kaji.types.none


@needs_lto
def test_the_option_travels_with_a_pickled_kernel():
    kernel = pickle.loads(pickle.dumps(cuda.jit(lto=True, target="cpu")(scaled)))
    assert kernel.targetoptions["lto"] and kernel.backend == "nvrtc"
    assert ".entry scaled" in kernel.inspect_lto_ptx(SCALED)


@needs_lto
def test_a_launch_links_and_loads_the_kernel_on_the_fake_driver(fake_driver, tmp_path):
    # The fake driver loads any module and runs nothing: the host side of the launch, from
    # LTO-IR through nvJitLink's PTX to the loaded module, alone with CUDA C++ and then with
    # a .ptx file, which nvJitLink links with the optimised PTX into a cubin.
    ops = tmp_path / "scale.ptx"
    ops.write_text(SCALE_PTX)
    run_on_fake(fake_driver, f"""
        scale = cuda.declare_device("scale", "float32(float32)", link=cuda.CUSource(
            'extern "C" __device__ int scale(float *r, float x) {{ *r = x * 1.5f; return 0; }}'))
        scale_ptx = cuda.declare_device("scale_ptx", "float32(float32)", link={str(ops)!r})

        @cuda.jit(lto=True)
        def scaled(out, x):
            out[0] = scale(x[0])

        @cuda.jit(lto=True)
        def scaled_by_ptx(out, x):
            out[0] = scale_ptx(x[0])

        x = cuda.to_device(np.ones(4, dtype=np.float32))
        out = cuda.device_array(4, dtype=np.float32)
        scaled[1, 1](out, x)
        scaled_by_ptx[1, 1](out, x)
        assert scaled.signatures == scaled_by_ptx.signatures == ["{SCALED_DEVICE}"]
    """)


@needs_lto
@pytest.mark.gpu
def test_runs_on_the_gpu_after_lto():
    kernel = cuda.jit(lto=True, target="cuda")(scaled)
    x = np.arange(100, dtype=np.float32)
    out = cuda.device_array_like(x)
    kernel[1, 128](out, cuda.to_device(x))
    np.testing.assert_allclose(out.copy_to_host(), x * 1.5)


@needs_lto
@pytest.mark.gpu
def test_runs_on_the_gpu_linked_after_lto_with_code_that_is_not_lto_ir(tmp_path):
    ops = tmp_path / "scale.ptx"
    ops.write_text(SCALE_PTX)
    kernel = cuda.jit(lto=True, link=[str(ops)], target="cuda")(scaled_by_ptx)
    x = np.arange(100, dtype=np.float32)
    out = cuda.device_array_like(x)
    kernel[1, 128](out, cuda.to_device(x))
    np.testing.assert_allclose(out.copy_to_host(), x * 1.5)
