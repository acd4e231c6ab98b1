"""cuda.kernels.transpose against numpy's transpose."""

import numpy as np
import pytest

import kaji
from kaji import cuda


def _device(host, target):
    return kaji._core.to_device(np.ascontiguousarray(host), stream=None,
                                on_host=target == "cpu")


@pytest.mark.parametrize("shape", [(1, 1), (3, 5), (32, 32), (33, 65), (100, 7)])
@pytest.mark.parametrize("dtype", [np.float32, np.int64])
def test_transpose_into_a_new_array(ufunc_target, shape, dtype):
    a = np.arange(shape[0] * shape[1]).astype(dtype).reshape(shape)
    result = cuda.kernels.transpose(_device(a, ufunc_target))
    assert isinstance(result, kaji.DeviceArray)
    np.testing.assert_array_equal(result.copy_to_host(), a.T)


def test_transpose_into_b(ufunc_target):
    a = np.random.default_rng(0).random((40, 70))
    b = _device(np.zeros((70, 40)), ufunc_target)
    assert cuda.kernels.transpose(_device(a, ufunc_target), b) is b
    np.testing.assert_array_equal(b.copy_to_host(), a.T)


def test_transpose_rejects_wrong_b_and_shapes(ufunc_target):
    a = _device(np.zeros((4, 6)), ufunc_target)
    with pytest.raises(ValueError, match="shape"):
        cuda.kernels.transpose(a, _device(np.zeros((4, 6)), ufunc_target))
    with pytest.raises(ValueError, match="2-D"):
        cuda.kernels.transpose(_device(np.zeros(5), ufunc_target))
