"""CUDA C++ device functions called from kernels (Numba's ``cuda.declare_device`` and
``@jit(link=[...])``).

``declare_device(name, "float32(float32, float32)", link="ops.cu")`` returns a function kernels
call like any device function; its code comes from the files linked with the kernel, by
Numba's ABI: ``extern "C" __device__ int name(float *result, float a, float b)`` stores the
result through the pointer and returns a status that is ignored; with ``abi="c"``, by the C
ABI, ``extern "C" __device__ float name(float a, float b)``. The files a kernel links are
its own ``link=`` files and those of every declared function it names (docs/python.md).
Besides paths, ``link=`` takes code held in memory (``CUSource(text)``, ...:
kaji/_linkable_code.py), written to a private temporary file when the linkers need it."""

import os

from kaji import _core
from kaji._backend import add_nvjitlink_wheel
from kaji._linkable_code import LinkableCode, unknown_file_kind
from kaji.types import is_signature, signature_from_text, signature_text

# What the linkers take, by file suffix: CUDA C++ is compiled by NVRTC first; LTO-IR makes
# nvJitLink link the kernel instead of the driver's linker (docs/python.md).
LINKABLE_SUFFIXES = (".cu", ".ptx", ".cubin", ".fatbin", ".o", ".a", ".ltoir")
def link_files(files, what):
    """`files` (a path, code in memory, or a list of them) as a tuple of absolute paths, each
    checked to exist and to be of a kind the linker takes, and LinkableCode objects, kept as
    they are (link_paths gives their files); `what` names their owner in errors."""
    if files is None:
        return ()
    if isinstance(files, (str, os.PathLike, LinkableCode)):
        files = [files]
    checked = []
    for file in files:
        if isinstance(file, LinkableCode):
            checked.append(file)
            continue
        path = os.path.abspath(os.fspath(file))
        if not path.endswith(LINKABLE_SUFFIXES):
            raise unknown_file_kind(file, LINKABLE_SUFFIXES, what)
        if not os.path.isfile(path):
            raise FileNotFoundError(f"{what}: the file to link '{file}' does not exist")
        checked.append(path)
    if any(_suffix_of(file) == ".ltoir" for file in checked):
        add_nvjitlink_wheel()
    return tuple(checked)


def _suffix_of(file):
    """The suffix a linked file (a path or code in memory) is known by."""
    return file.suffix if isinstance(file, LinkableCode) else os.path.splitext(file)[1]


def link_paths(files):
    """The paths the linkers read for link_files' `files`: in-memory code written out."""
    return [file.link_path() if isinstance(file, LinkableCode) else file for file in files]


class DeclaredDevice:
    """A CUDA C++ device function declared with ``declare_device``: callable from kernels
    only. ``name`` and ``sig`` (a kaji.types.Signature) are Numba's attributes; ``signature``
    is its text."""

    def __init__(self, name, sig, link, abi="numba", use_cooperative=False):
        self.__name__ = self.name = name
        self.sig = sig
        self.signature = signature_text(sig)
        self.link = link
        self.abi = abi
        self.use_cooperative = use_cooperative

    def _kaji_describe_global_(self, pickling=False):
        """Its entry in the globals description of a function that names it
        (kaji/_globals.py): data, with the paths of its files; when pickling with code in
        memory, itself, so that the code travels and is written out where it is unpickled."""
        if pickling and any(isinstance(file, LinkableCode) for file in self.link):
            return self
        return ("external", self.__name__, self.signature, tuple(link_paths(self.link)),
                self.abi, self.use_cooperative)

    def __call__(self, *args, **kwargs):
        raise TypeError(f"CUDA C++ device function '{self.__name__}' can only be called from a "
                        "kaji kernel")

    def __repr__(self):
        return f"<kaji CUDA C++ device function {self.__name__} {self.signature}>"


def declare_device(name, sig, link=None, abi="numba", use_cooperative=False):
    """Declares the CUDA C++ device function `name` of signature `sig` (``"float32(float32,
    float32)"`` or a signature object, ``float32(float32, float32)``), defined in the files
    `link` (``.cu``, ``.ptx``, ``.cubin``, ``.fatbin``, ``.o``, ``.a``, ``.ltoir``, or code in
    memory: ``CUSource``, ...), for kernels to call. Kernels pass it the scalars of C's integer
    and float types (a call of one declared with other types is a CompileError there). By
    `abi` "numba" it is ``extern "C" __device__ int name(T *result, args...)``, by "c" ``T
    name(args...)``, which may return void. `use_cooperative` says it synchronizes the grid
    (cooperative groups' ``this_grid().sync()``): a kernel calling it is launched
    cooperatively, as one calling ``cuda.cg.this_grid().sync()`` is."""
    if not isinstance(name, str) or not name.isidentifier():
        raise ValueError(f"declare_device: the name must be a C identifier, got {name!r}")
    if abi not in ("numba", "c"):
        raise ValueError(f"declare_device('{name}'): abi must be 'numba' or 'c', not {abi!r}")
    if isinstance(sig, str):
        text = sig
    elif is_signature(sig) and not isinstance(sig, tuple):
        text = signature_text(sig)
    else:
        raise TypeError(f"declare_device('{name}'): Return type must be given: the signature is "
                        "a string such as 'float32(float32, float32)' or a signature object "
                        f"such as float32(float32, float32), not {sig!r}")
    signature = signature_from_text(text)
    if signature.return_type is None:
        raise TypeError(f"declare_device('{name}', {sig!r}): Return type must be given, as in "
                        f"'float32{_core.canonical_signature(text)}'")
    if not isinstance(use_cooperative, bool):
        raise TypeError(f"declare_device('{name}'): use_cooperative is True or False, not "
                        f"{use_cooperative!r}")
    return DeclaredDevice(name, signature, link_files(link, f"declare_device('{name}')"), abi,
                          use_cooperative)
