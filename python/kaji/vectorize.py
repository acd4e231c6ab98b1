"""``cuda.vectorize`` / ``kaji.vectorize``: a scalar function made into a GPU ufunc.

Each signature gets a kernel that calls the function (a device function with that signature)
on each element of the flattened, broadcast inputs, a thread per element. Types are resolved
as Numba's GPU ufuncs resolve them: array arguments must have a signature's exact dtypes
(numpy's casting='no'); scalars take the type of the signature that the arrays pick.
"""

import functools
import warnings

from kaji import _core
from kaji._arrays import _kaji_stream
from kaji._core import DeviceArray
from kaji._definition import Definition
from kaji._function_source import check_python_function
from kaji._generated import kernel_name, per_element_kernel, per_element_launch_shape
from kaji._target import check_target, default_target
from kaji._ufunc_arguments import as_array, as_output, as_scalar, device_operand, is_scalar
from kaji._arch import DEFAULT_CC
from kaji.decorator import DeviceFunction, device_function_code
from kaji.types import is_signature, signature_text


def vectorize(signatures=None, *, target=None, identity=None, nopython=None, cache=False,
              **unsupported):
    """Numba's ``@vectorize(["float32(float32, float32)", ...], target="cuda")``: compiles
    the scalar function for each signature (strings or type objects such as
    ``float32(float32, float32)``) and returns a ufunc taking numpy arrays (giving numpy
    arrays), device arrays (giving device arrays) and scalars, broadcast as numpy broadcasts,
    with ``out=`` and ``stream=``. ``target`` is "cuda" or "cpu" (kaji's CPU backend), by
    default the default target. Kernels call the ufunc as a device function.

    Without signatures (``@vectorize`` or ``@vectorize(target=...)``) the ufunc is compiled
    on each call with new argument types, for those types: arrays' dtypes, and Python ints,
    floats and complex numbers as int64, float64 and complex128; its result type is what the
    function returns for them, as Numba's dynamic ufuncs."""
    del identity, cache  # accepted as Numba accepts them
    ufunc_target = default_target() if target is None else check_target(target)
    # Numba's messages for the options of its vectorize targets.
    for option in unsupported:
        raise KeyError(f"Unrecognized options. {ufunc_target} vectorize target does not "
                       f"support option: '{option}'")
    if nopython is not None:
        warnings.warn(f"nopython kwarg for {ufunc_target} target is redundant", RuntimeWarning,
                      stacklevel=2)
    if callable(signatures) and not is_signature(signatures):
        return Vectorized(signatures, [], ufunc_target)
    if is_signature(signatures):
        signatures = [signatures]
    texts = [signature_text(signature) for signature in signatures or ()]
    if signatures is not None and not texts:
        raise TypeError("vectorize needs at least one signature")
    return lambda func: Vectorized(func, texts, ufunc_target)


def _parse_scalar_signature(text):
    """('float32', ['float32', 'float32']) for 'float32(float32, float32)'; TypeError for
    array types, which vectorize does not take (guvectorize does)."""
    canonical = _core.canonical_signature(text)
    result, arguments = canonical[:canonical.index("(")], canonical[canonical.index("(") + 1:-1]
    types = [argument.strip() for argument in arguments.split(",") if argument.strip()]
    if "[" in canonical or result in ("none", ""):
        raise TypeError(f"vectorize signature '{text}': ufunc signatures take and return "
                        "scalars, e.g. 'float32(float32, float32)' (guvectorize takes arrays)")
    return result, types


class Vectorized:
    """A GPU ufunc made by vectorize: call it on arrays and scalars, or from kernels. It
    pickles as its function's Definition, its signatures and target, and compiles again where
    it is unpickled (its ``py_func`` is then None)."""

    def __init__(self, func, signatures, target):
        if not isinstance(func, Definition):  # an unpickled one's
            check_python_function(func, "vectorize")
        self.target = target
        self._signatures = tuple(signatures)
        # (result dtype, [argument dtypes], kernel of a set of scalar positions) per signature
        self._loops = []
        # Without signatures it compiles a loop for each new set of argument types it is
        # called with.
        self._dynamic = not signatures
        # (result dtype, kernel) per tuple of argument dtypes of _call_on_alike_arrays' calls
        self._alike_array_loops = {}
        self._reduction = None  # the cuda.reduce of its function, made by the first reduce()
        self._device = DeviceFunction(func, signatures)
        self._definition = self._device._definition
        self.py_func = self._definition.py_func
        self._definition.show_as(self)
        for text in signatures:
            self._add_loop(text)
        for _, _, kernel_for in self._loops:  # eager, as Numba: errors show at decoration
            kernel_for(frozenset(), None)

    def _add_loop(self, text):
        import numpy

        result, arguments = _parse_scalar_signature(text)
        takes = self.nin
        if len(arguments) != takes:
            raise TypeError(f"vectorize signature '{text}' has {len(arguments)} arguments; "
                            f"'{self.__name__}' takes {takes}")
        loop = (numpy.dtype(result), [numpy.dtype(a) for a in arguments],
                functools.lru_cache(maxsize=None)(
                    functools.partial(self._kernel, text, result, arguments)))
        self._loops.append(loop)
        return loop

    def _compile_loop(self, types):
        """The loop of a dynamic ufunc for argument dtypes `types`: the function compiled for
        them tells the result type."""
        names = ", ".join(dtype.name for dtype in types)
        _, result = device_function_code(self._definition, f"({names})", {}, "c", None,
                                         "sm_{}{}".format(*DEFAULT_CC))
        return self._add_loop(f"{result}({names})")

    def _kaji_describe_global_(self, pickling=False):
        """Its entry in the globals description of a function that names it
        (kaji/_globals.py), pickled or not: that of the device function it wraps, which is
        what kernels call."""
        del pickling
        return self._device._kaji_describe_global_()

    def __reduce__(self):
        return (Vectorized, (self._definition, self._signatures, self.target))

    @property
    def nin(self):
        return len(self._definition.parameters)

    nout = 1

    @property
    def types(self):
        """numpy's ufunc.types: 'ff->f' per signature."""
        return ["".join(t.char for t in arguments) + "->" + result.char
                for result, arguments, _ in self._loops]

    def _kernel(self, text, result, arguments, scalar_positions, ndim):
        """The kernel of signature `text` whose arguments at `scalar_positions` are scalars.
        With `ndim` None the others and the output are C-contiguous 1-D arrays of one size;
        else they are arrays of one shape of `ndim` dimensions and any strides (0 where
        broadcast), and the loop's flat index is split into an index per axis."""
        name = kernel_name(self.__name__, "ufunc")
        parameters = [f"a{k}" for k in range(len(arguments))]
        index, lines = "i", []
        if ndim is not None and ndim > 1:
            lines.append("rest = i")
            for axis in range(ndim - 1, 0, -1):
                lines += [f"j{axis} = rest % out.shape[{axis}]", f"rest //= out.shape[{axis}]"]
            index = ", ".join(["rest"] + [f"j{axis}" for axis in range(1, ndim)])
        reads = [p if k in scalar_positions else f"{p}[{index}]"
                 for k, p in enumerate(parameters)]
        lines.append(f"out[{index}] = scalar_function({', '.join(reads)})")
        # The device function of this signature alone, so that the call converts to it.
        scalar_function = DeviceFunction(self._definition, (text,))
        kernel = per_element_kernel(name, parameters + ["out"], "out.size", lines,
                                    {"scalar_function": scalar_function}, self.target,
                                    f"kaji.vectorize of {self.__name__}")
        layout = "::1" if ndim is None else ", ".join([":"] * ndim)
        types = [t if k in scalar_positions else f"{t}[{layout}]"
                 for k, t in enumerate(arguments)]
        kernel.add_signature(f"void({', '.join(types)}, {result}[{layout}])")
        return kernel

    def __call__(self, *args, out=None, stream=0):
        result = self._call_on_alike_arrays(args, out, stream)
        if result is not None:
            return result
        import numpy

        if len(args) != self.nin:
            raise TypeError(f"ufunc '{self.__name__}' takes {self.nin} arguments, "
                            f"got {len(args)}")
        on_host = self.target == "cpu"
        stream = _kaji_stream(stream)
        what = f"ufunc '{self.__name__}'"
        is_array = [not is_scalar(a) for a in args]
        args = [as_array(what, k, a) if array else a
                for k, (a, array) in enumerate(zip(args, is_array))]
        result, arguments, kernel_for = self._resolve(args, is_array)
        shape = numpy.broadcast_shapes(*(a.shape for a, array in zip(args, is_array) if array))
        if out is not None:
            out = as_output(what, "out", out)
        on_device = any(isinstance(a, DeviceArray) for a in args) or isinstance(out, DeviceArray)
        _check_out(self.__name__, out, shape, result)
        count = 1
        for extent in shape:
            count *= extent
        inputs = [device_operand(a, dtype, shape, on_host, stream) if array
                  else as_scalar(what, k, a, dtype)
                  for k, (a, array, dtype) in enumerate(zip(args, is_array, arguments))]
        if isinstance(out, DeviceArray):
            device_out = out
        else:
            device_out = _core.device_array(shape, result, "C", on_host=on_host)
        if count:
            scalars = frozenset(k for k, array in enumerate(is_array) if not array)
            flat = device_out.is_c_contiguous() and all(
                not array or a.is_c_contiguous() for a, array in zip(inputs, is_array))
            blocks, threads = per_element_launch_shape(count)
            if flat:
                inputs = [a.ravel() if array else a for a, array in zip(inputs, is_array)]
                kernel_for(scalars, None)[blocks, threads, stream](*inputs, device_out.ravel())
            else:
                kernel_for(scalars, len(shape))[blocks, threads, stream](*inputs, device_out)
        if on_device:
            return device_out
        host = device_out.copy_to_host(stream=stream)
        if out is not None:
            out[...] = host
            return out
        return host[()] if not shape else host

    def _call_on_alike_arrays(self, args, out, stream):
        """The call most programs make, without the general path's work: C-contiguous device
        arrays of one shape, and no `out` or one like them of the result's dtype. The output,
        or None for any other call (which __call__ then makes)."""
        if len(args) != self.nin:
            return None
        shape = args[0].shape if isinstance(args[0], DeviceArray) else None
        for arg in args:
            if not isinstance(arg, DeviceArray) or arg.shape != shape or not arg.is_c_contiguous():
                return None
        types = tuple(arg.dtype for arg in args)
        loop = self._alike_array_loops.get(types)
        if loop is None:
            result, _, kernel_for = self._resolve(args, [True] * len(args))
            loop = self._alike_array_loops[types] = (result, kernel_for(frozenset(), None))
        result, kernel = loop
        if out is None:
            out = _core.device_array(shape, result, "C", on_host=self.target == "cpu")
        elif not (isinstance(out, DeviceArray) and out.shape == shape and out.dtype == result
                  and out.is_c_contiguous()):
            return None
        count = out.size
        if count:
            blocks, threads = per_element_launch_shape(count)
            if len(shape) == 1:  # already what the kernel takes: no views to make
                kernel[blocks, threads, _kaji_stream(stream)](*args, out)
            else:
                kernel[blocks, threads, _kaji_stream(stream)](*[arg.ravel() for arg in args],
                                                              out.ravel())
        return out

    def _resolve(self, args, is_array):
        """Numba's GPU ufunc type resolution: the signatures whose array dtypes equal the
        arguments' exactly; one of them, or a TypeError as Numba raises it."""
        matches = [(result, arguments, kernel)
                   for result, arguments, kernel in self._loops
                   if all(not array or arg.dtype == dtype
                          for arg, array, dtype in zip(args, is_array, arguments))]
        if self._dynamic:  # scalars too have their own types, as in Numba's dynamic ufuncs
            types = _argument_dtypes(args, is_array)
            exact = [match for match in matches if match[1] == types]
            return exact[0] if exact else self._compile_loop(types)
        if not matches:
            given = ", ".join(str(a.dtype) if array else type(a).__name__
                              for a, array in zip(args, is_array))
            raise TypeError(f"ufunc '{self.__name__}': no signature matches the argument "
                            f"types ({given}); GPU ufuncs need arrays of exactly a signature's "
                            f"types (numpy's casting='no'); signatures: {self.types}")
        if len(matches) > 1 and not any(is_array):
            # Scalars alone: the signature of their types as numpy makes them arrays (a
            # Python float is a float64), as Numba's ufuncs turn them into 0-d arrays.
            types = _argument_dtypes(args, is_array)
            exact = [match for match in matches if match[1] == types]
            if len(exact) != 1:
                raise TypeError(f"ufunc '{self.__name__}': ambiguous signature for scalar "
                                "arguments only; give numpy arrays (or 0-d arrays) to pick one")
            return exact[0]
        return matches[0]

    def reduce(self, array, stream=0):
        """Numba's ``ufunc.reduce(a, stream=0)`` of a binary ufunc: its function folded over
        the 1-D array `a` (numpy or device), a scalar of a's dtype, as ``cuda.reduce`` of the
        function computes it (in any order: the function is taken as associative and
        commutative)."""
        if self.nin != 2:
            raise TypeError(f"ufunc '{self.__name__}': reduce needs a binary ufunc, this one "
                            f"takes {self.nin} arguments")
        if len(array.shape) != 1:
            raise ValueError(f"ufunc '{self.__name__}': reduce takes a 1-D array, not one of "
                             f"shape {tuple(array.shape)}")
        if not self._dynamic and not any(arguments == [array.dtype, array.dtype]
                                         for _, arguments, _ in self._loops):
            raise TypeError(f"ufunc '{self.__name__}': no signature takes two {array.dtype} "
                            f"values to reduce with; signatures: {self.types}")
        if self._reduction is None:
            from kaji.reduction import Reduce

            self._reduction = Reduce(self._device, target=self.target)
        return self._reduction(array, stream=stream)

    def __repr__(self):
        return f"<kaji ufunc {self.__qualname__} target={self.target} types={self.types}>"


def _argument_dtypes(args, is_array):
    """The dtypes of ufunc arguments: an array's, a scalar's as numpy makes it an array."""
    import numpy

    return [arg.dtype if array else numpy.asarray(arg).dtype
            for arg, array in zip(args, is_array)]


def _check_out(name, out, shape, dtype):
    if out is None:
        return
    if tuple(out.shape) != tuple(shape):
        raise ValueError(f"ufunc '{name}': out has shape {tuple(out.shape)}, the broadcast "
                         f"inputs {tuple(shape)}")
    if out.dtype != dtype:
        raise TypeError(f"ufunc '{name}': out has dtype {out.dtype}, the signature returns "
                        f"{dtype}")
