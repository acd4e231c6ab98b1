"""Device arrays captured as globals or closure variables, without a GPU: the address, extents
and strides compiled into the PTX, the target each array must live on, and pickling. The
kernels reading and writing them are in test/kernels/test_captured_device_arrays.py."""

import io
import pickle

import numpy as np
import pytest

import kaji

ADDRESS = 0x7F0000001000


class FakeGpuArray:
    """A 3 x 5 float32 array in GPU memory, as __cuda_array_interface__ describes one."""

    def __init__(self, strides=None):
        self.__cuda_array_interface__ = {"shape": (3, 5), "typestr": "<f4", "strides": strides,
                                         "data": (ADDRESS, False), "version": 3}


def kernel_reading(array):
    def read(out):
        i = kaji.grid(1)
        if i < array.shape[1]:
            out[i] = array[2, i]
    return read


def test_the_address_extents_and_strides_are_compiled_into_the_ptx():
    ptx = kaji.jit(target="cuda")(kernel_reading(FakeGpuArray())).inspect_asm("void(float32[:])")
    # array[2, i] is 2 rows of 20 bytes past the address
    assert str(ADDRESS) in ptx
    assert "+40]" in ptx
    assert "kaji_index_error" not in ptx


def test_strided_capture_uses_its_strides():
    kernel = kaji.jit(target="cuda")(kernel_reading(FakeGpuArray(strides=(40, 8))))
    assert "+80]" in kernel.inspect_asm("void(float32[:])")


def test_the_nvrtc_backend_compiles_the_address_in():
    kernel = kaji.jit(target="cuda", backend="nvrtc")(kernel_reading(FakeGpuArray()))
    assert str(ADDRESS) in kernel.inspect_cuda("void(float32[:])")
    try:
        kaji._core.nvrtc_version()
    except RuntimeError:
        return  # no NVRTC to compile it with here
    ptx = kernel.inspect_asm("void(float32[:])")
    assert str(ADDRESS + 40) in ptx or (str(ADDRESS) in ptx and "+40]" in ptx)


def test_the_capture_is_an_array_at_in_the_kernel_ir():
    kernel = kaji.jit("void(float32[:])", target="cuda")(kernel_reading(FakeGpuArray()))
    printed = io.StringIO()
    kernel.inspect_types(file=printed)
    assert f"const {ADDRESS}" in printed.getvalue()
    assert "array_at" in printed.getvalue()


def test_a_cpu_kernel_cannot_capture_gpu_memory():
    kernel = kaji.jit(target="cpu")(kernel_reading(FakeGpuArray()))
    with pytest.raises(TypeError, match="'array' is in GPU memory"):
        kernel[1, 8](np.zeros(5, dtype=np.float32))


def test_a_cuda_kernel_cannot_capture_a_host_backed_array():
    host_backed = kaji._core.to_device(np.zeros((3, 5), dtype=np.float32), on_host=True)
    kernel = kaji.jit(target="cuda")(kernel_reading(host_backed))
    with pytest.raises(TypeError, match="'array' is in host memory"):
        kernel.inspect_asm("void(float32[:])")


def test_a_kernel_capturing_a_device_array_is_not_pickled():
    kernel = kaji.jit(target="cuda")(kernel_reading(FakeGpuArray()))
    with pytest.raises(pickle.PicklingError, match="captures the device array 'array'"):
        pickle.dumps(kernel)


def test_a_numpy_global_is_a_constant_array_not_a_captured_device_array():
    table = np.arange(5, dtype=np.float32)

    def read(out):
        out[0] = table[1]

    kernel = kaji.jit(target="cpu")(read)
    out = np.zeros(1, dtype=np.float32)
    kernel[1, 1](out)
    assert out[0] == 1.0
    ir = kernel.inspect_ir("void(float32[:])")
    assert "const_array" in ir and "array_at" not in ir
