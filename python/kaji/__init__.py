"""kaji: Python functions compiled to GPU kernels (or run on the CPU: ``target="cpu"``).

    @kaji.jit
    def saxpy(out, a, x, y):
        i = kaji.grid(1)
        if i < x.size:
            out[i] = a * x[i] + y[i]

    saxpy[blocks, threads](out, numpy.float32(2.0), kaji.to_device(x), kaji.to_device(y))

Users of Numba write ``from kaji import cuda`` and keep ``cuda.jit``, ``cuda.grid``, ...
"""

from kaji._shared_api import *  # noqa: F403 (the names kaji.cuda has too)
from kaji._core import CompileError, DeviceArray, Event, Graph, LinkError, Stream
from kaji._runtime import devices, graph
from kaji._target import TargetFallbackWarning, default_target
from kaji.decorator import DeviceFunction, Kernel
from kaji.guvectorize import GUVectorized
from kaji.vectorize import Vectorized
from kaji.types import typeof
from kaji import _core, _performance_warnings, _runtime, cuda
from kaji._performance_warnings import performance_warnings


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


_performance_warnings.apply_environment()
_runtime.apply_pending_free_environment()
_runtime.apply_interop_environment()


__version__ = _core.compiler_version()
