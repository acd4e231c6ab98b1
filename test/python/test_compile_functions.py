"""Numba's compile functions under kaji.cuda (compile, compile_ptx, compile_all, the
_for_current_device ones): a kernel's PTX for a signature and compute capability, no GPU
needed, with Numba's defaults and Numba's errors for what they refuse."""

import re

import pytest
from toolkit_libraries import NVJITLINK, NVRTC
from toolkit_libraries import program as tool

import kaji
from kaji import cuda
from kaji.cuda import types


def scale(out, x, factor):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = cuda.libdevice.sqrt(x[i]) * factor


SIGNATURES = [
    (types.float64[::1], types.float64[::1], types.float64),
    types.void(types.float64[::1], types.float64[::1], types.float64),
    "void(float64[::1], float64[::1], float64)",
]


@pytest.mark.parametrize("sig", SIGNATURES, ids=["tuple", "signature", "string"])
def test_compile_ptx_makes_the_kernels_ptx_and_its_void_return_type(sig):
    ptx, resty = cuda.compile_ptx(scale, sig)
    assert resty == types.void
    assert ".visible .entry" in ptx and "ld.param" in ptx and "st.global" in ptx, ptx
    assert "sqrt.rn.f64" in ptx


def test_the_compute_capability_is_numbas_lowest_unless_given():
    ptx, _ = cuda.compile_ptx(scale, SIGNATURES[0])
    assert ".target sm_75" in ptx
    ptx, _ = cuda.compile_ptx(scale, SIGNATURES[0], cc=(8, 6))
    assert ".target sm_86" in ptx


def test_compile_of_a_kernel_is_compile_ptx():
    assert cuda.compile(scale, SIGNATURES[0], device=False, abi="numba") == cuda.compile_ptx(
        scale, SIGNATURES[0])
    [ptx], resty = cuda.compile_all(scale, SIGNATURES[0], device=False, abi="numba")
    assert (ptx, resty) == cuda.compile_ptx(scale, SIGNATURES[0])


def test_options_reach_the_ptx():
    plain, _ = cuda.compile_ptx(scale, SIGNATURES[0])
    with_lines, _ = cuda.compile_ptx(scale, SIGNATURES[0], lineinfo=True)
    assert ".loc" not in plain and ".loc" in with_lines
    bounded, _ = cuda.compile_ptx(scale, SIGNATURES[0], launch_bounds=128)
    assert ".maxntid 128" in bounded


def test_debug_gives_dwarf_line_tables_and_a_device_function_its_lines():
    def nothing():
        pass

    for device in (False, True):
        lines, _ = cuda.compile_ptx(nothing, (), device=device, lineinfo=True)
        assert '.file' in lines and 'test_compile_functions.py"' in lines
        assert not re.search(r"\.section\s+\.debug_info", lines)
        debug, _ = cuda.compile_ptx(nothing, (), device=device, debug=True, opt=False)
        assert re.search(r"\.section\s+\.debug_info", debug)
        assert 'test_compile_functions.py"' in debug
        assert re.search(r"\.target sm_\d+, debug", debug)


def test_an_architecture_specific_target_is_a_third_element():
    ptx, _ = cuda.compile_ptx(scale, SIGNATURES[0], cc=(9, 0, "a"))
    assert ".target sm_90a" in ptx
    for cc in [(9, 0, "x"), (9,), "sm_90", (9, "0")]:
        with pytest.raises(ValueError, match="cc must be"):
            cuda.compile_ptx(scale, SIGNATURES[0], cc=cc)


@pytest.mark.bytecode
def test_a_lambda_without_source_text_is_named_as_one_with_it():
    without_source = eval("lambda out: None")
    with_source = lambda out: None  # noqa: E731
    for func in (without_source, with_source):
        ptx, _ = cuda.compile_ptx(func, (types.float64[::1],))
        assert ".visible .entry _lambda(" in ptx


@pytest.mark.skipif(not NVRTC, reason="no NVRTC here")
@pytest.mark.parametrize("cc", [(10, 0), (12, 0)])
def test_a_gpu_newer_than_llvm_knows_gets_nvrtcs_ptx(cc):
    """Blackwell and later by name: LLVM 19 stops at sm_90a, so NVRTC makes the code, for
    kernels and device functions alike."""
    arch = f"sm_{cc[0]}{cc[1]}"
    ptx, resty = cuda.compile_ptx(scale, SIGNATURES[0], cc=cc)
    assert resty == types.void and f".target {arch}" in ptx and ".visible .entry" in ptx, ptx
    code, returned = cuda.compile(lambda x, y: x * y, (types.float32, types.float32), cc=cc)
    assert f".target {arch}" in code and returned == types.float32
    kernel = kaji.jit(target="cuda")(scale)
    with pytest.raises(RuntimeError, match=f"unknown GPU architecture '{arch}'"):
        kernel.inspect("(float64[::1], float64[::1], float64)", "llvm", arch)


def test_a_kernel_that_does_not_compile_raises_at_the_users_line():
    def broken(out):
        out[0] = undefined_name  # noqa: F821

    with pytest.raises(kaji.CompileError, match="test_compile_functions.py:.*undefined_name"):
        cuda.compile_ptx(broken, (types.float64[::1],))


@pytest.mark.parametrize("call, error, message", [
    (lambda: cuda.compile(scale, SIGNATURES[0]), kaji.CompileError,
     "device function 'scale' compiled on its own takes numbers"),
    (lambda: cuda.compile_ptx(scale, SIGNATURES[0], device=True), kaji.CompileError,
     "device function 'scale' compiled on its own takes numbers"),
    (lambda: cuda.compile(scale, SIGNATURES[0], device=False), NotImplementedError,
     "The C ABI is not supported for kernels"),
    (lambda: cuda.compile(scale, SIGNATURES[0], device=False, abi="numba", output="sass"),
     NotImplementedError, "Unsupported output type: sass"),
    (lambda: cuda.compile(scale, SIGNATURES[0], device=True, output="cubin"),
     NotImplementedError, "output='cubin' is a kernel's"),
    (lambda: cuda.compile(scale, SIGNATURES[0], device=False, abi="fortran"),
     NotImplementedError, "Unsupported ABI: fortran"),
    (lambda: cuda.compile_ptx(scale, SIGNATURES[0], forceinline=True), ValueError,
     "Cannot force-inline kernels"),
    (lambda: cuda.compile_ptx(scale, "int32(float64[::1], float64[::1], float64)"),
     kaji.CompileError, "a kernel's signature must return void"),
    (lambda: cuda.compile_ptx(scale, (types.float64[::1],)), TypeError,
     "takes 3 arguments but the signature"),
])
def test_what_kaji_and_numba_refuse(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_compile_is_not_a_star_import():
    names = {}
    exec("from kaji.cuda import *", names)
    assert "compile_ptx" in names and "compile" not in names


@pytest.mark.gpu
def test_the_current_devices_compute_capability():
    major, minor = kaji.get_current_device().compute_capability
    ptx, _ = cuda.compile_ptx_for_current_device(scale, SIGNATURES[0])
    assert f".target sm_{major}{minor}" in ptx
    assert cuda.compile_for_current_device(scale, SIGNATURES[0], device=False,
                                           abi="numba")[0] == ptx


@pytest.mark.skipif(not NVJITLINK, reason="no nvJitLink here")
@pytest.mark.parametrize("cc", [(7, 5), (9, 0)])
def test_a_kernels_cubin_is_a_cuda_elf_for_its_compute_capability(cc):
    cubin, resty = cuda.compile(scale, SIGNATURES[0], device=False, abi="numba", cc=cc,
                                output="cubin")
    assert resty == types.void
    assert isinstance(cubin, bytes) and cubin[:4] == b"\x7fELF" and cubin[7] == 0x41  # CUDA
    # The SM number is e_flags' low byte, or its second in the toolkit's newer ELF ABI.
    flags = int.from_bytes(cubin[48:52], "little")
    assert cc[0] * 10 + cc[1] in (flags & 0xFF, (flags >> 8) & 0xFF)


@pytest.mark.skipif(not NVJITLINK or tool("fatbinary") is None,
                    reason="no nvJitLink or fatbinary here")
def test_a_kernels_fatbin_holds_its_cubin():
    fatbin, _ = cuda.compile(scale, SIGNATURES[0], device=False, abi="numba", cc=(8, 0),
                             output="fatbin")
    cubin, _ = cuda.compile(scale, SIGNATURES[0], device=False, abi="numba", cc=(8, 0),
                            output="cubin")
    assert fatbin[:4] == bytes([0x50, 0xED, 0x55, 0xBA])
    assert cubin in fatbin
