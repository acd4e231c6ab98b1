"""cuda.In, cuda.Out and cuda.InOut: a numpy array passed to a kernel with only the copies it
needs, on every target (the `device` fixture): In's writes are dropped, Out's are kept and
InOut is a plain numpy array. Numba's own hints (numba.cuda.args) are taken too."""

import numpy as np
import pytest

from kaji import cuda


@cuda.jit
def set_first_to_three(array):
    array[0] = 3


@cuda.jit
def increment(out, x):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i] + 1


@cuda.jit
def set_record_field(records):
    records[0]["b"] = 3


RECORD = np.dtype([("b", np.int32)], align=True)


@pytest.mark.parametrize("hint, kept", [(cuda.In, False), (cuda.InOut, True),
                                        (cuda.Out, True)])
def test_which_writes_come_back(device, hint, kept):
    array = np.zeros(1, dtype=np.int64)
    set_first_to_three[1, 1](hint(array))
    assert array[0] == (3 if kept else 0)
    records = np.zeros(1, dtype=RECORD)
    set_record_field[1, 1](hint(records))
    assert records[0]["b"] == (3 if kept else 0)


def test_in_is_read_and_out_is_written(device):
    x = np.arange(1000, dtype=np.float32)
    out = np.full_like(x, -1)
    increment[4, 256](cuda.Out(out), cuda.In(x))
    np.testing.assert_array_equal(out, x + 1)
    np.testing.assert_array_equal(x, np.arange(1000, dtype=np.float32))


def test_a_strided_array_keeps_its_strides(device):
    base = np.zeros((6, 4), dtype=np.float64)
    column = base[:, 1]
    increment[1, 32](cuda.Out(column), cuda.In(np.arange(6.0)))
    np.testing.assert_array_equal(base[:, 1], np.arange(6.0) + 1)
    assert not base[:, [0, 2, 3]].any()


def test_a_hint_takes_a_numpy_array(device):
    with pytest.raises(TypeError, match=r"argument 1 \('array'\) of kernel "
                                        r"'set_first_to_three': cuda.In/Out/InOut take a numpy "
                                        r"array, not 'list'"):
        set_first_to_three[1, 1](cuda.In([1, 2]))


def test_the_hints_print_their_array():
    assert repr(cuda.In(np.zeros(2))) == "In(array([0., 0.]))"
