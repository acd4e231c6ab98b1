"""cuda.vectorize / kaji.vectorize: GPU ufuncs against numpy."""

import numpy as np
import pytest

import kaji
from kaji import cuda, float32, float64, int32


def _add(a, b):
    return a + b


def _make_add(target, signatures=("float32(float32, float32)", "float64(float64, float64)",
                                  "int32(int32, int32)")):
    return kaji.vectorize(list(signatures), target=target)(_add)


def _device(host, target):
    return kaji._core.to_device(np.asarray(host), stream=None, on_host=target == "cpu")


def test_numpy_in_numpy_out(ufunc_target):
    add = _make_add(ufunc_target)
    a = np.arange(1000, dtype=np.float32)
    b = np.linspace(0, 1, 1000, dtype=np.float32)
    result = add(a, b)
    assert isinstance(result, np.ndarray) and result.dtype == np.float32
    np.testing.assert_array_equal(result, a + b)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_dispatch_on_dtype_picks_the_matching_signature(ufunc_target, dtype):
    add = _make_add(ufunc_target)
    a = np.arange(50).astype(dtype)
    result = add(a, a)
    assert result.dtype == dtype
    np.testing.assert_array_equal(result, a + a)


def test_type_object_signatures(ufunc_target):
    def fma(x, y, z):
        return x * y + z

    ufunc = cuda.vectorize([float64(float64, float64, float64), float32(float32, float32,
                                                                         float32)],
                           target=ufunc_target)(fma)
    x = np.random.default_rng(1).random((7, 9))
    np.testing.assert_allclose(ufunc(x, x, x), x * x + x)
    assert ufunc.types == ["ddd->d", "fff->f"]


def test_broadcasting_as_numpy(ufunc_target):
    add = _make_add(ufunc_target)
    a = np.arange(12, dtype=np.float64).reshape(3, 4)
    b = np.arange(4, dtype=np.float64)
    c = np.arange(3, dtype=np.float64).reshape(3, 1)
    np.testing.assert_array_equal(add(a, b), a + b)
    np.testing.assert_array_equal(add(c, b), c + b)
    with pytest.raises(ValueError):
        add(a, np.arange(5, dtype=np.float64))


def test_without_signatures_it_compiles_for_each_new_set_of_types(ufunc_target):
    dynamic = kaji.vectorize(target=ufunc_target)(_add)
    assert dynamic.types == []
    ints = np.arange(4)
    np.testing.assert_array_equal(dynamic(ints, ints), 2 * ints)
    halves = np.arange(4, dtype=np.float32) / 2
    got = dynamic(halves, halves)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, 2 * halves)
    mixed = dynamic(ints, 0.5)  # a Python float is a float64: the result too
    assert mixed.dtype == np.float64
    np.testing.assert_array_equal(mixed, ints + 0.5)
    assert dynamic(1, 2) == 3 and isinstance(dynamic(1, 2), np.int64)
    assert dynamic.types == ["ll->l", "ff->f", "ld->d"]
    dynamic(ints, ints)
    assert len(dynamic.types) == 3  # the loop is kept


@pytest.mark.parametrize("shape", [(), (7,), (3, 5)])
def test_calls_on_alike_device_arrays_resolve_as_every_call(ufunc_target, shape):
    # The short path for C-contiguous device arrays of one shape picks the same signature,
    # raises the same TypeError and writes the same out= as the general path.
    add = _make_add(ufunc_target)
    dynamic = kaji.vectorize(target=ufunc_target)(_add)
    for dtype in (np.float32, np.int32, np.float64):
        host = np.arange(int(np.prod(shape)), dtype=dtype).reshape(shape)
        device = _device(host, ufunc_target)
        for ufunc in (add, dynamic):
            got = ufunc(device, device)
            assert isinstance(got, kaji.DeviceArray) and got.dtype == dtype
            np.testing.assert_array_equal(got.copy_to_host(), host + host)
        out = _device(np.zeros_like(host), ufunc_target)
        assert add(device, device, out=out) is out
        np.testing.assert_array_equal(out.copy_to_host(), host + host)
    assert dynamic.types == ["ff->f", "ii->i", "dd->d"]
    int16 = _device(np.ones(shape, np.int16), ufunc_target)
    with pytest.raises(TypeError, match=r"'_add': no signature matches .*\(int16, int16\)"):
        add(int16, int16)
    wrong_out = _device(np.zeros(shape, np.float64), ufunc_target)
    float32 = _device(np.ones(shape, np.float32), ufunc_target)
    with pytest.raises(TypeError, match="out has dtype float64, the signature returns float32"):
        add(float32, float32, out=wrong_out)


def test_bare_decorator_is_dynamic(ufunc_target, monkeypatch):
    import math

    def erf(x):
        return math.erf(x)

    monkeypatch.setenv("KAJI_TARGET", ufunc_target)
    ufunc = kaji.vectorize(erf)
    assert ufunc.target == ufunc_target
    x = np.linspace(-2, 2, 9)
    np.testing.assert_allclose(ufunc(x), [math.erf(v) for v in x], rtol=1e-15)
    np.testing.assert_allclose(ufunc(x.astype(np.float32)), [math.erf(v) for v in x],
                               rtol=1e-6)
    assert ufunc(x.astype(np.float32)).dtype == np.float32


def test_scalars_take_the_arrays_signature(ufunc_target):
    add = _make_add(ufunc_target)
    a = np.arange(10, dtype=np.float32)
    result = add(a, 2.5)
    assert result.dtype == np.float32
    np.testing.assert_array_equal(result, a + np.float32(2.5))
    np.testing.assert_array_equal(add(3, np.arange(4, dtype=np.int32)), 3 + np.arange(4))


def test_scalars_only_pick_the_signature_of_their_numpy_types(ufunc_target):
    add = _make_add(ufunc_target)
    assert add(1.25, 2.5) == 3.75 and isinstance(add(1.25, 2.5), np.float64)
    assert isinstance(add(np.float32(1), np.float32(2)), np.float32)
    with pytest.raises(TypeError, match="ambiguous"):
        add(1, 2)  # int64: no signature of its own, and three it converts to
    single = _make_add(ufunc_target, ["float64(float64, float64)"])
    assert single(1.5, 2.0) == 3.5


def test_exact_dtypes_as_numba(ufunc_target):
    add = _make_add(ufunc_target, ["float32(float32, float32)"])
    with pytest.raises(TypeError, match="no signature matches.*float64"):
        add(np.ones(3), np.ones(3))


def test_reduce_folds_a_1d_array_keeping_its_dtype(ufunc_target):
    add = _make_add(ufunc_target)
    for n in (1, 3, 1000, 4097):
        x = np.arange(n, dtype=np.int32)
        got = add.reduce(x)
        assert got == x.sum() and got.dtype == np.int32
        assert add.reduce(_device(x, ufunc_target)) == x.sum()
    with pytest.raises(TypeError, match="no signature takes two int64 values"):
        add.reduce(np.arange(3))
    with pytest.raises(ValueError, match="1-D array"):
        add.reduce(np.zeros((2, 2), dtype=np.float32))


def test_out_numpy(ufunc_target):
    add = _make_add(ufunc_target)
    a = np.arange(6, dtype=np.float64).reshape(2, 3)
    out = np.empty_like(a)
    assert add(a, a, out=out) is out
    np.testing.assert_array_equal(out, a + a)
    with pytest.raises(ValueError, match="shape"):
        add(a, a, out=np.empty(6))
    with pytest.raises(TypeError, match="dtype"):
        add(a, a, out=np.empty((2, 3), dtype=np.float32))


def test_device_arrays_in_device_array_out(ufunc_target):
    add = _make_add(ufunc_target)
    a = np.arange(64, dtype=np.float32).reshape(8, 8)
    da = _device(a, ufunc_target)
    result = add(da, a)
    assert isinstance(result, kaji.DeviceArray)
    np.testing.assert_array_equal(result.copy_to_host(), a + a)
    out = _device(np.zeros_like(a), ufunc_target)
    assert add(da, da, out=out) is out
    np.testing.assert_array_equal(out.copy_to_host(), a + a)
    # A device array broadcast against another shape.
    row = _device(np.arange(8, dtype=np.float32), ufunc_target)
    np.testing.assert_array_equal(add(da, row).copy_to_host(), a + np.arange(8))


VIEWS = {
    "every second column": lambda a: a[:, ::2],
    "transposed": lambda a: a.T,
    "reversed rows": lambda a: a[::-1],
    "one column": lambda a: a[:, 3:4],
    "one row": lambda a: a[5],
    "a 3-d block": lambda a: a.reshape(4, 6, 4)[1:, ::2, ::-1],
}


@pytest.mark.parametrize("view", VIEWS.values(), ids=VIEWS.keys())
def test_strided_and_broadcast_device_arrays_are_read_in_place(ufunc_target, view):
    # Each operand a view of a device array (strides of any sign, broadcast axes), against
    # numpy on the same views; also into an output that is itself a view.
    fma = kaji.vectorize(["float32(float32, float32, float32)"],
                         target=ufunc_target)(lambda a, x, y: a * x + y)
    rng = np.random.default_rng(7)
    a, x = (rng.random((12, 8), dtype=np.float32) for _ in range(2))
    y = rng.random(8, dtype=np.float32)
    da, dx, dy = (_device(v, ufunc_target) for v in (a, x, y))
    host = view(a) * view(x)[..., :1] + view(a)
    got = fma(view(da), view(dx)[..., :1], view(da))
    np.testing.assert_allclose(got.copy_to_host(), host, rtol=1e-6)
    if view(a).shape[-1] == y[::2].shape[0]:
        np.testing.assert_allclose(fma(view(da), view(dx), dy[::2]).copy_to_host(),
                                   view(a) * view(x) + y[::2], rtol=1e-6)
    out = _device(np.zeros((2,) + view(a).shape, np.float32), ufunc_target)
    assert fma(view(da), 2.0, view(dx), out=out[1]) is not None
    np.testing.assert_allclose(out.copy_to_host()[1], view(a) * 2 + view(x), rtol=1e-6)
    np.testing.assert_array_equal(out.copy_to_host()[0], 0)
    transposed_out = _device(np.zeros(view(a).shape[::-1], np.float32), ufunc_target).T
    fma(view(da), view(dx), 1.0, out=transposed_out)
    np.testing.assert_allclose(transposed_out.copy_to_host(), view(a) * view(x) + 1,
                               rtol=1e-6)


def test_stream(ufunc_target):
    add = _make_add(ufunc_target)
    a = np.arange(100, dtype=np.float64)
    stream = kaji.stream() if ufunc_target == "cuda" else 0
    np.testing.assert_array_equal(add(a, a, stream=stream), a + a)


def test_empty_input(ufunc_target):
    add = _make_add(ufunc_target)
    assert add(np.empty(0, np.float32), np.empty(0, np.float32)).shape == (0,)


def test_large_input_covers_every_element(ufunc_target):
    add = _make_add(ufunc_target)
    a = np.arange(1 << 20, dtype=np.int32)
    np.testing.assert_array_equal(add(a, a), a + a)


def test_callable_from_kernels(ufunc_target):
    scale = kaji.vectorize(["float64(float64, float64)"], target=ufunc_target)(_add)

    @kaji.jit(target=ufunc_target)
    def kernel(out, x):
        i = kaji.grid(1)
        if i < out.size:
            out[i] = scale(x[i], 1.0)

    x = np.arange(10, dtype=np.float64)
    out = np.zeros_like(x)
    kernel[1, 32](out, x)
    np.testing.assert_array_equal(out, x + 1)


def test_wrong_argument_count(ufunc_target):
    with pytest.raises(TypeError, match="takes 2 arguments"):
        _make_add(ufunc_target)(np.ones(3))


def test_bad_signatures():
    with pytest.raises(TypeError, match="at least one signature"):
        kaji.vectorize([])
    with pytest.raises(TypeError, match="scalars"):
        kaji.vectorize(["void(float32[:], float32[:])"], target="cpu")(_add)
    with pytest.raises(TypeError, match="has 1 arguments"):
        kaji.vectorize(["float32(float32)"], target="cpu")(_add)
    with pytest.raises(ValueError, match="target"):
        kaji.vectorize(["float32(float32, float32)"], target="parallel")


def test_errors_in_the_function_point_at_its_line():
    def broken(a, b):
        return a + undefined_name  # noqa: F821

    with pytest.raises(kaji.CompileError, match=r"test_vectorize\.py:\d+:\d+: error"):
        kaji.vectorize(["float32(float32, float32)"], target="cpu")(broken)
    dynamic = kaji.vectorize(target="cpu")(broken)  # compiled at its first call
    with pytest.raises(kaji.CompileError, match=r"test_vectorize\.py:\d+:\d+: error"):
        dynamic(np.zeros(2), np.zeros(2))


def test_int32_alias_is_usable():
    ufunc = kaji.vectorize([int32(int32, int32)], target="cpu")(_add)
    assert ufunc(np.int32(2) * np.ones(2, np.int32), 3).tolist() == [5, 5]


@kaji.jit("float32(float32, float32, float32)", device=True)
def _power_over(x, y, z):
    return x ** y / z


def _calls_device_function(x, y, z):
    return _power_over(x, y, z)


def test_ufunc_calls_device_functions(ufunc_target):
    ufunc = kaji.vectorize(["float32(float32, float32, float32)"],
                           target=ufunc_target)(_calls_device_function)
    x = np.linspace(1, 2, 20, dtype=np.float32)
    np.testing.assert_allclose(ufunc(x, x, x), x ** x / x, rtol=1e-6)


def test_zero_d_fortran_and_strided_arrays(ufunc_target):
    add = _make_add(ufunc_target)
    assert add(np.array(2.0), 3.0) == 5.0
    f = np.asfortranarray(np.arange(6.0).reshape(2, 3))
    np.testing.assert_array_equal(add(f, f), f + f)
    out = np.zeros((3, 4))[:, ::2]
    add(np.ones((3, 2)), 2.0, out=out)
    np.testing.assert_array_equal(out, np.full((3, 2), 3.0))


def test_lists_are_arrays_as_numpy_makes_them(ufunc_target):
    add = _make_add(ufunc_target)
    np.testing.assert_array_equal(add([1.5, 2.5], np.ones(2)), [2.5, 3.5])
    np.testing.assert_array_equal(add([[1.0, 2.0], [3.0, 4.0]], 1.0), [[2.0, 3.0], [4.0, 5.0]])
    # numpy makes int64 of these: no signature has it, and the message says so, not what
    # kaji's generated kernel would say.
    with pytest.raises(TypeError, match=r"'_add': no signature matches .*\(int64, float32\)"):
        _make_add(ufunc_target, ["float32(float32, float32)"])([1, 2], np.ones(2, np.float32))
    with pytest.raises(ValueError, match=r"'_add': argument 1 \(list\): setting an array "):
        add(np.ones(2), [1.0, [2.0, 3.0]])
    with pytest.raises(TypeError, match="argument 0 is a dict that numpy makes no array of"):
        add({}, np.ones(2))


def test_a_scalar_the_signature_type_cannot_hold_is_an_overflow_error(ufunc_target):
    add = _make_add(ufunc_target, ["uint8(uint8, uint8)"])
    a = np.arange(3, dtype=np.uint8)
    np.testing.assert_array_equal(add(a, 200), a + np.uint8(200))
    with pytest.raises(OverflowError, match=r"'_add': argument 1 \(300\) does not fit .*uint8"):
        add(a, 300)


def test_a_lambda_as_numba_compiles_it(ufunc_target):
    double = cuda.vectorize(["float64(float64)"], target=ufunc_target)(lambda x: x * 2.0 + 1)
    x = np.linspace(-1, 1, 9)
    np.testing.assert_array_equal(double(x), x * 2.0 + 1)
    assert double.__name__ == "<lambda>"


@pytest.mark.bytecode
def test_lambdas_whose_text_is_not_theirs_alone_compile_from_bytecode(ufunc_target):
    pair = (lambda x: x + 1.0, lambda x: x * 3.0)  # the same parameters on one line
    spanning = cuda.vectorize(["float64(float64, float64)"], target=ufunc_target)(lambda a,
                                                                                   b: a - b)
    x = np.linspace(-1, 1, 9)
    for function, expected in zip(pair, (x + 1.0, x * 3.0)):
        ufunc = cuda.vectorize(["float64(float64)"], target=ufunc_target)(function)
        np.testing.assert_array_equal(ufunc(x), expected)
    np.testing.assert_array_equal(spanning(x, 0.5), x - 0.5)


def test_a_partial_is_a_type_error_naming_it():
    import functools

    with pytest.raises(TypeError, match=r"vectorize compiles Python functions .*not "
                                        r"functools\.partial"):
        kaji.vectorize(["float32(float32)"], target="cpu")(functools.partial(_add, 1.0))


class _ForeignArray:
    """Another library's GPU array: only its __cuda_array_interface__."""

    def __init__(self, array):
        self._array = array

    @property
    def __cuda_array_interface__(self):
        return self._array.__cuda_array_interface__


@pytest.mark.gpu
def test_gpu_arrays_of_other_libraries_are_used_in_place():
    add = _make_add("cuda")
    a = kaji.to_device(np.arange(4, dtype=np.float32))
    got = add(_ForeignArray(a), _ForeignArray(a))
    assert isinstance(got, kaji.DeviceArray)
    np.testing.assert_array_equal(got.copy_to_host(), 2 * np.arange(4))


@pytest.mark.gpu
def test_a_gpu_array_of_another_library_is_an_output_written_in_place():
    add = _make_add("cuda")
    host = np.arange(4, dtype=np.float32)
    target = kaji.device_array(4, np.float32)
    returned = add(host, host, out=_ForeignArray(target))
    assert returned.__cuda_array_interface__["data"] == target.__cuda_array_interface__["data"]
    np.testing.assert_array_equal(target.copy_to_host(), 2 * host)
    gufunc = cuda.guvectorize(["void(float32[:], float32[:], float32[:])"], "(n),(n)->(n)",
                              target="cuda")(_add_each)
    target[:] = 0
    returned = gufunc(host, host, out=_ForeignArray(target))
    assert returned.__cuda_array_interface__["data"] == target.__cuda_array_interface__["data"]
    np.testing.assert_array_equal(target.copy_to_host(), 2 * host)


def test_an_output_that_is_no_array_is_named(ufunc_target):
    add = _make_add(ufunc_target)
    with pytest.raises(TypeError, match="ufunc '.*': out must be a numpy array, a device array "
                                        "or a GPU array exporting __cuda_array_interface__, "
                                        "not list"):
        add(np.ones(2, np.float32), np.ones(2, np.float32), out=[0, 0])
    gufunc = cuda.guvectorize(["void(float32[:], float32[:], float32[:])"], "(n),(n)->(n)",
                              target=ufunc_target)(_add_each)
    with pytest.raises(TypeError, match="gufunc '_add_each': output 0 must be a numpy array"):
        gufunc(np.ones(2, np.float32), np.ones(2, np.float32), out="x")


def _add_each(a, b, out):
    for i in range(a.shape[0]):
        out[i] = a[i] + b[i]


@pytest.mark.gpu
def test_guvectorize_takes_gpu_arrays_of_other_libraries_in_place():
    a = kaji.to_device(np.arange(4, dtype=np.float32))
    gufunc = cuda.guvectorize(["void(float32[:], float32[:], float32[:])"], "(n),(n)->(n)",
                              target="cuda")(_add_each)
    np.testing.assert_array_equal(gufunc(_ForeignArray(a), a).copy_to_host(), 2 * np.arange(4))


def test_options_as_numba_takes_them(ufunc_target):
    with pytest.warns(RuntimeWarning, match=f"nopython kwarg for {ufunc_target} target is "
                                            "redundant"):
        kaji.vectorize(["float32(float32, float32)"], target=ufunc_target, nopython=True)
    with pytest.raises(KeyError, match="Unrecognized options. .* does not support option: "
                                       "'nonexistent'"):
        kaji.vectorize(["float32(float32, float32)"], target=ufunc_target, nonexistent=2)
