"""Argument typing, argument errors and launch-configuration errors: no GPU needed, since all
of these are decided before any device is touched."""

import numpy as np
import pytest

import kaji


@kaji.jit
def add(out, x, y):
    i = kaji.grid(1)
    if i < out.size:
        out[i] = x[i] + y[i]


@kaji.jit
def store(out, value):
    out[0] = value


class FakeCudaArray:
    """Just enough of __cuda_array_interface__ v3 to be typed (never launched)."""

    def __init__(self, shape, typestr, strides=None, stream=None):
        self.__cuda_array_interface__ = {
            "shape": shape, "typestr": typestr, "strides": strides, "data": (0, False),
            "version": 3, "stream": stream,
        }


@pytest.mark.parametrize("value, expected", [
    (True, kaji.boolean),
    (3, kaji.int64),
    (2 ** 63, kaji.uint64),
    (2.5, kaji.float64),
    (np.float32(1), kaji.float32),
    (np.int16(1), kaji.int16),
    (np.uint8(1), kaji.uint8),
    (np.float16(1), kaji.float16),
    (np.bool_(True), kaji.boolean),
    (1.5 - 2j, kaji.complex128),
    (np.complex64(1j), kaji.complex64),
    (np.complex128(1j), kaji.complex128),
])
def test_scalar_types(value, expected):
    assert kaji.typeof(value) == expected


@pytest.mark.parametrize("target", ["cpu", "cuda"])
def test_numpy_array_layouts(target):
    c = np.zeros((4, 6), dtype=np.float32)
    assert kaji.typeof(c, target) == kaji.float32[:, ::1]
    assert kaji.typeof(np.asfortranarray(c), target) == kaji.float32[::1, :]
    assert kaji.typeof(np.zeros(5, dtype=np.int64), target) == kaji.int64[::1]


def test_strided_numpy_arrays():
    c = np.zeros((4, 6), dtype=np.float32)
    # cuda stages a copy of the bytes a view spans, cpu uses it in place: both keep strides
    assert kaji.typeof(c[:, ::2], "cuda") == kaji.float32[:, :]
    assert kaji.typeof(c[:, ::2], "cpu") == kaji.float32[:, :]


def test_cuda_array_interface_layouts():
    assert kaji.typeof(FakeCudaArray((4, 6), "<f4"), "cuda") == kaji.float32[:, ::1]
    assert kaji.typeof(FakeCudaArray((4, 6), "<f4", (4, 16)), "cuda") == kaji.float32[::1, :]
    assert kaji.typeof(FakeCudaArray((8,), "<f8", (16,)), "cuda") == kaji.float64[:]
    assert kaji.typeof(FakeCudaArray((3,), "|b1"), "cuda") == kaji.boolean[::1]
    assert kaji.typeof(FakeCudaArray((3,), "<c8"), "cuda") == kaji.complex64[::1]
    assert kaji.typeof(FakeCudaArray((3, 2), "<c16"), "cuda") == kaji.complex128[:, ::1]


@pytest.mark.parametrize("stream", [None, 1, 2, 0x7f00_0000_1234])
def test_cuda_array_interface_streams_kaji_waits_for(stream):
    assert kaji.typeof(FakeCudaArray((4,), "<f4", stream=stream), "cuda") == kaji.float32[::1]


@pytest.mark.parametrize("stream", [0, -3, "1", 1.0])
def test_cuda_array_interface_stream_must_be_none_or_positive(stream):
    with pytest.raises(TypeError, match=r"\['stream'\] must be None or a positive int"):
        kaji.typeof(FakeCudaArray((4,), "<f4", stream=stream), "cuda")


def test_gpu_arrays_are_not_cpu_arguments():
    with pytest.raises(TypeError, match="cpu target"):
        kaji.typeof(FakeCudaArray((4, 6), "<f4"), "cpu")


def test_unsupported_array_dtype_names_it():
    with pytest.raises(TypeError, match="complex256|clongdouble"):
        kaji.typeof(np.zeros(3, dtype=np.clongdouble))
    with pytest.raises(TypeError, match=">f4"):
        kaji.typeof(FakeCudaArray((3,), ">f4"), "cuda")


def test_unsupported_argument_type_names_the_argument():
    with pytest.raises(TypeError, match=r"argument 2 \('x'\) of kernel 'add'.*'list'"):
        add[1, 32](np.zeros(3), [1.0, 2.0, 3.0], np.zeros(3))


class RefusingDLPackExporter:
    """A GPU array whose exporter refuses DLPack for it, as PyTorch does for sparse tensors."""

    def __dlpack_device__(self):
        return (2, 0)

    def __dlpack__(self, stream=None):
        raise BufferError("Can't export tensors with layout other than torch.strided")


def test_an_array_its_exporter_refuses_names_the_argument_and_the_reason():
    with pytest.raises(TypeError, match=r"argument 1 \('a'\).*refused to export it: .*layout"):
        kaji.jit(lambda a: None, target="cuda").signature_for((RefusingDLPackExporter(),))


def test_unsupported_dtype_names_the_argument():
    with pytest.raises(TypeError, match=r"argument 3 \('y'\).*clongdouble|complex256"):
        add[1, 32](np.zeros(3), np.zeros(3), np.zeros(3, dtype=np.clongdouble))


def test_python_int_beyond_64_bits_names_the_argument():
    with pytest.raises(ValueError, match=r"argument 2 \('value'\) of kernel 'store'.*64 bits"):
        store[1, 1](np.zeros(1), 2 ** 64)


@kaji.jit("void(int64[:], int32)", target="cpu")
def store_int32(out, n):
    out[0] = n


@pytest.mark.parametrize("value", [2 ** 32, -2 ** 31 - 1, 2 ** 40, 2 ** 63])
def test_python_int_beyond_an_eager_int_parameters_width_raises(value):
    # NumPy 2's rule (np.int32(2**40) raises); Numba wraps instead (docs/numba-compat.md).
    with pytest.raises(OverflowError, match=r"argument 2 \('n'\) of kernel 'store_int32': "
                                            rf"{value} is out of range for its parameter "
                                            r"type int32"):
        store_int32[1, 1](np.zeros(1, dtype=np.int64), value)


def test_python_int_in_range_for_an_eager_int_parameter_converts():
    out = np.zeros(1, dtype=np.int64)
    for value in [2 ** 31 - 1, -2 ** 31]:
        store_int32[1, 1](out, value)
        assert out[0] == value


@kaji.jit("void(int64[:], uint32, int64)", target="cpu")
def store_uint32_and_int64(out, u, n):
    out[0] = u
    out[1] = n


def test_python_int_written_as_the_parameters_bits_passes_those_bits():
    """A mask in hex for a signed parameter, -1 for an unsigned one: the bits, as Numba."""
    out = np.zeros(2, dtype=np.int64)
    for value, as_int32 in [(0xFFFFFFFF, -1), (0x80000000, -2 ** 31), (2 ** 32 - 2, -2)]:
        store_int32[1, 1](out, value)
        assert out[0] == as_int32
    store_uint32_and_int64[1, 1](out, -1, 2 ** 64 - 1)
    assert out.tolist() == [2 ** 32 - 1, -1]
    store_uint32_and_int64[1, 1](out, -2 ** 31, 2 ** 63)
    assert out.tolist() == [2 ** 31, -2 ** 63]
    with pytest.raises(OverflowError, match="out of range for its parameter type uint32"):
        store_uint32_and_int64[1, 1](out, -2 ** 31 - 1, 0)


def test_wrong_argument_count():
    with pytest.raises(TypeError, match="takes 3 arguments but 2 were given"):
        add[1, 32](np.zeros(3), np.zeros(3))


@pytest.mark.parametrize("config, message", [
    ((0, 32), "grid dimension x is 0"),
    ((1, (32, -1)), "block dimension y is -1"),
    ((1, 32, None, -4), "dynamic shared memory size is -4"),
    ((1, (1, 1, 1, 1)), "a sequence of 1, 2 or 3 integers"),
])
def test_bad_launch_configuration_is_a_value_error(config, message):
    with pytest.raises(ValueError, match=message):
        add[config](np.zeros(3), np.zeros(3), np.zeros(3))


@pytest.mark.parametrize("config, message", [
    ((2**64, 32), "griddim dimension 18446744073709551616 is out of range"),
    (((1, -2**70), 32), "griddim dimension -1180591620717411303424 is out of range"),
    ((1, (32, 2**63)), "blockdim dimension 9223372036854775808 is out of range"),
    ((1, 32, None, 2**64), "sharedmem 18446744073709551616 is out of range"),
])
def test_launch_dimension_beyond_64_bits_is_a_value_error_naming_it(config, message):
    with pytest.raises(ValueError, match=message):
        add[config](np.zeros(3), np.zeros(3), np.zeros(3))


@pytest.mark.parametrize("config", [(1, 32, None, 1.5), (1, 32, None, "8"), ((1, None), 32)])
def test_launch_sizes_of_wrong_type_are_type_errors_naming_them(config):
    with pytest.raises(TypeError, match="sharedmem|griddim"):
        add[config]


def test_occupancy_block_size_with_sharedmem_beyond_64_bits_is_a_value_error():
    with pytest.raises(ValueError, match="sharedmem 18446744073709551616 is out of range"):
        add.occupancy_block_size((np.zeros(3), np.zeros(3), np.zeros(3)), 2**64)


@pytest.mark.parametrize("opt", [-3, 4, 99, 2**64])
def test_opt_outside_0_to_3_is_a_value_error_naming_the_range(opt):
    with pytest.raises(ValueError, match=r"opt must be True, False or 0 to 3, not " + str(opt)):
        kaji.jit(opt=opt, target="cpu")(add.py_func)


@pytest.mark.parametrize("opt", [1.5, "2"])
def test_opt_of_wrong_type_is_a_type_error(opt):
    with pytest.raises(TypeError, match="opt"):
        kaji.jit(opt=opt, target="cpu")(add.py_func)


def test_launch_configuration_needs_grid_and_block():
    with pytest.raises(ValueError, match=r"kernel\[griddim, blockdim\]"):
        add[1]


@pytest.mark.parametrize("config", [(1.5, 32), (1, "32"), (1, 32, "stream")])
def test_launch_configuration_of_wrong_type_is_a_type_error(config):
    with pytest.raises(TypeError):
        add[config]


@pytest.mark.skipif(kaji.is_available(), reason="a CUDA driver is available")
def test_cuda_launch_without_gpu_raises_cuda_unavailable():
    cuda_add = kaji.jit(target="cuda")(add.py_func)
    with pytest.raises(kaji.CudaUnavailable) as info:
        cuda_add[1, 32](np.zeros(3), np.zeros(3), np.zeros(3))
    assert str(info.value)
    assert kaji.devices() == []


@pytest.mark.skipif(kaji.is_available(), reason="a CUDA driver is available")
def test_device_memory_without_gpu_raises_cuda_unavailable(monkeypatch):
    monkeypatch.setenv("KAJI_TARGET", "cuda")
    with pytest.raises(kaji.CudaUnavailable):
        kaji.to_device(np.zeros(3))


def nested(levels):
    value = 1
    for _ in range(levels):
        value = (value,)
    return value


@kaji.jit(target="cpu")
def first_leaf(out, t):
    out[0] = 1


def test_tuple_arguments_nest_64_deep():
    out = np.zeros(1)
    first_leaf[1, 1](out, nested(64))
    assert out[0] == 1


@pytest.mark.parametrize("levels", [65, 30_000])
def test_tuple_arguments_nested_deeper_are_a_type_error_naming_the_argument(levels):
    with pytest.raises(TypeError, match="argument 't' of kernel 'first_leaf' nests tuples more "
                                        "than 64 deep"):
        first_leaf[1, 1](np.zeros(1), nested(levels))
