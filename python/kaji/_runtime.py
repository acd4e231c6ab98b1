"""Devices, contexts, streams and events, under Numba's names as well as kaji's."""

import collections
import contextlib
import operator
import os
import threading

from kaji import _core, _driver_calls, _memory_kinds, _performance_warnings
from kaji._arrays import device_array
from kaji._target import gpu_usable

# The driver's pseudo-handles for the two default streams (cuda.h).
_CU_STREAM_LEGACY = 0x1
_CU_STREAM_PER_THREAD = 0x2


def is_available():
    """Whether a CUDA driver and GPU are usable in this process."""
    return _core.is_available()


def unavailable_reason():
    """Why no GPU is usable ('' when one is)."""
    return _core.unavailable_reason()


def cuda_error():
    """Numba's ``cuda.cuda_error()``: None when the CUDA driver initialized, else the string
    saying why it did not (``unavailable_reason()``)."""
    return _core.unavailable_reason() or None


def is_float16_supported():
    """True, as in Numba: every target kaji compiles for computes float16."""
    return True


def is_fp8_supported():
    """Whether kernels take the 8-bit floats (float8_e4m3fn, float8_e5m2, float8_e8m0fnu): on
    every target, as kaji converts them with integer arithmetic. Numba answers whether the GPU
    has conversion instructions for them (compute capability 8.9 or later); kaji needs none."""
    return True


def is_bfloat16_supported():
    """Whether the current GPU computes bfloat16 in hardware (compute capability 8.0 or
    later), as Numba answers it; False without a usable GPU. The cpu target takes bfloat16
    whatever this says (docs/numba-compat.md)."""
    if not _core.is_available():
        return False
    return get_current_device().compute_capability >= (8, 0)


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
    """This thread's device. Besides kaji's properties it has Numba's attribute names:
    ``compute_capability``, ``name``, ``id`` and every CUdevice_attribute without its
    prefix (``MULTIPROCESSOR_COUNT``, ``MAX_THREADS_PER_BLOCK``, ...)."""
    return _core.get_device(_core.selected_device())


def stream():
    """A new stream on the current device."""
    return _core.stream()


def default_stream():
    """The default stream (the NULL stream: legacy synchronizing behaviour)."""
    return _core.default_stream()


def legacy_default_stream():
    """The legacy default stream (CU_STREAM_LEGACY), which synchronizes with every blocking
    stream of the context."""
    return _core.external_stream(_CU_STREAM_LEGACY)


def per_thread_default_stream():
    """This thread's default stream (CU_STREAM_PER_THREAD), which synchronizes with no other
    stream."""
    return _core.external_stream(_CU_STREAM_PER_THREAD)


def external_stream(handle):
    """A kaji stream over `handle`, a CUstream another library made (an int, or an object
    exporting ``__cuda_stream__``). That library keeps it alive and destroys it; kaji never
    does."""
    if hasattr(handle, "__cuda_stream__"):
        handle = handle.__cuda_stream__()[1]
    if not isinstance(handle, int) or isinstance(handle, bool) or handle < 0:
        raise TypeError(f"external_stream takes a CUstream handle (an int), not {handle!r}")
    return _core.external_stream(handle)


def _add_callback(self, callback, arg=None):
    """Calls ``callback(stream, status, arg)`` (status 0) once the work queued on this stream
    so far is done. It runs on a Python thread that waits for an event; unlike Numba's
    (cuStreamAddCallback), work queued later on the stream does not wait for it."""
    done = _core.Event(timing=False)
    done.record(self)

    def wait_then_call():
        done.synchronize()
        callback(self, 0, arg)

    threading.Thread(target=wait_then_call, name="kaji stream callback", daemon=True).start()


def _async_done(self):
    """An asyncio future of the running loop, done (with this stream as its result) when the
    work queued on the stream so far is."""
    import asyncio

    loop = asyncio.get_running_loop()
    future = loop.create_future()

    def resolve(stream, status, arg):
        loop.call_soon_threadsafe(lambda: future.done() or future.set_result(stream))

    _add_callback(self, resolve)
    return future


# Numba's stream methods that wait on Python threads live here rather than in C++.
_core.Stream.add_callback = _add_callback
_core.Stream.async_done = _async_done

# Numba's device properties that are questions about the compute capability, or a driver call
# _core does not bind (kaji._driver_calls).
_core.Device.supports_float16 = property(lambda device: device.compute_capability >= (5, 3))
_core.Device.supports_bfloat16 = property(lambda device: device.compute_capability >= (8, 0))
_core.Device.uuid = property(lambda device: _driver_calls.device_uuid(device.id),
                             doc="The UUID, 'GPU-' and 32 hex digits in groups (Numba's).")


def event(timing=True):
    """A new event on the current device; ``timing=False`` makes one elapsed_time refuses."""
    return _core.Event(timing=timing)


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


MemoryInfo = collections.namedtuple("MemoryInfo", ["free", "total"])


class Context:
    """A device's primary context, the one kaji (and the CUDA runtime) uses: Numba's
    ``cuda.current_context()``. Its allocations (``memalloc``, ``memhostalloc``,
    ``memallocmanaged``) are kaji's arrays of bytes, freed with their last reference."""

    def __init__(self, device):
        self.device = device

    @property
    def handle(self):
        """The CUcontext, an int."""
        return _driver_calls.primary_context_handle(self.device.id)

    def get_memory_info(self):
        """(free, total) bytes of the device's memory, now."""
        return MemoryInfo(*self.device.memory_info())

    def synchronize(self):
        select_device(self.device.id)
        _core.synchronize()

    def reset(self):
        """Numba's reset: waits for the device's work and does its pending frees. kaji keeps
        loaded kernels for the process, so nothing else is released."""
        self.synchronize()
        self.deallocations.clear()

    @property
    def memory_manager(self):
        """The device's memory manager: kaji's own, the driver's allocator (kaji has no
        external memory managers, Numba's EMM plugins)."""
        return MemoryManager(self.device.id)

    @property
    def deallocations(self):
        """The device's pending frees (Numba's ``ctx.deallocations``)."""
        return Deallocations(self.device.id)

    def defer_cleanup(self):
        """A ``with`` block in which no device memory of this device is freed."""
        return self.deallocations.disable()

    def memalloc(self, bytesize):
        """`bytesize` bytes of device memory, a kaji device array of uint8."""
        select_device(self.device.id)
        return device_array(bytesize, "uint8")

    def memhostalloc(self, bytesize, mapped=False, portable=False, wc=False):
        """`bytesize` bytes of page-locked host memory, a numpy array of uint8; with
        `mapped`, mapped for the device (a kaji.cuda.MappedArray)."""
        select_device(self.device.id)
        if mapped:
            return _memory_kinds.mapped_array(bytesize, "uint8", portable=portable, wc=wc)
        return _memory_kinds.pinned_array(bytesize, "uint8")

    def memallocmanaged(self, bytesize, attach_global=True):
        """`bytesize` bytes of managed memory, a kaji.cuda.MappedArray of uint8."""
        select_device(self.device.id)
        return _memory_kinds.managed_array(bytesize, "uint8", attach_global=attach_global)

    def get_ipc_handle(self, memory):
        """The IpcHandle that shares device memory `memory` (a device array's ``gpu_data``)
        with other processes (kaji/_ipc.py)."""
        from kaji._ipc import context_ipc_handle

        return context_ipc_handle(self, memory)

    def create_stream(self):
        select_device(self.device.id)
        return stream()

    def create_external_stream(self, handle):
        """A stream over `handle`, a CUstream of this device another library made (Numba's
        ``ctx.create_external_stream``): kaji neither keeps it alive nor destroys it."""
        select_device(self.device.id)
        return external_stream(handle)

    def create_event(self, timing=True):
        select_device(self.device.id)
        return event(timing)

    def get_default_stream(self):
        return default_stream()

    def get_legacy_default_stream(self):
        return legacy_default_stream()

    def get_per_thread_default_stream(self):
        return per_thread_default_stream()

    @property
    def stack_size(self):
        """The bytes of stack each GPU thread has (the driver's CU_LIMIT_STACK_SIZE, 1 KiB
        by default). The driver grows it for kernels whose frames need more, but not for
        recursion, whose depth no one knows before the launch."""
        return _core.stack_size(self.device.id)

    def set_stack_size(self, nbytes):
        """Gives each GPU thread `nbytes` of stack (rounded up by the driver), for kernels
        that recurse deeper than the default holds. The driver reserves it for every thread
        the device can run at once: 64 KiB is about 16 GiB on an H100."""
        _core.set_stack_size(self.device.id, nbytes)

    def __repr__(self):
        return f"<kaji context of device {self.device.id}>"


class Deallocations:
    """A device's device-memory frees not done yet, Numba's deallocation queue: a buffer freed
    without a stream waits (cuMemFree waits for the whole device) until more than
    ``config.CUDA_DEALLOCS_COUNT`` frees or ``config.CUDA_DEALLOCS_RATIO`` of the device's
    memory are pending, an allocation needs the memory, or clear() is called; a free in a
    stream's order is done at once. Inside ``defer_cleanup()`` every free waits."""

    def __init__(self, device_id):
        self._device = device_id

    def __len__(self):
        return _core.pending_frees(self._device)[0]

    @property
    def _size(self):
        """The bytes pending."""
        return _core.pending_frees(self._device)[1]

    @property
    def _max_pending_bytes(self):
        """The pending bytes past which the frees are done."""
        return _core.pending_frees(self._device)[2]

    @property
    def is_disabled(self):
        """Whether frees are deferred (inside ``defer_cleanup()``)."""
        return _core.pending_frees(self._device)[3]

    def clear(self):
        """Does the pending frees, unless they are deferred."""
        _core.flush_pending_frees(self._device)

    @contextlib.contextmanager
    def disable(self):
        """A ``with`` block in which no device memory of the device is freed; blocks nest.
        What was freed inside is done at the next clear(), allocation that needs the memory,
        or free past the limits after the block."""
        _core.defer_frees(self._device)
        try:
            yield
        finally:
            _core.resume_frees(self._device)

    def __repr__(self):
        count, size, _, deferred = _core.pending_frees(self._device)
        return (f"<kaji pending frees of device {self._device}: {count} ({size} bytes)"
                f"{', deferred' if deferred else ''}>")


class MemoryManager:
    """kaji's memory manager of a device, what Numba's ``ctx.memory_manager`` is: allocations
    come from the driver (stream-ordered from the device's pool for arrays made on a stream),
    frees go through the device's Deallocations."""

    interface_version = 1

    def __init__(self, device_id):
        self._device = device_id

    @property
    def deallocations(self):
        return Deallocations(self._device)

    def get_memory_info(self):
        return current_context(self._device).get_memory_info()

    def defer_cleanup(self):
        return self.deallocations.disable()

    def __repr__(self):
        return f"<kaji memory manager of device {self._device}>"


def set_pending_free_limits(count=None, share=None):
    """Sets the limits past which pending frees are done (Numba's CUDA_DEALLOCS_COUNT and
    CUDA_DEALLOCS_RATIO), each left as it is when None; ValueError naming the setting for a
    count below 0 or a share outside [0, 1]."""
    old_count, old_share = _core.pending_free_limits()
    count = old_count if count is None else operator.index(count)
    share = old_share if share is None else float(share)
    if count < 0:
        raise ValueError(f"CUDA_DEALLOCS_COUNT is a count of frees, not {count}")
    if not 0 <= share <= 1:
        raise ValueError(f"CUDA_DEALLOCS_RATIO is a share of the device's memory between 0 "
                         f"and 1, not {share}")
    _core.set_pending_free_limits(count, share)


def apply_interop_environment():
    """Numba's CUDA_ARRAY_INTERFACE_SYNC as KAJI_CUDA_ARRAY_INTERFACE_SYNC or
    NUMBA_CUDA_ARRAY_INTERFACE_SYNC sets it ("0" turns it off), and its
    CUDA_NVRTC_EXTRA_SEARCH_PATHS as KAJI_ or NUMBA_CUDA_NVRTC_EXTRA_SEARCH_PATHS sets it,
    applied at ``import kaji``."""
    wait = _performance_warnings.switch_from_environment("KAJI_CUDA_ARRAY_INTERFACE_SYNC",
                                                         "NUMBA_CUDA_ARRAY_INTERFACE_SYNC")
    if wait is not None:
        _core.set_array_interface_sync(wait)
    for name in ("KAJI_CUDA_NVRTC_EXTRA_SEARCH_PATHS", "NUMBA_CUDA_NVRTC_EXTRA_SEARCH_PATHS"):
        if name in os.environ:
            set_cuda_include_directories(os.environ[name])
            break


def set_cuda_include_directories(paths):
    """Numba's CUDA_NVRTC_EXTRA_SEARCH_PATHS: `paths`, directories separated by ":" (or a
    list of them), where NVRTC looks for #include files; TypeError for anything else."""
    if isinstance(paths, str):
        paths = paths.split(":")
    if not isinstance(paths, (list, tuple)) or not all(isinstance(p, str) for p in paths):
        raise TypeError("CUDA_NVRTC_EXTRA_SEARCH_PATHS is directories separated by ':', not "
                        f"{paths!r}")
    _core.set_cuda_include_directories([path for path in paths if path])


def apply_pending_free_environment():
    """The limits of pending frees that KAJI_CUDA_DEALLOCS_COUNT / _RATIO or Numba's
    NUMBA_CUDA_DEALLOCS_COUNT / _RATIO set, applied (at ``import kaji``); a value that does not
    parse, or is out of range, warns and leaves the default."""
    for setting, read, keyword, wanted in (("COUNT", int, "count", "a count"),
                                           ("RATIO", float, "share", "a ratio between 0 and 1")):
        for name in (f"KAJI_CUDA_DEALLOCS_{setting}", f"NUMBA_CUDA_DEALLOCS_{setting}"):
            text = os.environ.get(name)
            if text is None:
                continue
            try:
                set_pending_free_limits(**{keyword: read(text)})
            except ValueError:
                import warnings
                from kaji._jit_options import InvalidConfigWarning

                warnings.warn(f"{name}={text!r} is not {wanted}; kaji keeps the default",
                              InvalidConfigWarning, stacklevel=2)
            break


def defer_cleanup():
    """Numba's ``cuda.defer_cleanup()``: a ``with`` block in which no device memory of the
    current device is freed, so that work queued in it keeps its memory however the program
    drops its arrays."""
    return current_context().defer_cleanup()


def memory_info():
    """(free, total) bytes of the current device's memory, now: a MemoryInfo namedtuple, as
    ``cuda.current_context().get_memory_info()``. CudaUnavailable without a GPU."""
    return current_context().get_memory_info()


def set_memory_limit(nbytes):
    """Caps the device memory kaji allocates in this process (device arrays and managed
    arrays, counted while they live; on the cpu target the host memory standing in for them)
    at `nbytes` (an int, or a string such as "512MiB" or "4GiB"); None removes the cap. An
    allocation past it raises MemoryError naming the limit.
    The environment variable KAJI_MEMORY_LIMIT sets it at start-up, in the same spellings.
    Works without a GPU too."""
    if isinstance(nbytes, str):
        nbytes = _core.parse_byte_size(nbytes)
    if nbytes is not None and (not isinstance(nbytes, int) or isinstance(nbytes, bool)):
        raise TypeError(f"set_memory_limit takes a number of bytes (an int or a string such "
                        f"as '4GiB') or None, not {nbytes!r}")
    if nbytes is not None and nbytes < 0:
        raise ValueError(f"set_memory_limit: the limit cannot be negative ({nbytes})")
    _core.set_memory_limit(nbytes)


def memory_limit():
    """The cap set by set_memory_limit or KAJI_MEMORY_LIMIT in bytes, or None."""
    return _core.memory_limit()


def current_context(devnum=None):
    """The primary context of device `devnum`, by default the current device (which it then
    becomes)."""
    device = get_current_device() if devnum is None else select_device(devnum)
    return Context(device)


class GPU:
    """One device of ``cuda.gpus``: its attributes are the device's, and ``with gpu:`` makes
    it the current device for the block, restoring the previous one after."""

    def __init__(self, ordinal):
        self.id = ordinal
        self._previous = []

    def __getattr__(self, name):
        return getattr(_core.get_device(self.id), name)

    def __enter__(self):
        self._previous.append(_core.selected_device())
        return select_device(self.id)

    def __exit__(self, *exception):
        _core.select_device(self._previous.pop())
        return False

    def __repr__(self):
        return repr(_core.get_device(self.id))


class GPUList:
    """``cuda.gpus``: every device, indexable (by device number or slice) and iterable, its
    list also as ``.lst`` (Numba's); CudaUnavailable without a driver, as Numba raises its
    CudaSupportError."""

    def _count(self):
        return _core.device_count()

    def __len__(self):
        return self._count()

    @property
    def lst(self):
        """A GPU per device, by device number."""
        return list(self)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return self.lst[index]
        count = self._count()
        if isinstance(index, bool) or not hasattr(index, "__index__"):
            raise TypeError(f"cuda.gpus takes a device number, not {index!r}")
        index = operator.index(index)
        if not -count <= index < count:
            raise IndexError(f"no device {index}: there are {count}")
        return GPU(index % count)

    def __iter__(self):
        return (GPU(ordinal) for ordinal in range(self._count()))

    @property
    def current(self):
        """The current device."""
        return GPU(_core.selected_device())

    def __repr__(self):
        return f"<kaji.cuda.gpus: {self._count()} devices>"


gpus = GPUList()


def detect():
    """Prints the devices found with their main properties (as Numba's ``cuda.detect``);
    True when at least one was found. Without a driver it prints why none was."""
    if not _core.is_available():
        print(f"Found 0 CUDA devices ({_core.unavailable_reason()})")
        return False
    found = devices()
    print(f"Found {len(found)} CUDA devices")
    for device in found:
        major, minor = device.compute_capability
        print(f"id {device.id}    {device.name!r:40} [SUPPORTED]")
        print(f"{'Compute Capability':>40}: {major}.{minor}")
        print(f"{'PCI Device ID':>40}: {device.PCI_DEVICE_ID}")
        print(f"{'PCI Bus ID':>40}: {device.PCI_BUS_ID}")
        print(f"{'Multiprocessors':>40}: {device.MULTIPROCESSOR_COUNT}")
        print(f"{'Memory':>40}: {device.total_memory // 2**20} MiB")
    print("Summary:")
    print(f"\t{len(found)}/{len(found)} devices are supported")
    return bool(found)


def close():
    """Numba's ``cuda.close()``: waits for the work queued on every device. kaji keeps each
    device's primary context (and the kernels loaded in it) for the life of the process, so
    nothing is torn down; without a GPU there is nothing to do."""
    if not gpu_usable():
        return
    current = _core.selected_device()
    for ordinal in range(_core.device_count()):
        _core.select_device(ordinal)
        _core.synchronize()
    _core.select_device(current)
