"""Devices, streams and events."""

from kaji import _core
from kaji._target import gpu_usable


def is_available():
    """Whether a CUDA driver and GPU are usable in this process."""
    return _core.is_available()


def unavailable_reason():
    """Why no GPU is usable ('' when one is)."""
    return _core.unavailable_reason()


def devices():
    """Every CUDA device, as kaji.Device objects (an empty list without a driver)."""
    if not _core.is_available():
        return []
    return [_core.get_device(i) for i in range(_core.device_count())]


def select_device(device_id):
    """Makes `device_id` this thread's device for allocations, modules and launches."""
    _core.select_device(device_id)
    return _core.get_device(device_id)


def get_current_device():
    return _core.get_device(_core.selected_device())


def stream():
    """A new stream on the current device."""
    return _core.stream()


def default_stream():
    return _core.default_stream()


def external_stream(handle):
    """A kaji stream over `handle`, a CUstream another library made (an int, or an object
    exporting ``__cuda_stream__``). That library keeps it alive and destroys it; kaji never
    does."""
    if hasattr(handle, "__cuda_stream__"):
        handle = handle.__cuda_stream__()[1]
    if not isinstance(handle, int) or isinstance(handle, bool) or handle < 0:
        raise TypeError(f"external_stream takes a CUstream handle (an int), not {handle!r}")
    return _core.external_stream(handle)


def event(timing=True):
    """A new event on the current device (always able to time)."""
    return _core.Event()


def event_elapsed_time(start, end):
    """Milliseconds between two recorded, completed events."""
    return start.elapsed_time(end)


def synchronize():
    """Waits for all work queued on the current device; nothing to wait for without a GPU
    (launches on the cpu target return when they are done)."""
    if gpu_usable():
        _core.synchronize()


def graph(stream):
    """A CUDA graph captured from the work a ``with`` block queues on `stream`::

        with kaji.graph(stream) as g:
            step[blocks, threads, stream](a, b)
            other_library_op_on(stream)
        g.launch(stream)                 # replays everything, one driver call
        g.update(0, a2, b2)              # launch 0 takes new arguments of the same types

    `stream` is a created stream (``kaji.stream()`` or another library's); the legacy default
    stream cannot be captured (ValueError). Kernels launched on it inside the block are
    recorded, not run; numpy arguments are refused there (their copies would not replay).
    Synchronizing inside the block is an error of the driver (CudaError naming the call).
    Needs a GPU: without one, entering the block raises CudaUnavailable, and kernels of the
    cpu target launched during a capture raise RuntimeError (they run when launched)."""
    return _core.Graph(stream)
