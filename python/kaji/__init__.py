"""kaji: Python functions compiled to GPU kernels (or run on the CPU: ``target="cpu"``).

    @kaji.jit
    def saxpy(out, a, x, y):
        i = kaji.grid(1)
        if i < x.size:
            out[i] = a * x[i] + y[i]

    saxpy[blocks, threads](out, numpy.float32(2.0), kaji.to_device(x), kaji.to_device(y))

Users of Numba write ``from kaji import cuda`` and keep ``cuda.jit``, ``cuda.grid``, ...
"""

from kaji._core import (
    CompileError,
    CudaError,
    CudaUnavailable,
    DeviceArray,
    Event,
    Graph,
    LinkError,
    PerformanceWarning,
    Stream,
)
from kaji._arrays import *  # noqa: F403 (the array functions, see its __all__)
from kaji._memory_kinds import *  # noqa: F403 (pinned, mapped and managed memory)
from kaji._runtime import (
    close,
    current_context,
    default_stream,
    detect,
    devices,
    event,
    event_elapsed_time,
    external_stream,
    get_current_device,
    gpus,
    graph,
    is_available,
    is_bfloat16_supported,
    is_float16_supported,
    legacy_default_stream,
    memory_info,
    memory_limit,
    per_thread_default_stream,
    select_device,
    set_memory_limit,
    stream,
    synchronize,
    unavailable_reason,
)
from kaji._target import TargetFallbackWarning, default_target
from kaji.decorator import DeviceFunction, InvalidConfigWarning, Kernel, jit
from kaji.guvectorize import GUVectorized, guvectorize
from kaji.linking import declare_device
from kaji.vectorize import Vectorized, vectorize
from kaji.intrinsics import *  # noqa: F403 (the kernel-language names, see its __all__)
from kaji.types import *  # noqa: F403 (Numba's type names, numba.float32 ..., see its __all__)
from kaji.types import typeof
from kaji import _core, cuda, types


def _lazy_module(name, *aliases):
    """Puts module `name` in sys.modules, also as `aliases`, to be executed on first use."""
    import importlib.util
    import sys

    spec = importlib.util.find_spec(name)
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    for key in (name, *aliases):
        sys.modules[key] = module
    spec.loader.exec_module(module)
    return module


# kaji.random (Numba's numba.cuda.random, also kaji.cuda.random) imports numpy, which
# `import kaji` does not: it runs on first use. It is an attribute through __getattr__ only,
# so that `from kaji import *` leaves the standard library's random alone.
_random = _lazy_module("kaji.random", "kaji.cuda.random")


def __getattr__(name):
    if name == "random":
        return _random
    raise AttributeError(f"module 'kaji' has no attribute {name!r}")


def _switch_from_environment(*names):
    """True/False from the first of the environment variables `names` that is set ("0" is
    off), None when none is."""
    import os

    for name in names:
        value = os.environ.get(name)
        if value is not None:
            return value.strip() not in ("0", "")
    return None


def performance_warnings(low_occupancy=None, implicit_copy=None):
    """Switches the kinds of PerformanceWarning on or off for the process (None leaves one
    as it is) and returns the settings: Numba's config switches CUDA_LOW_OCCUPANCY_WARNINGS
    and CUDA_WARN_ON_IMPLICIT_COPY. The environment variables KAJI_CUDA_LOW_OCCUPANCY_WARNINGS
    and KAJI_CUDA_WARN_ON_IMPLICIT_COPY (or Numba's NUMBA_ names) set them at import; the
    standard warnings filters silence them too."""
    return _core.set_performance_warnings(low_occupancy, implicit_copy)


performance_warnings(
    _switch_from_environment("KAJI_CUDA_LOW_OCCUPANCY_WARNINGS",
                             "NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS"),
    _switch_from_environment("KAJI_CUDA_WARN_ON_IMPLICIT_COPY", "NUMBA_CUDA_WARN_ON_IMPLICIT_COPY"),
)


__version__ = _core.compiler_version()
