"""``@kaji.jit``: kernels, device functions, eager signatures, launch configuration."""

import functools
import sys
import warnings

from kaji import _core
from kaji._backend import add_nvrtc_wheel, check_backend, default_backend
from kaji._bytecode import code_description
from kaji.linking import link_files
from kaji._globals import describe_globals, describe_value
from kaji._target import check_target, default_target
from kaji.types import is_signature, signature_text

_CO_VARARGS = 0x04
_CO_VARKEYWORDS = 0x08


def jit(func_or_sig=None, *, device=False, inline=None, forceinline=False, fastmath=False,
        opt=None, target=None, boundscheck=None, cache=False, lineinfo=False, debug=False,
        launch_bounds=None, max_registers=None, shared_memory_carveout=None, extensions=None,
        backend=None, link=None):
    """Compiles a Python function into a kernel (or, with ``device=True``, a device function
    kernels call).

    ``@jit`` compiles lazily, once per argument-type signature, on first launch;
    ``@jit("void(float32[:], float32)")`` or ``@jit(void(float32[:], float32))`` (kaji.types),
    a tuple of argument types, or a list of signatures, compiles eagerly and then launches only
    with those signatures (a tuple of strings is a list of signatures); a device function's
    signatures fix the types its calls convert to. ``fastmath`` allows LLVM's fast-math
    flags; ``opt`` is True/False or an LLVM optimization level 0-3 (default True). ``target``
    is "cuda" (the GPU) or "cpu" (this process, synchronously); by default cuda when a GPU is
    usable, else cpu, unless the environment variable KAJI_TARGET says otherwise.
    ``boundscheck=True`` makes an out-of-range index raise IndexError (on the cuda target at
    the next synchronize, as a raise with ``debug=True``); by default (None) the cpu target
    checks and the cuda target checks with ``debug=True``, as Numba. ``cache=True`` keeps
    the kernel's PTX on disk (``$KAJI_CACHE_DIR``, else ``$XDG_CACHE_HOME/kaji``, else
    ``~/.cache/kaji``) so later processes skip compiling it;
    the cpu target's machine code is not cached. ``lineinfo=True`` marks each PTX instruction
    with its Python line (``.loc``), so Nsight Compute and compute-sanitizer name the line;
    ``debug=True`` does the same (kaji emits no DWARF variables) and, as in Numba, warns with
    InvalidConfigWarning unless ``opt=False``; with it, ``raise`` and ``assert`` in the kernel
    raise their exception at the next synchronize on the cuda target (without it, as in Numba,
    asserts are not compiled and a raise ends its thread silently; the cpu target always
    raises them, when the launch returns).
    ``backend`` picks what makes the GPU code: "llvm" (LLVM's NVPTX backend, the default) or
    "nvrtc" (kaji's CUDA C++ compiled by NVIDIA's NVRTC, see ``inspect_cuda``); by default
    the environment variable KAJI_BACKEND, else llvm. The cpu target always uses LLVM.

    ``launch_bounds`` (an int, or a tuple of 1 to 3: threads per block, minimum resident
    blocks per SM, maximum blocks per cluster) and ``max_registers`` are promises to ptxas
    (``.maxntid``, ``.minnctapersm``, ``.maxclusterrank``, ``.maxnreg``).
    ``shared_memory_carveout`` ("MaxL1", "MaxShared", "default" or a percentage from -1 to
    100) is the L1/shared split the driver is asked for when the kernel is loaded.
    ``link`` (a path or a list of them: ``.cu``, ``.ptx``, ``.cubin``, ``.fatbin``, ``.o``,
    ``.a``, ``.ltoir``) is device code linked into the kernel on the cuda target, defining the
    CUDA C++ functions it calls (``cuda.declare_device``; kaji/linking.py); LTO-IR is linked
    by nvJitLink.
    ``extensions`` (Numba's argument handlers) must be empty: kaji does not run them. Device functions take any target: they are
    compiled into each caller.

    ``inline="always"`` (or True) and ``forceinline=True`` inline every call of the function
    (LLVM's alwaysinline); ``inline="never"`` keeps every call a call (noinline); by default
    the optimizer decides. They matter where the function is called from a kernel.
    """
    if target is not None:
        check_target(target)
    if backend is not None:
        check_backend(backend)
    opt = True if opt is None else opt
    inlining = _inlining(inline, forceinline)
    if debug and opt:
        warnings.warn("debug=True with opt=True is not supported by CUDA. This may result in a "
                      "crash - set debug=False or opt=False.", InvalidConfigWarning,
                      stacklevel=2)
    options = dict(fastmath=fastmath, opt=opt,
                   lineinfo=bool(lineinfo or debug), cache=bool(cache), debug=bool(debug),
                   launch_bounds=_launch_bounds(launch_bounds),
                   max_registers=_max_registers(max_registers),
                   shared_memory_carveout=_shared_memory_carveout(shared_memory_carveout),
                   extensions=_extensions(extensions))
    if link is not None:
        if device:
            raise ValueError("link= belongs to a kernel (or to cuda.declare_device), not to a "
                             "device function")
        options["link"] = link_files(link, "jit(link=...)")

    def decorate(func, signatures=()):
        if device:
            return DeviceFunction(func, signatures, inlining)
        kernel_target = target if target is not None else default_target()
        kernel = Kernel(func, target=kernel_target, inlining=inlining,
                        boundscheck=None if boundscheck is None else bool(boundscheck),
                        backend=backend if backend is not None else default_backend(), **options)
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


class InvalidConfigWarning(UserWarning):
    """Options that do not go together (Numba's NumbaInvalidConfigWarning)."""


def _block_threads(blockdim):
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
    extensions = list(extensions or ())
    if extensions:
        raise NotImplementedError("kaji does not support Numba's argument extensions "
                                  "(extensions=) yet; convert the arguments before the launch "
                                  "instead")
    return extensions


def check_python_function(func, api="kaji.jit"):
    """TypeError naming `api` and what `func` is unless it is a Python function (a def or a
    lambda): only those have the code and globals the compiler reads. A functools.partial,
    a builtin, a class or a bound method has neither."""
    import inspect

    if not inspect.isfunction(func):
        hint = (": bind the fixed arguments in a def (or pass them as arguments) instead"
                if isinstance(func, functools.partial) else "")
        raise TypeError(f"{api} compiles Python functions (a def or a lambda), not "
                        f"{func!r}{hint}")


def function_source(func):
    """The function's dedented source, where it sits in its file, for the compiler."""
    import inspect

    check_python_function(func)
    code = func.__code__
    if code.co_flags & (_CO_VARARGS | _CO_VARKEYWORDS) or code.co_kwonlyargcount:
        raise TypeError(f"kernel '{func.__name__}' must take plain positional parameters "
                        "(no *args, **kwargs or keyword-only parameters)")
    try:
        lines, first_line = inspect.getsourcelines(func)
    except (OSError, TypeError):
        # No source text (exec(), `python -c`, the REPL): the compiler translates the
        # bytecode (docs/python.md, "Kernels without source text").
        return _core.FunctionSource.from_code(code_description(func))
    if func.__name__ == "<lambda>":
        return _lambda_source(func, lines, first_line)
    indent = min(len(line) - len(line.lstrip()) for line in lines if line.strip())
    text = "".join(line[indent:] if line.strip() else "\n" for line in lines)
    return _core.FunctionSource(text, code.co_filename, first_line, indent, func.__name__)


def _lambda_source(func, lines, first_line):
    """A one-line lambda (``cuda.reduce(lambda a, b: a + b)``) as the source of a def whose
    return expression maps back onto the lambda body's own line and column, so that
    diagnostics point into the user's line."""
    code = func.__code__
    parameters = list(code.co_varnames[: code.co_argcount])
    line = lines[0].rstrip("\n")
    found = [lambda_node for start in range(len(line)) if line.startswith("lambda", start)
             for lambda_node in [_longest_lambda(line, start, parameters)] if lambda_node]
    if len(found) != 1:
        # Its text is not one lambda of its own on the line (two lambdas of the same
        # parameters, a lambda over several lines): compiled from its bytecode, as Numba
        # compiles every function, with diagnostics at the code's own lines.
        return _core.FunctionSource.from_code(code_description(func))
    start, body = found[0]
    body_text = line[start:].encode()[body.col_offset:body.end_col_offset].decode()
    column = start + len(line[start:].encode()[:body.col_offset].decode())
    prefix = "    return "
    text = f"def _lambda({', '.join(parameters)}):\n{prefix}{body_text}\n"
    # The return line is the lambda's line; the column offset moves the body onto its own
    # column (no diagnostic points into the header line).
    return _core.FunctionSource(text, code.co_filename, first_line - 1,
                                max(0, column - len(prefix)), "_lambda")


def _longest_lambda(line, start, parameters):
    """(start, body) of the longest text from `start` of `line` that is a lambda of
    `parameters`, or None."""
    import ast

    for end in range(len(line), start, -1):
        try:
            node = ast.parse(line[start:end], mode="eval").body
        except SyntaxError:
            continue
        if isinstance(node, ast.Lambda) and [a.arg for a in node.args.args] == parameters:
            return start, node.body
    return None


def _parameters(func):
    code = func.__code__
    return list(code.co_varnames[: code.co_argcount])


_SHOWN_NAMES = ("__module__", "__name__", "__qualname__", "__doc__")


class Definition:
    """What a kernel or device function is compiled from: its source, parameter names and
    globals description, with the names Python shows it by. It pickles as just that (never
    compiled code), so an unpickled kernel compiles where it lands; the Python function it
    came from (``py_func``) stays behind."""

    def __init__(self, source, parameters, describe_globals, names, py_func=None):
        self.source = source
        self.parameters = parameters
        self.describe_globals = describe_globals
        self.names = names
        self.py_func = py_func

    @classmethod
    def of(cls, func):
        source = function_source(func)  # first: it says what is wrong with a non-function
        names = {name: getattr(func, name) for name in _SHOWN_NAMES}
        return cls(source, _parameters(func), functools.partial(describe_globals, func), names,
                   func)

    @classmethod
    def take(cls, wrapper, func):
        """The definition of `func` (a Python function, or an unpickled Definition), kept in
        `wrapper`, the kernel or device function made from it."""
        definition = func if isinstance(func, cls) else cls.of(func)
        wrapper._definition = definition
        wrapper.py_func = definition.py_func
        wrapper._source = definition.source
        wrapper._describe_globals = definition.describe_globals
        return definition

    def show_as(self, wrapper):
        """Gives `wrapper` (the kernel or device function) this definition's names."""
        if self.py_func is not None:
            functools.update_wrapper(wrapper, self.py_func)
        else:
            for name, value in self.names.items():
                setattr(wrapper, name, value)

    def __reduce__(self):
        return (Definition, (self.source, self.parameters, self._pickled_globals(), self.names))

    def _pickled_globals(self):
        if isinstance(self.describe_globals, PickledGlobals):
            return self.describe_globals
        return PickledGlobals(describe_globals(self.py_func, keep_jit_functions=True))


class PickledGlobals:
    """The globals description of a pickled kernel or device function, as it was when it was
    pickled: data only (constants, array contents, module and builtin names), with each @jit
    function it names pickled (by its own Definition) in place of that function's
    description. Globals a kernel cannot use are not in it, so they are never pickled."""

    def __init__(self, entries):
        self.entries = entries

    def __call__(self):
        return {name: describe_value(name, value) if isinstance(value, (Kernel, DeviceFunction))
                else value for name, value in self.entries.items()}

    def __reduce__(self):
        return (PickledGlobals, (self.entries,))


_MISSING_LAUNCH_CONFIG = """
Kernel launch configuration was not specified. Use the syntax:

kernel_function[blockspergrid, threadsperblock](arg0, arg1, ..., argn)

See https://numba.readthedocs.io/en/stable/cuda/kernels.html#kernel-invocation for help.

"""


class Kernel(_core.Dispatcher):
    """A @jit kernel. Launch it with ``kernel[griddim, blockdim](*args)`` or
    ``kernel[griddim, blockdim, stream, sharedmem](*args)``."""

    def __init__(self, func, fastmath=False, opt=True, target="cuda", boundscheck=None,
                 cache=False, lineinfo=False, debug=False, launch_bounds=(0, 0, 0),
                 max_registers=0, shared_memory_carveout=None, extensions=(), backend="llvm",
                 inlining="default", link=()):
        if backend == "nvrtc":
            add_nvrtc_wheel()
        definition = Definition.take(self, func)
        self._options = dict(fastmath=fastmath, opt=opt, target=target, boundscheck=boundscheck,
                             cache=cache, lineinfo=lineinfo, debug=debug,
                             launch_bounds=launch_bounds, max_registers=max_registers,
                             shared_memory_carveout=shared_memory_carveout,
                             extensions=extensions, backend=backend, inlining=inlining,
                             link=link)
        self._inlining = inlining
        self._eager_signatures = []
        self._specializations = {}
        self._specialized = False
        super().__init__(self._source, self._describe_globals, definition.parameters,
                         fast_math=fastmath, opt=opt, target=target,
                         bounds_check=boundscheck, cache=cache, lineinfo=lineinfo, debug=debug,
                         launch_bounds=launch_bounds, max_registers=max_registers,
                         shared_memory_carveout=shared_memory_carveout, backend=backend,
                         link=list(link))
        definition.show_as(self)

    def add_signature(self, signature):
        """Compiles for `signature` now; launches then take only the signatures given so."""
        text = signature_text(signature)
        super().add_signature(text)
        self._eager_signatures.append(text)

    def __reduce__(self):
        # The eager signatures compile again when it is unpickled, as when it was decorated;
        # the lazily compiled ones on their first launch there.
        return (_unpickle_kernel, (self._definition, self._options, tuple(self._eager_signatures)))

    def __call__(self, *args):
        raise ValueError(_MISSING_LAUNCH_CONFIG)

    @property
    def targetoptions(self):
        """The options the kernel was compiled with (Numba's ``targetoptions``)."""
        return dict(self._options)

    @property
    def lineinfo(self):
        """Whether the PTX carries the Python line of each instruction."""
        return self._options["lineinfo"]

    @property
    def extensions(self):
        return list(self._options["extensions"])

    @property
    def specialized(self):
        """Whether this kernel was made by specialize(): it launches only with its signature."""
        return self._specialized

    @property
    def specializations(self):
        """{signature: kernel} for every specialize() call so far."""
        return dict(self._specializations)

    @property
    def overloads(self):
        """{signature: Overload} for every signature compiled so far."""
        return {signature: Overload(self, signature) for signature in self.signatures}

    def specialize(self, *args):
        """A kernel compiled for the types of `args` only (Numba's ``specialize``): it
        launches without looking the types up, and converts scalars as an eager signature
        does. Specializations are cached by signature."""
        if self._specialized:
            raise RuntimeError("Dispatcher already specialized")
        signature = self.signature_for(args)
        kernel = self._specializations.get(signature)
        if kernel is None:
            kernel = Kernel(self._definition, **self._options)
            kernel.add_signature(signature)
            kernel._specialized = True
            self._specializations[signature] = kernel
        return kernel

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
        return self._each_signature(signature, lambda sig: self.inspect(sig, "ir"))

    def inspect_llvm(self, signature=None):
        """LLVM IR for `signature` (NVPTX for cuda, this machine's for cpu), or
        {signature: LLVM IR} for every compiled one."""
        return self._each_signature(signature, lambda sig: self.inspect(sig, "llvm"))

    def inspect_ptx(self, signature=None):
        """PTX for `signature`, or {signature: PTX} for every compiled one; on the cpu target,
        the PTX the kernel would run as on a GPU (no GPU needed either way)."""
        return self._each_signature(signature, lambda sig: self.inspect(sig, "ptx"))

    def inspect_cuda(self, signature=None):
        """The CUDA C++ the nvrtc backend compiles for `signature` (whatever this kernel's
        backend and target), or {signature: CUDA C++} for every compiled one. It includes
        kaji's prelude, ``kaji_prelude.cuh`` (codegen/cuda/src in the source tree)."""
        return self._each_signature(signature, lambda sig: self.inspect(sig, "cuda"))

    inspect_asm = inspect_ptx

    def inspect_sass(self, signature=None):
        """SASS for `signature`, or {signature: SASS} for every compiled one: the PTX assembled
        by ptxas and disassembled by the CUDA toolkit's nvdisasm (or cuobjdump); RuntimeError
        naming the missing program without the toolkit."""
        return self._each_signature(signature, self.sass)

    def inspect_types(self, file=None):
        """Prints the typed kaji IR of every compiled signature (Numba prints its typed
        Python; kaji's types live in its IR) to `file`, by default standard output."""
        file = sys.stdout if file is None else file
        for signature in self.signatures:
            print(f"{self.__name__} {signature}", file=file)
            print("-" * 80, file=file)
            print(self.inspect(signature, "ir"), file=file)
            print("=" * 80, file=file)

    def get_regs_per_thread(self, signature=None):
        """Registers per thread of the kernel for `signature`, or {signature: count}."""
        return self._resource(signature, "regs_per_thread")

    def get_shared_mem_per_block(self, signature=None):
        """Static shared memory per block, in bytes (or {signature: bytes})."""
        return self._resource(signature, "shared_mem_per_block")

    def get_local_mem_per_thread(self, signature=None):
        """Local memory (the stack frame) per thread, in bytes (or {signature: bytes})."""
        return self._resource(signature, "local_mem_per_thread")

    def get_const_mem_size(self, signature=None):
        """Constant memory the kernel declares, in bytes (or {signature: bytes})."""
        return self._resource(signature, "const_mem_size")

    def get_max_threads_per_block(self, signature=None):
        """The largest block the kernel launches with (or {signature: threads})."""
        return self._resource(signature, "max_threads_per_block")

    def max_cooperative_grid_blocks(self, blockdim, dynsmemsize=0, signature=None):
        """The most blocks a cooperative launch (a kernel that synchronizes its grid with
        ``cuda.cg``) may have with blocks of `blockdim` (an int or a tuple) and `dynsmemsize`
        bytes of dynamic shared memory, on the current device; for `signature`, which a
        kernel with one signature may leave out."""
        if signature is None:
            if len(self.signatures) != 1:
                raise TypeError(f"kernel '{self.__qualname__}' has {len(self.signatures)} "
                                "signatures: name the one to ask about")
            signature = self.signatures[0]
        return super().max_cooperative_grid_blocks(signature_text(signature),
                                                   _block_threads(blockdim), dynsmemsize)

    def _resource(self, signature, name):
        return self._each_signature(signature, lambda sig: self.resource_usage(sig)[name])

    def _each_signature(self, signature, query):
        if signature is None:
            return {sig: query(sig) for sig in self.signatures}
        return query(signature_text(signature))

    def __repr__(self):
        return (f"<kaji kernel {self.__qualname__} target={self.target} "
                f"backend={self.backend}>")


class Overload:
    """One compiled signature of a kernel (the values of ``kernel.overloads``): Numba's
    per-signature queries without the signature argument."""

    def __init__(self, kernel, signature):
        self.kernel = kernel
        self.signature = signature

    def inspect_asm(self):
        return self.kernel.inspect_asm(self.signature)

    def inspect_llvm(self):
        return self.kernel.inspect_llvm(self.signature)

    def inspect_sass(self):
        return self.kernel.inspect_sass(self.signature)

    def max_cooperative_grid_blocks(self, blockdim, dynsmemsize=0):
        return self.kernel.max_cooperative_grid_blocks(blockdim, dynsmemsize, self.signature)

    def __repr__(self):
        return f"<kaji overload {self.kernel.__qualname__}{self.signature}>"


# Numba's _Kernel has these as properties: kernel.overloads[sig].regs_per_thread.
def _overload_resource(name):
    return property(lambda overload: getattr(overload.kernel, f"get_{name}")(overload.signature),
                    doc=f"The kernel's {name.replace('_', ' ')} for this signature.")


for _name in ("regs_per_thread", "shared_mem_per_block", "local_mem_per_thread",
              "const_mem_size", "max_threads_per_block"):
    setattr(Overload, _name, _overload_resource(_name))
del _name


class DeviceFunction:
    """A @jit(device=True) function: called from kernels, compiled into each caller. Without
    signatures it is specialized on each call's argument types; with them (``@jit("float32(
    float32, float32)", device=True)``), a call converts its scalar arguments to the signature
    its arrays fit and the result to that signature's return type."""

    def __init__(self, func, signatures=(), inlining="default"):
        Definition.take(self, func).show_as(self)
        self._signatures = tuple(_core.canonical_signature(s) for s in signatures)
        self._inlining = inlining

    def __reduce__(self):
        return (DeviceFunction, (self._definition, self._signatures, self._inlining))

    def __call__(self, *args, **kwargs):
        raise TypeError(f"device function '{self.__name__}' can only be called from a kaji "
                        "kernel")

    def __getitem__(self, config):
        raise RuntimeError(f"Cannot compile a device function as a kernel: "
                           f"'{self.__name__}' was decorated with device=True")

    def __repr__(self):
        return f"<kaji device function {self.__qualname__}>"


def _unpickle_kernel(definition, options, signatures):
    kernel = Kernel(definition, **options)
    for signature in signatures:
        kernel.add_signature(signature)
    return kernel
