"""Device arrays captured as globals or closure variables (Numba compiles their pointer in):
a kaji DeviceArray, or anything exporting __cuda_array_interface__, named by a kernel is
indexed, read and written like an argument; the compiled kernel keeps it alive, and a kernel
keeps the array it captured when it first compiled for a signature, as Numba freezes globals.
On the cpu target the captured arrays are host-backed device arrays."""

import gc

import numpy as np
import pytest

import kaji

# The ptxas sweep (ptxas_sweep.py) compiles each kernel for cuda again, where the host-backed
# arrays of a cpu run cannot be captured: test/python/test_device_array_capture.py assembles
# the nvrtc backend's PTX of a capture instead.
pytestmark = pytest.mark.checks_own_ptx

GLOBAL_ARRAY = None


class CudaArrayInterfaceOnly:
    """What CuPy or PyTorch hand over: the interface alone."""

    def __init__(self, array):
        self.__cuda_array_interface__ = array.__cuda_array_interface__
        self.array = array


@pytest.fixture
def device(target):
    """A device array of `values` where `target`'s kernels take one (host-backed for cpu)."""
    def make(values, dtype=np.float64):
        return kaji._core.to_device(np.asarray(values, dtype=dtype), on_host=target == "cpu")
    return make


def read_global(out):
    i = kaji.grid(1)
    if i < out.size:
        out[i] = GLOBAL_ARRAY[i] * 2 + GLOBAL_ARRAY.shape[0]


def launch(kernel, *args, blocks=1, threads=32):
    kernel[blocks, threads](*args)
    kaji.synchronize()


def test_a_global_device_array_is_read(jit, device):
    global GLOBAL_ARRAY
    GLOBAL_ARRAY = device(np.arange(8.0))
    out = device(np.zeros(8))
    launch(jit(read_global), out)
    np.testing.assert_array_equal(out.copy_to_host(), np.arange(8.0) * 2 + 8)


def test_a_closure_device_array_is_written(jit, device):
    captured = device(np.zeros(16, dtype=np.int32), np.int32)

    def fill():
        i = kaji.grid(1)
        if i < captured.size:
            captured[i] = i * 3

    launch(jit(fill))
    np.testing.assert_array_equal(captured.copy_to_host(), np.arange(16) * 3)


def test_two_dimensional_and_strided_captures_keep_shape_and_strides(jit, device):
    matrix = device(np.arange(24.0).reshape(4, 6))
    every_other_column = matrix[:, ::2]

    def column_sums(out):
        i = kaji.grid(1)
        if i < every_other_column.shape[1]:
            total = 0.0
            for row in range(every_other_column.shape[0]):
                total += every_other_column[row, i]
            out[i] = total + matrix[3, 5]

    out = device(np.zeros(3))
    launch(jit(column_sums), out)
    expected = np.arange(24.0).reshape(4, 6)[:, ::2].sum(axis=0) + 23
    np.testing.assert_array_equal(out.copy_to_host(), expected)


def test_an_array_seen_through_cuda_array_interface_alone(jit, device, target):
    if target == "cpu":
        pytest.skip("host-backed arrays export no __cuda_array_interface__")
    foreign = CudaArrayInterfaceOnly(device(np.arange(4.0)))

    def add_one():
        i = kaji.grid(1)
        if i < 4:
            foreign[i] += 1

    launch(jit(add_one))
    np.testing.assert_array_equal(foreign.array.copy_to_host(), np.arange(4.0) + 1)


def make_reader(device):
    # The only reference to `source` is the kernel's closure cell, and the compiled kernel.
    source = device(np.full(64, 7.0))

    def read(out):
        i = kaji.grid(1)
        if i < out.size:
            out[i] = source[i]

    return read


def test_the_compiled_kernel_keeps_the_captured_array_alive(jit, device):
    read = make_reader(device)
    kernel = jit(read)
    out = device(np.zeros(64))
    launch(kernel, out, threads=64)
    read.__closure__[0].cell_contents = None  # the compiled kernel's reference is left
    gc.collect()
    reused = [device(np.full(64, -1.0)) for _ in range(4)]  # would take the freed memory
    launch(kernel, out, threads=64)
    np.testing.assert_array_equal(out.copy_to_host(), np.full(64, 7.0))
    del reused


def test_a_rebound_global_is_frozen_at_the_first_compile(jit, device):
    global GLOBAL_ARRAY
    GLOBAL_ARRAY = device(np.ones(8))
    kernel = jit(read_global)
    out = device(np.zeros(8))
    launch(kernel, out)
    GLOBAL_ARRAY = device(np.full(8, 5.0))
    launch(kernel, out)
    np.testing.assert_array_equal(out.copy_to_host(), np.full(8, 10.0))
