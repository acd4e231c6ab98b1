"""The memory paths on a fake CUDA driver (fake_driver/fake_libcuda.c: host memory, each call
counted, kernels not run), so that CI without a GPU checks them: which allocations come from
the stream-ordered pool, which copies stay queued on a stream, that mapped and managed arrays
reach kernels without staging copies, page-locking for a block, and the memory errors. Each
check runs in its own process with KAJI_CUDA_DRIVER naming the fake; skipped where no C
compiler builds it. test_memory_kinds.py checks the same on a real GPU."""

import os
import pathlib
import shutil
import subprocess
import sys
import textwrap

import pytest

from python_program import run_python_program

SOURCE = pathlib.Path(__file__).parent / "fake_driver" / "fake_libcuda.c"

# Loaded in each check's process: counts() reads the fake's counters; changes(action) runs
# `action` and gives how much each counter moved.
PRELUDE = '''
import ctypes, os, warnings
import numpy as np
import kaji
from kaji import cuda
warnings.simplefilter("ignore", kaji.PerformanceWarning)
_fake = ctypes.CDLL(os.environ["KAJI_CUDA_DRIVER"])
_NAMES = ("alloc", "alloc_async", "free", "free_async", "host_alloc", "host_free",
          "host_register", "host_unregister", "alloc_managed", "copy_async",
          "stream_synchronize", "event_record", "stream_wait_event")
assert _fake.fake_counter_count() == len(_NAMES)

def counts():
    values = (ctypes.c_int * len(_NAMES))()
    _fake.fake_counts(values)
    return dict(zip(_NAMES, values))

def changes(action):
    before = counts()
    action()
    after = counts()
    return {name: after[name] - before[name] for name in _NAMES if after[name] != before[name]}
'''


@pytest.fixture(scope="module")
def fake_driver(tmp_path_factory):
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        pytest.skip("no C compiler to build the fake CUDA driver")
    library = tmp_path_factory.mktemp("fake_driver") / "libcuda.so"
    subprocess.run([compiler, "-shared", "-fPIC", "-o", str(library), str(SOURCE)], check=True)
    return library


def run_on_fake(fake_driver, body, **environment):
    """Runs `body` after PRELUDE on the fake driver; its asserts are the test."""
    inherited = {name: value for name, value in os.environ.items()
                 if name not in ("KAJI_MEMORY_LIMIT", "KAJI_MEMORY_POOL")}
    env = {**inherited, "PYTHONPATH": os.pathsep.join(sys.path), "KAJI_TARGET": "cuda",
           "KAJI_CUDA_DRIVER": str(fake_driver), **environment}
    result = run_python_program(PRELUDE + textwrap.dedent(body), env=env, capture_output=True,
                                text=True)
    assert result.returncode == 0, result.stderr


def test_copies_with_page_locked_memory_stay_queued_and_pageable_ones_wait(fake_driver):
    run_on_fake(fake_driver, """
        stream = cuda.stream()
        pinned = cuda.pinned_array(1000, dtype=np.float32)
        pinned[:] = np.arange(1000)
        made = {}
        assert changes(lambda: made.setdefault("d", cuda.to_device(pinned, stream=stream))) == {
            "alloc_async": 1, "copy_async": 1}
        pageable = np.zeros(1000, dtype=np.float32)
        assert changes(lambda: made["d"].copy_to_host(pageable, stream=stream)) == {
            "copy_async": 1, "stream_synchronize": 1}
        back = cuda.pinned_array_like(pinned)
        assert changes(lambda: made["d"].copy_to_host(back, stream=stream)) == {
            "copy_async": 1}
        assert (back == pinned).all() and (pageable == pinned).all()
        assert changes(lambda: made.clear()) == {"free_async": 1}
    """)


def test_arrays_without_a_stream_or_pool_are_plain_allocations(fake_driver):
    body = """
        stream = cuda.stream()
        kept = []
        assert changes(lambda: kept.append(cuda.device_array(64))) == {"alloc": 1}
        assert changes(lambda: kept.append(cuda.device_array(64, stream=0))) == {"alloc": 1}
        on_stream = changes(lambda: kept.append(cuda.device_array(64, stream=stream)))
        assert on_stream == ({"alloc_async": 1} if POOLED else {"alloc": 1}), on_stream
        freed = changes(lambda: kept.clear())  # cuMemFree waits for the device: batched
        assert freed == ({"free_async": 1} if POOLED else {}), freed
        pending = cuda.current_context().deallocations
        assert len(pending) == (2 if POOLED else 3)
        freed = changes(pending.clear)
        assert freed == {"free": 2 if POOLED else 3}, freed
        assert len(pending) == 0
    """
    run_on_fake(fake_driver, "POOLED = True\n" + textwrap.dedent(body))
    run_on_fake(fake_driver, "POOLED = False\n" + textwrap.dedent(body), FAKE_MEMORY_POOLS="0")
    run_on_fake(fake_driver, "POOLED = False\n" + textwrap.dedent(body), KAJI_MEMORY_POOL="0")


def test_the_pool_frees_every_allocation_it_made(fake_driver):
    run_on_fake(fake_driver, """
        stream = cuda.stream()
        def churn():
            for _ in range(200):
                cuda.device_array(1 << 12, stream=stream)
        in_use = kaji._core.memory_in_use()
        assert changes(churn) == {"alloc_async": 200, "free_async": 200}
        assert kaji._core.memory_in_use() == in_use
        assert kaji.memory_info().free == kaji.memory_info().total
    """)


def test_mapped_and_managed_arrays_reach_kernels_without_staging(fake_driver):
    run_on_fake(fake_driver, """
        @cuda.jit
        def touch(values):
            i = cuda.grid(1)
            if i < values.size:
                values[i] += 1

        mapped = cuda.mapped_array(100, dtype=np.int32)
        managed = cuda.managed_array(100, dtype=np.int32)
        assert changes(lambda: touch[1, 128](mapped)) == {}
        assert changes(lambda: touch[1, 128](mapped[::2])) == {}
        assert changes(lambda: touch[1, 128](managed)) == {}
        assert changes(lambda: touch[1, 128](mapped + 1)) == {"alloc": 1}  # freed in a batch
        assert len(cuda.current_context().deallocations) == 1
        stream = cuda.stream()
        pinned = cuda.pinned_array(100, dtype=np.int32)
        staged = changes(lambda: touch[1, 128, stream](pinned))
        assert staged == {"alloc_async": 1, "free_async": 1, "copy_async": 2,
                          "stream_synchronize": 1}, staged
    """)


def test_pinned_and_mapped_blocks_register_for_their_duration(fake_driver):
    run_on_fake(fake_driver, """
        host = np.arange(64, dtype=np.float64)
        before = counts()
        with cuda.pinned(host, host[::2]):
            assert kaji._core.is_page_locked(host)
            assert counts()["host_register"] == before["host_register"] + 1
        assert not kaji._core.is_page_locked(host)
        assert counts()["host_unregister"] == before["host_unregister"] + 1
        with cuda.mapped(host[8:]) as device:
            assert device.device_pointer == host[8:].ctypes.data
            assert device.shape == (56,)
        pinned = cuda.pinned_array(8)
        assert changes(lambda: cuda.pinned(pinned).__enter__()) == {}
    """)


def test_memory_errors_name_the_limit_or_the_free_memory(fake_driver):
    run_on_fake(fake_driver, """
        in_use = kaji._core.memory_in_use()
        kaji.set_memory_limit(in_use + 1000)
        try:
            cuda.device_array(2000, dtype=np.uint8)
            raise AssertionError("allocated past the limit")
        except MemoryError as error:
            assert "cannot allocate 2000 bytes" in str(error), error
            assert f"memory limit is {in_use + 1000} bytes" in str(error), error
        kaji.set_memory_limit(None)
        for make in (lambda: cuda.device_array(1 << 40, dtype=np.uint8),
                     lambda: cuda.managed_array(1 << 40, dtype=np.uint8)):
            try:
                make()
                raise AssertionError("allocated 1 TiB on a 1 GiB device")
            except MemoryError as error:
                assert "cannot allocate 1099511627776 bytes (1.0 TiB) on device 0" in str(error)
                assert "of its 1073741824 bytes (1.0 GiB) are free" in str(error), error
        assert counts()["alloc_managed"] == 0  # never asked beyond the free memory
        assert kaji._core.memory_in_use() == in_use
    """)


def test_the_limit_from_the_environment_applies_to_allocations(fake_driver):
    run_on_fake(fake_driver, """
        assert kaji.memory_limit() == 1 << 20
        cuda.device_array(1 << 19, dtype=np.uint8)
        try:
            cuda.device_array(2 << 20, dtype=np.uint8)
            raise AssertionError("allocated past KAJI_MEMORY_LIMIT")
        except MemoryError as error:
            assert "memory limit is 1048576 bytes (1.0 MiB)" in str(error), error
    """, KAJI_MEMORY_LIMIT="1MiB")


def test_arrays_made_on_a_stream_name_it_to_consumers_who_wait_for_it(fake_driver):
    # __cuda_array_interface__ v3: the producer names the stream its work on the memory is
    # queued on; a consumer on another stream waits for it (an event), on the same one not.
    run_on_fake(fake_driver, """
        stream, other = cuda.stream(), cuda.stream()
        handle = stream.handle
        on_stream = cuda.to_device(np.arange(8.0), stream=stream)
        assert on_stream.__cuda_array_interface__["stream"] == handle
        assert on_stream[2:].T.__cuda_array_interface__["stream"] == handle
        assert cuda.device_array(4, stream=stream).__cuda_array_interface__["stream"] == handle
        assert cuda.device_array_like(on_stream, stream=stream) \
            .__cuda_array_interface__["stream"] == handle
        assert cuda.to_device(np.arange(8.0)).__cuda_array_interface__["stream"] is None

        class Foreign:
            def __init__(self, array):
                self.__cuda_array_interface__ = array.__cuda_array_interface__

        @cuda.jit("void(float64[:])")
        def touch(x):
            x[0] = 1.0

        assert changes(lambda: touch[1, 1, other](Foreign(on_stream))) == {
            "event_record": 1, "stream_wait_event": 1}
        assert changes(lambda: touch[1, 1, stream](Foreign(on_stream))) == {}
    """)


def test_frees_without_a_stream_are_done_in_batches_past_numbas_limits(fake_driver):
    run_on_fake(fake_driver, """
        from kaji.cuda import config
        pending = cuda.current_context().deallocations
        pending.clear()
        assert config.CUDA_DEALLOCS_COUNT == 10 and config.CUDA_DEALLOCS_RATIO == 0.2
        # Sizes differ, so that no pending buffer is reused for the next array.
        for count in range(1, 11):
            assert changes(lambda: cuda.to_device(np.arange(count))) == {"alloc": 1}
            assert len(pending) == count and pending._size == 4 * count * (count + 1)
        assert changes(lambda: cuda.to_device(np.arange(11))) == {"alloc": 1, "free": 11}
        assert len(pending) == 0
        config.CUDA_DEALLOCS_COUNT = 2
        cuda.to_device(np.arange(1)), cuda.to_device(np.arange(1))
        assert changes(lambda: cuda.to_device(np.arange(2))) == {"alloc": 1, "free": 3}
        config.CUDA_DEALLOCS_COUNT = 100
        total = cuda.current_context().get_memory_info().total
        config.CUDA_DEALLOCS_RATIO = 10**6 / total
        assert abs(pending._max_pending_bytes - 10**6) <= 1
        cuda.to_device(np.ones(pending._max_pending_bytes, dtype=np.int8))
        assert len(pending) == 1  # at the limit, not past it
        assert changes(lambda: cuda.to_device(np.ones(1, dtype=np.int8))) == {"alloc": 1, "free": 2}
        for name, bad in (("CUDA_DEALLOCS_RATIO", 1.5), ("CUDA_DEALLOCS_COUNT", -1)):
            try:
                setattr(config, name, bad)
                raise AssertionError(f"{name} = {bad} accepted")
            except ValueError as error:
                assert name in str(error), error
    """)


def test_defer_cleanup_holds_back_every_free_until_a_flush_after_it(fake_driver):
    run_on_fake(fake_driver, """
        pending = cuda.current_context().deallocations
        stream = cuda.stream()
        kept = [cuda.to_device(np.arange(5)), cuda.device_array(8, stream=stream)]
        pending.clear()
        class Stop(Exception):
            pass
        try:
            with cuda.defer_cleanup():
                with cuda.defer_cleanup():
                    assert pending.is_disabled
                    assert changes(kept.clear) == {}  # the stream-ordered free waits too
                    assert changes(pending.clear) == {} and len(pending) == 2
                assert changes(pending.clear) == {} and len(pending) == 2
                raise Stop
        except Stop:
            pass
        assert not pending.is_disabled and len(pending) == 2  # done at the next flush
        assert changes(pending.clear) == {"free": 1, "free_async": 1}
        with cuda.current_context().memory_manager.defer_cleanup():
            assert pending.is_disabled
        assert not pending.is_disabled
    """)


def test_an_allocation_without_room_does_the_pending_frees_first(fake_driver):
    run_on_fake(fake_driver, """
        from kaji.cuda import config
        config.CUDA_DEALLOCS_COUNT, config.CUDA_DEALLOCS_RATIO = 100, 1.0
        pending = cuda.current_context().deallocations
        pending.clear()
        in_use = kaji._core.memory_in_use()
        kaji.set_memory_limit(in_use + 1000)
        cuda.device_array(800, dtype=np.uint8)
        assert len(pending) == 1 and kaji._core.memory_in_use() == in_use + 800
        assert changes(lambda: cuda.device_array(900, dtype=np.uint8)) == {"alloc": 1, "free": 1}
        kaji.set_memory_limit(None)
        pending.clear()
        total = cuda.current_context().get_memory_info().total
        cuda.device_array(total * 3 // 5, dtype=np.uint8)  # the fake device's memory, mostly
        assert len(pending) == 1
        made = changes(lambda: cuda.device_array(total * 3 // 5 + 1, dtype=np.uint8))
        assert made == {"alloc": 2, "free": 1}, made  # refused, then made after the free
        pending.clear()
        with cuda.defer_cleanup():  # nothing is freed then: the allocation fails
            cuda.device_array(total * 3 // 5, dtype=np.uint8)
            try:
                cuda.device_array(total * 3 // 5, dtype=np.uint8)
                raise AssertionError("allocated past the device's memory")
            except MemoryError as error:
                assert "cannot allocate" in str(error), error
    """)


def test_a_pending_buffer_of_the_same_size_is_taken_back_behind_a_legacy_stream_event(
        fake_driver):
    run_on_fake(fake_driver, """
        pending = cuda.current_context().deallocations
        pending.clear()
        address = lambda array: array.__cuda_array_interface__["data"][0]
        in_use = kaji._core.memory_in_use()
        first = cuda.device_array(1000, dtype=np.uint8)
        freed_at = address(first)
        del first
        assert len(pending) == 1
        made = {}
        take = lambda name, size=1000, **stream: made.setdefault(
            name, cuda.device_array(size, np.uint8, **stream))
        assert changes(lambda: take("again")) == {"event_record": 1}
        assert address(made["again"]) == freed_at and len(pending) == 0
        assert kaji._core.memory_in_use() == in_use + 1000
        del made["again"]
        assert changes(lambda: take("smaller", 999)) == {"alloc": 1}
        stream = cuda.stream()
        assert changes(lambda: take("on a stream", stream=stream)) == {"alloc_async": 1}
        _fake.fake_capture_blocking_stream(1)  # the legacy stream takes no work meanwhile
        assert changes(lambda: take("capturing")) == {"alloc": 1}
        _fake.fake_capture_blocking_stream(0)
        with cuda.defer_cleanup():
            assert changes(lambda: take("deferred")) == {"alloc": 1}
        assert changes(lambda: take("after")) == {"event_record": 1}
        made.clear()  # the stream-ordered array is freed at once
        assert len(pending) == 4
    """)


@pytest.mark.parametrize("meeting", [
    "kaji.external_stream(handle).synchronize()",
    "cuda.as_cuda_array(Foreign())",  # waits for the producer's stream
])
def test_reuse_stops_at_the_first_non_blocking_stream(fake_driver, meeting):
    # Work on another library's non-blocking stream is not ordered by the legacy default
    # stream, so a buffer it used might still be busy when freed.
    run_on_fake(fake_driver, f"""
        _fake.fake_non_blocking_stream.restype = ctypes.c_size_t
        handle = _fake.fake_non_blocking_stream()
        class Foreign:
            __cuda_array_interface__ = dict(shape=(4,), typestr="<f4", data=(256, False),
                                            version=3, stream=handle)
        pending = cuda.current_context().deallocations
        cuda.device_array(64)
        assert changes(lambda: cuda.device_array(64)) == {{"event_record": 1}}
        kaji.external_stream(cuda.stream().handle).synchronize()  # a blocking one
        kaji.external_stream(handle)  # not used: never asked about
        cuda.as_cuda_array(Foreign(), sync=False)
        assert changes(lambda: cuda.device_array(64)) == {{"event_record": 1}}
        {meeting}
        assert changes(lambda: cuda.device_array(64)) == {{"alloc": 1}}
        assert len(pending) == 2
    """)


def test_numbas_environment_sets_the_limits_of_pending_frees(fake_driver):
    run_on_fake(fake_driver, """
        from kaji.cuda import config
        assert config.CUDA_DEALLOCS_COUNT == 3 and config.CUDA_DEALLOCS_RATIO == 0.5
    """, NUMBA_CUDA_DEALLOCS_COUNT="3", KAJI_CUDA_DEALLOCS_RATIO="0.5",
        NUMBA_CUDA_DEALLOCS_RATIO="0.9")
    run_on_fake(fake_driver, """
        import warnings
        from kaji.cuda import config
        assert config.CUDA_DEALLOCS_COUNT == 10  # the default, after a warning
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            kaji._runtime.apply_pending_free_environment()
        assert any("NUMBA_CUDA_DEALLOCS_COUNT='many' is not a count" in str(w.message)
                   for w in caught), [str(w.message) for w in caught]
    """, NUMBA_CUDA_DEALLOCS_COUNT="many")
