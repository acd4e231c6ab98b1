"""``cuda.guvectorize`` / ``kaji.guvectorize``: a function over core arrays made into a
generalized GPU ufunc.

The layout ``"(n),(n)->(n)"`` names each argument's core dimensions; the leading dimensions
of the inputs are loop dimensions, broadcast as numpy broadcasts. Each signature gets a
kernel that, for every loop index ``i`` of the flattened loop dimensions (a grid-stride
loop), calls the function (a device function of that signature) on the views ``a[i]`` of
its arguments. A ``()`` core is a scalar where the signature gives a scalar type, else a
one-element array, as in Numba (an output ``()`` is written as ``out[0]``).
"""

import re

from kaji import _core
from kaji._arrays import _kaji_stream
from kaji._core import DeviceArray
from kaji._definition import Definition
from kaji._function_source import check_python_function
from kaji._generated import grid_stride_kernel, kernel_name, launch_shape
from kaji._target import check_target, default_target
from kaji._ufunc_arguments import as_array, as_output, as_scalar, device_operand, is_scalar
from kaji.decorator import DeviceFunction
from kaji.types import is_signature, signature_text

_CORE = re.compile(r"\(\s*(\w+(?:\s*,\s*\w+)*)?\s*\)")


def guvectorize(signatures, layout, *, target=None, identity=None, nopython=True,
                cache=False, writable_args=(), **unsupported):
    """Numba's ``@guvectorize(['void(float32[:], float32[:], float32[:])'], '(n),(n)->(n)',
    target='cuda')``: compiles the function for each signature and returns a generalized
    ufunc taking numpy arrays (giving numpy arrays) or device arrays (giving device arrays),
    outputs allocated or given positionally after the inputs or as ``out=``, and
    ``stream=``. ``target`` is "cuda" or "cpu" (kaji's CPU backend), by default the default
    target."""
    del identity, cache, writable_args  # accepted as Numba accepts them
    if unsupported:
        raise TypeError("The following target options are not supported: " +
                        ", ".join(repr(name) for name in unsupported))
    if not nopython:
        raise TypeError("nopython flag must be True")
    if callable(signatures) and not is_signature(signatures):
        raise TypeError("guvectorize needs a list of signatures and a layout, e.g. "
                        "@guvectorize(['void(float32[:], float32[:])'], '(n)->()')")
    if is_signature(signatures) or isinstance(signatures, str):
        signatures = [signatures]
    texts = [signature_text(signature) for signature in signatures]
    if not texts:
        raise TypeError("guvectorize needs at least one signature")
    inputs, outputs = parse_layout(layout)
    ufunc_target = default_target() if target is None else check_target(target)
    return lambda func: GUVectorized(func, texts, inputs, outputs, ufunc_target)


def parse_layout(layout):
    """([core dims of each input], [core dims of each output]) of '(m,n),(n)->(m)', each a
    tuple of names; ValueError for a malformed layout."""
    if not isinstance(layout, str) or layout.count("->") != 1:
        raise ValueError(f"guvectorize layout {layout!r}: expected '(dims),...->(dims),...', "
                         "e.g. '(n),(n)->(n)'")
    sides = []
    for side in layout.replace(" ", "").split("->"):
        cores = []
        position = 0
        while position < len(side):
            match = _CORE.match(side, position)
            if not match:
                raise ValueError(f"guvectorize layout {layout!r}: expected a parenthesised "
                                 f"list of dimension names at {side[position:]!r}")
            names = match.group(1)
            cores.append(tuple(names.split(",")) if names else ())
            position = match.end()
            if position < len(side):
                if side[position] != ",":
                    raise ValueError(f"guvectorize layout {layout!r}: expected ',' between "
                                     "arguments")
                position += 1
        sides.append(cores)
    inputs, outputs = sides
    if not inputs or not outputs:
        raise ValueError(f"guvectorize layout {layout!r} needs at least one input and one "
                         "output")
    return inputs, outputs


def _parse_array_signature(text):
    """[(dtype name, ndim or None for a scalar)] of the arguments of 'void(float32[:], ...)';
    TypeError where it does not return void."""
    canonical = _core.canonical_signature(text)
    result = canonical[:canonical.index("(")]
    if result not in ("void", "none", ""):  # "": a tuple of argument types
        raise TypeError(f"guvectorized functions cannot return values: signature '{text}' "
                        f"specifies {result} return type (the function writes its outputs "
                        "into the output arguments)")
    arguments = []
    for argument in re.findall(r"\w+(?:\[[^\]]*\])?", canonical[canonical.index("(") + 1:-1]):
        if "[" in argument:
            dims = argument[argument.index("[") + 1:-1]
            arguments.append((argument[:argument.index("[")], dims.count(",") + 1 if dims else 0))
        else:
            arguments.append((argument, None))
    return arguments


class GUVectorized:
    """A generalized GPU ufunc made by guvectorize. It pickles as its function's Definition,
    signatures, layout and target, and compiles again where it is unpickled (its ``py_func``
    is then None)."""

    def __init__(self, func, signatures, inputs, outputs, target):
        import numpy

        # The function's Definition: an unpickled ufunc's has no Python function.
        if not isinstance(func, Definition):
            check_python_function(func, "guvectorize")
            func = Definition.of(func)
        self._definition = func
        self.py_func = func.py_func
        self.target = target
        func.show_as(self)
        self._signatures = tuple(signatures)
        self._inputs, self._outputs = inputs, outputs
        self._cores = inputs + outputs
        self._loops = []  # ([argument dtypes], [argument is a scalar], kernel) per signature
        # The signatures whose array arguments all take any layout, by their loop's kernel, and
        # the kernel of arguments of any strides each gets on first use (_strided_kernel).
        self._any_layout_signatures = {}
        self._strided_kernels = {}
        count = len(func.parameters)
        for text in signatures:
            arguments = _parse_array_signature(text)
            if len(arguments) != len(self._cores) or count != len(self._cores):
                raise TypeError(f"guvectorize signature '{text}' has {len(arguments)} "
                                f"arguments, the layout {len(self._cores)} and "
                                f"'{self.__name__}' takes {count}")
            for k, ((_, ndim), core) in enumerate(zip(arguments, self._cores)):
                scalar_ok = ndim is None and not core and k < len(inputs)
                one_element = ndim == 1 and not core
                if not (scalar_ok or one_element or ndim == len(core)):
                    raise TypeError(f"guvectorize signature '{text}': argument {k} is "
                                    f"{'a scalar' if ndim is None else f'{ndim}-d'} but the "
                                    f"layout gives it {len(core)} core dimension(s) "
                                    f"({','.join(core)})")
            dtypes = [numpy.dtype(name) for name, _ in arguments]
            scalars = [ndim is None for _, ndim in arguments]
            kernel = self._kernel(text, arguments)
            self._loops.append((dtypes, scalars, kernel))
            if "::1" not in _core.canonical_signature(text):
                self._any_layout_signatures[kernel] = (text, arguments)

    def __reduce__(self):
        return (GUVectorized, (self._definition, self._signatures, self._inputs, self._outputs,
                               self.target))

    @property
    def nin(self):
        return len(self._inputs)

    @property
    def nout(self):
        return len(self._outputs)

    @property
    def signature(self):
        """numpy's gufunc signature: '(n),(n)->(n)'."""
        def side(cores):
            return ",".join(f"({','.join(core)})" for core in cores)

        return f"{side(self._inputs)}->{side(self._outputs)}"

    @property
    def types(self):
        return ["".join(t.char for t in dtypes[:self.nin]) + "->" +
                "".join(t.char for t in dtypes[self.nin:]) for dtypes, _, _ in self._loops]

    def _strided_kernel(self, kernel):
        """The kernel of `kernel`'s signature for arguments of any strides, or None where the
        signature wants a contiguous core."""
        if kernel not in self._strided_kernels and kernel in self._any_layout_signatures:
            self._strided_kernels[kernel] = self._kernel(*self._any_layout_signatures[kernel],
                                                         any_layout=True)
        return self._strided_kernels.get(kernel)

    def _kernel(self, text, arguments, any_layout=False):
        """The kernel of signature `text`: every argument comes with one loop dimension in
        front of its core dimensions, C-contiguous (with `any_layout`, of any strides)."""
        name = kernel_name(self.__name__, "gufunc")
        parameters = [f"a{k}" for k in range(len(arguments))]
        views = []
        for parameter, (_, ndim), core in zip(parameters, arguments, self._cores):
            if not core and ndim is not None:
                views.append(f"{parameter}[i:i + 1]")  # a one-element array, as Numba passes
            else:
                views.append(f"{parameter}[i]")
        core_function = DeviceFunction(self._definition, (text,))
        kernel = grid_stride_kernel(name, parameters + ["count"], "count",
                                    [f"core_function({', '.join(views)})"],
                                    {"core_function": core_function}, self.target,
                                    f"kaji.guvectorize of {self.__name__}")
        types = []
        for (dtype, _), core in zip(arguments, self._cores):
            last = ":" if any_layout else "::1"
            types.append(f"{dtype}[{', '.join([':'] * len(core) + [last])}]")
        kernel.add_signature(f"void({', '.join(types)}, int64)")
        return kernel

    def __call__(self, *args, out=None, stream=0):
        import numpy

        nin, nout = self.nin, self.nout
        if out is not None and len(args) == nin + nout:
            raise ValueError("cannot specify argument 'out' as both positional and keyword")
        if len(args) not in (nin, nin + nout) or out is not None and len(args) != nin:
            got = f"{len(args)} positional argument" + ("" if len(args) == 1 else "s")
            raise TypeError(f"gufunc '{self.__name__}' takes {nin} inputs and {nout} outputs: "
                            f"gufunc accepts {nin} positional arguments for its inputs or "
                            f"{nin + nout} positional arguments for its inputs and outputs. "
                            f"Got {got}.")
        outputs = list(args[nin:])
        if out is not None:
            outputs = list(out) if isinstance(out, tuple) else [out]
            if len(outputs) != nout:
                raise TypeError(f"gufunc '{self.__name__}' has {nout} outputs, out= gives "
                                f"{len(outputs)}")
        on_host = self.target == "cpu"
        stream = _kaji_stream(stream)
        what = f"gufunc '{self.__name__}'"
        is_array = [not is_scalar(a) for a in args[:nin]]
        inputs = [as_array(what, k, a) if array else a
                  for k, (a, array) in enumerate(zip(args[:nin], is_array))]
        dtypes, _, kernel = self._resolve(inputs, is_array)
        # A scalar is the 0-d array of its signature type, broadcast over the loop dimensions.
        inputs = [a if array else numpy.asarray(as_scalar(what, k, a, dtype))
                  for k, (a, array, dtype) in enumerate(zip(inputs, is_array, dtypes))]
        sizes = {}
        loop_shapes = [self._bind(a, core, sizes, f"input {k}")
                       for k, (a, core) in enumerate(zip(inputs, self._inputs))]
        outputs = [as_output(what, f"output {k}", o) for k, o in enumerate(outputs)]
        for k, (o, core) in enumerate(zip(outputs, self._outputs)):
            self._bind(o, core, sizes, f"output {k}")
        try:
            loop_shape = numpy.broadcast_shapes(*loop_shapes)
        except ValueError:
            raise ValueError(f"gufunc '{self.__name__}': the loop dimensions of the inputs "
                             f"{[tuple(s) for s in loop_shapes]} do not broadcast") from None
        for k, core in enumerate(self._outputs):
            missing = [name for name in core if name not in sizes]
            if missing:
                raise ValueError(f"gufunc '{self.__name__}': output {k}'s dimension "
                                 f"'{missing[0]}' appears in no input; pass the output")
        out_shapes = [tuple(loop_shape) + tuple(sizes[name] for name in core)
                      for core in self._outputs]
        for k, (o, shape, dtype) in enumerate(zip(outputs, out_shapes, dtypes[nin:])):
            if tuple(o.shape) != shape:
                raise ValueError(f"gufunc '{self.__name__}': output {k} has shape "
                                 f"{tuple(o.shape)}, expected {shape}")
            if o.dtype != dtype:
                raise TypeError(f"gufunc '{self.__name__}': output {k} has dtype {o.dtype}, "
                                f"the signature gives {dtype}")
            if isinstance(o, DeviceArray) and not o.is_c_contiguous():
                raise ValueError(f"gufunc '{self.__name__}': a device array output must be "
                                 "C-contiguous")
        on_device = (any(isinstance(a, DeviceArray) for a in inputs) or
                     any(isinstance(o, DeviceArray) for o in outputs))
        count = 1
        for extent in loop_shape:
            count *= extent
        full_shapes = [tuple(loop_shape) + tuple(sizes[name] for name in core)
                       for core in self._inputs]
        strided = any(isinstance(a, DeviceArray) and
                      not (tuple(a.shape) == shape and a.is_c_contiguous())
                      for a, shape in zip(inputs, full_shapes))
        strided_kernel = (self._strided_kernel(kernel)
                          if strided and len(loop_shape) == 1 else None)
        if strided_kernel is not None:
            # Device arrays read where they are (broadcast with stride 0), numpy ones copied in.
            kernel = strided_kernel
            flat_inputs = [device_operand(a, dtype, shape, on_host, stream)
                           for a, dtype, shape in zip(inputs, dtypes, full_shapes)]
        else:
            flat_inputs = [self._flat(a, dtype, tuple(loop_shape), core, sizes, on_host,
                                      stream)
                           for a, dtype, core in zip(inputs, dtypes, self._inputs)]
        flat_outputs = []
        for k, (dtype, core) in enumerate(zip(dtypes[nin:], self._outputs)):
            given = outputs[k] if outputs else None
            flat_shape = (count,) + tuple(sizes[name] for name in core)
            if isinstance(given, DeviceArray):
                flat_outputs.append(given.reshape(flat_shape))
            elif given is not None:
                # Its contents go in too: elements the function leaves alone stay as they were.
                flat_outputs.append(_core.to_device(
                    numpy.ascontiguousarray(given).reshape(flat_shape), stream=stream,
                    on_host=on_host))
            else:
                flat_outputs.append(_core.device_array(flat_shape, dtype, "C", on_host=on_host))
        if count:
            blocks, threads = launch_shape(count)
            kernel[blocks, threads, stream](*flat_inputs, *flat_outputs, count)
        results = []
        for k, (flat, shape) in enumerate(zip(flat_outputs, out_shapes)):
            given = outputs[k] if outputs else None
            if isinstance(given, DeviceArray):
                results.append(given)
            elif on_device and given is None:
                results.append(flat.reshape(shape))
            elif given is None:
                results.append(flat.copy_to_host(stream=stream).reshape(shape))
            else:
                given[...] = flat.copy_to_host(stream=stream).reshape(shape)
                results.append(given)
        return results[0] if nout == 1 else tuple(results)

    def _resolve(self, inputs, is_array):
        """The first signature whose input dtypes equal the array inputs' exactly (Numba's
        rule); Python scalars take the signature's type."""
        for dtypes, scalars, kernel in self._loops:
            if all(not array or a.dtype == dtype
                   for a, array, dtype in zip(inputs, is_array, dtypes)):
                return dtypes, scalars, kernel
        given = ", ".join(str(a.dtype) if array else type(a).__name__
                          for a, array in zip(inputs, is_array))
        # Numba's words for a device array: it is not converted to a signature's dtype.
        device = any(isinstance(a, DeviceArray) for a in inputs)
        raise TypeError(f"gufunc '{self.__name__}': no signature matches the input types "
                        f"({given}); signatures: {self.types}" +
                        ("; a device array does not support .astype(): give one of a "
                         "signature's dtypes" if device else ""))

    def _bind(self, array, core, sizes, what):
        """The loop shape of `array` (its leading dimensions) after binding its core
        dimensions' names in `sizes`; ValueError where a name's extents disagree."""
        shape = tuple(array.shape)
        if len(shape) < len(core):
            raise ValueError(f"gufunc '{self.__name__}': {what} has {len(shape)} "
                             f"dimension(s), its core ({','.join(core)}) needs {len(core)}")
        for name, extent in zip(core, shape[len(shape) - len(core):]):
            if sizes.setdefault(name, extent) != extent:
                raise ValueError(f"gufunc '{self.__name__}': dimension '{name}' is "
                                 f"{sizes[name]} and {extent} ({what})")
        return shape[:len(shape) - len(core)]

    @staticmethod
    def _flat(array, dtype, loop_shape, core, sizes, on_host, stream):
        """`array` broadcast over `loop_shape` and flattened to (loop count, *core), a
        C-contiguous device array (host-backed for the cpu target)."""
        import numpy

        core_shape = tuple(sizes[name] for name in core)
        shape = loop_shape + core_shape
        count = 1
        for extent in loop_shape:
            count *= extent
        if isinstance(array, DeviceArray):
            if tuple(array.shape) == shape and array.is_c_contiguous():
                return array.reshape((count,) + core_shape)
            array = array.copy_to_host(stream=stream)  # broadcast or strided: through the host
        host = numpy.ascontiguousarray(numpy.broadcast_to(array.astype(dtype, copy=False),
                                                          shape))
        return _core.to_device(host.reshape((count,) + core_shape), stream=stream,
                               on_host=on_host)

    def __repr__(self):
        return (f"<kaji gufunc {self.__qualname__} target={self.target} "
                f"signature={self.signature!r} types={self.types}>")
