"""Which GPU backend makes a kernel's PTX: "llvm" (LLVM's NVPTX, the default) or "nvrtc"
(kaji's CUDA C++ compiled by NVIDIA's NVRTC).

``@kaji.jit(backend=...)`` names one; without it a kernel gets KAJI_BACKEND, else "llvm".
NVRTC is loaded on the first nvrtc compile, from $KAJI_NVRTC, $CUDA_HOME, $CUDA_PATH,
/usr/local/cuda or the nvidia-cuda-nvrtc wheel's directory; kaji imports without it.
"""

import functools
import importlib.util
import os

from kaji import _core

BACKENDS = ("llvm", "nvrtc")


def check_backend(backend):
    """`backend` when it names a backend; ValueError otherwise."""
    if backend not in BACKENDS:
        raise ValueError(f"backend must be 'llvm' or 'nvrtc', not {backend!r}")
    return backend


def default_backend():
    """The backend of kernels that name none: KAJI_BACKEND, else llvm."""
    override = os.environ.get("KAJI_BACKEND")
    if override is None:
        return "llvm"
    if override not in BACKENDS:
        raise ValueError(f"KAJI_BACKEND={override!r}: expected 'llvm' or 'nvrtc'")
    return override


def _add_wheel_libraries(package, add_search_directory):
    """Passes the lib/ directory of the NVIDIA wheel `package` to `add_search_directory`."""
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return
    for location in (spec.submodule_search_locations or []) if spec else []:
        library_dir = os.path.join(location, "lib")
        if os.path.isdir(library_dir):
            add_search_directory(library_dir)


@functools.lru_cache(maxsize=None)
def add_nvrtc_wheel():
    """Lets the compiler find the nvidia-cuda-nvrtc wheel's libnvrtc (once per process)."""
    _add_wheel_libraries("nvidia.cuda_nvrtc", _core.add_nvrtc_search_directory)


@functools.lru_cache(maxsize=None)
def add_nvjitlink_wheel():
    """Lets the linker find the nvidia-nvjitlink wheel's libnvJitLink, which links LTO-IR
    (once per process)."""
    _add_wheel_libraries("nvidia.nvjitlink", _core.add_nvjitlink_search_directory)
