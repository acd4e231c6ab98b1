"""DeviceArray's numpy-like methods, on host-backed arrays (the cpu target) and, where there
is a GPU, on device memory."""

import numpy as np
import pytest

import kaji


def test_setitem_scalars_rows_columns_and_strided_parts(device):
    host = np.arange(12, dtype=np.float32).reshape(3, 4)
    d = kaji.to_device(host)
    assert d.on_host == (device == "cpu")
    d[0, 0] = 100
    d[1] = 7
    d[:, 3] = [9, 8, 7]
    d[2, ::2] = np.array([-1, -2])
    d[..., 1:2] = d[..., 1:2].copy_to_host()  # through an Ellipsis, unchanged
    host[0, 0] = 100
    host[1] = 7
    host[:, 3] = [9, 8, 7]
    host[2, ::2] = [-1, -2]
    np.testing.assert_array_equal(d.copy_to_host(), host)


def test_setitem_converts_and_broadcasts(device):
    d = kaji.device_array((2, 3), np.int64)
    d[:] = 2.9  # numpy's conversion: truncation
    d[1, 1:] = np.array([5, 6], dtype=np.int8)
    np.testing.assert_array_equal(d.copy_to_host(), [[2, 2, 2], [2, 5, 6]])
    with pytest.raises(ValueError, match="could not broadcast input array from shape"):
        d[0] = [1, 2]
    with pytest.raises(IndexError, match="out of bounds"):
        d[5, 0] = 1


def test_getitem_and_setitem_take_numbas_stream(device):
    d = kaji.to_device(np.arange(5))
    d.setitem(0, 10)
    d.setitem(slice(1, 3), [7, 8], stream=0)
    assert d.getitem(0) == 10 and d.getitem(1, stream=0) == 7
    assert isinstance(d.getitem(slice(0, 2)), kaji.DeviceArray)
    want = [10, 7, 8, 3, 4]
    if device == "cuda":
        stream = kaji.stream()
        d.setitem(4, -1, stream=stream)
        assert d.getitem(4, stream=stream) == -1
        want[4] = -1
    np.testing.assert_array_equal(d.copy_to_host(), want)
    with pytest.raises(TypeError, match="stream"):
        d.setitem(0, 1, stream="s")


def test_numpy_conversion_is_one_copy_to_the_host(device):
    host = np.arange(12, dtype=np.float32).reshape(3, 4)
    d = kaji.to_device(host)
    np.testing.assert_array_equal(np.array(d), host)
    converted = np.asarray(d, dtype=np.float64)
    assert converted.dtype == np.float64
    np.testing.assert_array_equal(converted, host)
    np.testing.assert_array_equal(np.array(d[:, 1::2]), host[:, 1::2])
    with pytest.raises(ValueError, match="`copy=False` is not supported"):
        np.array(d, copy=False)


def test_a_shape_may_be_a_numpy_array_or_a_list(device):
    assert kaji.device_array(np.array([10, 10]), np.bool_).shape == (10, 10)
    assert kaji.device_array([3, 2]).shape == (3, 2)
    assert kaji.device_array(np.array(4)).shape == (4,)
    assert kaji.device_array(np.int64(5)).shape == (5,)
    with pytest.raises(TypeError, match="a shape is an int or a tuple of ints, not 'str'"):
        kaji.device_array("10")


def test_reshape_and_ravel_are_views(device):
    d = kaji.to_device(np.arange(24, dtype=np.int32))
    m = d.reshape(4, -1)
    assert m.shape == (4, 6)
    m[1, 0] = -1
    assert d[6] == -1
    assert d.reshape((2, 3, 4)).shape == (2, 3, 4)
    np.testing.assert_array_equal(m.ravel().copy_to_host(), d.copy_to_host())
    f = d.reshape(4, 6, order="F")
    np.testing.assert_array_equal(f.copy_to_host(), d.copy_to_host().reshape(4, 6, order="F"))


def test_reshape_errors_name_the_problem(device):
    d = kaji.to_device(np.zeros((4, 6)))
    with pytest.raises(ValueError, match="cannot reshape a device array of size 24 into shape"):
        d.reshape(5, -1)
    # Numba's error where numpy would copy.
    with pytest.raises(NotImplementedError, match="not C-contiguous"):
        d[:, ::2].ravel()
    with pytest.raises(NotImplementedError, match="cannot be viewed in C order"):
        d.T.reshape(24)
    with pytest.raises(ValueError, match="order must be 'C', 'F' or 'A', not 'K'"):
        d.reshape(24, order="K")
    with pytest.raises(ValueError, match="order must be 'C', 'F', 'A' or 'K', not 'X'"):
        d.ravel(order="X")


def test_flags_are_numpys(device):
    d = kaji.to_device(np.zeros((3, 4), np.float32))
    assert d.flags == {"C_CONTIGUOUS": True, "F_CONTIGUOUS": False, "WRITEABLE": True,
                       "ALIGNED": True}
    assert d.T.flags["F_CONTIGUOUS"] and not d.T.flags["C_CONTIGUOUS"]
    assert not d[:, ::2].flags["C_CONTIGUOUS"]


def test_transpose_and_T_are_views_with_numpys_strides(device):
    host = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    d = kaji.to_device(host)
    for axes in [(), ((2, 0, 1),), (1, 0, 2), ((-1, -2, -3),)]:
        view = d.transpose(*axes)
        expected = host.transpose(*axes)
        assert view.shape == expected.shape and view.strides == expected.strides
        np.testing.assert_array_equal(view.copy_to_host(), expected)
    np.testing.assert_array_equal(d.T.copy_to_host(), host.T)
    d.T[0, 0, 0] = -5
    assert d.copy_to_host()[0, 0, 0] == -5


@pytest.mark.parametrize("axes", [(0, 1), (0, 0, 1), (0, 1, 3)])
def test_transpose_rejects_axes_that_are_not_a_permutation(device, axes):
    d = kaji.device_array((2, 3, 4), np.float32)
    with pytest.raises(ValueError, match="axes|axis"):  # numpy's messages
        d.transpose(axes)


def test_view_reinterprets_the_bytes(device):
    host = np.arange(6, dtype=np.float32).reshape(2, 3)
    d = kaji.to_device(host)
    for dtype in (np.int32, np.uint8, np.int16):
        view = d.view(dtype)
        assert view.dtype == np.dtype(dtype) and view.shape == host.view(dtype).shape
        np.testing.assert_array_equal(view.copy_to_host(), host.view(dtype))
    with pytest.raises(ValueError, match="its size must be a divisor of the total size in "
                                         "bytes of the last axis"):
        d.view(np.float64)
    with pytest.raises(ValueError, match="the last axis must be contiguous"):
        d.T.view(np.uint8)


def test_squeeze_drops_axes_of_extent_one(device):
    host = np.arange(6, dtype=np.float64).reshape(1, 3, 1, 2)
    d = kaji.to_device(host)
    assert d.squeeze().shape == (3, 2)
    assert d.squeeze(axis=2).shape == (1, 3, 2)
    assert d.squeeze((0, -2)).shape == (3, 2)
    np.testing.assert_array_equal(d.squeeze().copy_to_host(), host.squeeze())
    with pytest.raises(ValueError, match="extent is 3"):
        d.squeeze(1)


def test_split_gives_views_of_a_section_each(device):
    host = np.arange(10, dtype=np.int64)
    parts = kaji.to_device(host).split(4)
    assert [p.shape for p in parts] == [(4,), (4,), (2,)]
    np.testing.assert_array_equal(np.concatenate([p.copy_to_host() for p in parts]), host)
    with pytest.raises(ValueError, match="1-d"):
        kaji.device_array((2, 2), np.int64).split(1)


def test_copy_to_device_from_a_device_array_and_back_into_a_given_array(device):
    host = np.arange(12, dtype=np.float32).reshape(3, 4)
    source = kaji.to_device(host)
    target = kaji.device_array_like(source)
    target.copy_to_device(source)
    into = np.empty_like(host)
    assert target.copy_to_host(into) is into
    np.testing.assert_array_equal(into, host)
    target.copy_to_device([[1] * 4] * 3, stream=0)  # Numba spells the default stream 0
    assert (target.copy_to_host(stream=0) == 1).all()
    target.copy_to_device(source, stream=None)
    np.testing.assert_array_equal(target.copy_to_host(stream=None), host)
    with pytest.raises(ValueError, match="source is"):
        target.copy_to_device(kaji.device_array((4, 3), np.float32))


def test_properties_and_contiguity(device):
    d = kaji.device_array((3, 5), np.int16, order="F")
    assert (d.nbytes, d.size, d.ndim, d.dtype, d.strides) == (30, 15, 2, np.int16, (2, 6))
    assert d.is_f_contiguous() and not d.is_c_contiguous()


@pytest.mark.parametrize("make", [
    lambda: np.zeros((4, 6), np.float32, order="F"),
    lambda: np.zeros((4, 6, 8), np.float32)[:, ::2, 1:],
    lambda: np.zeros((4, 6, 8), np.float32).transpose(1, 2, 0)[::2],
    lambda: np.zeros((5, 7), np.float32)[::2, ::3],
])
def test_device_array_like_keeps_numpys_layout(device, make):
    host = make()
    like = kaji.device_array_like(host)
    assert like.strides == np.empty_like(host).strides
    assert kaji.device_array_like(kaji.to_device(host)).strides == np.empty_like(host).strides


def test_is_cuda_array_and_as_cuda_array_need_the_interface(device):
    assert not kaji.is_cuda_array(np.zeros(3))
    with pytest.raises(TypeError, match="__cuda_array_interface__"):
        kaji.cuda.as_cuda_array(np.zeros(3))


@pytest.mark.gpu
def test_as_cuda_array_and_from_cuda_array_interface_view_without_copying(monkeypatch):
    monkeypatch.setenv("KAJI_TARGET", "cuda")
    host = np.arange(8, dtype=np.float32)
    d = kaji.to_device(host)
    assert kaji.is_cuda_array(d)

    class Exporter:
        def __init__(self, interface):
            self.__cuda_array_interface__ = interface

    exporter = Exporter(d.__cuda_array_interface__)
    view = kaji.cuda.as_cuda_array(exporter)
    assert view.device_pointer == d.device_pointer and view.shape == (8,)
    view[0] = 42
    assert d.copy_to_host()[0] == 42
    again = kaji.cuda.from_cuda_array_interface(d.__cuda_array_interface__, owner=d)
    np.testing.assert_array_equal(again.copy_to_host(), d.copy_to_host())


def test_records_with_array_fields_keep_their_dtype(device):
    """A record's array field (`("v", float32, 3)`) comes back as numpy's subarray dtype: the
    shape reaches Python through pybind11's std::vector caster, once an "Unregistered type"
    TypeError."""
    dtype = np.dtype([("mass", np.float64), ("v", np.float32, 3)], align=True)
    host = np.zeros(4, dtype=dtype)
    host["v"] = np.arange(12, dtype=np.float32).reshape(4, 3)
    d = kaji.to_device(host)
    assert d.dtype == dtype
    assert "('<f4', (3,))" in repr(d)
    np.testing.assert_array_equal(d.copy_to_host(), host)
    assert kaji.typeof(host).dtype.dtype == dtype


def test_an_assignment_that_does_not_broadcast_is_numpys_error(device):
    d = kaji.to_device(np.arange(5))
    with pytest.raises(ValueError, match=r"^could not broadcast input array from shape \(2,\) "
                                         r"into shape \(5,\)$"):
        d[:] = [1, 3]
    longer = kaji.to_device(np.arange(35))
    with pytest.raises(ValueError, match=r"from shape \(2,3\) into shape \(35,\)$"):
        longer[:] = np.ones((1, 2, 3))
    d[1:3] = [7, 8]
    np.testing.assert_array_equal(d.copy_to_host(), [0, 7, 8, 3, 4])


@pytest.mark.gpu
def test_copy_to_device_from_another_librarys_array_whose_device_kaji_does_not_know():
    source = kaji.to_device(np.arange(6.0))

    class Foreign:
        __cuda_array_interface__ = source.__cuda_array_interface__

    view = kaji.as_cuda_array(Foreign())
    target = kaji.device_array(6)
    target.copy_to_device(view)
    np.testing.assert_array_equal(target.copy_to_host(), np.arange(6.0))
    view.copy_to_device(np.arange(6.0) * 2)
    np.testing.assert_array_equal(source.copy_to_host(), np.arange(6.0) * 2)
