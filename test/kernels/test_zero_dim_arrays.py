"""0-d arrays: size 1, ndim 0, shape (), the element read and written as x[()], passed as
numpy arrays and as device arrays, and named `float32[]` in a signature."""

import numpy as np
import pytest

import kaji


def zero_dim(out, x):
    out[0] = x.size
    out[1] = x.ndim
    out[2] = len(x.shape)
    out[3] = x[()]
    x[()] = x[()] * 2 + 1


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.uint8])
def test_zero_dim_numpy_array(jit, dtype):
    x = np.full((), 3, dtype=dtype)
    out = np.zeros(4, dtype=np.float64)
    jit(zero_dim)[1, 1](out, x)
    np.testing.assert_array_equal(out, [1, 0, 0, 3])
    assert x.shape == () and x[()] == 7


def test_zero_dim_device_array(jit, target):
    if target != kaji.default_target():
        pytest.skip("kaji.to_device makes arrays for the default target only")
    x = kaji.to_device(np.full((), 2.5, dtype=np.float32))
    out = np.zeros(4, dtype=np.float64)
    jit(zero_dim)[1, 1](out, x)
    np.testing.assert_array_equal(out, [1, 0, 0, 2.5])
    assert x.copy_to_host()[()] == 6.0


def test_zero_dim_eager_signature(target):
    kernel = kaji.jit("void(float64[:], float32[])", target=target)(zero_dim)
    x = np.full((), 1.5, dtype=np.float32)
    out = np.zeros(4, dtype=np.float64)
    kernel[1, 1](out, x)
    np.testing.assert_array_equal(out, [1, 0, 0, 1.5])
    assert x[()] == 4.0


def zero_dim_static_arrays(out):
    s = kaji.shared.array((), kaji.float32)
    t = kaji.local.array((), np.int32)
    if kaji.threadIdx.x == 0:
        s[()] = 2.5
    t[()] = kaji.threadIdx.x
    kaji.syncthreads()
    out[kaji.threadIdx.x] = s[()] + t[()] + s.size


def test_zero_dim_shared_and_local_arrays(jit):
    out = np.zeros(4, dtype=np.float32)
    jit(zero_dim_static_arrays)[1, 4](out)
    np.testing.assert_array_equal(out, [3.5, 4.5, 5.5, 6.5])
