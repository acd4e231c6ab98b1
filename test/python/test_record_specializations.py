"""Record dtypes that lay memory out alike but differ in what numpy says of them (field names,
titles, the aligned flag) are different kernel types: each gets its own specialization,
signature and disk-cache entry, and a device array keeps the whole dtype."""

import numpy as np
import pytest

import kaji

PLAIN = np.dtype([("x", np.float32), ("y", np.int32)])
RENAMED = np.dtype([("y", np.float32), ("x", np.int32)])
ALIGNED = np.dtype([("x", np.float32), ("y", np.int32)], align=True)
TITLED = np.dtype({"names": ["x", "y"], "formats": [np.float32, np.int32],
                   "titles": ["first", "second"]})
DTYPES = [PLAIN, RENAMED, ALIGNED, TITLED]


def first_x(out, records):
    out[0] = records[0].x


def test_each_dtype_has_a_specialization_of_its_own():
    kernel = kaji.jit(first_x, target="cpu")
    out = np.zeros(1)
    for dtype in DTYPES:
        records = np.zeros(2, dtype)
        records[0]["x"] = 5
        kernel[1, 1](out, records)
        assert out[0] == 5
    assert len(kernel.signatures) == len(DTYPES)
    assert len(set(kernel.signatures)) == len(DTYPES)


@pytest.mark.parametrize("dtype", DTYPES)
def test_the_signature_names_the_whole_dtype_and_reads_back(dtype):
    kernel = kaji.jit(first_x, target="cpu")
    kernel[1, 1](np.zeros(1), np.zeros(2, dtype))
    (signature,) = kernel.signatures
    eager = kaji.jit(signature, target="cpu")(first_x)
    assert eager.signatures == [signature]


@pytest.mark.parametrize("dtype", DTYPES)
def test_device_arrays_keep_the_whole_dtype(monkeypatch, dtype):
    monkeypatch.setenv("KAJI_TARGET", "cpu")
    host = np.zeros(3, dtype)
    host["x"] = [1, 2, 3]
    device = kaji.to_device(host)
    assert device.dtype == dtype
    assert device.dtype.isalignedstruct == dtype.isalignedstruct
    assert device.dtype.fields == dtype.fields
    back = device.copy_to_host()
    assert back.dtype == dtype and (back == host).all()


def test_a_title_that_is_not_a_str_is_a_type_error():
    dtype = np.dtype({"names": ["x"], "formats": [np.float32], "titles": [b"bytes"]})
    with pytest.raises(TypeError, match="title b'bytes'.*not a str"):
        kaji.jit(first_x, target="cpu")[1, 1](np.zeros(1), np.zeros(2, dtype))
