"""The options of ``@kaji.jit``, checked once into the JitOptions record that a kernel keeps,
compiles by and pickles with."""

import os
import warnings
from typing import NamedTuple

from kaji import _core
from kaji._backend import add_nvjitlink_wheel, check_backend, default_backend
from kaji._target import check_target, default_target
from kaji.linking import link_files


class InvalidConfigWarning(UserWarning):
    """Options that do not go together (Numba's NumbaInvalidConfigWarning)."""


# What `debug=None` and `opt=None` mean: Numba's CUDA_DEBUGINFO_DEFAULT and OPT != 0
# (kaji.cuda.config), from the environment at first use.
_defaults = {}


def _environment_defaults():
    debug = os.environ.get("KAJI_CUDA_DEBUGINFO", os.environ.get("NUMBA_CUDA_DEBUGINFO", "0"))
    opt = os.environ.get("KAJI_OPT", os.environ.get("NUMBA_OPT", "3")).strip()
    if opt not in ("0", "1", "2", "3", "max"):
        warnings.warn(f"the optimisation level {opt!r} of KAJI_OPT/NUMBA_OPT is none of 0, 1, "
                      "2, 3 and 'max': kaji optimises", InvalidConfigWarning, stacklevel=4)
        opt = "3"
    return {"debug": debug.strip() not in ("0", ""), "opt": opt if opt == "max" else int(opt)}


def jit_default(name):
    """The default of jit's `debug` (a bool) or the optimisation level `opt=None` stands for
    (0-3 or "max", optimising unless 0)."""
    if not _defaults:
        _defaults.update(_environment_defaults())
    return _defaults[name]


def set_jit_default(name, value):
    """Sets what jit's `debug=None` (a bool) or `opt=None` (a level) means from now on."""
    jit_default(name)
    _defaults[name] = value


class JitOptions(NamedTuple):
    """@jit's keyword arguments, checked (JitOptions.check), as a kernel is compiled by them.
    `target` and `backend` are None where jit named none, until the kernel is made
    (with_defaults)."""

    fastmath: bool
    opt: object  # True/False or an LLVM optimization level 0-3
    target: object
    boundscheck: object  # None: the target's default
    cache: bool
    lineinfo: bool
    debug: bool
    launch_bounds: tuple  # (threads, blocks per SM, blocks per cluster), 0 where not given
    max_registers: int  # 0: no limit
    shared_memory_carveout: object  # a percentage, -1 for the driver's default, or None
    extensions: tuple
    backend: object
    inlining: str  # "always", "never" or "default": what calls of the function become
    link: tuple  # absolute paths and code in memory (kaji/_linkable_code.py)
    lto: bool  # LTO-IR by the nvrtc backend, linked and optimised with link= by nvJitLink

    @classmethod
    def check(cls, device, inline, forceinline, fastmath, opt, target, boundscheck, cache,
              lineinfo, debug, launch_bounds, max_registers, shared_memory_carveout, extensions,
              backend, link, lto):
        """The options jit was called with (see its docstring), checked: ValueError or
        TypeError for a value jit does not take, RuntimeError for lto=True without nvJitLink,
        InvalidConfigWarning (at jit's caller) for debug=True with optimization."""
        if target is not None:
            check_target(target)
        if backend is not None:
            check_backend(backend)
        lto = bool(lto)
        if lto:
            backend = _lto_backend(backend)
        debug = jit_default("debug") if debug is None else debug
        opt = jit_default("opt") != 0 if opt is None else opt
        inlining = _inlining(inline, forceinline)
        if debug and opt:
            warnings.warn("debug=True with opt=True is not supported by CUDA. This may result "
                          "in a crash - set debug=False or opt=False.", InvalidConfigWarning,
                          stacklevel=3)
        if debug and lineinfo:
            warnings.warn("debug and lineinfo are mutually exclusive. Use debug to get full "
                          "debug info (this disables some optimizations), or lineinfo for line "
                          "info only with code generation unaffected.", InvalidConfigWarning,
                          stacklevel=3)
        return cls(fastmath=fastmath, opt=opt, target=target,
                   boundscheck=None if boundscheck is None else bool(boundscheck),
                   cache=bool(cache), lineinfo=bool(lineinfo or debug), debug=bool(debug),
                   launch_bounds=_launch_bounds(launch_bounds),
                   max_registers=_max_registers(max_registers),
                   shared_memory_carveout=_shared_memory_carveout(shared_memory_carveout),
                   extensions=_extensions(extensions), backend=backend, inlining=inlining,
                   link=_link(link, device), lto=lto)

    def with_defaults(self):
        """These options with the default target and backend where they name none, as the
        environment (KAJI_TARGET, KAJI_BACKEND, a usable GPU) gives them now."""
        return self._replace(target=default_target() if self.target is None else self.target,
                             backend=default_backend() if self.backend is None else self.backend)


def block_threads(blockdim):
    """The threads of a block given as an int or a tuple of up to three ints."""
    extents = blockdim if isinstance(blockdim, tuple) else (blockdim,)
    if not 1 <= len(extents) <= 3 or not all(_is_int(extent) for extent in extents):
        raise TypeError(f"blockdim must be an int or a tuple of 1 to 3 ints, not {blockdim!r}")
    threads = 1
    for extent in extents:
        threads *= int(extent)
    return threads


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _inlining(inline, forceinline):
    """"always", "never" or "default": what calls of the function become."""
    if not isinstance(forceinline, bool):
        raise ValueError(f"forceinline must be True or False, not {forceinline!r}")
    if inline not in (None, True, False, "always", "never"):
        raise ValueError("inline must be 'always', 'never', True or False (kaji takes no "
                         f"cost-model function), not {inline!r}")
    if forceinline or inline in (True, "always"):
        return "always"
    return "never" if inline == "never" else "default"


def _launch_bounds(bounds):
    """launch_bounds as (threads, blocks per SM, blocks per cluster), 0 where not given."""
    if bounds is None:
        return (0, 0, 0)
    values = (bounds,) if _is_int(bounds) else bounds
    if isinstance(values, (tuple, list)) and len(values) > 3:
        raise ValueError(f"Got {len(values)} launch bounds: {tuple(values)}; launch_bounds "
                         "takes at most 3 (max threads per block, min blocks per "
                         "multiprocessor, max blocks per cluster)")
    if (not isinstance(values, (tuple, list)) or not 1 <= len(values) <= 3
            or not all(_is_int(v) and v > 0 for v in values)):
        raise ValueError("launch_bounds must be a positive int or a tuple of 1 to 3 positive "
                         "ints (max threads per block, min blocks per multiprocessor, max "
                         f"blocks per cluster), not {bounds!r}")
    return tuple(values) + (0,) * (3 - len(values))


def _max_registers(count):
    if count is None:
        return 0
    if not _is_int(count) or count <= 0:
        raise ValueError(f"max_registers must be a positive int, not {count!r}")
    return count


_CARVEOUTS = {"default": -1, "maxl1": 0, "maxshared": 100}


def _shared_memory_carveout(carveout):
    """The carveout as the percentage the driver takes (-1: its default), or None."""
    if carveout is None:
        return None
    if isinstance(carveout, str):
        if carveout.lower() not in _CARVEOUTS:
            raise ValueError(f"Invalid carveout value: {carveout}. Must be -1 to 100 or one of "
                             "['MaxL1', 'MaxShared', 'default']")
        return _CARVEOUTS[carveout.lower()]
    if _is_int(carveout):
        if not -1 <= carveout <= 100:
            raise ValueError("Carveout must be between -1 and 100")
        return carveout
    raise TypeError("shared_memory_carveout must be a str or an int, not "
                    f"{type(carveout).__name__}")


def _extensions(extensions):
    extensions = tuple(extensions or ())
    for extension in extensions:
        if not callable(getattr(extension, "prepare_args", None)):
            raise TypeError("an extension is an object with a prepare_args(ty, val, stream=, "
                            f"retr=) method, which {extension!r} lacks")
    return extensions


def _lto_backend(backend):
    """The backend of a kernel with lto=True: nvrtc, whose CUDA C++ NVRTC compiles to LTO-IR
    (LLVM's NVPTX backend cannot make NVIDIA's LTO-IR). Checks that nvJitLink, which links
    it, is there, as Numba does when the kernel is made."""
    if backend == "llvm":
        raise ValueError("lto=True needs the nvrtc backend: LLVM's NVPTX backend makes no "
                         "LTO-IR. Leave backend unset (lto=True picks nvrtc) or use "
                         "backend='nvrtc'")
    add_nvjitlink_wheel()
    try:
        _core.nvjitlink_version()
    except RuntimeError as error:
        raise RuntimeError(f"lto=True needs nvJitLink to link the kernel's LTO-IR: {error}") \
            from None
    return "nvrtc"


def _link(files, device):
    """The files a kernel links, checked (kaji/linking.py); a device function links none."""
    if files is not None and device:
        raise ValueError("link= belongs to a kernel (or to cuda.declare_device), not to a "
                         "device function")
    return link_files(files, "jit(link=...)")
