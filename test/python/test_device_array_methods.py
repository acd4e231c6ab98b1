"""DeviceArray's numpy-like methods, on host-backed arrays (the cpu target) and, where there
is a GPU, on device memory."""

import numpy as np
import pytest

import kaji


def _where():
    places = ["cpu"]
    if kaji.is_available() and kaji.devices():
        places.append("cuda")
    return places


@pytest.fixture(params=_where())
def device(request, monkeypatch):
    monkeypatch.setenv("KAJI_TARGET", request.param)
    return request.param


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
    with pytest.raises(ValueError, match="could not be broadcast"):
        d[0] = [1, 2]
    with pytest.raises(IndexError, match="out of bounds"):
        d[5, 0] = 1


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
    with pytest.raises(ValueError, match="not C-contiguous"):
        d[:, ::2].ravel()
    with pytest.raises(ValueError, match="order must be 'C' or 'F'"):
        d.reshape(24, order="A")
