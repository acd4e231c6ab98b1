"""bfloat16 at the Python boundary: ml_dtypes arrays and scalars, the `<V2` typestr torch and
ml_dtypes export, kaji's type objects (device arrays and torch tensors of it: test_gpu.py)."""

import sys

import numpy as np
import pytest

import kaji

ml_dtypes = pytest.importorskip("ml_dtypes")
bf16 = ml_dtypes.bfloat16


class FakeCudaArray:
    """Just enough of __cuda_array_interface__ v3 to be typed (never launched)."""

    def __init__(self, shape, typestr):
        self.__cuda_array_interface__ = {"shape": shape, "typestr": typestr, "strides": None,
                                         "data": (0, False), "version": 3}


def test_type_objects():
    assert kaji.bfloat16 is kaji.types.bfloat16 is kaji.cuda.bfloat16
    assert str(kaji.bfloat16[:, ::1]) == "array(bfloat16, 2d, C)"
    assert kaji.types.as_type(bf16) is kaji.bfloat16
    assert kaji.types.as_type(np.dtype(bf16)) is kaji.bfloat16
    value = kaji.bfloat16(1.1)
    assert type(value) is bf16 and value == bf16(1.1)


def test_typeof_values():
    assert kaji.typeof(bf16(2.5), "cpu") == kaji.bfloat16
    assert kaji.typeof(np.zeros(4, bf16), "cpu") == kaji.bfloat16[::1]
    assert kaji.typeof(np.zeros((3, 4), bf16).T, "cuda") == kaji.bfloat16[::1, :]


def test_cuda_array_interface_typestr():
    assert kaji.typeof(FakeCudaArray((4,), "<V2"), "cuda") == kaji.bfloat16[::1]
    with pytest.raises(TypeError, match="V2"):  # numpy's plain two opaque bytes
        kaji.typeof(FakeCudaArray((4,), "|V2"), "cuda")


def test_other_void_dtypes_are_refused():
    with pytest.raises(TypeError, match=r"bfloat16 \(ml_dtypes\)"):
        kaji.typeof(np.zeros(4, "V2"), "cpu")
    with pytest.raises(TypeError, match="has no kaji type"):
        kaji.types.as_type(np.dtype("V2"))


def test_eager_signatures_take_bfloat16():
    @kaji.jit("void(bfloat16[::1], bfloat16)", target="cpu")
    def fill(out, value):
        for i in range(out.size):
            out[i] = value

    out = np.zeros(3, bf16)
    fill[1, 1](out, 1.0 / 3)
    np.testing.assert_array_equal(out, np.full(3, 1.0 / 3, bf16))


def test_without_ml_dtypes_the_error_names_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "ml_dtypes", None)  # import ml_dtypes raises ImportError
    with pytest.raises(TypeError, match="ml_dtypes"):
        kaji.bfloat16(1.0)
