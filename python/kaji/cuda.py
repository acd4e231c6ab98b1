"""The Numba spelling of kaji: ``from kaji import cuda`` and keep writing ``@cuda.jit``,
``cuda.grid(1)``, ``cuda.threadIdx.x``, ``cuda.shared.array``, ``cuda.to_device``, ...

Inside kernels the compiler treats ``cuda`` as the kaji module itself.

``kaji.cuda.random`` is ``kaji.random`` (``from kaji.cuda.random import
create_xoroshiro128p_states`` as with Numba); it runs on first use."""

from kaji._arrays import *  # noqa: F403 (the array functions, see its __all__)
from kaji._memory_kinds import *  # noqa: F403 (pinned, mapped and managed memory)
from kaji._core import CudaError, CudaUnavailable, PerformanceWarning
from kaji._runtime import (
    close,
    current_context,
    default_stream,
    detect,
    devices as list_devices,
    event,
    event_elapsed_time,
    external_stream,
    get_current_device,
    gpus,
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
from kaji.decorator import InvalidConfigWarning, jit
from kaji.linking import declare_device
from kaji import kernels
from kaji.reduction import Reduce, reduce
from kaji.guvectorize import guvectorize
from kaji.vectorize import vectorize
from kaji.intrinsics import *  # noqa: F403 (the kernel-language names, see its __all__)
from kaji.types import *  # noqa: F403 (Numba's type names: cuda.float32, ..., see its __all__)
from kaji.vector_types import *  # noqa: F403 (cuda.float32x4, cuda.float4, ..., see its __all__)
from kaji import types


def __getattr__(name):
    if name == "random":  # kaji.random, executed on first use (kaji/__init__.py)
        from kaji import _random

        return _random
    if name == "MappedArray":  # its module imports numpy, which `import kaji` does not
        from kaji._mapped_array import MappedArray

        return MappedArray
    raise AttributeError(f"module 'kaji.cuda' has no attribute {name!r}")
