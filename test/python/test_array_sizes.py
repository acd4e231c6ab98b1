"""Sizes computed from shapes never overflow: an array too large for a 64-bit byte count is a
ValueError naming its shape, as numpy's is, never an array whose nbytes wrapped around (which
kernels and copies would then read and write past). Host-backed arrays (the cpu target) need
no GPU."""

import types

import numpy as np
import pytest

import kaji


@pytest.fixture(autouse=True)
def cpu_target(monkeypatch):
    monkeypatch.setenv("KAJI_TARGET", "cpu")


@pytest.mark.parametrize("shape", [2**62, (2**31, 2**31, 4), (2**40, 2**40, 2**40, 0), 2**63 - 1],
                         ids=["bytes wrap to 0", "elements wrap", "zero extent", "int64 max"])
def test_too_large_device_array_is_a_value_error_naming_the_shape(shape):
    with pytest.raises(ValueError, match="too large") as error:
        kaji.device_array(shape, np.float32)
    first = shape if isinstance(shape, int) else shape[0]
    assert str(first) in str(error.value)


@pytest.mark.parametrize("shape", [2**64, (3, 2**100)])
def test_extent_beyond_int64_is_a_value_error_naming_it(shape):
    with pytest.raises(ValueError, match="too large|out of range") as error:
        kaji.device_array(shape, np.float32)
    assert str(shape if isinstance(shape, int) else shape[1]) in str(error.value)


@pytest.mark.parametrize("shape", [-1, (3, -2)])
def test_negative_extent_is_a_value_error(shape):
    with pytest.raises(ValueError, match="negative"):
        kaji.device_array(shape, np.float32)


@pytest.mark.parametrize("shape", [2.5, "3", (2, None)])
def test_non_integer_extent_is_a_type_error(shape):
    with pytest.raises(TypeError, match="int"):
        kaji.device_array(shape, np.float32)


def test_device_array_like_of_an_array_like_too_large_for_numpy():
    huge = types.SimpleNamespace(shape=(2**61, 8), dtype=np.dtype(np.float64))
    with pytest.raises(ValueError, match="too large"):
        kaji.device_array_like(huge)


def test_a_large_array_that_fits_keeps_its_byte_count():
    d = kaji.device_array((0, 2**40), np.float64)
    assert (d.size, d.nbytes) == (0, 0)


@pytest.mark.parametrize("index", [2**40, 2**70, -(2**70), (0, 2**64)])
def test_index_far_out_of_range_is_an_index_error(index):
    d = kaji.device_array((4, 4), np.float32)
    with pytest.raises(IndexError, match="out of bounds"):
        d[index]
    with pytest.raises(IndexError, match="out of bounds"):
        d[index] = 1.0


def test_huge_slice_steps_give_a_one_element_view():
    host = np.arange(10, dtype=np.float32)
    d = kaji.to_device(host)
    for step in (2**62, 2**70, -(2**70)):
        np.testing.assert_array_equal(d[::step].copy_to_host(), host[::step])


@pytest.mark.parametrize("shape", [2**64, (2**32, 2**32, -1), (2**40, 2**40, 2**40, 0)])
def test_reshape_to_a_shape_too_large_is_a_value_error(shape):
    d = kaji.device_array(0, np.float32)
    with pytest.raises(ValueError, match="reshape|too large|out of range"):
        d.reshape(shape)


def test_to_device_of_an_overlapping_view_spanning_too_many_bytes():
    base = np.zeros(2, np.float32)
    view = np.lib.stride_tricks.as_strided(base, shape=(2, 2), strides=(2**62, 2**62))
    with pytest.raises(ValueError, match="too large"):
        kaji.to_device(view)


def test_forall_of_more_tasks_than_a_grid_holds_is_a_value_error():
    @kaji.jit
    def fill(a):
        i = kaji.grid(1)
        if i < a.size:
            a[i] = 1.0

    a = np.zeros(4, np.float32)
    for ntasks in (2**40, 2**80):
        with pytest.raises(ValueError, match="grid"):
            fill.forall(ntasks, 256)(a)
    fill.forall(4)(a)
    np.testing.assert_array_equal(a, 1.0)


class ForeignGpuArray:
    """A GPU array of another library, as __cuda_array_interface__ describes it."""

    def __init__(self, shape, strides=None):
        self.__cuda_array_interface__ = {"shape": shape, "strides": strides, "typestr": "<f4",
                                         "data": (0x1000, False), "version": 3}


@pytest.mark.parametrize("shape, strides, message", [
    ((-1,), None, "negative dimensions"),
    ((2**62,), None, "too large"),
    ((2**64,), None, "out of range"),
    ((4,), (2**62,), "too large"),
])
def test_foreign_array_of_impossible_size_is_a_value_error(shape, strides, message):
    with pytest.raises(ValueError, match=message):
        kaji.typeof(ForeignGpuArray(shape, strides), "cuda")


def test_byte_count_bound_kernels_are_compiled_on_is_2_to_the_62():
    """Kernels assume every extent is at most 2**62 (codegen's kMaxArrayBytes): an array of
    2**62 one-byte elements is typed, one element more is refused."""

    def foreign_bytes(count):
        array = ForeignGpuArray((count,))
        array.__cuda_array_interface__["typestr"] = "|u1"
        return array

    assert "uint8" in str(kaji.typeof(foreign_bytes(2**62), "cuda"))
    with pytest.raises(ValueError, match=r"too large.*2\*\*62 bytes"):
        kaji.typeof(foreign_bytes(2**62 + 1), "cuda")
