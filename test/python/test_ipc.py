"""CUDA IPC (kaji/_ipc.py): device memory one process exports and another opens, as Numba's
IpcHandle and IpcArrayHandle; each sharing test opens the handle in a spawned process."""

import concurrent.futures
import multiprocessing
import pickle

import numpy as np
import pytest

import kaji
from kaji import cuda
from kaji._ipc import IpcHandle


@pytest.fixture(scope="module")
def child():
    with concurrent.futures.ProcessPoolExecutor(
            max_workers=1, mp_context=multiprocessing.get_context("spawn")) as executor:
        yield executor


def read_array_handle(handle):
    with handle as array:
        values = array.copy_to_host()
        with pytest.raises(ValueError, match="IpcHandle is already opened"):
            with handle:
                pass
    return values


def read_by_bytes(reserved, shape, dtype, offset):
    with cuda.open_ipc_array(reserved, shape=shape, dtype=dtype, offset=offset) as array:
        return array.copy_to_host()


def read_handle(handle, staged):
    context = cuda.current_context()
    memory = handle.open_staged(context) if staged else handle.open(context)
    host = np.zeros(handle.size, dtype=np.uint8)
    cuda.driver.device_to_host(host, memory, size=handle.size)
    handle.close()
    return host


def negate_in_place(handle):
    with handle as array:
        array.copy_to_device(-array.copy_to_host())
        cuda.synchronize()


def test_a_pickled_handle_keeps_its_bytes_size_source_and_offset_but_not_its_base():
    handle = IpcHandle(object(), bytes(range(64)), 80, "GPU-0000", offset=24)
    copy = pickle.loads(pickle.dumps(handle))
    assert copy.base is None
    assert (copy.handle.reserved, copy.size, copy.source_info, copy.offset) == (
        bytes(range(64)), 80, "GPU-0000", 24)


def test_a_handle_of_the_wrong_length_is_a_value_error():
    with pytest.raises(ValueError, match="a CUDA IPC handle is 64 bytes, not 3"):
        kaji._core.IpcMapping(b"abc", 0)


def test_a_host_backed_array_cannot_be_shared():
    host_backed = kaji._core.device_array(4, "float64", on_host=True)
    with pytest.raises(TypeError, match="host-backed array .* cannot be shared"):
        host_backed.get_ipc_handle()


def test_closing_an_unopened_handle_is_a_value_error():
    with pytest.raises(ValueError, match="IpcHandle not opened"):
        IpcHandle(None, bytes(64), 8).close()


@pytest.mark.gpu
@pytest.mark.parametrize("index", [slice(None), slice(3, None), slice(3, 8), slice(None, 8)])
def test_another_process_reads_an_array_through_its_handle(child, index):
    array = cuda.to_device(np.arange(10, dtype=np.intp))[index]
    handle = pickle.loads(pickle.dumps(array.get_ipc_handle()))
    np.testing.assert_array_equal(child.submit(read_array_handle, handle).result(60),
                                  array.copy_to_host())


@pytest.mark.gpu
def test_another_librarys_array_viewed_by_kaji_is_shared_too(child):
    array = cuda.to_device(np.arange(10, dtype=np.intp))[2:7]

    class Foreign:
        __cuda_array_interface__ = array.__cuda_array_interface__

    handle = cuda.as_cuda_array(Foreign()).get_ipc_handle()
    np.testing.assert_array_equal(child.submit(read_array_handle, handle).result(60),
                                  np.arange(2, 7))


@pytest.mark.gpu
def test_another_process_opens_the_handle_bytes_at_the_offset(child):
    array = cuda.to_device(np.arange(12, dtype=np.float32).reshape(3, 4))[1:]
    handle = cuda.current_context().get_ipc_handle(array.gpu_data)
    assert handle.size == array.nbytes and handle.offset == 16
    result = child.submit(read_by_bytes, handle.handle.reserved, (2, 4), np.float32,
                          handle.offset).result(60)
    np.testing.assert_array_equal(result, array.copy_to_host())


@pytest.mark.gpu
@pytest.mark.parametrize("staged", [False, True])
def test_another_process_opens_the_handle_mapped_or_staged(child, staged):
    array = cuda.to_device(np.arange(10, dtype=np.int64))
    handle = cuda.current_context().get_ipc_handle(array.gpu_data)
    assert handle.source_info == cuda.get_current_device().uuid
    result = child.submit(read_handle, handle, staged).result(60)
    np.testing.assert_array_equal(result.view(np.int64), np.arange(10))


@pytest.mark.gpu
def test_the_other_process_writes_the_exporters_memory(child):
    array = cuda.to_device(np.arange(6, dtype=np.float64))
    child.submit(negate_in_place, array.get_ipc_handle()).result(60)
    np.testing.assert_array_equal(array.copy_to_host(), -np.arange(6))


@pytest.mark.gpu
def test_memory_from_a_streams_pool_cannot_be_shared():
    stream = cuda.stream()
    array = cuda.to_device(np.arange(4.0), stream=stream)
    stream.synchronize()
    if not array.stream:
        pytest.skip("the device has no stream-ordered memory pool")
    with pytest.raises(kaji.CudaError, match="(?s)cuIpcGetMemHandle.*memory from a stream's pool"):
        array.get_ipc_handle()


@pytest.mark.gpu
def test_the_exporting_process_cannot_open_its_own_handle():
    array = cuda.to_device(np.arange(4.0))
    with pytest.raises(kaji.CudaError, match="cuIpcOpenMemHandle"):
        with array.get_ipc_handle():
            pass
