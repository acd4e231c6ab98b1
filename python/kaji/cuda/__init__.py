"""The Numba spelling of kaji: ``from kaji import cuda`` and keep writing ``@cuda.jit``,
``cuda.grid(1)``, ``cuda.threadIdx.x``, ``cuda.shared.array``, ``cuda.to_device``, ...

Inside kernels the compiler treats ``cuda`` as the kaji module itself.

``kaji.cuda.random`` is ``kaji.random`` (``from kaji.cuda.random import
create_xoroshiro128p_states`` as with Numba); it runs on first use.

The modules Numba's users import from live under it at Numba's paths, each holding kaji's
objects (docs/python.md, "Numba's module paths"): ``kaji.cuda.bf16``, ``kaji.cuda.config``,
``kaji.cuda.core.errors``, ``kaji.cuda.cudadrv.devicearray``,
``kaji.cuda.cudadrv.linkable_code``, ``kaji.cuda.extending``, ``kaji.cuda.fp16``,
``kaji.cuda.libdevicefuncs``, ``kaji.cuda.api``,
``kaji.cuda._internal.cuda_bf16`` and ``.cuda_fp16`` (the half-precision functions under CUDA
C++'s names) and ``.cuda_fp8`` (the 8-bit floats), ``kaji.cuda.kernels``
(``.transpose``, ``.reduction``), ``kaji.cuda.misc.special``, ``kaji.cuda.np.numpy_support``,
``kaji.cuda.typing.typeof``, ``kaji.cuda.vector_types``. Each but ``bf16``, ``fp16``,
``extending`` and ``kernels`` is imported on first use, as an attribute (``cuda.config``) or by an import
statement."""

from importlib import import_module as _import_module
from importlib.util import find_spec as _find_spec

from kaji._shared_api import *  # noqa: F403 (the names kaji has too)
from kaji._driver_calls import is_supported_version, profile_start, profile_stop, profiling
from kaji._linkable_code import (LTOIR, Archive, Cubin, CUSource, Fatbin, LinkableCode, Object,
                                 PTXSource)
from kaji._runtime import cuda_error
from kaji._runtime import devices as list_devices
from kaji._transfer_hints import In, InOut, Out
from kaji.compiling import (compile, compile_all, compile_for_current_device, compile_ptx,
                            compile_ptx_for_current_device)
from kaji.cuda import extending, kernels  # extending: kernels see Numba's own @overloads
from kaji.reduction import Reduce, reduce
from kaji.vector_types import *  # noqa: F403 (cuda.float32x4, cuda.float4, ..., see its __all__)

# Modules at Numba's paths over the compiler's tables, in place of the tables themselves that
# the star import binds (also when this module is executed again, with them already loaded).
bf16 = _import_module(f"{__name__}.bf16")
fp16 = _import_module(f"{__name__}.fp16")

# Numba-CUDA's flag: whether the numba package (its CPU compiler) is installed, for
# @numba.jit functions that kernels call (docs/numba-compat.md).
HAS_NUMBA = _find_spec("numba") is not None

# Numba's module paths under kaji.cuda besides kernels, imported on first use. They are not
# names of `from kaji.cuda import *` (__all__ below), where `np` and `typing` would shadow
# numpy and the standard library's typing.
_SUBMODULES = ("api", "args", "compiler", "config", "core", "cudadrv", "libdevicefuncs", "misc", "np",
               "typing", "vector_types")

# Numba's external memory manager (EMM) plugin interface, which kaji does not have.
_MEMORY_MANAGER_API = ("set_memory_manager", "BaseCUDAMemoryManager",
                       "HostOnlyCUDAMemoryManager", "GetIpcHandleMixin", "MemoryPointer",
                       "AutoFreePointer")

# `compile` stays out of `from kaji.cuda import *`, which would shadow Python's own.
__all__ = [name for name in globals() if not name.startswith("_") and name != "compile"]


def __getattr__(name):
    if name == "random":  # kaji.random, executed on first use (kaji/__init__.py)
        from kaji import random

        return random
    if name == "MappedArray":  # its module imports numpy, which `import kaji` does not
        from kaji._mapped_array import MappedArray

        return MappedArray
    if name in _SUBMODULES:
        return _import_module(f"{__name__}.{name}")
    if name in ("devicearray", "devices", "driver"):  # numba.cuda has these of cudadrv too
        return _import_module(f"{__name__}.cudadrv.{name}")
    if name in _MEMORY_MANAGER_API:
        raise AttributeError(f"kaji.cuda has no {name!r}: kaji has no external memory managers "
                             "(Numba's EMM plugins); it allocates with the driver and frees "
                             "through the device's pending frees (ctx.deallocations)")
    raise AttributeError(f"module 'kaji.cuda' has no attribute {name!r}")
