"""Numba's ``numba.cuda.config`` (``from kaji.cuda import config``): the configuration settings
that matter to CUDA programs, under Numba's names. Each reads what kaji does now.

Honoured: reading gives kaji's setting and assigning changes what kaji does, at once.

- ``CUDA_LOW_OCCUPANCY_WARNINGS``: the kaji.PerformanceWarning about a cuda launch of fewer
  blocks than twice the GPU's multiprocessors (1 or 0).
- ``CUDA_WARN_ON_IMPLICIT_COPY``: the one about a numpy argument copied to the GPU and back (and
  ``cudadrv.devicearray.auto_device``'s copy).
- ``DISABLE_PERFORMANCE_WARNINGS``: 1 turns both kinds off, keeping each one's own switch for
  when it is set to 0 again, as in Numba.
- ``CUDA_DEALLOCS_COUNT`` (10), ``CUDA_DEALLOCS_RATIO`` (0.2): device memory freed without a
  stream waits until more frees than the count, or more bytes than the ratio of the device's
  memory, are pending (``cuda.current_context().deallocations``).
- ``CUDA_ARRAY_INTERFACE_SYNC`` (1): a launch orders the work queued on the stream another
  library's array names (``__cuda_array_interface__``) before the kernel, on the device, and
  ``as_cuda_array``/``from_cuda_array_interface`` synchronize that stream; 0 does neither (the
  producer answers for the ordering), as in Numba.
- ``CUDA_NVRTC_EXTRA_SEARCH_PATHS`` (""): directories, separated by ":", where NVRTC looks for
  the ``#include`` files of the CUDA C++ files kernels link (``link=``, ``declare_device``),
  before the CUDA toolkit's own headers (``<cuda_fp16.h>``, ``<curand_kernel.h>``), which it
  finds without them.
- ``CUDA_DEBUGINFO_DEFAULT`` (0): what ``debug=None`` of ``cuda.jit`` and the compile
  functions means.
- ``OPT`` (``_OptLevel(3)``; 0, 1, 2, 3 or "max"): ``opt=None`` of ``cuda.jit`` and the
  compile functions optimises unless it is 0, as in Numba.

The first three start from Numba's environment variables, read when kaji is imported:
NUMBA_CUDA_LOW_OCCUPANCY_WARNINGS, NUMBA_CUDA_WARN_ON_IMPLICIT_COPY,
NUMBA_DISABLE_PERFORMANCE_WARNINGS (kaji's KAJI_ spellings of the same names come first),
the next two from NUMBA_CUDA_DEALLOCS_COUNT and NUMBA_CUDA_DEALLOCS_RATIO, the last two from
NUMBA_CUDA_ARRAY_INTERFACE_SYNC and NUMBA_CUDA_NVRTC_EXTRA_SEARCH_PATHS (or the KAJI_
spellings), the last two from NUMBA_CUDA_DEBUGINFO and NUMBA_OPT (or KAJI_CUDA_DEBUGINFO
and KAJI_OPT) when kaji first needs them;
``kaji.performance_warnings(...)`` sets the first two too.

Not honoured: kaji does not read these settings' NUMBA_ variables and has no switch for them.
Each reads what kaji does; assigning another value changes nothing and warns
(kaji.InvalidConfigWarning), as does importing this module while such a NUMBA_ variable asks
for another value.

- ``ENABLE_CUDASIM`` = 0: kaji has no simulator; its cpu target compiles kernels for the host
  (``KAJI_TARGET=cpu``, ``@cuda.jit(target="cpu")``).
- ``DISABLE_JIT`` = 0: kernels are always compiled.
- ``DISABLE_CUDA`` = 0: ``cuda.is_available()`` says whether a GPU is usable.
- ``CUDA_PER_THREAD_DEFAULT_STREAM`` = 0: the default stream is the legacy one;
  ``cuda.per_thread_default_stream()`` gives the per-thread one to pass explicitly.
- ``CUDA_DEFAULT_PTX_CC`` = (9, 0), ``FORCE_CUDA_CC`` = None: kaji compiles for the GPU's
  compute capability, capped at 9.0 (the newest LLVM 19 knows), and for 9.0 without a GPU.
- ``DEBUGINFO_DEFAULT`` = 0: Numba's CPU target's setting.
- ``BOUNDSCHECK`` = None: each kernel's ``boundscheck=`` decides (its default: on for the cpu
  target, off for cuda).
- ``CUDA_ENABLE_NRT`` = 0: kaji has no NRT.
- ``CUDA_MEMORY_MANAGER`` = "default": kaji has no external memory manager plugins.

Other Numba settings are not here (AttributeError): kaji has none of them."""

import os
import re
import sys
import types
import warnings

from kaji import _core, _performance_warnings, _runtime
from kaji._jit_options import InvalidConfigWarning, jit_default, set_jit_default


def _flag(value):
    return int(bool(value))


class _OptLevel(int):
    """Numba's optimisation level: an int 0-3, or "max" (3, ``is_opt_max``)."""

    def __new__(cls, value):
        value = getattr(value, "_raw_value", value)
        if value not in (0, 1, 2, 3, "0", "1", "2", "3", "max"):
            raise ValueError(f"an optimisation level is 0, 1, 2, 3 or 'max', not {value!r}")
        level = super().__new__(cls, 3 if value == "max" else int(value))
        level._raw_value = "max" if value == "max" else int(value)
        return level

    @property
    def is_opt_max(self):
        return self._raw_value == "max"

    def __repr__(self):
        return f"_OptLevel({self._raw_value!r})"


# Honoured: name -> (read, write).
_HONOURED = {
    "CUDA_LOW_OCCUPANCY_WARNINGS": (
        lambda: _flag(_performance_warnings.switches()[0]),
        lambda value: _performance_warnings.set_switch(low_occupancy=bool(value))),
    "CUDA_WARN_ON_IMPLICIT_COPY": (
        lambda: _flag(_performance_warnings.switches()[1]),
        lambda value: _performance_warnings.set_switch(implicit_copy=bool(value))),
    "DISABLE_PERFORMANCE_WARNINGS": (
        lambda: _flag(_performance_warnings.disabled()),
        lambda value: _performance_warnings.disable(bool(value))),
    "CUDA_DEALLOCS_COUNT": (
        lambda: _core.pending_free_limits()[0],
        lambda value: _runtime.set_pending_free_limits(count=value)),
    "CUDA_DEALLOCS_RATIO": (
        lambda: _core.pending_free_limits()[1],
        lambda value: _runtime.set_pending_free_limits(share=value)),
    "CUDA_ARRAY_INTERFACE_SYNC": (
        lambda: _flag(_core.array_interface_sync()),
        lambda value: _core.set_array_interface_sync(bool(value))),
    "CUDA_NVRTC_EXTRA_SEARCH_PATHS": (
        lambda: ":".join(_core.cuda_include_directories()),
        lambda value: _runtime.set_cuda_include_directories(value)),
    "CUDA_DEBUGINFO_DEFAULT": (
        lambda: _flag(jit_default("debug")),
        lambda value: set_jit_default("debug", bool(value))),
    "OPT": (
        lambda: _OptLevel(jit_default("opt")),
        lambda value: set_jit_default("opt", _OptLevel(value)._raw_value)),
}


def _compute_capability(text):
    match = re.fullmatch(r"\s*(\d+)\.(\d+)\s*", text)
    if match is None:
        raise ValueError(f"a compute capability is 'major.minor', not {text!r}")
    return int(match.group(1)), int(match.group(2))


# Not honoured: name -> (what kaji does, Numba's environment variable and how it reads it).
_FIXED = {
    "ENABLE_CUDASIM": (0, "NUMBA_ENABLE_CUDASIM", int),
    "DISABLE_JIT": (0, "NUMBA_DISABLE_JIT", int),
    "DISABLE_CUDA": (0, "NUMBA_DISABLE_CUDA", int),
    "CUDA_PER_THREAD_DEFAULT_STREAM": (0, "NUMBA_CUDA_PER_THREAD_DEFAULT_STREAM", int),
    "CUDA_DEFAULT_PTX_CC": ((9, 0), "NUMBA_CUDA_DEFAULT_PTX_CC", _compute_capability),
    "FORCE_CUDA_CC": (None, "NUMBA_FORCE_CUDA_CC", _compute_capability),
    "DEBUGINFO_DEFAULT": (0, "NUMBA_DEBUGINFO", int),
    "BOUNDSCHECK": (None, "NUMBA_BOUNDSCHECK", int),
    "CUDA_ENABLE_NRT": (0, "NUMBA_CUDA_ENABLE_NRT", int),
    "CUDA_MEMORY_MANAGER": ("default", "NUMBA_CUDA_MEMORY_MANAGER", str),
}


def _not_honoured(name, asked):
    warnings.warn(f"kaji does not honour Numba's {name}={asked!r}: it stays "
                  f"{_FIXED[name][0]!r} (see kaji.cuda.config's docstring)",
                  InvalidConfigWarning, stacklevel=3)


class _Config(types.ModuleType):
    """The module's class: its settings are read from, and written to, kaji's own state."""

    def __getattr__(self, name):
        if name in _HONOURED:
            return _HONOURED[name][0]()
        if name in _FIXED:
            return _FIXED[name][0]
        raise AttributeError(f"kaji.cuda.config has no setting {name!r} (kaji has no "
                             "counterpart of it; see the module's docstring)")

    def __setattr__(self, name, value):
        if name in _HONOURED:
            _HONOURED[name][1](value)
        elif name in _FIXED:
            if value != _FIXED[name][0]:
                _not_honoured(name, value)
        else:
            super().__setattr__(name, value)

    def __dir__(self):
        return sorted({*super().__dir__(), *_HONOURED, *_FIXED})


def _check_environment():
    """A warning for each NUMBA_ variable of a setting kaji does not honour that asks for
    another value than kaji's."""
    for name, (value, variable, read) in _FIXED.items():
        text = os.environ.get(variable)
        if text is None:
            continue
        try:
            asked = read(text)
        except ValueError:
            asked = text
        if asked != value:
            warnings.warn(f"kaji does not honour {variable}={text!r}: {name} stays {value!r} "
                          "(see kaji.cuda.config's docstring)", InvalidConfigWarning,
                          stacklevel=2)


sys.modules[__name__].__class__ = _Config
_check_environment()
