"""Numba's memory kinds (pinned, mapped and managed arrays, pinned() and mapped()), the
stream-ordered pool, kaji.memory_info and the process's memory limit. The cpu-target tests
run everywhere (KAJI_TARGET=cpu); the gpu ones on the GPU machine."""

import gc
import subprocess
import sys

import numpy as np
import pytest

import kaji
from kaji import cuda

gpu = pytest.mark.gpu
no_gpu = pytest.mark.skipif(kaji.is_available() and bool(kaji.devices()),
                            reason="checks the errors given without a GPU")


@kaji.jit
def add_one(values):
    i = kaji.grid(1)
    if i < values.size:
        values[i] += 1


@kaji.jit(target="cpu")
def add_one_on_cpu(values):
    i = kaji.grid(1)
    if i < values.size:
        values[i] += 1


@pytest.fixture
def cpu_target(monkeypatch):
    monkeypatch.setenv("KAJI_TARGET", "cpu")


@pytest.fixture
def no_limit():
    yield
    kaji.set_memory_limit(None)


# --- the cpu target: host memory only, as Numba's simulator ---------------------------------

@pytest.mark.parametrize("make", [cuda.pinned_array, cuda.mapped_array, cuda.managed_array])
def test_on_the_cpu_target_every_kind_is_a_numpy_array(cpu_target, make):
    array = make((3, 4), dtype=np.int32, order="F")
    assert type(array) is np.ndarray
    assert array.shape == (3, 4) and array.dtype == np.int32
    assert array.flags["F_CONTIGUOUS"]


def test_on_the_cpu_target_a_kernel_writes_a_mapped_array_in_place(cpu_target):
    values = cuda.mapped_array(100, dtype=np.float32)
    values[:] = np.arange(100)
    add_one_on_cpu[4, 32](values)
    np.testing.assert_array_equal(values, np.arange(1, 101))


def test_on_the_cpu_target_pinned_and_mapped_blocks_change_nothing(cpu_target):
    host = np.arange(10.0)
    with cuda.pinned(host):
        host += 1
    with cuda.mapped(host) as view:
        assert view is host
    with cuda.mapped(host, host[::2]) as views:
        assert views[0] is host and len(views) == 2
    np.testing.assert_array_equal(host, np.arange(1.0, 11.0))


def test_pinned_array_like_keeps_shape_dtype_and_order(cpu_target):
    like = cuda.pinned_array_like(np.zeros((2, 5), dtype=np.uint8, order="F"))
    assert like.shape == (2, 5) and like.dtype == np.uint8 and like.flags["F_CONTIGUOUS"]


@pytest.mark.parametrize("call, error, message", [
    (lambda: cuda.pinned_array((2, -1)), ValueError, "non-negative ints"),
    (lambda: cuda.pinned_array(4, order="K"), ValueError, "order must be 'C' or 'F'"),
    (lambda: cuda.mapped_array(4, strides=(-8,)), ValueError, "negative"),
    (lambda: cuda.pinned([1, 2]).__enter__(), TypeError, "pinned\\(\\) takes numpy arrays"),
    (lambda: cuda.mapped("x").__enter__(), TypeError, "mapped\\(\\) takes numpy arrays"),
    (lambda: kaji.set_memory_limit(-1), ValueError, "negative"),
    (lambda: kaji.set_memory_limit(1.5), TypeError, "an int"),
    (lambda: kaji.set_memory_limit(True), TypeError, "an int"),
])
def test_misuse_names_the_problem(cpu_target, call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_the_memory_limit_is_set_read_and_removed(no_limit):
    kaji.set_memory_limit(1 << 20)
    assert kaji.memory_limit() == 1 << 20 and cuda.memory_limit() == 1 << 20
    kaji.set_memory_limit("1.5 GiB")
    assert kaji.memory_limit() == 3 << 29
    kaji.set_memory_limit(None)
    assert kaji.memory_limit() is None
    with pytest.raises(ValueError, match="'4GB' is not a byte size"):
        kaji.set_memory_limit("4GB")


@pytest.mark.parametrize("setting, limit", [("123456", 123456), ("512MiB", 512 << 20),
                                            ("1.5 GiB", 3 << 29), ("", None)])
def test_kaji_memory_limit_from_the_environment(setting, limit):
    script = "import kaji; print(kaji.memory_limit())"
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            env={**_environment(), "KAJI_MEMORY_LIMIT": setting}, check=True)
    assert result.stdout.strip() == str(limit)


def test_a_bad_kaji_memory_limit_is_a_value_error_naming_it():
    script = "import kaji; kaji.memory_limit()"
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            env={**_environment(), "KAJI_MEMORY_LIMIT": "4GB"})
    assert result.returncode != 0
    assert "ValueError: KAJI_MEMORY_LIMIT='4GB'" in result.stderr
    assert "KiB, MiB, GiB or TiB" in result.stderr


def _environment():
    import os

    return {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}


@no_gpu
@pytest.mark.parametrize("call", [kaji.memory_info, cuda.memory_info,
                                  lambda: cuda.current_context().get_memory_info()])
def test_memory_info_without_a_gpu_is_cuda_unavailable(call):
    with pytest.raises(kaji.CudaUnavailable):
        call()


@no_gpu
@pytest.mark.filterwarnings("ignore::kaji.TargetFallbackWarning")
def test_without_a_gpu_the_kinds_fall_back_to_host_memory(monkeypatch):
    monkeypatch.delenv("KAJI_TARGET", raising=False)
    assert type(cuda.pinned_array(4)) is np.ndarray
    assert type(cuda.managed_array(4)) is np.ndarray


# --- the GPU ------------------------------------------------------------------------------

@gpu
def test_memory_info_is_free_and_total():
    info = kaji.memory_info()
    assert isinstance(info, tuple) and info._fields == ("free", "total")
    assert 0 < info.free <= info.total
    assert cuda.current_context().get_memory_info().total == info.total


@gpu
def test_pinned_array_is_page_locked_numpy_memory():
    host = cuda.pinned_array((256, 4), dtype=np.float32)
    assert type(host) is np.ndarray and host.shape == (256, 4)
    assert kaji._core.is_page_locked(host)
    assert not kaji._core.is_page_locked(np.zeros(4))


@gpu
def test_copies_from_and_to_pinned_memory_are_queued_on_the_stream():
    stream = cuda.stream()
    source = cuda.pinned_array(1 << 22, dtype=np.float32)
    source[:] = np.arange(source.size, dtype=np.float32)
    device = cuda.to_device(source, stream=stream)
    back = cuda.pinned_array_like(source)
    back[:] = -1
    device.copy_to_host(back, stream=stream)
    stream.synchronize()
    np.testing.assert_array_equal(back, source)


@gpu
def test_a_kernel_on_a_stream_between_pinned_copies():
    stream = cuda.stream()
    host = cuda.pinned_array(1000, dtype=np.int64)
    host[:] = np.arange(1000)
    device = cuda.to_device(host, stream=stream)
    add_one[8, 128, stream](device)
    device.copy_to_host(host, stream=stream)
    stream.synchronize()
    np.testing.assert_array_equal(host, np.arange(1, 1001))


@gpu
def test_pinned_block_page_locks_an_existing_array_for_its_duration():
    host = np.arange(1 << 16, dtype=np.float64)
    stream = cuda.stream()
    with cuda.pinned(host):
        assert kaji._core.is_page_locked(host)
        device = cuda.to_device(host, stream=stream)
        stream.synchronize()
    assert not kaji._core.is_page_locked(host)
    np.testing.assert_array_equal(device.copy_to_host(), host)


@gpu
def test_mapped_array_is_written_by_a_kernel_and_read_on_the_host_without_a_copy():
    values = cuda.mapped_array(1000, dtype=np.int32)
    assert isinstance(values, np.ndarray) and isinstance(values, cuda.MappedArray)
    values[:] = np.arange(1000)
    add_one[8, 128](values)
    cuda.synchronize()
    np.testing.assert_array_equal(values, np.arange(1, 1001))
    # A view of it is mapped too; a value computed from it is host memory.
    assert values[10:].__cuda_array_interface__["data"][0] == (
        values.__cuda_array_interface__["data"][0] + 40)
    assert not hasattr(values + 1, "__cuda_array_interface__")


@gpu
@pytest.mark.parametrize("make", [cuda.mapped_array, cuda.managed_array])
def test_the_stream_a_mapped_array_is_made_with_is_the_one_its_consumers_wait_for(make):
    stream = cuda.stream()
    values = make(10, stream=stream)
    assert values.__cuda_array_interface__["stream"] == int(stream.handle)
    assert values[2:].__cuda_array_interface__["stream"] == int(stream.handle)
    assert make(10).__cuda_array_interface__["stream"] is None
    assert make(10, stream=0).__cuda_array_interface__["stream"] is None
    with pytest.raises(TypeError, match="stream must be a kaji Stream, 0 or None, not str"):
        make(10, stream="s")


@gpu
def test_mapped_block_gives_device_arrays_over_the_host_memory():
    first, second = np.zeros(256, dtype=np.int32), np.full(64, 5, dtype=np.int32)
    with cuda.mapped(first, second) as (device_first, device_second):
        add_one[2, 128](device_first)
        add_one[1, 64](device_second)
        cuda.synchronize()
    np.testing.assert_array_equal(first, np.ones(256))
    np.testing.assert_array_equal(second, np.full(64, 6))


@gpu
def test_managed_array_is_shared_by_host_and_kernels():
    values = cuda.managed_array((10, 10), dtype=np.float32)
    assert isinstance(values, cuda.MappedArray)
    values[:] = 1.5
    add_one[1, 128](values.reshape(-1))
    cuda.synchronize()
    np.testing.assert_array_equal(values, np.full((10, 10), 2.5, dtype=np.float32))


@gpu
def test_managed_array_attached_to_the_host_is_host_memory_to_numpy():
    values = cuda.managed_array(64, dtype=np.int16, attach_global=False)
    values[:] = np.arange(64)
    assert values.sum() == np.arange(64).sum()


@gpu
def test_managed_memory_is_never_asked_beyond_what_is_free():
    with pytest.raises(MemoryError, match="bytes .* free"):
        cuda.managed_array(1 << 50, dtype=np.uint8)


@gpu
def test_an_impossible_allocation_is_a_memory_error_naming_size_and_free_memory():
    with pytest.raises(MemoryError, match=r"cannot allocate 1125899906842624 bytes .* are free"):
        kaji.device_array(1 << 50, dtype=np.uint8)
    kaji.device_array(16)  # the device still allocates


def test_a_limit_past_2_64_is_a_value_error_naming_it(no_limit):
    with pytest.raises(ValueError, match=r"the memory limit 1180591620717411303424 is out of "
                                         r"range \(0 to 2\*\*64-1\)"):
        kaji.set_memory_limit(2**70)
    assert kaji.memory_limit() is None
    kaji.set_memory_limit(2**64 - 1)
    assert kaji.memory_limit() == 2**64 - 1


@pytest.mark.parametrize("make", [
    lambda n: kaji.device_array(n, dtype=np.uint8),
    lambda n: kaji.device_array_like(np.zeros(n, dtype=np.uint8)),
    lambda n: kaji.to_device(np.zeros(n, dtype=np.uint8)),
    lambda n: kaji.to_device(np.zeros(2 * n, dtype=np.uint8)[::2]),  # the bytes it spans
    lambda n: cuda.managed_array(n, dtype=np.uint8),
], ids=["device_array", "device_array_like", "to_device", "to_device_strided", "managed_array"])
def test_on_the_cpu_target_host_memory_standing_in_for_device_memory_is_limited(
        cpu_target, no_limit, make):
    """Host-backed device arrays and managed arrays count against the limit as the device
    memory they stand in for does: a program past its limit fails alike on both targets."""
    gc.collect()  # arrays of earlier tests freed now, not while the headroom is measured
    before = kaji._core.memory_in_use()
    kept = make(1 << 20)
    counted = kaji._core.memory_in_use() - before  # a strided copy counts the bytes it spans
    assert counted >= 1 << 20
    kaji.set_memory_limit(kaji._core.memory_in_use() + counted)
    with pytest.raises(MemoryError, match="memory limit is"):
        make(2 << 20)
    second = make(1 << 20)
    del second  # freed memory counts no more
    make(1 << 20)
    kaji.set_memory_limit(None)
    make(4 << 20)
    assert kept.size == 1 << 20


@gpu
def test_allocations_past_the_limit_are_memory_errors_naming_it(no_limit):
    # Arrays of earlier tests freed now, not while the headroom is measured: collected, and
    # their deferred frees done.
    gc.collect()
    cuda.current_context().deallocations.clear()
    kept = kaji.device_array(1 << 20, dtype=np.uint8)
    kaji.set_memory_limit(kaji._core.memory_in_use() + (2 << 20))
    second = kaji.device_array(1 << 20, dtype=np.uint8)
    with pytest.raises(MemoryError, match="memory limit is"):
        kaji.device_array(2 << 20, dtype=np.uint8)
    with pytest.raises(MemoryError, match="memory limit is"):
        kaji.to_device(np.zeros(2 << 20, dtype=np.uint8))
    del second  # freed memory counts no more
    kaji.device_array(1 << 20, dtype=np.uint8)
    kaji.set_memory_limit(None)
    kaji.device_array(8 << 20, dtype=np.uint8)
    assert kept.size == 1 << 20


@gpu
def test_the_pool_allocates_and_frees_many_times_on_a_stream():
    stream = cuda.stream()
    in_use = kaji._core.memory_in_use()
    for round in range(300):
        values = cuda.device_array(1 << 16, dtype=np.int64, stream=stream)
        values.copy_to_device(np.full(1 << 16, round, dtype=np.int64), stream=stream)
        add_one[256, 256, stream](values)
    result = values.copy_to_host(stream=stream)
    stream.synchronize()
    np.testing.assert_array_equal(result, np.full(1 << 16, 300))
    del values
    assert kaji._core.memory_in_use() == in_use


REUSE_AFTER_SLOW_WORK = """
import numpy as np
import kaji
from kaji import cuda

@kaji.jit
def fill_late(values, value, sleeps):
    i = kaji.grid(1)
    if i < values.size:
        for _ in range(sleeps):
            cuda.nanosleep(1000)
        values[i] = value

slow, fast = cuda.stream(), cuda.stream()
n = 1 << 16
first = cuda.device_array(n, np.int32)
freed_at = first.__cuda_array_interface__["data"][0]
fill_late[n // 256, 256, slow](first, 1, 3000)
del first
second = cuda.device_array(n, np.int32)
assert second.__cuda_array_interface__["data"][0] == freed_at, "not reused"
fill_late[n // 256, 256, fast](second, 2, 0)
kaji.synchronize()
np.testing.assert_array_equal(second.copy_to_host(), np.full(n, 2, np.int32))
"""


@gpu
def test_a_reused_buffer_is_written_only_after_work_another_stream_queued_on_it():
    # The freed buffer is taken back while a kernel on another blocking stream still sleeps
    # before writing it; the new owner's write must land after that kernel's.
    result = subprocess.run([sys.executable, "-c", REUSE_AFTER_SLOW_WORK], capture_output=True,
                            text=True)
    assert result.returncode == 0, result.stderr


@gpu
def test_staged_numpy_arguments_on_a_stream_come_back_updated():
    stream = cuda.stream()
    host = cuda.pinned_array(512, dtype=np.int32)
    host[:] = 7
    add_one[4, 128, stream](host)
    np.testing.assert_array_equal(host, np.full(512, 8))


def test_views_of_a_mapped_array_keep_its_device_address_and_computed_arrays_drop_it():
    from kaji._mapped_array import MappedArray

    memory = np.zeros(400, dtype=np.uint8)
    values = MappedArray((100,), np.int32, buffer=memory)
    values._mapping = (memory.__array_interface__["data"][0], memory.nbytes, 0x7000_0000)
    interface = values.__cuda_array_interface__
    assert interface["data"] == (0x7000_0000, False) and interface["strides"] is None
    assert interface["shape"] == (100,) and interface["typestr"] == "<i4"
    assert values[10:].__cuda_array_interface__["data"][0] == 0x7000_0000 + 40
    every_other = values[::2].__cuda_array_interface__
    assert every_other["strides"] == (8,) and every_other["shape"] == (50,)
    assert values.reshape(10, 10).__cuda_array_interface__["shape"] == (10, 10)
    assert not hasattr(values + 1, "__cuda_array_interface__")
    assert not hasattr(values.copy(), "__cuda_array_interface__")


def test_host_memory_kaji_did_not_page_lock_is_pageable():
    assert not kaji._core.is_page_locked(np.zeros(16))


class _FakeCore:
    """kaji._core's memory kinds over ordinary numpy memory, mapped at a made-up device
    address: the Python layer's shapes, orders and mappings checked without a GPU."""

    DEVICE_BASE = 0x7700_0000_0000

    def __init__(self):
        self.locked = []

    def pinned_host_memory(self, nbytes, portable=False, mapped=False, write_combined=False):
        return np.zeros(nbytes, dtype=np.uint8), self.DEVICE_BASE if mapped else 0

    def managed_memory(self, nbytes, attach_global=True):
        return np.zeros(nbytes, dtype=np.uint8)

    def PageLock(self, array, portable=False, mapped=False):
        core = self
        core.locked.append(id(array))

        class Lock:
            device_pointer = core.DEVICE_BASE

            def release(self):
                core.locked.remove(id(array))

        return Lock()


@pytest.fixture
def fake_gpu_memory(monkeypatch):
    from kaji import _memory_kinds

    fake = _FakeCore()
    monkeypatch.setattr(_memory_kinds, "_core", fake)
    monkeypatch.setattr(_memory_kinds, "_on_host", lambda: False)
    return fake


def test_the_python_layer_lays_out_each_kind(fake_gpu_memory):
    pinned = cuda.pinned_array((3, 5), dtype=np.int16, order="F")
    assert type(pinned) is np.ndarray and pinned.flags["F_CONTIGUOUS"] and pinned.shape == (3, 5)
    strided = cuda.pinned_array(4, dtype=np.float32, strides=(8,))
    assert strided.strides == (8,) and strided.base.nbytes == 3 * 8 + 4
    mapped = cuda.mapped_array((4, 4), dtype=np.float64)
    assert isinstance(mapped, cuda.MappedArray)
    assert mapped[1].__cuda_array_interface__["data"][0] == _FakeCore.DEVICE_BASE + 32
    managed = cuda.managed_array(8, dtype=np.int32)
    assert managed.__cuda_array_interface__["data"][0] == managed.__array_interface__["data"][0]


def test_the_python_layer_locks_for_the_block_only(fake_gpu_memory, monkeypatch):
    from kaji import _memory_kinds

    monkeypatch.setattr(_memory_kinds, "from_cuda_array_interface",
                        lambda desc, owner, sync: desc)
    first, second = np.zeros(3), np.ones((2, 2), dtype=np.int8)
    with cuda.pinned(first, second):
        assert len(fake_gpu_memory.locked) == 2
    assert fake_gpu_memory.locked == []
    with cuda.mapped(second) as desc:
        assert desc["shape"] == (2, 2) and desc["typestr"] == "|i1"
        assert desc["data"] == (_FakeCore.DEVICE_BASE, False)
    assert fake_gpu_memory.locked == []


@pytest.mark.parametrize("make_like", [cuda.pinned_array_like, cuda.mapped_array_like])
def test_like_arrays_take_numpys_empty_like_layout(cpu_target, make_like):
    strided = np.zeros((6, 8), dtype=np.float32, order="F")[::2, ::2]
    like = make_like(strided)
    assert like.shape == (3, 4) and like.dtype == np.float32
    assert like.strides == np.empty_like(strided).strides
    assert make_like(np.zeros((2, 3), order="F")).flags["F_CONTIGUOUS"]
