"""Kernels launched on a GPU, every result checked against numpy."""

import math

import numpy as np
import pytest

import kaji
from kaji import cuda

pytestmark = pytest.mark.gpu


@kaji.jit
def vector_add(out, x, y):
    i = kaji.grid(1)
    if i < out.size:
        out[i] = x[i] + y[i]


@kaji.jit
def saxpy(out, a, x, y):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = a * x[i] + y[i]


@cuda.jit
def matrix_add(out, a, b):
    i, j = cuda.grid(2)
    if i < out.shape[0] and j < out.shape[1]:
        out[i, j] = a[i, j] + b[i, j]


@cuda.jit(device=True)
def hypotenuse(a, b):
    return math.sqrt(a * a + b * b)


@cuda.jit
def hypotenuses(out, a, b):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = hypotenuse(a[i], b[i])


@kaji.jit
def increment(x):
    i = kaji.grid(1)
    if i < x.size:
        x[i] += 1


@kaji.jit("void(float32[:], float32)")
def fill(out, value):
    i = kaji.grid(1)
    if i < out.size:
        out[i] = value


def blocks(n, threads=128):
    return (n + threads - 1) // threads


def random(shape, dtype=np.float32, seed=0):
    return np.random.default_rng(seed).random(shape).astype(dtype)


def test_vector_add_device_arrays():
    x, y = random(1000), random(1000, seed=1)
    out = kaji.device_array_like(x)
    vector_add[blocks(x.size), 128](out, kaji.to_device(x), kaji.to_device(y))
    np.testing.assert_array_equal(out.copy_to_host(), x + y)


def test_saxpy_with_numpy_scalar():
    x, y = random(1 << 16), random(1 << 16, seed=1)
    out = kaji.device_array(x.shape, np.float32)
    saxpy[blocks(x.size, 256), 256](out, np.float32(2.0), kaji.to_device(x), kaji.to_device(y))
    np.testing.assert_allclose(out.copy_to_host(), np.float32(2.0) * x + y, rtol=1e-6)


def test_matrix_add_with_grid_2():
    a, b = random((37, 53)), random((37, 53), seed=1)
    out = kaji.device_array_like(a)
    matrix_add[(blocks(37, 16), blocks(53, 16)), (16, 16)](out, kaji.to_device(a),
                                                            kaji.to_device(b))
    np.testing.assert_array_equal(out.copy_to_host(), a + b)


def test_device_function_call():
    a, b = random(500, np.float64), random(500, np.float64, seed=1)
    out = kaji.device_array_like(a)
    hypotenuses[blocks(500), 128](out, kaji.to_device(a), kaji.to_device(b))
    np.testing.assert_allclose(out.copy_to_host(), np.hypot(a, b), rtol=1e-12)


def test_strided_device_slice():
    x, y = random(1001), random(1001, seed=1)
    dx, dy = kaji.to_device(x), kaji.to_device(y)
    strided_x, strided_y = dx[::2], dy[::2]
    assert kaji.typeof(strided_x) == kaji.float32[:]
    out = kaji.device_array(strided_x.shape, np.float32)
    vector_add[blocks(out.size), 128](out, strided_x, strided_y)
    np.testing.assert_array_equal(out.copy_to_host(), x[::2] + y[::2])
    np.testing.assert_array_equal(strided_x.copy_to_host(), x[::2])


def test_strided_numpy_arguments_are_copied_in_and_out():
    x = np.arange(20, dtype=np.int64)
    view = x[::2]
    increment[1, 32](view)
    expected = np.arange(20)
    expected[::2] += 1
    np.testing.assert_array_equal(x, expected)


def test_fortran_ordered_arrays():
    a = np.asfortranarray(random((33, 17)))
    b = np.asfortranarray(random((33, 17), seed=1))
    da, db = kaji.to_device(a), kaji.to_device(b)
    assert kaji.typeof(da) == kaji.float32[::1, :]
    out = kaji.device_array_like(a)
    assert out.is_f_contiguous()
    matrix_add[(blocks(33, 8), blocks(17, 8)), (8, 8)](out, da, db)
    host = out.copy_to_host()
    assert host.flags["F_CONTIGUOUS"]
    np.testing.assert_array_equal(host, a + b)


def test_numpy_arrays_are_copied_in_and_back():
    x, y = random(300), random(300, seed=1)
    out = np.zeros_like(x)
    vector_add[blocks(300), 128](out, x, y)
    np.testing.assert_array_equal(out, x + y)


def test_read_only_numpy_arguments_are_not_written_back():
    x = np.arange(10, dtype=np.int64)
    x.setflags(write=False)
    increment[1, 32](x)
    np.testing.assert_array_equal(x, np.arange(10))


def test_eager_signature_converts_python_scalars():
    out = kaji.device_array(64, np.float32)
    fill[1, 64](out, 2.5)
    np.testing.assert_array_equal(out.copy_to_host(), np.full(64, 2.5, np.float32))
    with pytest.raises(TypeError, match="no signature for arguments"):
        fill[1, 64](kaji.device_array(64, np.float64), 1.0)


def test_streams():
    x, y = random(4096), random(4096, seed=1)
    stream = kaji.stream()
    dx, dy = kaji.to_device(x, stream=stream), kaji.to_device(y, stream=stream)
    out = kaji.device_array_like(x)
    vector_add[blocks(4096), 128, stream](out, dx, dy)
    stream.synchronize()
    np.testing.assert_array_equal(out.copy_to_host(stream=stream), x + y)


def test_events_time_a_launch():
    start, end = kaji.event(), kaji.event()
    out = kaji.device_array(1 << 20, np.float32)
    start.record()
    fill[blocks(1 << 20, 256), 256](out, 1.0)
    end.record()
    end.synchronize()
    assert start.elapsed_time(end) >= 0


def test_dynamic_shared_memory_argument_is_accepted():
    x, y = random(256), random(256, seed=1)
    out = kaji.device_array_like(x)
    vector_add[2, 128, 0, 1024](out, kaji.to_device(x), kaji.to_device(y))
    np.testing.assert_array_equal(out.copy_to_host(), x + y)


def test_launch_shape_over_the_device_limit_is_a_value_error():
    with pytest.raises(ValueError, match="threads per block"):
        vector_add[1, 4096](kaji.device_array(4), kaji.device_array(4), kaji.device_array(4))


def test_device_array_indexing_and_interface():
    x = np.arange(12, dtype=np.int32).reshape(3, 4)
    d = kaji.to_device(x)
    assert d[1, 2] == 6
    np.testing.assert_array_equal(d[1].copy_to_host(), x[1])
    np.testing.assert_array_equal(d[:, 1::2].copy_to_host(), x[:, 1::2])
    interface = d.__cuda_array_interface__
    assert interface["shape"] == (3, 4) and interface["typestr"] == "<i4"
    assert interface["version"] == 3 and interface["strides"] is None


def test_cupy_arrays():
    cupy = pytest.importorskip("cupy")
    x, y = random(1000), random(1000, seed=1)
    cx, cy = cupy.asarray(x), cupy.asarray(y)
    out = cupy.zeros_like(cx)
    vector_add[blocks(1000), 128](out, cx, cy)
    np.testing.assert_array_equal(cupy.asnumpy(out), x + y)
    # and the other way: CuPy reads a kaji array
    np.testing.assert_array_equal(cupy.asnumpy(cupy.asarray(kaji.to_device(x))), x)


class DLPackOnly:
    """An array seen only through DLPack."""

    def __init__(self, array):
        self._array = array

    def __dlpack__(self, stream=None):
        return self._array.__dlpack__(stream=stream)

    def __dlpack_device__(self):
        return self._array.__dlpack_device__()


def test_dlpack_arrays():
    cupy = pytest.importorskip("cupy")
    x, y = random(1000), random(1000, seed=1)
    out = cupy.zeros(1000, dtype=cupy.float32)
    vector_add[blocks(1000), 128](DLPackOnly(out), DLPackOnly(cupy.asarray(x)),
                                  DLPackOnly(cupy.asarray(y)))
    np.testing.assert_array_equal(cupy.asnumpy(out), x + y)


def test_bfloat16_device_arrays_round_trip():
    bf16 = pytest.importorskip("ml_dtypes").bfloat16
    host = np.linspace(-3, 3, 100).astype(bf16)
    device = kaji.to_device(host)
    assert device.dtype == np.dtype(bf16)
    out = kaji.device_array_like(device)
    vector_add[1, 128](out, device, device)
    np.testing.assert_array_equal(out.copy_to_host(), host + host)


def test_pytorch_bfloat16_tensors_through_both_protocols():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch has no CUDA")
    values = torch.linspace(-3, 3, 100, dtype=torch.bfloat16, device="cuda")
    out = torch.zeros_like(values)
    vector_add[1, 128](out, values, values)
    torch.cuda.synchronize()
    assert torch.equal(out, values + values)
    out.zero_()
    vector_add[1, 128](DLPackOnly(out), DLPackOnly(values), DLPackOnly(values))  # kDLBfloat
    torch.cuda.synchronize()
    assert torch.equal(out, values + values)


def test_pytorch_cuda_tensors():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch has no CUDA")
    x, y = random((40, 30)), random((40, 30), seed=1)
    tx, ty = torch.from_numpy(x).cuda(), torch.from_numpy(y).cuda()
    out = torch.zeros_like(tx)
    matrix_add[(blocks(40, 16), blocks(30, 16)), (16, 16)](out, tx, ty)
    torch.cuda.synchronize()
    np.testing.assert_array_equal(out.cpu().numpy(), x + y)
    # a transposed (F-ordered) tensor
    out_t = torch.zeros_like(tx.t())
    matrix_add[(blocks(30, 16), blocks(40, 16)), (16, 16)](out_t, tx.t(), ty.t())
    torch.cuda.synchronize()
    np.testing.assert_array_equal(out_t.cpu().numpy(), (x + y).T)


def test_to_device_numba_options():
    x = random(10)
    empty = kaji.to_device(x, stream=0, copy=False)
    assert empty.shape == x.shape and empty.dtype == x.dtype
    target = kaji.device_array_like(x)
    assert kaji.to_device(x, to=target) is target
    np.testing.assert_array_equal(target.copy_to_host(), x)


def test_devices_and_selection():
    devices = kaji.devices()
    assert devices and devices[0].id == 0
    assert kaji.select_device(0).name == devices[0].name
    kaji.synchronize()


def _torch_cuda():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch has no CUDA")
    return torch


def test_launch_on_pytorch_and_cupy_streams():
    torch = _torch_cuda()
    cupy = pytest.importorskip("cupy")
    x, y = random(5000), random(5000, seed=1)
    for stream in (torch.cuda.Stream(), cupy.cuda.Stream(non_blocking=True)):
        for launch_stream in (stream, kaji.external_stream(
                stream.cuda_stream if hasattr(stream, "cuda_stream") else stream.ptr)):
            out = kaji.device_array_like(x)
            vector_add[blocks(5000), 128, launch_stream](out, kaji.to_device(x),
                                                         kaji.to_device(y))
            stream.synchronize()
            np.testing.assert_array_equal(out.copy_to_host(), x + y)


@kaji.jit
def copy(out, x):
    i = kaji.grid(1)
    if i < out.size:
        out[i] = x[i]


def _load_copy_kernel(out):
    # Loading a module waits for the whole device, which would hide a missing wait.
    copy[1, 1](out, out)
    kaji.synchronize()


class OnStream:
    """A tensor exported through __cuda_array_interface__ v3 with the stream its pending
    writes are on, as CuPy exports its arrays."""

    def __init__(self, tensor, stream):
        self.__cuda_array_interface__ = dict(tensor.__cuda_array_interface__, version=3,
                                             stream=stream)


def test_launch_waits_for_the_producer_stream_of_an_array():
    # The tensor is written on a PyTorch stream behind ~50 ms of queued work; the kernel,
    # on a kaji stream that does not synchronize with it, must still see the new values.
    torch = _torch_cuda()
    x = torch.zeros(1 << 20, device="cuda")
    torch.cuda.synchronize()
    producer, consumer = torch.cuda.Stream(), kaji.stream()
    out = kaji.device_array(1 << 20, np.float32)
    _load_copy_kernel(out)
    with torch.cuda.stream(producer):
        torch.cuda._sleep(100_000_000)
        x.fill_(2.0)
    copy[blocks(1 << 20, 256), 256, consumer](out, OnStream(x, producer.cuda_stream))
    consumer.synchronize()
    np.testing.assert_array_equal(out.copy_to_host(), np.full(1 << 20, 2.0, np.float32))
    torch.cuda.synchronize()


def test_launch_waits_for_dlpack_producers_on_the_default_stream():
    # kaji asks the DLPack producer to order its work before the legacy default stream, and
    # a launch on a kaji stream waits for that.
    torch = _torch_cuda()
    x = torch.zeros(1 << 20, device="cuda")
    torch.cuda.synchronize()
    consumer = kaji.stream()
    out = kaji.device_array(1 << 20, np.float32)
    _load_copy_kernel(out)
    torch.cuda._sleep(100_000_000)
    x.fill_(3.0)
    copy[blocks(1 << 20, 256), 256, consumer](out, DLPackOnly(x))
    consumer.synchronize()
    np.testing.assert_array_equal(out.copy_to_host(), np.full(1 << 20, 3.0, np.float32))


def test_print_formats_are_counted_in_constant_memory():
    # As Numba's: print's format string lives in constant memory (the LLVM path).
    @cuda.jit
    def report(value, loud):
        if loud:
            print(value)

    report[1, 1](1, False)
    report[1, 1](1.0, False)
    sizes = report.get_const_mem_size()
    assert sizes["void(int64, boolean)"] >= len(b"%lld\n\0")
    assert sizes[(kaji.float64, kaji.boolean)] >= len(b"%f\n\0")
    assert report.get_const_mem_size("void(int64, bool)") == sizes["void(int64, bool)"]
