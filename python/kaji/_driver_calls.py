"""The few CUDA driver calls Python makes itself, through ctypes, because kaji._core binds no
such call: the driver's CUDA version (``cuDriverGetVersion``, for ``is_supported_version``),
the profiler switches (``cuProfilerStart`` / ``cuProfilerStop``, for Numba's
``profile_start``, ``profile_stop`` and ``profiling``), a device's UUID (``cuDeviceGetUuid``,
for Numba's ``Device.uuid``) and its primary context (for Numba's ``Context.handle``).

The library is the one kaji's runtime loads (runtime/src/CudaDriver.cpp): $KAJI_CUDA_DRIVER,
else libcuda.so.1, so the loader hands back the same library. Each call is made only where
kaji._core found a usable driver (and so initialized it); without one, none is made."""

import contextlib
import ctypes  # numpy imports it too: free where numpy is loaded
import os

from kaji import _core

# The CUDA versions kaji is tested with: the driver's major version (12.x, 13.x), as Numba's
# is_supported_version asks it of the CUDA runtime.
SUPPORTED_MAJOR_VERSIONS = (12, 13)


def _driver():
    """The driver library, or None where kaji has none usable."""
    if not _core.is_available():
        return None
    return ctypes.CDLL(os.environ.get("KAJI_CUDA_DRIVER") or "libcuda.so.1")


def driver_version():
    """The CUDA version the driver supports as (major, minor), or None without a usable
    driver (or one that cannot say)."""
    driver = _driver()
    if driver is None:
        return None
    version = ctypes.c_int(0)
    try:
        if driver.cuDriverGetVersion(ctypes.byref(version)) != 0:
            return None
    except AttributeError:  # not a CUDA driver (a stand-in library)
        return None
    return version.value // 1000, version.value % 1000 // 10


def is_supported_version():
    """Numba's ``cuda.is_supported_version()``: whether the CUDA version kaji runs with is
    one it is tested with. kaji uses no CUDA runtime library, so it asks the driver: True when
    its CUDA version is 12.x or 13.x, False otherwise and without a usable driver."""
    version = driver_version()
    return version is not None and version[0] in SUPPORTED_MAJOR_VERSIONS


def _profiler_call(name):
    driver = _driver()
    if driver is None:
        return  # nothing runs on a GPU, so there is nothing to profile, as with no profiler
    # The call acts on the current context: kaji's runtime makes the current device's primary
    # context current on this thread for any call on the device (runtime/src/Context.cpp,
    # makeCurrent); the memory query is the cheapest such call.
    _core.get_device(_core.selected_device()).memory_info()
    _check(driver, name, getattr(driver, name)())


def _check(driver, name, result):
    """kaji.CudaError naming call `name` unless its CUresult `result` is success."""
    if result == 0:
        return
    text = ctypes.c_char_p()
    driver.cuGetErrorName(result, ctypes.byref(text))
    error_name = (text.value or b"").decode() or f"CUresult {result}"
    error = _core.CudaError(f"{name} failed: {error_name}")
    error.call, error.code, error.error_name = name, result, error_name
    error.description, error.detail = "", ""
    raise error


def _device(ordinal):
    """(the driver, device `ordinal`'s CUdevice); CudaUnavailable without a usable driver."""
    driver = _driver()
    if driver is None:
        raise _core.CudaUnavailable(_core.unavailable_reason())
    device = ctypes.c_int(0)
    _check(driver, "cuDeviceGet", driver.cuDeviceGet(ctypes.byref(device), ordinal))
    return driver, device


def primary_context_handle(ordinal):
    """Device `ordinal`'s primary context (CUcontext) as an int, the one kaji's runtime
    retains (retained and released here, so its count is unchanged)."""
    driver, device = _device(ordinal)
    context = ctypes.c_void_p(0)
    _check(driver, "cuDevicePrimaryCtxRetain",
           driver.cuDevicePrimaryCtxRetain(ctypes.byref(context), device))
    _check(driver, "cuDevicePrimaryCtxRelease_v2", driver.cuDevicePrimaryCtxRelease_v2(device))
    return context.value or 0


def device_uuid(ordinal):
    """Device `ordinal`'s UUID as Numba and nvidia-smi write it,
    ``GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx``."""
    driver, device = _device(ordinal)
    uuid = (ctypes.c_ubyte * 16)()
    _check(driver, "cuDeviceGetUuid_v2", driver.cuDeviceGetUuid_v2(uuid, device))
    digits = bytes(uuid).hex()
    return (f"GPU-{digits[:8]}-{digits[8:12]}-{digits[12:16]}-{digits[16:20]}-"
            f"{digits[20:]}")


def profile_start():
    """Numba's ``cuda.profile_start()``: asks the attached profiler (Nsight Systems with
    ``--capture-range=cudaProfilerApi``, Nsight Compute with ``--profile-from-start off``) to
    start collecting for the current device's context (``cuProfilerStart``). Without a profiler
    attached it changes nothing, and without a usable GPU it does nothing."""
    _profiler_call("cuProfilerStart")


def profile_stop():
    """Numba's ``cuda.profile_stop()``: the profiler stops collecting (``cuProfilerStop``);
    nothing without a profiler or a usable GPU."""
    _profiler_call("cuProfilerStop")


@contextlib.contextmanager
def profiling():
    """Numba's ``cuda.profiling()``: profile_start on entry, profile_stop on exit."""
    profile_start()
    try:
        yield
    finally:
        profile_stop()
