"""Complex arrays from CuPy (__cuda_array_interface__ and DLPack) and PyTorch on the GPU, and
numpy complex arrays copied to and from the device."""

import numpy as np
import pytest

import kaji
from test_gpu import DLPackOnly

pytestmark = pytest.mark.gpu


@kaji.jit
def rotate(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = x[i] * 1j + x[i].conjugate()


def values(dtype):
    return (np.arange(100) - 0.5j * np.arange(100)).astype(dtype)


def expected(x):
    return x * x.dtype.type(1j) + np.conj(x)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_numpy_complex_arrays_are_copied_in_and_out(dtype):
    x = values(dtype)
    out = np.zeros_like(x)
    rotate[1, 128](out, x)
    np.testing.assert_allclose(out, expected(x), rtol=1e-6)
    device = kaji.to_device(x)
    out_device = kaji.device_array_like(x)
    rotate[1, 128](out_device, device)
    np.testing.assert_allclose(out_device.copy_to_host(), expected(x), rtol=1e-6)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_cupy_complex_arrays(dtype):
    cupy = pytest.importorskip("cupy")
    x = values(dtype)
    cx = cupy.asarray(x)
    out = cupy.zeros_like(cx)
    rotate[1, 128](out, cx)
    np.testing.assert_allclose(cupy.asnumpy(out), expected(x), rtol=1e-6)
    out = cupy.zeros_like(cx)
    rotate[1, 128](DLPackOnly(out), DLPackOnly(cx))
    np.testing.assert_allclose(cupy.asnumpy(out), expected(x), rtol=1e-6)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_pytorch_complex_tensors(dtype):
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("PyTorch has no CUDA")
    x = values(np.dtype(dtype))
    tx = torch.from_numpy(x).cuda()
    out = torch.zeros_like(tx)
    rotate[1, 128](out, tx)
    torch.cuda.synchronize()
    np.testing.assert_allclose(out.cpu().numpy(), expected(x), rtol=1e-6)
