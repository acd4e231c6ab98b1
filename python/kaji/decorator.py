"""``@kaji.jit`` and what it makes: a Kernel (launched from Python, one Overload per compiled
signature) or a DeviceFunction (called from kernels)."""

import os
import re
import sys
import types
import warnings

from kaji import _core, _globals
from kaji._arch import current_or_default_cc
from kaji._backend import add_nvrtc_wheel
from kaji._definition import Definition
from kaji._jit_options import JitOptions, block_threads
from kaji.linking import link_paths
from kaji.types import (Signature, as_type, from_text, is_signature, is_type_object,
                        signature_text, typeof)


def jit(func_or_sig=None, *, device=False, inline=None, forceinline=False, fastmath=False,
        opt=None, target=None, boundscheck=None, cache=False, lineinfo=False, debug=None,
        launch_bounds=None, max_registers=None, shared_memory_carveout=None, extensions=None,
        backend=None, link=None, lto=None):
    """Compiles a Python function into a kernel (or, with ``device=True``, a device function
    kernels call).

    ``@jit`` compiles lazily, once per argument-type signature, on first launch;
    ``@jit("void(float32[:], float32)")`` or ``@jit(void(float32[:], float32))`` (kaji.types),
    a tuple of argument types, or a list of signatures, compiles eagerly and then launches only
    with those signatures (a tuple of strings is a list of signatures); a device function's
    signatures fix the types its calls convert to. ``fastmath`` allows LLVM's fast-math
    flags; ``opt`` is True/False or an LLVM optimization level 0-3 (by default (None) True,
    unless ``kaji.cuda.config.OPT`` or $NUMBA_OPT is 0). ``target``
    is "cuda" (the GPU) or "cpu" (this process, synchronously); by default cuda when a GPU is
    usable, else cpu, unless the environment variable KAJI_TARGET says otherwise.
    ``boundscheck=True`` makes an out-of-range index raise IndexError (on the cuda target at
    the next synchronize, as a raise with ``debug=True``); by default (None) the cpu target
    checks and the cuda target checks with ``debug=True``, as Numba. ``cache=True`` keeps
    the kernel's PTX on disk (``$KAJI_CACHE_DIR``, else ``$XDG_CACHE_HOME/kaji``, else
    ``~/.cache/kaji``) so later processes skip compiling it;
    the cpu target's machine code is not cached. ``lineinfo=True`` marks each PTX instruction
    with its Python line (``.loc``), so Nsight Compute and compute-sanitizer name the line;
    ``debug=True`` does the same, with the lines as DWARF line tables for cuda-gdb too (the
    LLVM backend's; no DWARF variables; by default (None) debug is
    ``kaji.cuda.config.CUDA_DEBUGINFO_DEFAULT``, from $NUMBA_CUDA_DEBUGINFO) and, as in Numba, warns with
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
    ``.a``, ``.ltoir``, or code in memory: ``cuda.CUSource(text)``, ``PTXSource``, ...) is
    device code linked into the kernel on the cuda target, defining the CUDA C++ functions it
    calls (``cuda.declare_device``; kaji/linking.py); LTO-IR is linked by nvJitLink.
    ``lto=True`` compiles the kernel to LTO-IR (with the nvrtc backend, which it picks;
    ``backend="llvm"`` with it is a ValueError) and links it with the LTO-IR of its ``link``
    files (``.cu`` compiled with -dlto, ``.ltoir``) by nvJitLink, which optimises them together:
    calls into the linked CUDA C++ are inlined. ``inspect_lto_ptx`` shows the result. It needs
    nvJitLink (RuntimeError naming where it was looked for otherwise). By default (None) it is
    off: kaji's own code needs no LTO (docs/python.md, "Link-time optimisation").
    ``extensions`` (Numba's argument handlers) are objects with a ``prepare_args(ty, val,
    stream=, retr=)`` method, which each argument of a launch passes through (the last
    extension first) as in Numba; ``kernel.extensions`` is the list, which may be appended to.
    Device functions take any target: they are compiled into each caller.

    ``inline="always"`` (or True) and ``forceinline=True`` inline every call of the function
    (LLVM's alwaysinline); ``inline="never"`` keeps every call a call (noinline); by default
    the optimizer decides. They matter where the function is called from a kernel.
    """
    options = JitOptions.check(
        device=device, inline=inline, forceinline=forceinline, fastmath=fastmath, opt=opt,
        target=target, boundscheck=boundscheck, cache=cache, lineinfo=lineinfo, debug=debug,
        launch_bounds=launch_bounds, max_registers=max_registers,
        shared_memory_carveout=shared_memory_carveout, extensions=extensions, backend=backend,
        link=link, lto=lto)

    def decorate(func, signatures=(), specialized=False):
        if device:
            return DeviceFunction(func, signatures, options.inlining, options)
        kernel = Kernel(func, options.with_defaults())
        for signature in signatures:
            kernel.add_signature(signature)
        kernel._specialized = specialized
        return kernel

    if func_or_sig is None:
        return decorate
    if is_signature(func_or_sig):
        # One signature, not a list of them, specializes the kernel, as in Numba.
        signatures = (signature_text(func_or_sig, result_inferred=device),)
        return lambda func: decorate(func, signatures, specialized=True)
    if isinstance(func_or_sig, (list, tuple)):
        signatures = tuple(signature_text(signature, result_inferred=device)
                           for signature in func_or_sig)
        return lambda func: decorate(func, signatures)
    if callable(func_or_sig):
        return decorate(func_or_sig)
    raise TypeError("jit takes a function, a signature such as 'void(float32[:], float32)' or "
                    "void(float32[:], float32), or a list of them; not "
                    f"{type(func_or_sig).__name__}")


_MISSING_LAUNCH_CONFIG = """
Kernel launch configuration was not specified. Use the syntax:

kernel_function[blockspergrid, threadsperblock](arg0, arg1, ..., argn)

See https://numba.readthedocs.io/en/stable/cuda/kernels.html#kernel-invocation for help.

"""


class Kernel(_core.Dispatcher):
    """A @jit kernel. Launch it with ``kernel[griddim, blockdim](*args)`` or
    ``kernel[griddim, blockdim, stream, sharedmem](*args)``."""

    def __init__(self, func, options):
        """The kernel of `func` (a Python function, or an unpickled Definition) compiled by
        `options`, a JitOptions that names its target and backend."""
        if options.backend == "nvrtc":
            add_nvrtc_wheel()
        definition = Definition.take(self, func)
        self._options = options
        self._eager_signatures = []
        self._specializations = {}
        self._specialized = False
        super().__init__(self._source, self._describe_globals, definition.parameters,
                         fast_math=options.fastmath, opt=options.opt, target=options.target,
                         bounds_check=options.boundscheck, cache=options.cache,
                         lineinfo=options.lineinfo, debug=options.debug,
                         launch_bounds=options.launch_bounds,
                         max_registers=options.max_registers,
                         shared_memory_carveout=options.shared_memory_carveout,
                         backend=options.backend, link=link_paths(options.link),
                         lto=options.lto)
        self.extensions.extend(options.extensions)
        definition.show_as(self)

    def _prepare_arguments(self, args, stream, retr):
        """`args` passed each through the extensions, the last first, as Numba's launch does:
        ``prepare_args(ty, val, stream=, retr=)`` takes the argument's type (kaji.types, None
        for a value kaji cannot type) and value and gives the pair the next one takes; the
        launch takes the values, then calls what the extensions appended to `retr`."""
        prepared = []
        for value in args:
            try:
                argument_type = typeof(value)
            except TypeError:
                argument_type = None
            for extension in reversed(self.extensions):
                argument_type, value = extension.prepare_args(argument_type, value,
                                                              stream=stream, retr=retr)
            prepared.append(value)
        return tuple(prepared)

    def compile(self, signature):
        """Compiles for `signature` now, as Numba's ``kernel.compile(sig)``: errors in the
        kernel surface here, and launches with those argument types start at once; launches
        with other types still compile for them."""
        self.compile_signature(signature_text(signature))

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

    def _kaji_describe_global_(self, pickling=False):
        """Its entry in the globals description of a function that names it
        (kaji/_globals.py); when pickling, the kernel itself, which pickles by its
        definition."""
        if pickling:
            return self
        return self._definition.function_entry(device=False, signatures=(),
                                               inlining=self._options.inlining)

    @property
    def targetoptions(self):
        """The options the kernel was compiled with (Numba's ``targetoptions``)."""
        return self._options._asdict()

    @property
    def lineinfo(self):
        """Whether the PTX carries the Python line of each instruction."""
        return self._options.lineinfo

    @property
    def specialized(self):
        """Whether this kernel has one signature for good, as Numba's: made by specialize()
        or by ``@jit`` with one signature (not a list). Then the resource queries
        (``get_regs_per_thread()``, ...) answer for it without a signature."""
        return self._specialized

    @property
    def specializations(self):
        """{signature: kernel} for every specialize() call so far."""
        return dict(self._specializations)

    @property
    def overloads(self):
        """{signature: Overload} for every signature compiled so far; also looked up by
        Numba's key, the tuple of argument types (``overloads[(int32[:, ::1],)]``)."""
        return BySignature((signature, Overload(self, signature)) for signature in self.signatures)

    def specialize(self, *args):
        """A kernel compiled for the types of `args` only (Numba's ``specialize``): it
        launches without looking the types up, and converts scalars as an eager signature
        does. Specializations are cached by signature. `args` may also be the argument types
        themselves, type objects (``specialize(float32[::1])``), as Numba takes them."""
        if self._specialized:
            raise RuntimeError("Dispatcher already specialized")
        given_types = [is_type_object(arg) for arg in args]
        if args and all(given_types):
            signature = _core.canonical_signature(signature_text(args))
        elif any(given_types):
            raise TypeError("specialize() takes the arguments' values or their types (type "
                            "objects such as float32[::1]), not both")
        else:
            signature = self.signature_for(args)
        kernel = self._specializations.get(signature)
        if kernel is None:
            kernel = Kernel(self._definition, self._options)
            kernel.add_signature(signature)
            kernel._specialized = True
            self._specializations[signature] = kernel
        return kernel

    def forall(self, ntasks, tpb=0, stream=0, sharedmem=0):
        """Numba's ``kernel.forall(ntasks)(*args)``: a launch of at least `ntasks` threads in
        blocks of `tpb` threads, by default the size the occupancy API picks for the kernel
        specialized on the call's arguments."""
        if not isinstance(ntasks, int) or isinstance(ntasks, bool):
            raise ValueError(f"forall needs a non-negative int of tasks, not {ntasks!r}")
        if ntasks < 0:
            raise ValueError(f"Can't create ForAll with negative task count: {ntasks}")
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
        kaji's prelude, ``kaji_prelude.cuh`` (codegen/nvrtc/src in the source tree)."""
        return self._each_signature(signature, lambda sig: self.inspect(sig, "cuda"))

    inspect_asm = inspect_ptx

    def inspect_lto_ptx(self, signature=None):
        """The PTX of the kernel (made with ``lto=True``) for `signature` after link-time
        optimisation with its ``link`` files, or {signature: PTX} for every compiled one: its
        LTO-IR and theirs linked and optimised together by nvJitLink, as it runs. Files that
        are not LTO-IR (``.ptx``, ``.cubin``, ...) cannot join and are left out, with a
        warning. RuntimeError "LTO is not enabled" without ``lto=True``, as Numba."""
        return self._each_signature(signature, self._lto_ptx)

    def _lto_ptx(self, signature):
        ptx, not_lto_ir = self.lto_ptx(signature)
        for path in not_lto_ir:
            warnings.warn(f"Not adding {os.path.basename(path)} to the PTX after link-time "
                          "optimisation as it is not optimizable at link time (it is not "
                          "LTO-IR); the kernel is linked with it after the optimisation",
                          stacklevel=3)
        return ptx

    def inspect_sass(self, signature=None):
        """SASS for `signature`, or {signature: SASS} for every compiled one: the PTX assembled
        by ptxas and disassembled by the CUDA toolkit's nvdisasm (or cuobjdump); RuntimeError
        naming the missing program without the toolkit."""
        return self._each_signature(signature, self.sass)

    def variable_types(self, signature=None):
        """{name: type object} of the kernel's variables, its parameters among them, for
        `signature` (a name rebound to another type where no read sees both is a variable of
        its own, `name.1`, as Numba's SSA versions), or {signature: {...}} for every compiled
        one."""
        return self._each_signature(
            signature, lambda sig: {name: from_text(text) for name, text in self.local_types(sig)})

    def inspect_types(self, file=None):
        """Prints, for every compiled signature, the type of each variable of the kernel and
        its typed kaji IR (Numba prints its typed Python) to `file`, by default standard
        output."""
        file = sys.stdout if file is None else file
        for signature in self.signatures:
            print(f"{self.__name__} {signature}", file=file)
            print("-" * 80, file=file)
            for name, text in self.local_types(signature):
                print(f"{name}: {text}", file=file)
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
                                                   block_threads(blockdim), dynsmemsize)

    def _resource(self, signature, name):
        if signature is None and self._specialized:
            signature = self.signatures[0]
        return self._each_signature(signature, lambda sig: self.resource_usage(sig)[name])

    def _each_signature(self, signature, query):
        if signature is None:
            return BySignature((sig, query(sig)) for sig in self.signatures)
        return query(signature_text(signature))

    def __repr__(self):
        return (f"<kaji kernel {self.__qualname__} target={self.target} "
                f"backend={self.backend}>")


class BySignature(dict):
    """A kernel's overloads, PTX, ... by signature text, as kaji spells it
    (``"void(int32[:, ::1])"``); another spelling of the same signature (``"void(int32[:,
    ::1])"``, ``boolean`` for ``bool``) or a tuple of argument types, Numba's key, finds the
    same one."""

    @staticmethod
    def _signature_of(key):
        if isinstance(key, tuple):
            text = "void(" + ", ".join(str(t) for t in key) + ")"
        elif isinstance(key, str):
            text = key
        else:
            return key
        try:
            return _core.canonical_signature(text)
        except _core.CompileError:
            return key  # no types: found nowhere, a KeyError naming the key

    def __getitem__(self, key):
        return super().__getitem__(self._signature_of(key))

    def __contains__(self, key):
        return super().__contains__(self._signature_of(key))

    def get(self, key, default=None):
        return super().get(self._signature_of(key), default)


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

    def inspect_lto_ptx(self):
        return self.kernel.inspect_lto_ptx(self.signature)

    def max_cooperative_grid_blocks(self, blockdim, dynsmemsize=0):
        return self.kernel.max_cooperative_grid_blocks(blockdim, dynsmemsize, self.signature)

    @property
    def _type_annotation(self):
        """Numba's typing of this signature as far as its tests read it: ``.typemap``, the
        type of each variable by name (Kernel.variable_types)."""
        return types.SimpleNamespace(typemap=self.kernel.variable_types(self.signature))

    @property
    def cooperative(self):
        """Whether the kernel synchronizes its grid (``g.sync()`` of ``cuda.cg.this_grid()``),
        and so is launched cooperatively (cuLaunchCooperativeKernel)."""
        return self.kernel.is_cooperative(self.signature)

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

    def __init__(self, func, signatures=(), inlining="default", options=None):
        Definition.take(self, func).show_as(self)
        self._signatures = tuple(_core.canonical_signature(s) for s in signatures)
        self._inlining = inlining
        # The jit options it was decorated with: what compiling it on its own (inspect_asm)
        # uses; in a kernel, the kernel's options apply.
        self._options = options

    def __reduce__(self):
        return (DeviceFunction,
                (self._definition, self._signatures, self._inlining, self._options))

    def _code(self, signature, stage):
        if signature is None:
            return {sig: self._compiled(sig, stage)[0] for sig in self._signatures}
        return self._compiled(signature, stage)[0]

    def _compiled(self, signature, stage):
        """(code at `stage`, return type) of the function compiled on its own for `signature`
        by Numba's ABI, for the current device (else cc 7.5)."""
        options = self._options
        compile_options = {} if options is None else dict(
            debug=options.debug, lineinfo=options.lineinfo, fastmath=options.fastmath,
            opt=options.opt, backend=options.backend)
        arch = "sm_{}{}".format(*current_or_default_cc())
        return device_function_code(self._definition, signature, compile_options, "numba",
                                    None, arch, stage)

    def compile_device(self, args, return_type=None):
        """Compiles the function on its own for the argument types `args` (Numba's
        ``compile_device``; its errors raise here) and gives Numba's CompileResult's
        ``signature`` and ``fndesc.mangled_name``: the symbol the function has in
        ``inspect_asm(args)`` and ``inspect_llvm(args)``."""
        args = tuple(args)
        signature = args if return_type is None else return_type(*args)
        _, returned = self._compiled(signature, "ptx")
        return DeviceCompileResult(Signature(returned, tuple(as_type(a) for a in args)),
                                   device_symbol(self.__name__))

    def inspect_ptx(self, signature=None):
        """The PTX of the function compiled on its own for `signature` (or {signature: PTX}
        for each of its signatures), by Numba's ABI, for the current device (else cc 7.5);
        calls from kernels compile it into the kernel instead."""
        return self._code(signature, "ptx")

    inspect_asm = inspect_ptx

    def inspect_llvm(self, signature=None):
        """inspect_ptx()'s LLVM IR."""
        return self._code(signature, "llvm")

    def inspect_sass(self, signature=None):
        raise RuntimeError(f"Cannot inspect SASS of a device function: '{self.__name__}' is "
                           "compiled into each kernel that calls it; inspect the kernel's")

    def _kaji_describe_global_(self, pickling=False):
        """Its entry in the globals description of a function that names it
        (kaji/_globals.py); when pickling, the device function itself, which pickles by its
        definition."""
        if pickling:
            return self
        return self._definition.function_entry(device=True, signatures=self._signatures,
                                               inlining=self._inlining)

    def __call__(self, *args, **kwargs):
        raise TypeError(f"device function '{self.__name__}' can only be called from a kaji "
                        "kernel")

    def __getitem__(self, config):
        raise RuntimeError(f"Cannot compile a device function as a kernel: "
                           f"'{self.__name__}' was decorated with device=True")

    def __repr__(self):
        return f"<kaji device function {self.__qualname__}>"


def device_symbol(name):
    """The symbol of a device function compiled on its own: its Python name made a PTX
    identifier ("<lambda>": "_lambda_")."""
    return re.sub(r"[^A-Za-z0-9_$]", "_", name)


class DeviceCompileResult:
    """What ``compile_device`` gives: Numba's CompileResult's ``signature`` and
    ``fndesc.mangled_name``."""

    def __init__(self, signature, mangled_name):
        self.signature = signature
        self.fndesc = types.SimpleNamespace(mangled_name=mangled_name)

    def __repr__(self):
        return f"<kaji device compile result {self.fndesc.mangled_name} {self.signature}>"


def device_function_code(func, sig, options, abi, abi_info, arch, stage="ptx"):
    """(code at `stage`, return type) of `func` (a Python function or a kaji Definition)
    compiled for `arch` as a device function on its own by jit `options`, for `sig`: a
    signature, whose return type the result converts to, or a tuple of argument types, when
    it returns what it computes."""
    signature = signature_text(sig)
    result_declared = not isinstance(sig, tuple) and (
        not isinstance(sig, str) or "->" in sig or not sig.lstrip().startswith("("))
    handle = jit(target="cuda", **options)(func)  # a kernel object, never compiled as one
    symbol = (abi_info or {}).get("abi_name") if abi == "c" else None
    if symbol is None:
        symbol = device_symbol(handle.__name__)
    elif not re.fullmatch(r"[A-Za-z_$][A-Za-z0-9_$]*", symbol):
        raise ValueError(f"abi_name {symbol!r} is not a PTX identifier (letters, digits, _ "
                         "and $, not starting with a digit)")
    code, result = handle.export_device_function(signature, result_declared, symbol, abi, stage,
                                                 arch)
    return code, from_text(result)


# Numba's CPU dispatchers (`@numba.jit` functions) called from kernels: Numba compiles their
# Python function for the GPU as well (its documentation's cpu_gpu_compat and montecarlo
# examples), so kaji makes a device function of it, once per dispatcher.
_NUMBA_FUNCTIONS = {}


def _numba_dispatcher_as_device_function(value):
    module = type(value).__module__
    func = getattr(value, "py_func", None)
    if not (module == "numba" or module.startswith("numba.")) or not callable(func) or \
            isinstance(value, type):
        return None
    device = _NUMBA_FUNCTIONS.get(id(value))
    if device is None or device[0] is not value:
        device = (value, DeviceFunction(func))
        _NUMBA_FUNCTIONS[id(value)] = device
    return device[1]


_globals.FOREIGN_FUNCTIONS.append(_numba_dispatcher_as_device_function)


def _unpickle_kernel(definition, options, signatures):
    kernel = Kernel(definition, options)
    for signature in signatures:
        kernel.add_signature(signature)
    return kernel
