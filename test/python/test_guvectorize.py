"""cuda.guvectorize / kaji.guvectorize: generalized GPU ufuncs against numpy."""

import numpy as np
import pytest

import kaji
from kaji import cuda


def _add_rows(a, b, out):
    for i in range(a.shape[0]):
        out[i] = a[i] + b[i]


def _scale(a, factor, out):
    for i in range(a.shape[0]):
        out[i] = a[i] * factor


def _total(a, out):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    out[0] = s


def _matmul(a, b, out):
    for i in range(a.shape[0]):
        for j in range(b.shape[1]):
            s = 0.0
            for k in range(a.shape[1]):
                s += a[i, k] * b[k, j]
            out[i, j] = s


def _min_max(a, low, high):
    low[0] = a.min()
    high[0] = a.max()


def _device(host, target):
    return kaji._core.to_device(np.asarray(host), stream=None, on_host=target == "cpu")


def _add_gufunc(target):
    return cuda.guvectorize(["void(float32[:], float32[:], float32[:])",
                             "void(float64[:], float64[:], float64[:])"],
                            "(n),(n)->(n)", target=target)(_add_rows)


def test_same_core_layout_numpy_in_numpy_out(ufunc_target):
    add = _add_gufunc(ufunc_target)
    a = np.random.rand(6, 5).astype(np.float32)
    b = np.random.rand(6, 5).astype(np.float32)
    result = add(a, b)
    assert isinstance(result, np.ndarray) and result.dtype == np.float32
    np.testing.assert_allclose(result, a + b, rtol=1e-6)


STRIDED_ROWS = {
    "every second column": lambda a: a[:, ::2],
    "every second row": lambda a: a[::2],
    "transposed": lambda a: a.T,
    "reversed rows": lambda a: a[::-1, 1:],
}


@pytest.mark.parametrize("view", STRIDED_ROWS.values(), ids=STRIDED_ROWS.keys())
def test_strided_device_arrays_are_read_in_place(ufunc_target, view):
    # Views of device arrays (and a core vector broadcast over the loop with stride 0) go to
    # the kernel as they are, against numpy on the same views.
    add = _add_gufunc(ufunc_target)
    total = cuda.guvectorize(["void(float64[:], float64[:])"], "(n)->()",
                             target=ufunc_target)(_total)
    rng = np.random.default_rng(3)
    a, b = rng.random((8, 6)), rng.random((8, 6))
    da, db = _device(a, ufunc_target), _device(b, ufunc_target)
    np.testing.assert_allclose(add(view(da), view(db)).copy_to_host(), view(a) + view(b))
    row = view(b)[0]
    np.testing.assert_allclose(add(view(da), view(db)[0]).copy_to_host(), view(a) + row)
    np.testing.assert_allclose(add(view(da), row).copy_to_host(), view(a) + row)
    np.testing.assert_allclose(total(view(da)).copy_to_host(), view(a).sum(axis=1))


def test_dispatch_on_dtype(ufunc_target):
    add = _add_gufunc(ufunc_target)
    a = np.arange(4.0)
    assert add(a, a).dtype == np.float64
    np.testing.assert_array_equal(add(a, a), a * 2)
    with pytest.raises(TypeError, match="no signature matches"):
        add(np.arange(4, dtype=np.int32), np.arange(4, dtype=np.int32))


def test_broadcasting_over_loop_dimensions(ufunc_target):
    add = _add_gufunc(ufunc_target)
    a = np.arange(2 * 3 * 4, dtype=np.float64).reshape(2, 3, 4)
    b = np.arange(4, dtype=np.float64) * 10
    c = np.arange(3 * 4, dtype=np.float64).reshape(3, 1, 4)
    np.testing.assert_array_equal(add(a, b), a + b)
    np.testing.assert_array_equal(add(b, c), b + c)
    assert add(b, b).shape == (4,)


def test_scalar_input(ufunc_target):
    scale = cuda.guvectorize(["void(float64[:], float64, float64[:])"], "(n),()->(n)",
                             target=ufunc_target)(_scale)
    a = np.arange(12, dtype=np.float64).reshape(3, 4)
    factors = np.array([1.0, 2.0, 3.0])
    np.testing.assert_array_equal(scale(a, factors), a * factors[:, None])
    np.testing.assert_array_equal(scale(a, 2.5), a * 2.5)


def test_scalar_output(ufunc_target):
    total = cuda.guvectorize(["void(float32[:], float32[:])"], "(n)->()",
                             target=ufunc_target)(_total)
    a = np.arange(20, dtype=np.float32).reshape(4, 5)
    result = total(a)
    assert result.shape == (4,)
    np.testing.assert_allclose(result, a.sum(axis=1))
    assert total(np.arange(3, dtype=np.float32)).shape == ()


def test_two_core_dimensions_each(ufunc_target):
    matmul = cuda.guvectorize(["void(float64[:, :], float64[:, :], float64[:, :])"],
                              "(m,n),(n,p)->(m,p)", target=ufunc_target)(_matmul)
    a = np.random.rand(5, 3, 4)
    b = np.random.rand(4, 2)
    np.testing.assert_allclose(matmul(a, b), a @ b)


def test_several_outputs(ufunc_target):
    min_max = cuda.guvectorize(["void(int32[:], int32[:], int32[:])"], "(n)->(),()",
                               target=ufunc_target)(_min_max)
    a = np.array([[3, -1, 7], [0, 5, 2]], dtype=np.int32)
    low, high = min_max(a)
    np.testing.assert_array_equal(low, a.min(axis=1))
    np.testing.assert_array_equal(high, a.max(axis=1))


def test_outputs_given_positionally_and_as_out(ufunc_target):
    add = _add_gufunc(ufunc_target)
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    out = np.zeros_like(a)
    assert add(a, a, out) is out
    np.testing.assert_array_equal(out, a * 2)
    other = np.zeros_like(a)
    assert add(a, 1 + a, out=other) is other
    np.testing.assert_array_equal(other, 2 * a + 1)
    with pytest.raises(ValueError, match="output 0 has shape"):
        add(a, a, out=np.zeros(3, dtype=np.float32))
    with pytest.raises(TypeError, match="output 0 has dtype"):
        add(a, a, out=np.zeros((2, 3)))


def test_device_arrays_in_device_array_out(ufunc_target):
    add = _add_gufunc(ufunc_target)
    a = np.arange(8, dtype=np.float64).reshape(2, 4)
    result = add(_device(a, ufunc_target), _device(a, ufunc_target))
    assert isinstance(result, kaji.DeviceArray) and result.shape == (2, 4)
    np.testing.assert_array_equal(result.copy_to_host(), a * 2)
    out = _device(np.zeros_like(a), ufunc_target)
    assert add(a, a, out=out) is out
    np.testing.assert_array_equal(out.copy_to_host(), a * 2)


def test_core_dimension_mismatch_is_an_error(ufunc_target):
    add = _add_gufunc(ufunc_target)
    with pytest.raises(ValueError, match="dimension 'n' is 3 and 4"):
        add(np.zeros(3), np.zeros(4))
    with pytest.raises(ValueError, match="do not broadcast"):
        add(np.zeros((2, 3)), np.zeros((4, 3)))


def test_layout_and_signature_errors(ufunc_target):
    with pytest.raises(ValueError, match="layout"):
        cuda.guvectorize(["void(float32[:], float32[:])"], "(n)(n)", target=ufunc_target)
    with pytest.raises(TypeError, match="core dimension"):
        cuda.guvectorize(["void(float32[:, :], float32[:])"], "(n)->(n)",
                         target=ufunc_target)(_total)
    with pytest.raises(TypeError, match="guvectorized functions cannot return values: "
                                        "signature .* specifies float32 return type"):
        cuda.guvectorize(["float32(float32[:], float32[:])"], "(n)->(n)",
                         target=ufunc_target)(_total)


def test_options_numba_refuses(ufunc_target):
    with pytest.raises(TypeError, match="^nopython flag must be True$"):
        cuda.guvectorize(["void(float32[:], float32[:])"], "(n)->(n)", target=ufunc_target,
                         nopython=False)
    with pytest.raises(TypeError, match="^The following target options are not supported: "
                                        "'what1', 'ever2'$"):
        cuda.guvectorize(["void(float32[:], float32[:])"], "(n)->(n)", target=ufunc_target,
                         what1=True, ever2=False)


def test_argument_counts_numba_refuses(ufunc_target):
    add = _add_gufunc(ufunc_target)
    a = np.zeros((2, 3), dtype=np.float32)
    for args in [(a,), (a, a, a, a)]:
        with pytest.raises(TypeError, match=r"gufunc accepts 2 positional arguments for its "
                                            r"inputs or 3 positional arguments for its inputs "
                                            rf"and outputs. Got {len(args)} positional "
                                            r"argument"):
            add(*args)
    with pytest.raises(ValueError, match="^cannot specify argument 'out' as both positional "
                                         "and keyword$"):
        add(a, a, a, out=a)


def test_output_dimension_from_no_input_needs_the_output(ufunc_target):
    make = cuda.guvectorize(["void(float64[:], float64[:])"], "(n)->(m)",
                            target=ufunc_target)(_add_one_each)
    with pytest.raises(ValueError, match="'m' appears in no input"):
        make(np.zeros(3))
    out = np.zeros((4,))
    make(np.zeros(3), out)
    np.testing.assert_array_equal(out, [1, 1, 1, 0])


def _add_one_each(a, out):
    for i in range(a.shape[0]):
        out[i] = a[i] + 1


def test_properties(ufunc_target):
    add = _add_gufunc(ufunc_target)
    assert add.nin == 2 and add.nout == 1
    assert add.signature == "(n),(n)->(n)"
    assert add.types == ["ff->f", "dd->d"]


def _offset(a, k, out):
    for i in range(a.shape[0]):
        out[i] = a[i] + k


def test_a_scalar_is_converted_by_vectorizes_rule(ufunc_target):
    """A scalar takes the signature's type as it does for vectorize (numpy's conversion): 300
    for uint8 is an OverflowError there, never 44."""
    offset = cuda.guvectorize(["void(uint8[:], uint8, uint8[:])"], "(n),()->(n)",
                              target=ufunc_target)(_offset)
    add = cuda.vectorize(["uint8(uint8, uint8)"], target=ufunc_target)(lambda a, b: a + b)
    a = np.arange(4, dtype=np.uint8)
    np.testing.assert_array_equal(offset(a, 200), add(a, 200))
    for ufunc in (offset, add):
        with pytest.raises(OverflowError, match=r"argument 1 \(300\) does not fit .*uint8"):
            ufunc(a, 300)


def test_lists_are_arrays_of_their_numpy_dtype(ufunc_target):
    add_rows = _add_gufunc(ufunc_target)
    np.testing.assert_array_equal(add_rows([1.0, 2.0], np.ones(2)), [2.0, 3.0])
    with pytest.raises(TypeError, match=r"no signature matches the input types \(int64, "):
        add_rows([1, 2], np.ones(2))


def test_a_device_array_of_another_dtype_is_not_converted(ufunc_target):
    add_rows = _add_gufunc(ufunc_target)
    with pytest.raises(TypeError, match=r"\(int64, float64\).*a device array does not support "
                                        r"\.astype\(\)"):
        add_rows(_device(np.arange(2), ufunc_target), np.ones(2))


def test_a_partial_is_a_type_error_naming_it():
    import functools

    with pytest.raises(TypeError, match=r"guvectorize compiles Python functions .*not "
                                        r"functools\.partial"):
        cuda.guvectorize(["void(float32[:], float32[:])"], "(n)->(n)",
                         target="cpu")(functools.partial(_scale, factor=2.0))
