"""The names ``kaji`` and ``kaji.cuda`` both export: each takes them all with
``from kaji._shared_api import *`` (every public name here, there being no ``__all__``) and
adds its own."""

from kaji._core import CudaError, CudaUnavailable, InvalidLaunch, PerformanceWarning
from kaji._arrays import *  # noqa: F403 (the array functions, see its __all__)
from kaji._memory_kinds import *  # noqa: F403 (pinned, mapped and managed memory)
from kaji._ipc import open_ipc_array
from kaji._runtime import (
    close,
    current_context,
    default_stream,
    defer_cleanup,
    detect,
    event,
    event_elapsed_time,
    external_stream,
    get_current_device,
    gpus,
    is_available,
    is_bfloat16_supported,
    is_float16_supported,
    is_fp8_supported,
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
from kaji._jit_options import InvalidConfigWarning
from kaji.decorator import jit
from kaji.linking import declare_device
from kaji.guvectorize import guvectorize
from kaji.vectorize import vectorize
from kaji.intrinsics import *  # noqa: F403 (the kernel-language names, see its __all__)
from kaji.types import *  # noqa: F403 (Numba's type names: float32, ..., see its __all__)
from kaji import types
