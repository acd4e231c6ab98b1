"""Numba's streams, events, contexts and devices API. Without a GPU each call gives
kaji.CudaUnavailable, except what Numba allows without one (is_available, detect); the GPU
tests are listed for the GPU machine."""

import asyncio
import threading

import numpy as np
import pytest

import kaji
from kaji import cuda

no_gpu = pytest.mark.skipif(kaji.is_available() and bool(kaji.devices()),
                            reason="checks the errors given without a GPU")


@no_gpu
@pytest.mark.parametrize("call", [
    lambda: cuda.stream(),
    lambda: cuda.event(),
    lambda: cuda.event(timing=False),
    lambda: cuda.gpus[0],
    lambda: len(cuda.gpus),
    lambda: list(cuda.gpus),
    lambda: cuda.current_context(),
    lambda: cuda.current_context().get_memory_info(),
    lambda: cuda.get_current_device(),
    lambda: cuda.select_device(0),
])
def test_without_a_gpu_each_call_is_cuda_unavailable(call):
    with pytest.raises(kaji.CudaUnavailable):
        call()


@no_gpu
def test_detect_without_a_gpu_says_none_was_found(capsys):
    assert cuda.detect() is False
    assert "Found 0 CUDA devices" in capsys.readouterr().out
    assert cuda.is_available() is False


@no_gpu
def test_close_without_a_gpu_does_nothing():
    cuda.close()


def test_default_stream_handles_are_the_drivers_pseudo_handles():
    assert cuda.default_stream().handle == 0
    assert cuda.legacy_default_stream().handle == 1
    assert cuda.per_thread_default_stream().handle == 2


def test_streams_say_which_kind_they_are_in_numbas_words():
    assert "<kaji.Stream: Default CUDA stream on device" in repr(cuda.default_stream())
    assert "Legacy default CUDA stream" in repr(cuda.legacy_default_stream())
    assert "Per-thread default CUDA stream" in repr(cuda.per_thread_default_stream())
    external = cuda.external_stream(0x1234)
    assert "External CUDA stream 0x1234" in repr(external) and external.external
    assert [int(s) for s in (cuda.default_stream(), cuda.legacy_default_stream(),
                             cuda.per_thread_default_stream(), external)] == [0, 1, 2, 0x1234]


def test_cpu_kernels_take_the_default_streams(monkeypatch):
    @cuda.jit(target="cpu")
    def fill(out):
        out[cuda.grid(1)] = 3

    out = np.zeros(4, np.int32)
    for stream in (cuda.default_stream(), cuda.legacy_default_stream(),
                   cuda.per_thread_default_stream()):
        fill[1, 4, stream](out)
    assert (out == 3).all()


# --- on a GPU ---------------------------------------------------------------------------------

@pytest.mark.gpu
def test_auto_synchronize_gives_the_stream_and_waits_on_leaving():
    stream = cuda.stream()
    host = np.arange(1 << 20, dtype=np.float32)
    with stream.auto_synchronize() as inside:
        assert inside is stream
        device = cuda.to_device(host, stream=stream)
    np.testing.assert_array_equal(device.copy_to_host(), host)


@pytest.mark.gpu
def test_add_callback_runs_after_the_queued_work():
    stream = cuda.stream()
    called = threading.Event()
    seen = []

    def callback(s, status, arg):
        seen.append((s, status, arg))
        called.set()

    cuda.to_device(np.ones(1 << 20), stream=stream)
    stream.add_callback(callback, "payload")
    assert called.wait(10)
    assert seen == [(stream, 0, "payload")]


@pytest.mark.gpu
def test_async_done_is_an_awaitable_future():
    async def main():
        stream = cuda.stream()
        cuda.to_device(np.ones(1 << 20), stream=stream)
        return await stream.async_done()

    assert isinstance(asyncio.run(main()), kaji.Stream)


@pytest.mark.gpu
def test_events_time_and_refuse_without_timing():
    start, end = cuda.event(), cuda.event()
    start.record()
    cuda.to_device(np.ones(1 << 22))
    end.record()
    end.synchronize()
    assert start.elapsed_time(end) >= 0
    assert cuda.event_elapsed_time(start, end) == start.elapsed_time(end)
    untimed = cuda.event(timing=False)
    untimed.record()
    untimed.synchronize()
    with pytest.raises(ValueError, match="timing=True"):
        start.elapsed_time(untimed)


@pytest.mark.gpu
def test_event_query_and_wait_order_streams():
    producer, consumer = cuda.stream(), cuda.stream()
    host = np.arange(1 << 22, dtype=np.float32)
    device = cuda.to_device(host, stream=producer)
    done = cuda.event(timing=False)
    done.record(producer)
    done.wait(consumer)
    copy = cuda.device_array_like(device)
    copy.copy_to_device(device, stream=consumer)
    done.synchronize()
    assert done.query() is True
    np.testing.assert_array_equal(copy.copy_to_host(), host)


@pytest.mark.gpu
def test_gpus_index_iterate_and_select_within_a_with_block():
    assert len(cuda.gpus) == len(kaji.devices()) > 0
    assert [gpu.id for gpu in cuda.gpus] == list(range(len(cuda.gpus)))
    last = len(cuda.gpus) - 1
    before = cuda.get_current_device().id
    with cuda.gpus[last] as device:
        assert device.id == last and cuda.get_current_device().id == last
        assert cuda.gpus.current.id == last
    assert cuda.get_current_device().id == before
    assert cuda.gpus[-1].id == last
    with pytest.raises(IndexError):
        cuda.gpus[len(cuda.gpus)]


@pytest.mark.gpu
def test_current_device_has_numbas_attribute_names():
    device = cuda.get_current_device()
    assert device.MULTIPROCESSOR_COUNT == device.multiprocessor_count > 0
    assert device.MAX_THREADS_PER_BLOCK == 1024
    assert device.WARP_SIZE == 32
    assert device.COMPUTE_CAPABILITY_MAJOR == device.compute_capability[0]
    assert isinstance(device.name, str) and device.id == 0
    assert "MULTIPROCESSOR_COUNT" in dir(device)
    with pytest.raises(AttributeError, match="NOT_AN_ATTRIBUTE"):
        device.NOT_AN_ATTRIBUTE


@pytest.mark.gpu
def test_current_context_reports_memory():
    free, total = cuda.current_context().get_memory_info()
    assert 0 < free <= total
    cuda.current_context().synchronize()


@pytest.mark.gpu
def test_detect_lists_the_devices(capsys):
    assert cuda.detect() is True
    out = capsys.readouterr().out
    assert f"Found {len(kaji.devices())} CUDA devices" in out
    assert "Compute Capability" in out


@pytest.mark.gpu
def test_close_waits_and_kernels_still_run_after():
    @cuda.jit(target="cuda")
    def fill(out):
        out[cuda.grid(1)] = 5

    out = cuda.device_array(256, np.int32)
    fill[1, 256](out)
    cuda.close()
    fill[1, 256](out)
    assert (out.copy_to_host() == 5).all()
