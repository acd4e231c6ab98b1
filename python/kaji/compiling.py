"""Numba's compile functions (``cuda.compile``, ``compile_ptx``, ...): the PTX or LTO-IR of a
kernel or a device function, or a kernel's cubin or fatbin, for one signature and compute
capability, made without a GPU and without launching anything."""

from kaji import _core
from kaji._arch import DEFAULT_CC, current_cc
from kaji.decorator import device_function_code, jit
from kaji.types import none, signature_text


def compile(pyfunc, sig, debug=None, lineinfo=False, device=True, fastmath=False, cc=None,
            opt=None, abi="c", abi_info=None, output="ptx", forceinline=False,
            launch_bounds=None):
    """(code, return type) of `pyfunc` for `sig` (a signature or a tuple of argument types) and
    compute capability `cc` ((major, minor), default (7, 5), or (major, minor, "a") and
    (major, minor, "f") for the architecture- and family-specific targets sm_90a, sm_100f, ...),
    as Numba's ``numba.cuda.compile``:
    a device function (``device=True``) that code linked with it calls by the C ABI
    (``abi="c"``: ``RESULT name(ARGS)``, named ``abi_info["abi_name"]`` or the function's
    name) or Numba's (``abi="numba"``: ``int name(RESULT *, ARGS)`` returning 0), or a kernel.
    The code is PTX (``output="ptx"``), LTO-IR (``"ltoir"``: bytes, made by the nvrtc
    backend, for nvJitLink), or for a kernel a cubin (``"cubin"``: bytes, the PTX assembled by
    nvJitLink, no GPU needed) or a fatbin (``"fatbin"``: bytes, that cubin and the PTX, which
    newer GPUs compile, packed by the CUDA toolkit's fatbinary)."""
    if output not in ("ptx", "ltoir", "cubin", "fatbin"):
        raise NotImplementedError(f"Unsupported output type: {output}")
    if abi not in ("numba", "c"):
        raise NotImplementedError(f"Unsupported ABI: {abi}")
    arch = _arch_name(DEFAULT_CC if cc is None else cc)
    binary = output in ("cubin", "fatbin")
    if device and binary:
        raise NotImplementedError(f"output={output!r} is a kernel's (device=False): a device "
                                  "function compiled on its own is linked as PTX or LTO-IR")
    if device:
        options = dict(debug=debug, lineinfo=lineinfo, fastmath=fastmath, opt=opt,
                       backend="nvrtc" if output == "ltoir" else None)
        return device_function_code(pyfunc, sig, options, abi, abi_info, arch,
                                    output)
    if abi == "c":
        raise NotImplementedError("The C ABI is not supported for kernels")
    if forceinline:
        raise ValueError("Cannot force-inline kernels")
    signature = signature_text(sig)
    # Lazy: inspect() compiles for `cc` alone, with nothing compiled or loaded for a device.
    # LTO-IR is NVRTC's (-dlto) of the nvrtc backend's CUDA C++.
    kernel = jit(debug=debug, lineinfo=lineinfo, fastmath=fastmath, opt=opt,
                 launch_bounds=launch_bounds, target="cuda",
                 backend="nvrtc" if output == "ltoir" else None)(pyfunc)
    code = kernel.inspect(signature, "ptx" if binary else output, arch)
    if not binary:
        return code, none
    cubin = _core.assemble_ptx(code, arch)
    if output == "cubin":
        return cubin, none
    return _core.pack_fatbin([(arch, cubin)], arch, code), none


def _arch_name(cc):
    """"sm_90" of (9, 0), "sm_90a" of (9, 0, "a")."""
    if not isinstance(cc, tuple) or len(cc) not in (2, 3) or \
            not all(isinstance(part, int) for part in cc[:2]) or \
            (len(cc) == 3 and cc[2] not in ("a", "f")):
        raise ValueError(f"cc must be (major, minor) or (major, minor, 'a' or 'f'), not {cc!r}")
    return f"sm_{cc[0]}{cc[1]}" + (cc[2] if len(cc) == 3 else "")


def compile_ptx(pyfunc, sig, debug=None, lineinfo=False, device=False, fastmath=False, cc=None,
                opt=None, abi="numba", abi_info=None, forceinline=False, launch_bounds=None):
    """compile() with Numba's defaults for a kernel: (PTX, return type)."""
    return compile(pyfunc, sig, debug=debug, lineinfo=lineinfo, device=device,
                   fastmath=fastmath, cc=cc, opt=opt, abi=abi, abi_info=abi_info, output="ptx",
                   forceinline=forceinline, launch_bounds=launch_bounds)


def compile_all(pyfunc, sig, debug=None, lineinfo=False, device=True, fastmath=False, cc=None,
                opt=None, abi="c", abi_info=None, output="ptx", forceinline=False,
                launch_bounds=None):
    """([code], return type): compile()'s code in a list, as Numba's (whose list also holds
    the code of the functions linked in; kaji links those when the kernel is loaded, see
    ``link=``)."""
    code, resty = compile(pyfunc, sig, debug=debug, lineinfo=lineinfo, device=device,
                          fastmath=fastmath, cc=cc, opt=opt, abi=abi, abi_info=abi_info,
                          output=output, forceinline=forceinline, launch_bounds=launch_bounds)
    return [code], resty


def compile_for_current_device(pyfunc, sig, debug=None, lineinfo=False, device=True,
                               fastmath=False, opt=None, abi="c", abi_info=None, output="ptx",
                               forceinline=False, launch_bounds=None):
    """compile() for the current device's compute capability."""
    return compile(pyfunc, sig, debug=debug, lineinfo=lineinfo, device=device,
                   fastmath=fastmath, cc=current_cc(), opt=opt, abi=abi, abi_info=abi_info,
                   output=output, forceinline=forceinline, launch_bounds=launch_bounds)


def compile_ptx_for_current_device(pyfunc, sig, debug=None, lineinfo=False, device=False,
                                   fastmath=False, opt=None, abi="numba", abi_info=None,
                                   forceinline=False, launch_bounds=None):
    """compile_ptx() for the current device's compute capability."""
    return compile_ptx(pyfunc, sig, debug=debug, lineinfo=lineinfo, device=device,
                       fastmath=fastmath, cc=current_cc(), opt=opt, abi=abi,
                       abi_info=abi_info, forceinline=forceinline, launch_bounds=launch_bounds)
