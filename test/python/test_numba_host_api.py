"""Numba-CUDA's host API that its own tests use, on kaji's objects: device array attributes
(alloc_size, stream, bind, _numba_type_, device_ctypes_pointer, DeviceNDArray(...)),
kaji.cuda.cudadrv.driver and devices, cuda.gpus, the context's methods, and a configured
launch's griddim, blockdim and pre_launch_callbacks.

The array and launch checks run on every target present (`device`); what needs streams, devices
or contexts runs on the fake driver (fake_driver/fake_libcuda.c, host memory standing for the
device's), and on a real GPU where one is usable (`gpu`)."""

import ctypes
import pickle
import re

import numpy as np
import pytest

import kaji
from kaji import cuda
from kaji.cuda.cudadrv import devices, driver
from kaji.cuda.cudadrv.devicearray import DeviceNDArray, DeviceRecord
from test_memory_paths import fake_driver, run_on_fake  # noqa: F401 (a fixture)

RECORD = np.dtype([("a", np.int32), ("b", np.float32)], align=True)


# --- device arrays ----------------------------------------------------------------------------

def test_gpu_data_is_the_memory_the_elements_occupy(device):
    whole = kaji.to_device(np.arange(10, dtype=np.float64))
    memory = whole.gpu_data
    assert int(memory) == memory.device_pointer == whole.device_pointer and memory.size == 80
    assert whole.view(np.int64).gpu_data == memory  # the same bytes
    assert whole[2:].gpu_data != memory
    assert kaji.to_device(np.arange(10, dtype=np.float64)).gpu_data != memory
    assert "80 bytes" in repr(memory)


def test_alloc_size_is_the_bytes_the_elements_span(device):
    whole = cuda.to_device(np.arange(10, dtype=np.float64))
    assert whole.alloc_size == 80
    assert whole[::2].alloc_size == 4 * 16 + 8
    assert whole[::-3].alloc_size == 3 * 24 + 8
    assert whole[3:3].alloc_size == 0
    assert whole.T.alloc_size == whole.nbytes


def test_numba_type_is_the_type_kernels_see(device):
    matrix = cuda.device_array((3, 4), np.float32)
    assert str(matrix._numba_type_) == "array(float32, 2d, C)"
    assert str(matrix.T._numba_type_) == "array(float32, 2d, F)"
    assert str(matrix[:, ::2]._numba_type_) == "array(float32, 2d, A)"
    assert matrix._numba_type_ == kaji.typeof(matrix) == kaji.float32[:, ::1]
    record = DeviceRecord(RECORD)
    assert record._numba_type_ == kaji.from_dtype(RECORD)
    assert cuda.device_array(3, RECORD)._numba_type_ == kaji.typeof(cuda.device_array(3, RECORD))


def test_device_ctypes_pointer_is_the_first_elements_address(device):
    array = cuda.to_device(np.arange(6, dtype=np.int32))
    pointer = array.device_ctypes_pointer
    assert isinstance(pointer, ctypes.c_size_t) and pointer.value == array.device_pointer
    assert array[2:].device_ctypes_pointer.value == array.device_pointer + 8


def test_arrays_made_without_a_stream_have_stream_0(device):
    array = cuda.device_array(4)
    assert array.stream == 0 and array[1:].stream == 0 and array.bind().stream == 0


def test_device_ndarray_is_made_with_numbas_arguments(device):
    relaxed = DeviceNDArray((1, 10), (800, 8), np.float64)
    assert relaxed.shape == (1, 10) and relaxed.strides == (800, 8)
    assert relaxed.flags["C_CONTIGUOUS"] and relaxed.flags["F_CONTIGUOUS"]
    assert relaxed.alloc_size == 80
    assert isinstance(relaxed, kaji.DeviceArray) and relaxed.stream == 0

    empty = DeviceNDArray(shape=(0,), strides=(8,), dtype=np.int8)
    host = np.ndarray(shape=(0,), strides=(0,), dtype=np.int8)
    empty.copy_to_host(host)
    empty.copy_to_device(host)
    assert empty.alloc_size == 0

    reversed_ = DeviceNDArray(3, -4, "int32")
    assert reversed_.strides == (-4,) and reversed_.alloc_size == 12
    reversed_.copy_to_device(np.array([1, 2, 3], np.int32))
    np.testing.assert_array_equal(reversed_.copy_to_host(), [1, 2, 3])
    np.testing.assert_array_equal(reversed_[::-1].copy_to_host(), [3, 2, 1])

    strided = DeviceNDArray((2, 3), (48, 8), np.float64)
    strided.copy_to_device(np.arange(6.0).reshape(2, 3))
    np.testing.assert_array_equal(strided.copy_to_host(), np.arange(6.0).reshape(2, 3))
    assert strided.alloc_size == 48 + 24


def test_device_ndarray_refuses_what_kaji_does_not_do(device):
    with pytest.raises(NotImplementedError, match="gpu_data"):
        DeviceNDArray((4,), (8,), np.float64, gpu_data=object())
    with pytest.raises(ValueError, match="do not match the shape"):
        DeviceNDArray((4, 2), (8,), np.float64)
    with pytest.raises(TypeError):
        DeviceNDArray()


@pytest.mark.parametrize("order", "CFAK")
@pytest.mark.parametrize("layout", ["C", "F", "1d"])
def test_ravel_in_each_order_is_numpys_view(device, order, layout):
    host = np.arange(60).reshape(2, 5, 2, 3) if layout != "1d" else np.arange(60)
    host = np.asfortranarray(host) if layout == "F" else host
    array = cuda.to_device(host)
    expected = host.ravel(order=order)
    if not np.shares_memory(expected, host):
        with pytest.raises(NotImplementedError, match="contiguous"):
            array.ravel(order=order)
        return
    flat = array.ravel(order=order)
    assert flat is not array and flat.ndim == 1
    np.testing.assert_array_equal(flat.copy_to_host(), expected)


def test_ravel_and_reshape_that_need_a_copy_are_numbas_not_implemented(device):
    strided = cuda.to_device(np.arange(60).reshape(2, 5, 2, 3))[::2, ::2, ::2, ::2]
    with pytest.raises(NotImplementedError):
        strided.ravel()
    with pytest.raises(NotImplementedError):
        cuda.to_device(np.arange(60))[::2].ravel()
    with pytest.raises(NotImplementedError):
        cuda.to_device(np.zeros((4, 6)))[:, :3].reshape(12)
    column = cuda.to_device(np.arange(24.0).reshape(4, 6))[:, :1]
    np.testing.assert_array_equal(column.reshape(4).copy_to_host(), np.arange(0, 24, 6))


def test_reshape_in_order_a_reads_as_numpy(device):
    host = np.asfortranarray(np.arange(12).reshape(3, 4))
    array = cuda.to_device(host)
    for source, device_source in ((host, array), (host.T, array.T)):
        expected = source.reshape(2, 6, order="A")
        got = device_source.reshape(2, 6, order="A")
        assert got.strides == expected.strides
        np.testing.assert_array_equal(got.copy_to_host(), expected)


def test_an_arrays_stream_is_its_copies_default(fake_driver):
    run_on_fake(fake_driver, """
        stream = cuda.stream()
        array = cuda.to_device(np.arange(10.0), stream=stream)
        assert array.stream is stream and array[2:].stream is stream
        assert array.__cuda_array_interface__["stream"] == stream.handle
        plain = cuda.to_device(np.arange(10.0))
        bound = plain.bind(stream)
        assert bound.stream is stream and plain.stream == 0
        assert bound.device_pointer == plain.device_pointer
        assert bound.bind().stream == 0 and plain.ravel(stream=stream).stream is stream
        pinned = cuda.pinned_array(10)
        # A copy to page-locked memory stays queued on the array's stream.
        assert changes(lambda: bound.copy_to_host(pinned)) == {"copy_async": 1}
        assert changes(lambda: plain.copy_to_host(pinned)) == {}
        assert (pinned == np.arange(10.0)).all()
        assert changes(lambda: bound.copy_to_device(pinned)) == {"copy_async": 1}
    """)


# --- kaji.cuda.cudadrv.driver and devices ------------------------------------------------------

def test_driver_holds_kajis_classes():
    assert driver.Stream is kaji.Stream and driver.Event is kaji.Event
    assert driver.CudaAPIError is kaji.CudaError
    assert cuda.cudadrv.driver is driver and cuda.cudadrv.devices is devices
    with pytest.raises(driver.CudaAPIError, match="Transfer not allowed"):
        raise driver.CudaAPIError(999, "Transfer not allowed")
    assert driver._have_nvjitlink() in (True, False)
    assert devices.get_context is cuda.current_context and devices.gpus is cuda.gpus


def test_driver_reads_kajis_device_arrays(device):
    array = cuda.to_device(np.arange(10, dtype=np.float64))
    assert driver.device_pointer(array) == array.device_pointer
    assert driver.device_ctypes_pointer(None).value is None
    assert driver.device_memory_size(array[1:4]) == 24
    assert driver.device_memory_size(array[::-3]) == array[::-3].alloc_size
    assert driver.memory_size_from_info((4,), (-24,), 8) == 80
    assert driver.memory_size_from_info((2, 0), (8, 8), 8) == 0


def test_host_memory_extents_are_the_bytes_host_memory_spans():
    class Pair(ctypes.Structure):
        _fields_ = [("x", ctypes.c_int), ("y", ctypes.c_int)]

    values = np.arange(100)
    assert driver.host_memory_extents(values) == (values.ctypes.data, values.ctypes.data + 800)
    fortran = np.asfortranarray(values.reshape(2, 50))
    assert driver.host_memory_extents(fortran)[0] == fortran.ctypes.data
    assert driver.host_memory_size(fortran) == 800
    scalar = np.asarray(np.uint32(1234))
    assert driver.host_memory_extents(scalar) == (scalar.ctypes.data, scalar.ctypes.data + 4)
    reversed_ = values[::-2]
    assert driver.host_memory_extents(reversed_) == (values.ctypes.data + 8,
                                                     values.ctypes.data + 800)
    assert driver.host_memory_size(Pair(1, 2)) == ctypes.sizeof(Pair)
    assert driver.host_memory_size(ctypes.c_double(1.5)) == 8
    assert driver.host_memory_size(values[3:3]) == 0


def test_byte_copies_between_host_and_device_memory(device):
    host = np.arange(100, dtype=np.uint32)
    first, second = cuda.device_array(100, np.uint32), cuda.device_array(400, np.uint8)
    driver.host_to_device(first, host, 400)
    driver.device_to_device(second, first, 400)
    back = np.zeros_like(host)
    driver.device_to_host(back, second, 400)
    np.testing.assert_array_equal(back, host)
    driver.device_memset(first, 0xAB, 40)
    driver.device_to_host(back, first, 400)
    np.testing.assert_array_equal(back[:10], 0xABABABAB)
    np.testing.assert_array_equal(back[10:], host[10:])
    assert driver.is_device_memory(first) and not driver.is_device_memory(host)
    with pytest.raises(TypeError, match="not device memory"):
        driver.require_device_memory(host)


def test_as_cuda_array_synchronizes_the_interfaces_stream_through_stream_synchronize(fake_driver):
    run_on_fake(fake_driver, """
        from unittest.mock import patch
        from kaji.cuda.cudadrv import driver

        class Foreign:
            def __init__(self, array):
                self.__cuda_array_interface__ = array.__cuda_array_interface__

        stream = cuda.stream()
        with_stream = Foreign(cuda.device_array(10, stream=stream))
        without = Foreign(cuda.device_array(10))
        with patch.object(driver.Stream, "synchronize", return_value=None) as synchronize:
            viewed = cuda.as_cuda_array(with_stream)
        synchronize.assert_called_once_with()
        assert viewed.stream.external and viewed.stream.handle == stream.handle
        assert not stream.external and not cuda.default_stream().external
        assert not cuda.legacy_default_stream().external
        with patch.object(driver.Stream, "synchronize", return_value=None) as synchronize:
            assert cuda.as_cuda_array(without).stream == 0
            cuda.as_cuda_array(with_stream, sync=False)
            cuda.from_cuda_array_interface(without.__cuda_array_interface__)
        synchronize.assert_not_called()
    """)


# --- devices and contexts ---------------------------------------------------------------------

def test_gpus_and_devices_answer_numbas_questions(fake_driver):
    run_on_fake(fake_driver, """
        import re
        assert len(cuda.gpus) == len(cuda.gpus.lst) == 1
        assert [gpu.id for gpu in cuda.gpus.lst] == [gpu.id for gpu in cuda.gpus] == [0]
        assert [gpu.id for gpu in cuda.gpus[0:1]] == [0] and cuda.gpus[0].id == 0
        assert cuda.gpus[np.int64(0)].id == 0
        device = cuda.get_current_device()
        assert device.supports_float16 and device.supports_bfloat16  # the fake is sm_90
        assert device.uuid == "GPU-00102030-4050-6070-8090-a0b0c0d0e0f0", device.uuid
        assert cuda.gpus[0].uuid == device.uuid
    """)


def test_context_allocations_streams_and_handle(fake_driver):
    run_on_fake(fake_driver, """
        from kaji.cuda.cudadrv import devices, driver
        context = devices.get_context()
        assert isinstance(context.handle, int) and context.handle != 0
        memory = context.memalloc(1024)
        assert memory.dtype == np.uint8 and memory.shape == (1024,) and memory.alloc_size == 1024
        assert driver.is_device_memory(memory) and driver.is_device_memory(memory[10:])
        hosted = context.memhostalloc(64)
        assert hosted.nbytes == 64 and not driver.is_device_memory(hosted)
        mapped = context.memhostalloc(64, mapped=True)
        driver.device_memset(mapped, 7, 64)
        assert (mapped == 7).all() and driver.device_memory_size(mapped) == 64
        assert driver.device_pointer(mapped) == mapped.__cuda_array_interface__["data"][0]
        managed = context.memallocmanaged(32)
        driver.host_to_device(managed, np.arange(32, dtype=np.uint8), 32)
        assert (managed == np.arange(32)).all()
        assert context.create_stream().handle != 0
        assert context.get_default_stream().handle == 0
        assert context.get_legacy_default_stream().handle == 1
        assert context.get_per_thread_default_stream().handle == 2
        assert context.create_event(timing=False).timing is False
        del memory
        assert len(context.deallocations) >= 1  # freed without a stream: pending
        context.reset()
        assert len(context.deallocations) == 0
        assert len(context.memory_manager.deallocations) == 0
    """)


@pytest.mark.parametrize("name", ["set_memory_manager", "HostOnlyCUDAMemoryManager",
                                  "GetIpcHandleMixin"])
def test_numbas_memory_manager_plugins_are_absent_and_say_why(name):
    assert not hasattr(cuda, name)
    with pytest.raises(AttributeError, match="no external memory managers"):
        getattr(cuda, name)


@pytest.mark.gpu
def test_a_real_devices_uuid_and_context():
    device = cuda.get_current_device()
    h = "[0-9a-f]"
    assert re.fullmatch(f"GPU-{h}{{8}}-{h}{{4}}-{h}{{4}}-{h}{{4}}-{h}{{12}}", device.uuid)
    assert device.supports_float16
    assert cuda.current_context().handle == devices.get_context().handle != 0
    memory = cuda.current_context().memalloc(256)
    driver.device_memset(memory, 0xAB, 256)
    assert (memory.copy_to_host() == 0xAB).all()


# --- configured launches ----------------------------------------------------------------------

def test_a_configured_launch_has_numbas_attributes(device):
    @cuda.jit
    def bump(values):
        values[0] += 1

    launch = bump[5, (8, 2)]
    assert launch.griddim == (5, 1, 1) and launch.blockdim == (8, 2, 1)
    assert launch.sharedmem == 0 and launch.stream == 0 and launch.dispatcher is bump
    assert bump[(2, 3), 4, 0, 128].sharedmem == 128
    unpickled = pickle.loads(pickle.dumps(bump[5, 8]))
    assert unpickled.griddim == (5, 1, 1) and unpickled.blockdim == (8, 1, 1)


def test_pre_launch_callbacks_run_before_each_launch(device):
    @cuda.jit
    def bump(values):
        values[0] += 1

    values = cuda.to_device(np.zeros(1, np.int64))
    seen = []
    launch = bump[1, 1]
    launch.pre_launch_callbacks.append(
        lambda kernel, config: seen.append((kernel, config, values.copy_to_host()[0])))
    launch(values)
    launch(values)
    assert seen == [(bump, launch, 0), (bump, launch, 1)]
    # The callbacks are that launch's: the same configuration written again is a new one.
    assert bump[1, 1] is not launch and bump[1, 1].pre_launch_callbacks == []
    bump[1, 1](values)
    assert len(seen) == 2
    with pytest.raises(pickle.PicklingError, match="pre-launch callbacks"):
        pickle.dumps(launch)


@pytest.mark.gpu
def test_mapped_and_managed_memory_have_a_device_ctypes_pointer():
    context = cuda.current_context()
    for memory in (context.memhostalloc(1024, mapped=True), context.memallocmanaged(1024)):
        pointer = memory.device_ctypes_pointer
        assert isinstance(pointer, ctypes.c_size_t)
        assert pointer.value == driver.device_pointer(memory) == \
            memory.__cuda_array_interface__["data"][0]
