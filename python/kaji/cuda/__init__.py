"""The Numba spelling of kaji: ``from kaji import cuda`` and keep writing ``@cuda.jit``,
``cuda.grid(1)``, ``cuda.threadIdx.x``, ``cuda.shared.array``, ``cuda.to_device``, ...

Inside kernels the compiler treats ``cuda`` as the kaji module itself.

``kaji.cuda.random`` is ``kaji.random`` (``from kaji.cuda.random import
create_xoroshiro128p_states`` as with Numba); it runs on first use."""

from kaji._shared_api import *  # noqa: F403 (the names kaji has too)
from kaji._runtime import devices as list_devices
from kaji import kernels
from kaji.reduction import Reduce, reduce
from kaji.vector_types import *  # noqa: F403 (cuda.float32x4, cuda.float4, ..., see its __all__)


def __getattr__(name):
    if name == "random":  # kaji.random, executed on first use (kaji/__init__.py)
        from kaji import random

        return random
    if name == "MappedArray":  # its module imports numpy, which `import kaji` does not
        from kaji._mapped_array import MappedArray

        return MappedArray
    raise AttributeError(f"module 'kaji.cuda' has no attribute {name!r}")
