"""A process forked after its parent initialized CUDA cannot use the GPU (the driver refuses
every call); kaji's error says so and what to do, as Numba's "CUDA initialized before forking"."""

import os
import select
import signal
import warnings

import numpy as np
import pytest

import kaji


def _error_in_forked_child(action):
    """What `action` raises in a child forked now, as text ("no error" when nothing)."""
    read, write = os.pipe()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # fork() of a threaded process
        pid = os.fork()
    if pid == 0:
        try:
            action()
            message = "no error"
        except BaseException as error:  # noqa: BLE001 (reported to the parent, whatever it is)
            message = f"{type(error).__name__}: {error}"
        os.write(write, message.encode()[:60000])
        os._exit(0)
    os.close(write)
    try:
        ready, _, _ = select.select([read], [], [], 60)
        if not ready:
            os.kill(pid, signal.SIGKILL)
            pytest.fail("the forked child did not answer within 60 s")
        return os.read(read, 65536).decode()
    finally:
        os.close(read)
        os.waitpid(pid, 0)


@pytest.mark.gpu
def test_a_child_forked_after_cuda_started_gets_an_error_saying_so():
    kaji.to_device(np.arange(4))  # CUDA is initialized in this process
    message = _error_in_forked_child(lambda: kaji.to_device(np.arange(4)).copy_to_host())
    assert message.startswith("CudaError") and "CUDA initialized before forking" in message
    assert "'spawn'" in message
