"""The kernel language's names (``kaji.grid``, ``kaji.threadIdx.x``, ``kaji.shared.array``, ...).

They exist in Python so that ``from kaji import grid`` works and editors and linters resolve
them; the compiler gives them meaning inside kernels. Calling one from Python is an error.
"""

import functools
import sys
import types


class Intrinsic:
    """A name of the kernel language, known to the compiler by its qualified name."""

    __slots__ = ("_kaji_name",)

    def __init__(self, qualified_name):
        self._kaji_name = qualified_name

    def __call__(self, *args, **kwargs):
        raise TypeError(f"{self._kaji_name}() can only be used inside a kaji kernel")

    def __repr__(self):
        return f"<kaji intrinsic {self._kaji_name}>"


class IntrinsicNamespace(Intrinsic):
    """An intrinsic with members: ``threadIdx.x``, ``shared.array``, ``atomic.add``."""

    __slots__ = ("__dict__",)

    def __init__(self, qualified_name, members):
        super().__init__(qualified_name)
        for member in members:
            setattr(self, member, Intrinsic(f"{qualified_name}.{member}"))


class _LiteralUnroll(Intrinsic):
    """``literal_unroll(tup)``: in a kernel, marks a loop over a tuple of mixed types (kaji
    unrolls every loop over a tuple); in Python, as in Numba, the tuple itself."""

    __slots__ = ()

    def __call__(self, container):
        return container


class _ArrayAtPointer(Intrinsic):
    """Numba's ``carray(ptr, shape, dtype=None)`` (``farray``: Fortran order): the memory a C
    pointer points to as an array of `shape`. In a kernel the pointer is a pointer parameter
    (``CPointer(float32)``) or ``ffi.from_buffer(a)``; in Python a ctypes pointer, or an
    address (an int, a ``c_void_p``) with `dtype`. The array owns nothing: the memory must
    outlive it."""

    __slots__ = ("_order",)

    def __init__(self, qualified_name, order):
        super().__init__(qualified_name)
        self._order = order

    def __call__(self, ptr, shape, dtype=None):
        import ctypes

        import numpy

        from kaji.types import Type, as_dtype

        name = self._kaji_name.rpartition(".")[2]
        if isinstance(ptr, int) and not isinstance(ptr, bool):
            address = ptr
        elif isinstance(ptr, (ctypes._Pointer, ctypes.c_void_p)):
            address = ctypes.cast(ptr, ctypes.c_void_p).value
        else:
            raise TypeError(f"{name}() takes a ctypes pointer or an address, not "
                            f"{type(ptr).__name__}")
        pointee = ptr._type_ if isinstance(ptr, ctypes._Pointer) else None
        own = numpy.dtype(pointee) if pointee is not None else None
        if dtype is not None:
            dtype = as_dtype(dtype) if isinstance(dtype, Type) else numpy.dtype(dtype)
            if own is not None and dtype != own:
                raise TypeError(f"mismatching dtype '{dtype}' for pointer type '{own}*'")
        dtype = dtype if dtype is not None else own
        if dtype is None:
            raise TypeError(f"{name}() of an address or untyped pointer needs its dtype")
        shape = (shape,) if isinstance(shape, int) else tuple(shape)
        count = 1
        for extent in shape:
            if not isinstance(extent, int) or extent < 0:
                raise ValueError(f"{name}() takes a shape of non-negative ints, not {shape!r}")
            count *= extent
        if not address and count:
            raise ValueError(f"{name}() of a null pointer")
        memory = (ctypes.c_byte * (count * dtype.itemsize)).from_address(address) if count else b""
        return numpy.frombuffer(memory, dtype).reshape(shape, order=self._order)


def _kernel_name(name):
    return f"kaji.{name}"


def _intrinsics(*names):
    return (Intrinsic(_kernel_name(name)) for name in names)


_FUNCTIONS = (
    "grid", "gridsize", "laneid", "warpsize", "syncthreads", "syncthreads_count",
    "syncthreads_and", "syncthreads_or", "syncwarp", "threadfence", "threadfence_block",
    "threadfence_system", "shfl_sync", "shfl_up_sync", "shfl_down_sync", "shfl_xor_sync",
    "ballot_sync", "all_sync", "any_sync", "eq_sync", "match_any_sync", "match_all_sync",
    "activemask", "lanemask_lt", "popc", "brev", "clz", "ffs", "fma", "cbrt", "selp", "nanosleep",
    # Loads and stores with PTX's cache operators (OperationAttributes.def).
    "ldca", "ldcg", "ldcs", "ldlu", "ldcv", "stcg", "stcs", "stwb", "stwt",
)
(grid, gridsize, laneid, warpsize, syncthreads, syncthreads_count, syncthreads_and,
 syncthreads_or, syncwarp, threadfence, threadfence_block, threadfence_system, shfl_sync,
 shfl_up_sync, shfl_down_sync, shfl_xor_sync, ballot_sync, all_sync, any_sync, eq_sync,
 match_any_sync, match_all_sync, activemask, lanemask_lt, popc, brev, clz, ffs, fma, cbrt,
 selp, nanosleep, ldca, ldcg, ldcs, ldlu, ldcv, stcg, stcs, stwb, stwt) = _intrinsics(*_FUNCTIONS)
threadIdx = IntrinsicNamespace(_kernel_name("threadIdx"), ("x", "y", "z"))
blockIdx = IntrinsicNamespace(_kernel_name("blockIdx"), ("x", "y", "z"))
blockDim = IntrinsicNamespace(_kernel_name("blockDim"), ("x", "y", "z"))
gridDim = IntrinsicNamespace(_kernel_name("gridDim"), ("x", "y", "z"))
shared = IntrinsicNamespace(_kernel_name("shared"), ("array",))
local = IntrinsicNamespace(_kernel_name("local"), ("array",))
const = IntrinsicNamespace(_kernel_name("const"), ("array_like",))
cg = IntrinsicNamespace(_kernel_name("cg"), ("this_grid",))
# CUDA C++'s nvcuda::wmma: the tensor cores' warp-level matrix multiply-accumulate
# (docs/language.md, "Tensor cores").
wmma = IntrinsicNamespace(
    _kernel_name("wmma"),
    ("fragment", "fill_fragment", "load_matrix_sync", "store_matrix_sync", "mma_sync",
     "matrix_a", "matrix_b", "accumulator", "row_major", "col_major", "mem_row_major",
     "mem_col_major"),
)
# CUDA C++'s pipeline primitives: asynchronous copies from global into shared memory
# (docs/language.md, "Asynchronous copies").
pipeline = IntrinsicNamespace(_kernel_name("pipeline"), ("memcpy_async", "commit", "wait_prior"))
# Hopper's warpgroup matrix multiply-accumulate from shared memory (docs/language.md, "Warpgroup
# matrix multiply-accumulate").
wgmma = IntrinsicNamespace(_kernel_name("wgmma"), ("mma_async", "commit_group", "wait_group"))
literal_unroll = _LiteralUnroll(_kernel_name("literal_unroll"))
carray = _ArrayAtPointer(_kernel_name("carray"), "C")
farray = _ArrayAtPointer(_kernel_name("farray"), "F")
atomic = IntrinsicNamespace(
    _kernel_name("atomic"),
    ("add", "sub", "max", "min", "nanmax", "nanmin", "exch", "cas", "compare_and_swap", "and_",
     "or_", "xor", "inc", "dec"),
)


class _CompilerTable(Intrinsic):
    """A namespace whose members are listed by the compiler: ``cuda.libdevice`` (every
    libdevice function by its libdevice name, with Numba's signatures), ``cuda.fp16`` and
    ``cuda.bf16`` (Numba's half-precision functions), ``kaji.fp8`` (the 8-bit floats'
    conversions of Numba's ``numba.cuda._internal.cuda_fp8``)."""

    __slots__ = ("_list_names",)

    def __init__(self, qualified_name, list_names):
        super().__init__(qualified_name)
        self._list_names = list_names

    def __getattr__(self, name):
        # cuda.fp16's conversions are spelled as CUDA C++'s (``__float2half_rz``); other
        # underscored names (this object's own slot among them) are never the compiler's.
        private = name.startswith("_") and not name.startswith("__")
        if private or name.endswith("__") or name not in self._list_names():
            raise AttributeError(f"{self._kaji_name.replace('kaji.', 'cuda.')} has no function "
                                 f"{name!r}")
        return Intrinsic(f"{self._kaji_name}.{name}")

    def __dir__(self):
        return self._list_names()


@functools.cache
def _libdevice_functions():
    from kaji._core import libdevice_functions

    return tuple(libdevice_functions())


def _half_precision_functions():
    from kaji._core import half_precision_functions

    return half_precision_functions()


def _bfloat16_functions():
    from kaji._core import bfloat16_functions

    return bfloat16_functions()


def _float8_functions():
    from kaji._core import float8_functions

    return float8_functions()


class CompilerTableModule(types.ModuleType):
    """A module at Numba's path whose functions are a compiler table's (``numba.cuda.bf16``:
    kaji.cuda.bf16), so that ``from kaji.cuda.bf16 import hadd`` works. A module becomes one
    with ``become_table_module``; kernels take the module itself as its table."""

    def _kaji_describe_global_(self, pickling):
        return ("builtin", self._kaji_table._kaji_name)

    def __getattr__(self, name):
        if self._kaji_cuda_spelling and name.startswith("__"):
            name = name[2:]
        return getattr(self._kaji_table, name)

    def __dir__(self):
        names = set(dir(self._kaji_table))
        if self._kaji_cuda_spelling:
            names |= {"__" + name for name in names}
        return sorted(names | {name for name in vars(self) if not name.startswith("_")})


def become_table_module(module_name, table, cuda_spelling=False):
    """Makes the module `module_name` a CompilerTableModule of `table`. With `cuda_spelling`,
    its functions are also spelled as CUDA C++'s (``__hadd`` for the table's ``hadd``), as in
    Numba's ``numba.cuda._internal.cuda_bf16``."""
    module = sys.modules[module_name]
    module._kaji_table = table
    module._kaji_cuda_spelling = cuda_spelling
    module.__class__ = CompilerTableModule


libdevice = _CompilerTable(_kernel_name("libdevice"), _libdevice_functions)
fp16 = _CompilerTable(_kernel_name("fp16"), _half_precision_functions)
bf16 = _CompilerTable(_kernel_name("bf16"), _bfloat16_functions)
fp8 = _CompilerTable(_kernel_name("fp8"), _float8_functions)

__all__ = [*_FUNCTIONS, "threadIdx", "blockIdx", "blockDim", "gridDim", "shared", "local",
           "const", "cg", "wmma", "pipeline", "wgmma", "atomic", "libdevice", "fp16", "bf16", "fp8", "literal_unroll", "carray",
           "farray"]
