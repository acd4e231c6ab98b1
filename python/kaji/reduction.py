"""``cuda.reduce`` / ``cuda.Reduce``: a binary function made into a reduction over an array of
any length. Each block folds a grid-stride share of the input, then a tree in shared memory
folds the block's threads into one partial (at most MAX_PARTIALS of them); one block then
folds the partials and combines the result with ``init``: two launches, one where a block is
enough. No identity of the function is needed: threads that got no element are skipped, so
the result equals functools.reduce for associative, commutative functions."""


from kaji import _core
from kaji._arrays import _kaji_stream
from kaji._core import DeviceArray
from kaji._definition import Definition
from kaji._function_source import check_python_function
from kaji._generated import generated_kernel, launch_shape
from kaji._target import check_target, default_target
from kaji.decorator import DeviceFunction, jit
from kaji.types import Scalar, as_type

# Threads of a block_partials block and the most blocks it runs in (so partials), and
# threads of the one fold_with_init block (256: a block size every kernel's registers allow).
# block_partials runs in no more blocks than the GPU holds at once (one wave): each thread's
# share is fixed by the grid, so blocks that wait for a second wave would double the time (at
# 40 registers an H200 holds 792 of 256 threads; 1024 took 1.27x CuPy's time on 2^28 floats).
# Each block_partials thread loads LOADS elements of its share at a time and folds them
# pairwise into its running value: the loads are independent, so that enough of them are in
# flight to keep the memory busy.
PARTIAL_THREADS = 256
MAX_PARTIALS = 1024
FINAL_THREADS = 256
LOADS = 4


def _grouped_loads(loads):
    """The lines of the loop that folds `loads` elements at a time (indented for _BLOCK_FOLD's
    LOADS_LOOP) into `acc`, from `j` on, while all of them are below `n`; `pass` for one."""
    if loads == 1:
        return "pass"
    values = [f"v{k}" for k in range(loads)]
    lines = [f"while j + {loads - 1} * stride < n:"]
    lines += [f"    v{k} = values[j + {k} * stride]" for k in range(loads)]
    while len(values) > 1:
        pairs = [f"binop({values[k]}, {values[k + 1]})" for k in range(0, len(values) - 1, 2)]
        values = pairs + values[len(values) - len(values) % 2:]
    lines += [f"    acc = binop(acc, {values[0]})", f"    j += {loads} * stride"]
    return "\n        ".join(lines)


# One block folds its grid-stride share of values[:n] in shared memory; thread 0 then runs
# FINISH with the block's result in `folded[0]`. Made twice: block_partials writes each
# block's partial, fold_with_init (one block) combines everything with init into res[0].
_BLOCK_FOLD = """\
def NAME(values, n, OUTPUTS):
    folded = kaji.shared.array(THREADS, kaji.DTYPE)
    present = kaji.shared.array(THREADS, kaji.int32)
    t = kaji.threadIdx.x
    i = kaji.grid(1)
    stride = kaji.gridsize(1)
    acc = values[0]
    found = 0
    if i < n:
        acc = values[i]
        found = 1
        j = i + stride
        LOADS_LOOP
        while j < n:
            acc = binop(acc, values[j])
            j += stride
    folded[t] = acc
    present[t] = found
    kaji.syncthreads()
    width = THREADS // 2
    while width > 0:
        if t < width and present[t + width] != 0:
            if present[t] != 0:
                folded[t] = binop(folded[t], folded[t + width])
            else:
                folded[t] = folded[t + width]
                present[t] = 1
        kaji.syncthreads()
        width //= 2
    if t == 0:
        FINISH
"""
_FOLDS = {
    "block_partials": ("partials", "partials[kaji.blockIdx.x] = folded[0]", PARTIAL_THREADS,
                       LOADS),
    "fold_with_init": ("init, res", "res[0] = binop(init, folded[0])", FINAL_THREADS, 1),
}


class Reduce:
    """Numba's ``cuda.reduce``: ``@cuda.reduce def add(a, b): return a + b`` then
    ``add(arr, size=None, res=None, init=0, stream=0)``. ``target`` (kaji's addition) is
    "cuda" or "cpu", by default the default target."""

    def __init__(self, functor, target=None):
        # A device function's Definition: also an unpickled one's, which has no py_func.
        if isinstance(functor, DeviceFunction):
            functor = functor._definition
        if not isinstance(functor, Definition):
            check_python_function(functor, "reduce")
            functor = Definition.of(functor)
        if len(functor.parameters) != 2:
            raise TypeError(f"reduce: '{functor.names['__name__']}' must take two arguments, "
                            f"takes {len(functor.parameters)}")
        self.py_func = functor.py_func
        self.target = default_target() if target is None else check_target(target)
        self._binop = jit(device=True)(functor)
        self._kernels_by_dtype = {}
        self._wave_blocks = {}
        functor.show_as(self)

    def _kernels(self, dtype):
        """(block_partials, fold_with_init) for arrays of numpy `dtype`, made on first use."""
        kernels = self._kernels_by_dtype.get(dtype)
        if kernels is None:
            kernels = self._kernels_by_dtype[dtype] = self._make_kernels(
                _element_type_name(dtype))
        return kernels

    def _blocks_in_one_wave(self, block_partials, values):
        """The most block_partials blocks the current device runs at once, asked once per
        dtype and device."""
        key = (values.dtype, None if self.target == "cpu" else _core.selected_device())
        blocks = self._wave_blocks.get(key)
        if blocks is None:
            import numpy

            signature = block_partials.signature_for((values, numpy.int64(0), values))
            blocks = self._wave_blocks[key] = block_partials.max_cooperative_grid_blocks(
                signature, PARTIAL_THREADS)
        return blocks

    def _make_kernels(self, dtype_name):
        origin = f"kaji.reduce of {self.__name__}"
        callees = {"binop": self._binop}
        return tuple(
            generated_kernel(name, _BLOCK_FOLD.replace("NAME", name).replace("OUTPUTS", outputs)
                             .replace("FINISH", finish).replace("DTYPE", dtype_name)
                             .replace("THREADS", str(threads))
                             .replace("LOADS_LOOP", _grouped_loads(loads)),
                             callees, self.target, origin)
            for name, (outputs, finish, threads, loads) in _FOLDS.items())

    def __call__(self, arr, size=None, res=None, init=0, stream=0):
        import numpy

        on_host = self.target == "cpu"
        stream = _kaji_stream(stream)
        if isinstance(arr, DeviceArray):
            if not arr.is_c_contiguous():
                raise ValueError("reduce needs a contiguous device array")
            values = arr if arr.ndim == 1 else arr.ravel()
        else:
            host = numpy.ascontiguousarray(arr).reshape(-1)
            _element_type_name(host.dtype)  # a TypeError before anything is copied
            values = _core.to_device(host, stream=stream, on_host=on_host)
        count = values.size if size is None else size
        if not isinstance(count, (int, numpy.integer)) or not 0 <= count <= values.size:
            raise ValueError(f"reduce: size must be an int in 0..{values.size}, not {size!r}")
        dtype = values.dtype
        if res is not None and (not isinstance(res, DeviceArray) or res.dtype != dtype
                                or res.size < 1):
            raise TypeError(f"reduce: res must be a device array of dtype {dtype} with at "
                            "least one element")
        init = dtype.type(init)
        if count == 0:
            if res is None:
                return init
            res[0] = init
            return None
        block_partials, fold_with_init = self._kernels(dtype)
        blocks, threads = launch_shape(
            count, PARTIAL_THREADS,
            min(MAX_PARTIALS, self._blocks_in_one_wave(block_partials, values)))
        if blocks > 1:
            partials = _core.device_array((blocks,), dtype, "C", on_host=on_host)
            block_partials[blocks, threads, stream](values, numpy.int64(count), partials)
            values, count = partials, blocks
        target = res if res is not None else _core.device_array((1,), dtype, "C",
                                                                on_host=on_host)
        fold_with_init[1, FINAL_THREADS, stream](values, numpy.int64(count), init, target)
        if res is not None:
            return None
        return target.copy_to_host(stream=stream)[0]


def _element_type_name(dtype):
    """The name of the kaji scalar type of `dtype`, which the kernels are written for
    ('float32'); TypeError naming the dtype for one that is no number (records, strings)."""
    try:
        element = as_type(dtype)
    except TypeError as error:
        raise TypeError(f"reduce: the array's {error}") from None
    if not isinstance(element, Scalar):
        raise TypeError(f"reduce folds arrays of numbers, not of the structured dtype {dtype}: "
                        "reduce one field (arr['name']) instead")
    return element.name


def reduce(functor=None, *, target=None):
    """``@cuda.reduce`` (also ``cuda.Reduce(functor)``): see Reduce."""
    if functor is None:
        return lambda func: Reduce(func, target=target)
    return Reduce(functor, target=target)
