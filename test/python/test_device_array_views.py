"""Views of device arrays against numpy: every view kaji supports (slices with steps, negative
steps and empty slices, ints, '...', .T, transpose, reshape, ravel, squeeze, view(dtype)) and
device_array_like of each must have the shape, strides, flags and contents numpy gives the
same view of the host array. Host-backed arrays (the cpu target) always; device memory where
there is a GPU."""

import numpy as np
import pytest

import kaji


def _c(shape, dtype=np.float64):
    return np.arange(int(np.prod(shape))).astype(dtype).reshape(shape)


def _f(shape, dtype=np.float64):
    return np.asfortranarray(_c(shape, dtype))


# (id, host array, the view: a function applied alike to the host and the device array)
VIEWS = [
    ("T_2d", _c((5, 3)), lambda a: a.T),
    ("T_3d", _c((5, 6, 8)), lambda a: a.T),
    ("T_of_F", _f((4, 7)), lambda a: a.T),
    ("T_of_steps", _c((5, 6, 8)), lambda a: a[1:4, ::2].T),
    ("T_of_column_steps", _c((40, 24)), lambda a: a[:, ::3].T),
    ("T_T", _c((4, 6)), lambda a: a[::2].T.T),
    ("transpose_axes", _c((2, 3, 4)), lambda a: a.transpose(1, 2, 0)),
    ("transpose_negative_axes", _c((2, 3, 4)), lambda a: a.transpose(-1, 0, -2)),
    ("steps", _c((40, 24)), lambda a: a[::2, 1::3]),
    ("steps_of_F", _f((9, 8)), lambda a: a[1::2, ::3]),
    ("negative_steps", _c((40, 24)), lambda a: a[::-2, ::-1]),
    ("negative_steps_T", _c((40, 24)), lambda a: a[::-2, 3:].T),
    ("negative_then_positive", _c((12,)), lambda a: a[::-1][2:9:3]),
    ("step_past_the_end", _c((5,)), lambda a: a[1:2:3]),
    ("step_larger_than_extent", _c((4, 5)), lambda a: a[::7, ::9]),
    ("empty_slice", _c((5,)), lambda a: a[4:1]),
    ("empty_slice_with_step", _c((5, 3)), lambda a: a[5:-6:5]),
    ("empty_slice_of_negative", _c((5,)), lambda a: a[::-1][4:1]),
    ("empty_slice_then_T", _c((4, 3, 5, 5)), lambda a: a[::3, 3:1].T),
    ("int_then_slice", _c((4, 5, 6)), lambda a: a[2, ::2]),
    ("negative_int", _c((4, 5, 6)), lambda a: a[:, -1]),
    ("ellipsis", _c((4, 5, 6)), lambda a: a[..., 1:5:2]),
    ("ellipsis_in_the_middle", _c((4, 5, 6)), lambda a: a[1, ..., ::-2]),
    ("size_one_axes", _c((3, 1, 2)), lambda a: a[:, :, ::2]),
    ("size_one_slice", _c((3, 4)), lambda a: a[:, 1:2]),
    ("int8", _c((6, 10), np.int8), lambda a: a[::2, ::3].T),
    ("reshape_C", _c((24,)), lambda a: a.reshape(4, 6)),
    ("reshape_F", _c((24,)), lambda a: a.reshape(4, 6, order="F")),
    ("reshape_T_in_F", _c((4, 6)), lambda a: a.T.reshape(3, 8, order="F")),
    ("reshape_size_one_axes", _c((2, 3)), lambda a: a.reshape(1, 6, 1)),
    ("reshape_empty", _c((2, 3)), lambda a: a[:, 1:1].reshape(3, 0, 2)),
    ("reshape_a_column", _c((4, 5)), lambda a: a[:, :1].reshape(4)),
    ("reshape_a_column_minus_one", _c((4, 5)), lambda a: a[:, :1].reshape(-1, 1)),
    ("reshape_same_shape_of_steps", _c((4, 5)), lambda a: a[::2].reshape(2, 5)),
    ("reshape_negative_steps", _c((24,)), lambda a: a[::-1].reshape(4, 6)),
    ("reshape_merges_rows_of_steps", _c((4, 6, 2)), lambda a: a[::2].reshape(2, 12)),
    ("reshape_splits_steps_in_F", _c((12, 3)), lambda a: a[:, ::2].reshape(3, 4, 2, order="F")),
    ("reshape_one_element_minus_one", _c((10,)), lambda a: a[::5][:1].reshape(-1)),
    ("ravel", _c((3, 4)), lambda a: a.ravel()),
    ("ravel_one_element", _c((10,)), lambda a: a[::5][:1].ravel()),
    ("ravel_F_of_T", _c((3, 4)), lambda a: a.T.ravel(order="F")),
    ("ravel_A_of_T", _c((3, 4)), lambda a: a.T.ravel(order="A")),
    ("ravel_K_of_T", _c((3, 4)), lambda a: a.T.ravel(order="K")),
    ("ravel_A_of_1d", _c((10,)), lambda a: a.ravel(order="A")),
    ("reshape_A_of_T", _c((3, 4)), lambda a: a.T.reshape(2, 6, order="A")),
    ("squeeze", _c((3, 1, 4, 1)), lambda a: a.squeeze()),
    ("squeeze_axis", _c((3, 1, 4, 1)), lambda a: a.squeeze(1)),
    ("squeeze_a_slice", _c((3, 4)), lambda a: a[:, 1:2].squeeze()),
    ("view_dtype", _c((3, 4), np.float32), lambda a: a.view(np.int32)),
    ("view_smaller_dtype", _c((3, 4), np.int32), lambda a: a.view(np.int16)),
    ("view_of_empty", _c((3, 4)), lambda a: a[1:1].view(np.float32)),
    ("view_of_rows", _c((6, 4), np.int32), lambda a: a[::2].view(np.int16)),
    ("view_larger_dtype_of_rows", _c((6, 4), np.int16), lambda a: a[::-3].view(np.int64)),
    ("view_of_a_column", _c((6, 4), np.int32), lambda a: a[:, 1:2].view(np.int8)),
]


def _memory_of(array):
    while array.base is not None:
        array = array.base
    return array


def _assert_same_view(device_view, host_view):
    assert device_view.shape == host_view.shape
    assert device_view.strides == host_view.strides
    assert device_view.dtype == host_view.dtype
    for flag in ("C_CONTIGUOUS", "F_CONTIGUOUS"):
        assert device_view.flags[flag] == host_view.flags[flag], flag
    assert device_view.is_c_contiguous() == host_view.flags["C_CONTIGUOUS"]
    assert device_view.is_f_contiguous() == host_view.flags["F_CONTIGUOUS"]
    np.testing.assert_array_equal(device_view.copy_to_host(), host_view)


@pytest.mark.parametrize("host, take", [row[1:] for row in VIEWS], ids=[row[0] for row in VIEWS])
def test_a_view_is_numpys(device, host, take):
    _assert_same_view(take(kaji.to_device(host)), take(host))


@pytest.mark.parametrize("host, take", [row[1:] for row in VIEWS], ids=[row[0] for row in VIEWS])
def test_views_of_a_view_are_numpys(device, host, take):
    # The same view taken of a view (its transpose, and its reversal) of the array.
    for outer in (lambda a: a.T, lambda a: a[::-1]):
        try:
            expected = take(outer(host))
        except ValueError:
            with pytest.raises(ValueError):
                take(outer(kaji.to_device(host)))
            continue
        if _memory_of(expected) is not _memory_of(host):
            # numpy copies (reshape, ravel of a strided array): kaji refuses, as Numba does.
            with pytest.raises(NotImplementedError):
                take(outer(kaji.to_device(host)))
            continue
        _assert_same_view(take(outer(kaji.to_device(host))), expected)


@pytest.mark.parametrize("host, take", [row[1:] for row in VIEWS], ids=[row[0] for row in VIEWS])
def test_device_array_like_of_a_view_is_numpys_empty_like(device, host, take):
    host_view = take(host)
    new = kaji.device_array_like(take(kaji.to_device(host)))
    expected = np.empty_like(host_view)
    assert (new.shape, new.strides, new.dtype) == (expected.shape, expected.strides,
                                                   expected.dtype)
    assert new.flags == kaji.device_array_like(host_view).flags
    # Its contents go in and come back whatever its axis order.
    values = np.arange(host_view.size).astype(host_view.dtype).reshape(host_view.shape)
    new.copy_to_device(values)
    _assert_same_view(new, np.copyto(expected, values) or expected)


def test_new_arrays_without_elements_have_numpys_zero_strides(device):
    # numpy (since 1.23) gives new empty arrays zero strides, whatever their order.
    for shape in [(0,), (0, 2), (3, 0, 2)]:
        for order in "CF":
            assert kaji.device_array(shape, np.float32, order).strides == \
                np.empty(shape, np.float32, order).strides
        assert kaji.to_device(np.zeros(shape)).strides == np.zeros(shape).strides


def test_copy_to_device_into_a_strided_view_keeps_the_gaps(device):
    host = _c((6, 8))
    d = kaji.to_device(host)
    d[::2, 1::3].copy_to_device(-_c((3, 3)))
    host[::2, 1::3] = -_c((3, 3))
    np.testing.assert_array_equal(d.copy_to_host(), host)
