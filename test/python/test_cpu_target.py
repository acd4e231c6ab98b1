"""The cpu target: choosing it, launching on host memory, bounds checks, host-backed device
arrays. No GPU needed."""

import inspect
import re
import warnings

import numpy as np
import pytest

import kaji
from kaji import _target


def fill_index(out):
    i = kaji.grid(1)
    out[i] = i


def add1d(out, x, y):
    i = kaji.grid(1)
    if i < out.size:
        out[i] = x[i] + y[i]


def double_in_place(x):
    i, j = kaji.grid(2)
    if i < x.shape[0] and j < x.shape[1]:
        x[i, j] = x[i, j] * 2


@pytest.mark.parametrize("name", ["cpu", "cuda"])
def test_kaji_target_chooses_the_default(monkeypatch, name):
    monkeypatch.setenv("KAJI_TARGET", name)
    assert kaji.default_target() == name
    assert kaji.jit(fill_index).target == name


def test_bad_kaji_target_is_a_value_error_naming_it(monkeypatch):
    monkeypatch.setenv("KAJI_TARGET", "tpu")
    with pytest.raises(ValueError, match="KAJI_TARGET='tpu'"):
        kaji.jit(fill_index)


def test_bad_target_argument_is_a_value_error_naming_it():
    with pytest.raises(ValueError, match="'gpu'"):
        kaji.jit(target="gpu")
    with pytest.raises(ValueError, match="'gpu'"):
        kaji.typeof(1.0, "gpu")


@pytest.mark.skipif(kaji.is_available(), reason="a CUDA driver is available")
def test_without_gpu_the_default_is_cpu_announced_once(monkeypatch):
    monkeypatch.delenv("KAJI_TARGET", raising=False)
    monkeypatch.setattr(_target, "_fallback_announced", False)
    with pytest.warns(kaji.TargetFallbackWarning, match="kernels run on the CPU") as record:
        kernel = kaji.jit(fill_index)
    assert record[0].filename == __file__  # points at the user's line, not into kaji
    assert kernel.target == "cpu"
    with warnings.catch_warnings(record=True) as again:
        warnings.simplefilter("always")
        kaji.jit(fill_index)
    assert not [w for w in again if issubclass(w.category, kaji.TargetFallbackWarning)]


def test_launch_on_cpu_uses_numpy_arrays_in_place():
    base = np.arange(48, dtype=np.float32).reshape(6, 8)
    view = base[1:5, ::2]  # not contiguous: still no copy
    expected = base.copy()
    expected[1:5, ::2] *= 2
    kaji.jit(target="cpu")(double_in_place)[(1, 1), (8, 8)](view)
    np.testing.assert_array_equal(base, expected)


def test_read_only_numpy_arguments_are_not_written():
    x = np.arange(100, dtype=np.int64)
    x.flags.writeable = False
    kernel = kaji.jit(target="cpu")(double_in_place)
    kernel[(1, 1), (16, 16)](x.reshape(10, 10))
    np.testing.assert_array_equal(x, np.arange(100))


def test_index_error_names_kernel_location_and_index():
    out = np.zeros(1000, dtype=np.float32)
    kernel = kaji.jit(target="cpu")(fill_index)
    with pytest.raises(IndexError) as info:
        kernel[4, 256](out)
    lines, first = inspect.getsourcelines(fill_index)
    offset = next(n for n, text in enumerate(lines) if "out[i] = i" in text)
    column = lines[offset].index("out[i]") + 1
    message = str(info.value)
    assert message.startswith(f"{__file__}:{first + offset}:{column}: in 'fill_index', tid=[")
    # Threads 232 to 255 of block 3 index past the end; the message names the one that did.
    raising = re.search(r"tid=\[(\d+), 0, 0\] ctaid=\[3, 0, 0\]: index ", message)
    assert raising and 232 <= int(raising.group(1)) <= 255, message
    assert "index 1000 is out of bounds for axis 0 with size 1000" in message
    # the executor stays usable and the kernel runs again with a shape that fits
    kernel[4, 250](out)
    np.testing.assert_array_equal(out, np.arange(1000))


def store_at(out, index):
    out[index[0]] = 7


def store_at_uint64_max(out):
    out[np.uint64(2**64 - 1)] = 7


@pytest.mark.parametrize("value", [2**64 - 1, 2**63 + 2, 4])
def test_unsigned_index_never_wraps_around(value):
    # A uint64 index is never negative: 2**64 - 1 is not -1 (which would write out[3]).
    out = np.zeros(4, dtype=np.int64)
    kernel = kaji.jit(target="cpu")(store_at)
    with pytest.raises(IndexError) as info:
        kernel[1, 1](out, np.array([value], dtype=np.uint64))
    assert f"index {value} is out of bounds for axis 0 with size 4" in str(info.value)
    np.testing.assert_array_equal(out, np.zeros(4))


def test_unsigned_constant_index_never_wraps_around():
    out = np.zeros(4, dtype=np.int64)
    with pytest.raises(IndexError, match="index 18446744073709551615 is out of bounds"):
        kaji.jit(target="cpu")(store_at_uint64_max)[1, 1](out)
    np.testing.assert_array_equal(out, np.zeros(4))


def test_unsigned_index_in_range_and_signed_negative_index():
    out = np.zeros(4, dtype=np.int64)
    kernel = kaji.jit(target="cpu")(store_at)
    kernel[1, 1](out, np.array([2], dtype=np.uint8))
    kernel[1, 1](out, np.array([-1], dtype=np.int64))
    np.testing.assert_array_equal(out, [0, 0, 7, 7])


def test_boundscheck_false_removes_the_checks():
    checked = kaji.jit(target="cpu")(fill_index)
    unchecked = kaji.jit(target="cpu", boundscheck=False)(fill_index)
    sig = "void(float32[::1])"
    assert "in 'fill_index'" in checked.inspect_llvm(sig)
    assert "in 'fill_index'" not in unchecked.inspect_llvm(sig)
    out = np.zeros(1024, dtype=np.float32)
    unchecked[4, 256](out)
    np.testing.assert_array_equal(out, np.arange(1024))


@pytest.mark.parametrize("options, checked", [
    ({}, False), ({"debug": True, "opt": False}, True), ({"boundscheck": True}, True),
    ({"debug": True, "opt": False, "boundscheck": False}, False)])
def test_cuda_target_checks_indices_with_debug_or_boundscheck(options, checked):
    kernel = kaji.jit(target="cuda", **options)(fill_index)
    assert ("kaji_index_error" in kernel.inspect_asm("void(float32[::1])")) == checked


def test_cpu_kernel_llvm_is_host_code_and_ptx_still_available():
    kernel = kaji.jit(target="cpu")(add1d)
    sig = "void(float32[:], float32[:], float32[:])"
    assert "x86_64" in kernel.inspect_llvm(sig)
    assert ".entry" in kernel.inspect_ptx(sig)


def test_cpu_launch_limits_are_value_errors():
    kernel = kaji.jit(target="cpu")(fill_index)
    with pytest.raises(ValueError, match="1024"):
        kernel[1, 2048](np.zeros(4096))


def test_eager_signature_on_cpu():
    kernel = kaji.jit("void(float64[:], float64[:], float64[:])", target="cpu")(add1d)
    x = np.arange(10.0)
    out = np.zeros(10)
    kernel[1, 32](out, x, x)
    np.testing.assert_array_equal(out, 2 * x)
    with pytest.raises(TypeError, match="no signature"):
        kernel[1, 32](out.astype(np.float32), x, x)


def test_host_backed_device_arrays_round_trip(monkeypatch):
    monkeypatch.setenv("KAJI_TARGET", "cpu")
    x = np.arange(1000, dtype=np.float32)
    d_x = kaji.to_device(x)
    assert d_x.on_host and "on host" in repr(d_x)
    assert not hasattr(d_x, "__cuda_array_interface__")
    d_out = kaji.device_array_like(x)
    kaji.jit(add1d)[4, 256](d_out, d_x, d_x)
    kaji.synchronize()  # nothing to wait for: cpu launches are synchronous
    host = d_out.copy_to_host()
    np.testing.assert_array_equal(host, 2 * x)
    host[:] = 0  # a copy, not the device array's memory
    np.testing.assert_array_equal(d_out.copy_to_host(), 2 * x)
    np.testing.assert_array_equal(d_out[::100].copy_to_host(), 2 * x[::100])
    assert d_out[3] == 6.0
    d_out.copy_to_device(np.ones(1000, dtype=np.float32))
    np.testing.assert_array_equal(d_out.copy_to_host(), np.ones(1000))
    d_2d = kaji.device_array((3, 4), np.int32, order="F")
    assert d_2d.on_host and d_2d.is_f_contiguous()


def test_host_backed_array_is_rejected_by_cuda_kernels(monkeypatch):
    monkeypatch.setenv("KAJI_TARGET", "cpu")
    d_x = kaji.to_device(np.zeros(8, dtype=np.float32))
    with pytest.raises(TypeError, match=r"argument 1 \('x'\).*host-backed"):
        kaji.jit(target="cuda")(double_in_place)[1, 8](d_x)


def test_gpu_arrays_are_rejected_by_cpu_kernels():
    class FakeCudaArray:
        __cuda_array_interface__ = {"shape": (4,), "typestr": "<f4", "data": (0, False),
                                    "version": 3}

    with pytest.raises(TypeError, match=r"argument 1 \('out'\).*cpu target"):
        kaji.jit(target="cpu")(fill_index)[1, 4](FakeCudaArray())


def mismatched_barriers(out):
    # Half a warp waits for the whole warp at syncwarp, the other half for the block.
    if kaji.laneid < 16:
        kaji.syncwarp()
    else:
        kaji.syncthreads()
    out[kaji.threadIdx.x] = 1


def test_threads_waiting_at_different_barriers_are_reported_not_hung():
    kernel = kaji.jit(target="cpu")(mismatched_barriers)
    with pytest.raises(RuntimeError, match="kernel deadlock: 16 threads wait at syncthreads"):
        kernel[1, 32](np.zeros(32, np.int32))
