"""_core.assemble_ptx: a kernel's PTX assembled in-process by the ptxas inside nvJitLink, with
no GPU (the kernel suite's ptxas sweep, KAJI_TEST_PTXAS, checks every kernel with it)."""

import pytest

import kaji
from toolkit_libraries import NVJITLINK

pytestmark = pytest.mark.skipif(not NVJITLINK, reason="needs nvJitLink")


def scale(out, x):
    out[0] = x[0] * 2.0


def kernel_ptx(arch):
    kernel = kaji.jit(target="cpu")(scale)
    return kaji._core.compile(kernel._source, kernel._describe_globals,
                              "void(float32[:], float32[:])", stage="ptx", arch=arch)


@pytest.mark.parametrize("optimize", [True, False])
def test_a_kernels_ptx_assembles_into_a_cubin(optimize):
    cubin = kaji._core.assemble_ptx(kernel_ptx("sm_80"), "sm_80", optimize=optimize)
    assert cubin[:4] == b"\x7fELF"


def test_ptx_that_ptxas_refuses_raises_link_error_with_its_log():
    broken = kernel_ptx("sm_90").replace("ret;", "ret.bogus;", 1)
    with pytest.raises(kaji.LinkError, match="line [0-9]+; error   : Unknown modifier .\.bogus."):
        kaji._core.assemble_ptx(broken, "sm_90", optimize=False)


def test_a_malformed_architecture_is_a_value_error():
    with pytest.raises(ValueError, match="sm_XX"):
        kaji._core.assemble_ptx(kernel_ptx("sm_90"), "90")
