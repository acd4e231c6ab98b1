"""Numba's compile functions (``cuda.compile``, ``compile_ptx``, ...): the PTX or LTO-IR of a
kernel or a device function for one signature and compute capability, made without a GPU and
without launching anything."""

import re

from kaji.decorator import jit
from kaji.types import from_text, none, signature_text

# Numba's default is the lowest compute capability its NVRTC supports; CUDA 13's is 7.5.
DEFAULT_CC = (7, 5)


def compile(pyfunc, sig, debug=None, lineinfo=False, device=True, fastmath=False, cc=None,
            opt=None, abi="c", abi_info=None, output="ptx", forceinline=False,
            launch_bounds=None):
    """(code, return type) of `pyfunc` for `sig` (a signature or a tuple of argument types) and
    compute capability `cc` ((major, minor), default (7, 5)), as Numba's ``numba.cuda.compile``:
    a device function (``device=True``) that code linked with it calls by the C ABI
    (``abi="c"``: ``RESULT name(ARGS)``, named ``abi_info["abi_name"]`` or the function's
    name) or Numba's (``abi="numba"``: ``int name(RESULT *, ARGS)`` returning 0), or a kernel.
    The code is PTX (``output="ptx"``) or LTO-IR (``"ltoir"``: bytes, made by the nvrtc
    backend, for nvJitLink)."""
    if output not in ("ptx", "ltoir"):
        raise NotImplementedError(f"Unsupported output type: {output}")
    if abi not in ("numba", "c"):
        raise NotImplementedError(f"Unsupported ABI: {abi}")
    major, minor = DEFAULT_CC if cc is None else cc
    if device:
        options = dict(debug=bool(debug), lineinfo=lineinfo, fastmath=fastmath, opt=opt,
                       backend="nvrtc" if output == "ltoir" else None)
        return device_function_code(pyfunc, sig, options, abi, abi_info, f"sm_{major}{minor}",
                                    output)
    if abi == "c":
        raise NotImplementedError("The C ABI is not supported for kernels")
    if forceinline:
        raise ValueError("Cannot force-inline kernels")
    signature = signature_text(sig)
    # Lazy: inspect() compiles for `cc` alone, with nothing compiled or loaded for a device.
    # LTO-IR is NVRTC's (-dlto) of the nvrtc backend's CUDA C++.
    kernel = jit(debug=bool(debug), lineinfo=lineinfo, fastmath=fastmath, opt=opt,
                 launch_bounds=launch_bounds, target="cuda",
                 backend="nvrtc" if output == "ltoir" else None)(pyfunc)
    return kernel.inspect(signature, output, f"sm_{major}{minor}"), none


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
    if symbol is None:  # the function's name, made a PTX identifier ("<lambda>": "_lambda_")
        symbol = re.sub(r"[^A-Za-z0-9_$]", "_", handle.__name__)
    elif not re.fullmatch(r"[A-Za-z_$][A-Za-z0-9_$]*", symbol):
        raise ValueError(f"abi_name {symbol!r} is not a PTX identifier (letters, digits, _ "
                         "and $, not starting with a digit)")
    code, result = handle.export_device_function(signature, result_declared, symbol, abi, stage,
                                                 arch)
    return code, from_text(result)


def compile_ptx(pyfunc, sig, debug=None, lineinfo=False, device=False, fastmath=False, cc=None,
                opt=None, abi="numba", abi_info=None, forceinline=False, launch_bounds=None):
    """compile() with Numba's defaults for a kernel: (PTX, return type)."""
    return compile(pyfunc, sig, debug=debug, lineinfo=lineinfo, device=device,
                   fastmath=fastmath, cc=cc, opt=opt, abi=abi, abi_info=abi_info, output="ptx",
                   forceinline=forceinline, launch_bounds=launch_bounds)


def compile_all(pyfunc, sig, debug=None, lineinfo=False, device=True, fastmath=False, cc=None,
                opt=None, abi="c", abi_info=None, output="ptx", forceinline=False,
                launch_bounds=None):
    """[(code, return type)]: compile()'s, as a list (Numba's also holds the code of the
    functions linked in; kaji links those when the kernel is loaded, see ``link=``)."""
    return [compile(pyfunc, sig, debug=debug, lineinfo=lineinfo, device=device,
                    fastmath=fastmath, cc=cc, opt=opt, abi=abi, abi_info=abi_info,
                    output=output, forceinline=forceinline, launch_bounds=launch_bounds)]


def _current_cc():
    from kaji._runtime import get_current_device

    return get_current_device().compute_capability


def compile_for_current_device(pyfunc, sig, debug=None, lineinfo=False, device=True,
                               fastmath=False, opt=None, abi="c", abi_info=None, output="ptx",
                               forceinline=False, launch_bounds=None):
    """compile() for the current device's compute capability."""
    return compile(pyfunc, sig, debug=debug, lineinfo=lineinfo, device=device,
                   fastmath=fastmath, cc=_current_cc(), opt=opt, abi=abi, abi_info=abi_info,
                   output=output, forceinline=forceinline, launch_bounds=launch_bounds)


def compile_ptx_for_current_device(pyfunc, sig, debug=None, lineinfo=False, device=False,
                                   fastmath=False, opt=None, abi="numba", abi_info=None,
                                   forceinline=False, launch_bounds=None):
    """compile_ptx() for the current device's compute capability."""
    return compile_ptx(pyfunc, sig, debug=debug, lineinfo=lineinfo, device=device,
                       fastmath=fastmath, cc=_current_cc(), opt=opt, abi=abi,
                       abi_info=abi_info, forceinline=forceinline, launch_bounds=launch_bounds)
