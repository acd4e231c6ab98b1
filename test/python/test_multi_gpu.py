"""Several GPUs: device arrays know their device, copy_to_device copies between device arrays
(peer copies between GPUs), and a launch refuses arrays and streams of another device. The
host-backed parts run anywhere; the `gpu` tests need one GPU, the `two_gpus` ones two."""

import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import kaji


def add_one(out, x):
    i = kaji.grid(1)
    if i < out.size:
        out[i] = x[i] + 1


def two_gpus():
    if not kaji.is_available() or len(kaji.devices()) < 2:
        pytest.skip("needs two CUDA devices")


@pytest.fixture
def on_host(monkeypatch):
    monkeypatch.setenv("KAJI_TARGET", "cpu")


def test_a_host_backed_array_is_on_no_device(on_host):
    assert kaji.to_device(np.zeros(3)).device_id is None


def test_copy_to_device_takes_a_device_array(on_host):
    source = kaji.to_device(np.arange(6, dtype=np.int32).reshape(2, 3))
    copy = kaji.device_array((2, 3), np.int32)
    copy.copy_to_device(source)
    np.testing.assert_array_equal(copy.copy_to_host(), source.copy_to_host())


@pytest.mark.parametrize("shape, dtype", [((3, 2), np.int32), ((2, 3), np.float32)])
def test_copy_between_device_arrays_that_differ_is_a_value_error(on_host, shape, dtype):
    copy = kaji.device_array((2, 3), np.int32)
    with pytest.raises(ValueError, match=r"copy_to_device: the source is \((2, 3|3, 2)\)"):
        copy.copy_to_device(kaji.device_array(shape, dtype))


def test_copy_between_orders_is_a_value_error(on_host):
    copy = kaji.device_array((2, 3), np.int32)
    with pytest.raises(ValueError, match=r"incompatible strides: \(12, 4\) vs. \(4, 8\)"):
        copy.copy_to_device(kaji.device_array((2, 3), np.int32, order="F"))



def test_empty_arrays_copy_whatever_their_strides(on_host):
    empty = kaji.device_array((0, 3), np.int32)
    empty.copy_to_device(kaji.device_array((0, 3), np.int32, order="F"))
    host = np.ndarray(shape=(0,), strides=(0,), dtype=np.int8)
    vector = kaji.device_array((0,), np.int8)
    vector.copy_to_host(host)
    vector.copy_to_device(host)


class NotAnArray:
    def __array__(self, *args, **kwargs):
        raise RuntimeError("no array here")


def test_copy_to_device_from_what_numpy_cannot_read_is_a_type_error(on_host):
    with pytest.raises(TypeError, match="copy_to_device takes a device array or a numpy array "
                                        r"\(or what numpy.asarray takes\), not 'NotAnArray'"):
        kaji.device_array(3, np.int32).copy_to_device(NotAnArray())


@pytest.mark.gpu
def test_a_device_array_is_on_the_device_selected_when_it_was_made():
    kaji.select_device(0)
    assert kaji.to_device(np.zeros(3))[1:].device_id == 0


@pytest.mark.gpu
def test_two_gpus_copy_peer_to_peer_both_ways():
    two_gpus()
    host = np.arange(1 << 20, dtype=np.float32)
    kaji.select_device(0)
    first = kaji.to_device(host)
    kaji.select_device(1)
    second = kaji.device_array_like(first)
    second.copy_to_device(first)
    assert second.device_id == 1
    back = kaji.device_array_like(host)
    stream = kaji.stream()
    back.copy_to_device(second, stream=stream)
    stream.synchronize()
    kaji.select_device(0)
    np.testing.assert_array_equal(back.copy_to_host(), host)


@pytest.mark.gpu
def test_a_peer_copy_on_a_stream_of_another_device_is_a_value_error():
    two_gpus()
    kaji.select_device(0)
    first = kaji.to_device(np.zeros(4))
    stream_of_0 = kaji.stream()
    kaji.select_device(1)
    second = kaji.device_array_like(first)
    with pytest.raises(ValueError, match="to device 1 cannot be queued on a stream of device 0"):
        second.copy_to_device(first, stream=stream_of_0)
    kaji.select_device(0)


@pytest.mark.gpu
def test_a_launch_with_an_array_of_another_device_names_it_and_both_devices():
    two_gpus()
    kernel = kaji.jit(target="cuda")(add_one)
    kaji.select_device(1)
    x = kaji.to_device(np.zeros(8, dtype=np.float32))
    kaji.select_device(0)
    out = kaji.device_array(8, np.float32)
    with pytest.raises(ValueError, match=r"argument 2 \('x'\) is on device 1 but kernel "
                                         r"'add_one' launches on device 0 \(the current device\)"):
        kernel[1, 8](out, x)
    assert kernel.signatures == []  # refused before compiling


@pytest.mark.gpu
def test_a_launch_on_a_stream_of_another_device_is_a_value_error():
    two_gpus()
    kernel = kaji.jit(target="cuda")(add_one)
    kaji.select_device(1)
    stream_of_1 = kaji.stream()
    kaji.select_device(0)
    out = kaji.device_array(8, np.float32)
    with pytest.raises(ValueError, match="the launch stream belongs to device 1 but kernel"):
        kernel[1, 8, stream_of_1](out, out)


@pytest.mark.gpu
def test_a_kernel_compiles_once_and_runs_on_each_device():
    two_gpus()
    kernel = kaji.jit(target="cuda")(add_one)
    results = []
    for device in (0, 1):
        kaji.select_device(device)
        x = kaji.to_device(np.full(8, device, dtype=np.float32))
        out = kaji.device_array_like(x)
        kernel[1, 8](out, x)
        results.append(out.copy_to_host())
    kaji.select_device(0)
    assert len(kernel.signatures) == 1
    np.testing.assert_array_equal(results[0], np.full(8, 1.0))
    np.testing.assert_array_equal(results[1], np.full(8, 2.0))


def test_the_multi_gpu_example_runs_on_the_cpu_target_and_checks_its_results():
    example = pathlib.Path(__file__).resolve().parents[2] / "examples" / "multi_gpu.py"
    source_package = pathlib.Path(kaji.__file__).resolve().parents[1]
    result = subprocess.run(
        [sys.executable, str(example), "--size", "10000", "--iterations", "8", "--repeats", "1"],
        capture_output=True, text=True, timeout=120,
        env=dict(os.environ, KAJI_TARGET="cpu", PYTHONPATH=str(source_package)))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "10000 float32 elements on the cpu target" in result.stdout
    for kernel in ("memory-bound", "compute-bound"):
        assert f"{kernel}: 1 device" in result.stdout


@pytest.mark.gpu
def test_select_device_is_per_thread():
    two_gpus()
    import threading

    kaji.select_device(0)
    seen = []

    def on_another_thread():
        seen.append(kaji.get_current_device().id)  # a new thread starts on device 0
        kaji.select_device(1)
        seen.append(kaji.to_device(np.zeros(2)).device_id)

    thread = threading.Thread(target=on_another_thread)
    thread.start()
    thread.join()
    assert seen == [0, 1]
    assert kaji.get_current_device().id == 0
