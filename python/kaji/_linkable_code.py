"""Device code in memory for ``link=`` (Numba's ``numba.cuda.cudadrv.linkable_code``, also
``kaji.cuda.CUSource``, ...): ``CUSource(text)``, ``PTXSource``, ``Cubin``, ``Fatbin``,
``Object``, ``Archive``, ``LTOIR``, each the code plus a name for error messages.

kaji's linkers (NVRTC for CUDA C++, the driver's linker, nvJitLink) take files, so an object is
written out, the first time a kernel or ``declare_device`` needs its path, to a file of this
process's private temporary directory (``tempfile.mkdtemp``: mode 0700, removed when the process
exits), named after the object's name with its kind's suffix: ``CUSource(text,
name="ops")`` becomes ``.../kaji-link-XXXX/<hash>/ops.cu``, so NVRTC's and the linkers' messages
name ``ops.cu``. The kernel keeps the object (not the path): a pickled kernel carries the code
and writes it out again where it is unpickled."""

import io
import os
import re

# This process's directory of written-out code, made on first use. (The modules that make,
# name and remove it are imported then too: `import kaji` does not need them.)
_directory = None


def _private_directory():
    global _directory
    if _directory is None:
        import atexit
        import tempfile

        _directory = tempfile.mkdtemp(prefix="kaji-link-")
        atexit.register(_remove_directory, _directory, os.getpid())
    return _directory


def _remove_directory(directory, owner):
    # A forked child inherits the registration; only the process that made it removes it.
    if os.getpid() == owner:
        import shutil

        shutil.rmtree(directory, ignore_errors=True)


class UnknownLinkFileError(ValueError, RuntimeError):
    """A file whose suffix names no kind of code a linker takes: a ValueError, and the
    RuntimeError Numba raises for it."""


def unknown_file_kind(path, suffixes, what=None):
    """The error for linking `path`, whose suffix is none of `suffixes`: Numba's words, then
    what kaji takes; `what` names the file's owner."""
    suffix = os.path.splitext(os.fspath(path))[1]
    kind = f"extension {suffix}" if suffix else "no extension"
    owner = f"{what}: " if what else ""
    return UnknownLinkFileError(f"{owner}Don't know how to link file with {kind} ('{path}'; "
                                f"kaji links files ending in {', '.join(suffixes)})")


class LinkableCode:
    """Code to link, held in memory: `data` is text or bytes (or an io.StringIO / BytesIO,
    read when the code is used); `name` names it in compile and link errors. Use a subclass,
    which says what the code is."""

    suffix = None  # the file suffix the linkers know the code by, in the subclasses
    default_name = None

    def __init_subclass__(cls, suffix=None, default_name=None, **kwargs):
        # A kind of code names its suffix and default name; its own subclasses inherit them.
        super().__init_subclass__(**kwargs)
        if suffix is not None:
            cls.suffix, cls.default_name = suffix, default_name

    def __init__(self, data, name=None, setup_callback=None, teardown_callback=None, nrt=False):
        if self.suffix is None:
            raise TypeError("LinkableCode says nothing of what the code is: use CUSource, "
                            "PTXSource, Cubin, Fatbin, Object, Archive or LTOIR")
        if setup_callback is not None or teardown_callback is not None:
            raise NotImplementedError("kaji does not call setup_callback / teardown_callback "
                                      "of linked code (it exposes no CUmodule to Python)")
        if nrt:
            raise NotImplementedError("kaji has no NRT (Numba's runtime for memory management "
                                      "in kernels): nrt=True is not supported")
        if not isinstance(data, (str, bytes, bytearray, memoryview, io.StringIO, io.BytesIO)):
            raise TypeError(f"{type(self).__name__} takes the code as str or bytes (or an "
                            f"io.StringIO / io.BytesIO), not {type(data).__name__}")
        self._data = data
        self._name = name
        self._path = None

    @property
    def name(self):
        return self._name or self.default_name

    @property
    def data(self):
        if isinstance(self._data, (io.StringIO, io.BytesIO)):
            return self._data.getvalue()
        return self._data

    @property
    def kind(self):
        """What the code is, as its file suffix without the dot: 'cu', 'ptx', 'cubin', ..."""
        return self.suffix[1:]

    @staticmethod
    def from_path(path):
        """The code of the file `path`, as the class its suffix names, named after the file."""
        root, suffix = os.path.splitext(os.fspath(path))
        kinds = {kind.suffix: kind for kind in _KINDS}
        if suffix not in kinds:
            raise unknown_file_kind(path, kinds)
        with open(path, "r" if suffix in (".cu", ".ptx") else "rb") as file:
            return kinds[suffix](file.read(), name=os.path.basename(root))

    @classmethod
    def from_path_or_obj(cls, path_or_obj):
        """from_path(path_or_obj) for a path; a LinkableCode as it is."""
        if isinstance(path_or_obj, LinkableCode):
            return path_or_obj
        return cls.from_path(path_or_obj)

    def link_path(self):
        """The file the linkers read this code from, written the first time it is asked for
        (module docstring)."""
        if self._path is None or not os.path.isfile(self._path):
            import hashlib

            data = self.data
            content = data.encode() if isinstance(data, str) else bytes(data)
            digest = hashlib.sha256(self.suffix.encode() + b"\0" + content).hexdigest()[:16]
            folder = os.path.join(_private_directory(), digest)
            os.makedirs(folder, exist_ok=True)
            path = os.path.join(folder, self._file_name())
            if not os.path.isfile(path):
                with open(path, "wb") as file:
                    file.write(content)
            self._path = path
        return self._path

    def _file_name(self):
        """The name, made a plain file name (no directories, no characters a shell or a
        linker log would quote), with the suffix."""
        stem = re.sub(r"[^A-Za-z0-9._-]+", "_", os.path.basename(self.name)).strip("._") or "code"
        return stem if stem.endswith(self.suffix) else stem + self.suffix

    def __getstate__(self):
        # The written-out file is this process's: a pickled object writes its code again.
        return {"_data": self.data, "_name": self._name, "_path": None}

    def __repr__(self):
        return f"<{type(self).__name__} {self.name!r}>"


class PTXSource(LinkableCode, suffix=".ptx", default_name="<unnamed-ptx>"):
    """PTX assembly, linked by the driver's linker (or nvJitLink with LTO-IR)."""


class CUSource(LinkableCode, suffix=".cu", default_name="<unnamed-cu>"):
    """CUDA C/C++ source, compiled by NVRTC and linked with the kernel."""


class Fatbin(LinkableCode, suffix=".fatbin", default_name="<unnamed-fatbin>"):
    """A fatbinary."""


class Cubin(LinkableCode, suffix=".cubin", default_name="<unnamed-cubin>"):
    """A cubin (an ELF for one GPU architecture)."""


class Archive(LinkableCode, suffix=".a", default_name="<unnamed-archive>"):
    """An archive of device object files (``.a``)."""


class Object(LinkableCode, suffix=".o", default_name="<unnamed-object>"):
    """A device object file (``.o``, from ``nvcc -dc``)."""


class LTOIR(LinkableCode, suffix=".ltoir", default_name="<unnamed-ltoir>"):
    """LTO-IR (``nvcc -dlto`` or NVRTC ``-dlto``): the kernel is then linked by nvJitLink."""


_KINDS = (CUSource, PTXSource, Cubin, Fatbin, Object, Archive, LTOIR)
