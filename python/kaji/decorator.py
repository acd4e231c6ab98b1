"""``@kaji.jit``: kernels, device functions, eager signatures, launch configuration."""

import functools

from kaji import _core
from kaji._globals import describe_globals
from kaji._target import check_target, default_target
from kaji.types import is_signature, signature_text

_CO_VARARGS = 0x04
_CO_VARKEYWORDS = 0x08


def jit(func_or_sig=None, *, device=False, fastmath=False, opt=True, target=None,
        boundscheck=None, cache=False, lineinfo=False):
    """Compiles a Python function into a kernel (or, with ``device=True``, a device function
    kernels call).

    ``@jit`` compiles lazily, once per argument-type signature, on first launch;
    ``@jit("void(float32[:], float32)")`` or ``@jit(void(float32[:], float32))`` (kaji.types),
    a tuple of argument types, or a list of signatures, compiles eagerly and then launches only
    with those signatures (a tuple of strings is a list of signatures); a device function's
    signatures fix the types its calls convert to. ``fastmath`` allows LLVM's fast-math
    flags; ``opt`` is True/False or an LLVM optimization level 0-3. ``target`` is "cuda" (the GPU) or "cpu"
    (this process, synchronously); by default cuda when a GPU is usable, else cpu, unless the
    environment variable KAJI_TARGET says otherwise. ``boundscheck`` (cpu only, on by default)
    makes an out-of-range index raise IndexError; the cuda target has no bounds checks.
    ``cache=True`` keeps the kernel's PTX on disk (``$KAJI_CACHE_DIR``, else
    ``$XDG_CACHE_HOME/kaji``, else ``~/.cache/kaji``) so later processes skip compiling it;
    the cpu target's machine code is not cached. ``lineinfo=True`` marks each PTX instruction
    with its Python line (``.loc``), so Nsight Compute and compute-sanitizer name the line.
    Device functions take any target: they are compiled into each caller.
    """
    if target is not None:
        check_target(target)

    def decorate(func, signatures=()):
        if device:
            return DeviceFunction(func, signatures)
        kernel_target = target if target is not None else default_target()
        if kernel_target == "cuda" and boundscheck:
            raise ValueError(f"kernel '{func.__name__}': boundscheck=True needs target='cpu'; "
                             "kernels on the cuda target are not bounds-checked")
        kernel = Kernel(func, fastmath=fastmath, opt=opt, target=kernel_target,
                        boundscheck=boundscheck is None or bool(boundscheck), cache=bool(cache),
                        lineinfo=bool(lineinfo))
        for signature in signatures:
            kernel.add_signature(signature)
        return kernel

    if func_or_sig is None:
        return decorate
    if is_signature(func_or_sig):
        signatures = (signature_text(func_or_sig),)
        return lambda func: decorate(func, signatures)
    if isinstance(func_or_sig, (list, tuple)):
        signatures = tuple(signature_text(signature) for signature in func_or_sig)
        return lambda func: decorate(func, signatures)
    if callable(func_or_sig):
        return decorate(func_or_sig)
    raise TypeError("jit takes a function, a signature such as 'void(float32[:], float32)' or "
                    "void(float32[:], float32), or a list of them; not "
                    f"{type(func_or_sig).__name__}")


def function_source(func):
    """The function's dedented source, where it sits in its file, for the compiler."""
    import inspect

    if not inspect.isfunction(func):
        raise TypeError(f"kaji.jit compiles Python functions, not {type(func).__name__}")
    code = func.__code__
    if code.co_flags & (_CO_VARARGS | _CO_VARKEYWORDS) or code.co_kwonlyargcount:
        raise TypeError(f"kernel '{func.__name__}' must take plain positional parameters "
                        "(no *args, **kwargs or keyword-only parameters)")
    try:
        lines, first_line = inspect.getsourcelines(func)
    except (OSError, TypeError) as error:
        raise TypeError(f"kaji cannot read the source of '{func.__qualname__}' ({error}); "
                        "kernels must be defined in a file or a notebook cell") from None
    indent = min(len(line) - len(line.lstrip()) for line in lines if line.strip())
    text = "".join(line[indent:] if line.strip() else "\n" for line in lines)
    return _core.FunctionSource(text, code.co_filename, first_line, indent, func.__name__)


def _parameters(func):
    code = func.__code__
    return list(code.co_varnames[: code.co_argcount])


class Kernel(_core.Dispatcher):
    """A @jit kernel. Launch it with ``kernel[griddim, blockdim](*args)`` or
    ``kernel[griddim, blockdim, stream, sharedmem](*args)``."""

    def __init__(self, func, fastmath=False, opt=True, target="cuda", boundscheck=True,
                 cache=False, lineinfo=False):
        self.py_func = func
        self._source = function_source(func)
        self._describe_globals = functools.partial(describe_globals, func)
        super().__init__(self._source, self._describe_globals, _parameters(func),
                         fast_math=fastmath, opt=opt, target=target,
                         bounds_check=boundscheck, cache=cache, lineinfo=lineinfo)
        functools.update_wrapper(self, func)

    def __call__(self, *args):
        raise TypeError(f"kernel '{self.__name__}' needs a launch configuration: "
                        f"{self.__name__}[griddim, blockdim](...)")

    def forall(self, ntasks, tpb=0, stream=0, sharedmem=0):
        """Numba's ``kernel.forall(ntasks)(*args)``: a launch of at least `ntasks` threads in
        blocks of `tpb` threads, by default the size the occupancy API picks for the kernel
        specialized on the call's arguments."""
        if not isinstance(ntasks, int) or isinstance(ntasks, bool) or ntasks < 0:
            raise ValueError(f"forall needs a non-negative int of tasks, not {ntasks!r}")
        kernel = self

        def launch(*args):
            if ntasks == 0:
                return
            threads = tpb or kernel.occupancy_block_size(args, sharedmem)
            kernel[(ntasks + threads - 1) // threads, threads, stream, sharedmem](*args)

        return launch

    def inspect_ir(self, signature=None):
        """kaji IR for `signature`, or {signature: IR} for every compiled one."""
        return self._inspect(signature, "ir")

    def inspect_llvm(self, signature=None):
        """LLVM IR for `signature` (NVPTX for cuda, this machine's for cpu), or
        {signature: LLVM IR} for every compiled one."""
        return self._inspect(signature, "llvm")

    def inspect_ptx(self, signature=None):
        """PTX for `signature`, or {signature: PTX} for every compiled one; on the cpu target,
        the PTX the kernel would run as on a GPU (no GPU needed either way)."""
        return self._inspect(signature, "ptx")

    def _inspect(self, signature, stage):
        if signature is None:
            return {sig: self.inspect(sig, stage) for sig in self.signatures}
        return self.inspect(signature_text(signature), stage)

    def __repr__(self):
        return f"<kaji kernel {self.__qualname__} target={self.target}>"


class DeviceFunction:
    """A @jit(device=True) function: called from kernels, compiled into each caller. Without
    signatures it is specialized on each call's argument types; with them (``@jit("float32(
    float32, float32)", device=True)``), a call converts its scalar arguments to the signature
    its arrays fit and the result to that signature's return type."""

    def __init__(self, func, signatures=()):
        self.py_func = func
        self._signatures = tuple(_core.canonical_signature(s) for s in signatures)
        self._source = function_source(func)
        self._describe_globals = functools.partial(describe_globals, func)
        functools.update_wrapper(self, func)

    def __call__(self, *args, **kwargs):
        raise TypeError(f"device function '{self.__name__}' can only be called from a kaji "
                        "kernel")

    def __repr__(self):
        return f"<kaji device function {self.__qualname__}>"
