"""The arguments of kaji's ufuncs (``vectorize``, ``guvectorize``), read by one rule, Numba's
(numba.cuda's ``UFuncMechanism``):

- a Python or numpy scalar is a scalar: it takes the type of the signature the array
  arguments pick, converted as ``numpy.<type>(value)`` converts, so that an int the type
  cannot hold (300 for uint8) is NumPy 2's ``OverflowError``, never a silent wraparound;
- a kaji device array stays where it is, and another library's GPU array (one exporting
  ``__cuda_array_interface__``: CuPy, PyTorch, Numba) is viewed where it is, as a device
  array, without a copy;
- anything else (a list, a tuple, a numpy array) is what ``numpy.asarray`` makes of it, an
  array that needs a signature of exactly its dtype (numpy's casting='no', as Numba's GPU
  ufuncs); what numpy makes no array of numbers of is numpy's error (a ragged list), or a
  ``TypeError`` (an object array), naming the argument.
"""

from kaji._arrays import as_cuda_array
from kaji._core import DeviceArray


def is_scalar(value):
    """Whether `value` is passed as a scalar: a Python bool, int, float or complex, or a
    numpy scalar of a number type (bfloat16, whose scalars are only numpy.generic, too)."""
    import numpy

    if isinstance(value, (bool, int, float, complex, numpy.number, numpy.bool_)):
        return True
    return isinstance(value, numpy.generic) and value.dtype.name == "bfloat16"


def as_array(ufunc, position, value):
    """`value` (not a scalar) as an array: a numpy or device array as it is, another library's
    GPU array viewed as a device array, anything else through numpy.asarray. `ufunc` ("ufunc 'add'") and `position` (from 0) name the argument
    in errors."""
    import numpy

    if isinstance(value, (DeviceArray, numpy.ndarray)):
        return value
    if hasattr(value, "__cuda_array_interface__"):
        return as_cuda_array(value)
    try:
        array = numpy.asarray(value)
    except (TypeError, ValueError) as error:  # numpy's class: a ragged list is a ValueError
        raise type(error)(f"{ufunc}: argument {position} ({type(value).__name__}): "
                          f"{error}") from None
    if array.dtype == object:
        raise TypeError(f"{ufunc}: argument {position} is a {type(value).__name__} that numpy "
                        "makes no array of numbers of; give a number, a numpy array, a "
                        "device array or a (nested) list of numbers")
    return array


def as_output(ufunc, what, value):
    """An output array given to a ufunc (`what`: "out", "output 0"): a numpy or device array
    as it is, another library's GPU array viewed as a device array (the ufunc writes it in
    place and returns the view, as Numba's do)."""
    import numpy

    if isinstance(value, (DeviceArray, numpy.ndarray)):
        return value
    if hasattr(value, "__cuda_array_interface__"):
        return as_cuda_array(value)
    raise TypeError(f"{ufunc}: {what} must be a numpy array, a device array or a GPU array "
                    f"exporting __cuda_array_interface__, not {type(value).__name__}")


def as_scalar(ufunc, position, value, dtype):
    """The scalar `value` as `dtype`'s numpy scalar, converted as numpy converts it:
    OverflowError naming the argument for an int the type cannot hold."""
    try:
        return dtype.type(value)
    except OverflowError as error:
        raise OverflowError(f"{ufunc}: argument {position} ({value!r}) does not fit the "
                            f"signature's {dtype} ({error})") from None


def device_operand(array, dtype, shape, on_host, stream):
    """`array` (an array as_array gave) as a device array (host-backed for the cpu target) of
    `shape` and any strides: a device array's own view, broadcast with stride 0 where needed;
    a host array copied in as it is (as `dtype`), then broadcast on the device."""
    from kaji import _core

    if not isinstance(array, DeviceArray):
        import numpy

        array = _core.to_device(numpy.asarray(array, dtype=dtype, order="C"), stream=stream,
                                on_host=on_host)
    return array if tuple(array.shape) == tuple(shape) else array._broadcast_to(shape)
