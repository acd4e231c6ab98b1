"""Bounds checks: with debug=True or boundscheck=True an array index out of range raises
IndexError naming the kernel's file:line:col, the index, the axis and its extent, with the
same text on every target — at once on the cpu target, at the next synchronize on cuda (the
first failing thread's report; the thread exits there). Negative indices count from the end,
as in Python, and an index below -extent is out of range."""

import inspect
import re

import numpy as np
import pytest

import kaji

CHECKED = [pytest.param({"debug": True, "opt": False}, id="debug"),
           pytest.param({"boundscheck": True}, id="boundscheck")]


def read_at(out, x, index):
    out[0] = x[index]


def store_at(x, index, value):
    x[index] = value


def read_2d(out, x, i, j):
    out[0] = x[i, j]


def read_slice(out, x, start, stop, index):
    out[0] = x[start:stop][index]


def read_row(out, x, row, index):
    r = x[row]
    out[0] = r[index]


def read_constant_indices(out, x):
    out[0] = x[-10]
    out[1] = x[-11]


def constant_stores_past_a_view(big):
    x = big[:4]
    x[5] = 1
    x[5] = 2
    x[2] = 3
    x[4] = 4


def constant_accesses_past_the_end(out, a):
    out[0] = a[0] + 1
    out[1] = a[5] + 1
    out[6] = a[1]
    out[2] = a[2]


def add_at(x, index):
    kaji.atomic.add(x, index, 1)


def every_thread_one_size_past(out, x):
    i = kaji.grid(1)
    out[i] = x[i + x.size]


def site(func, text):
    """The regex of the report's start for the access `text` in `func`, by the thread that made
    it."""
    lines, first = inspect.getsourcelines(func)
    offset = next(n for n, line in enumerate(lines) if text in line)
    column = lines[offset].index(text) + 1
    return (re.escape(f"{inspect.getsourcefile(func)}:{first + offset}:{column}: in "
                      f"'{func.__name__}") +
            r"[^']*', tid=\[\d+, \d+, \d+\] ctaid=\[\d+, \d+, \d+\]: ")


def launch_and_wait(kernel, *args, blocks=1, threads=1):
    kernel[blocks, threads](*args)
    kaji.synchronize()


@pytest.fixture
def device(target):
    """A device array of `values` where `target`'s kernels take one (host-backed for cpu)."""
    def make(values, dtype=np.int64):
        return kaji._core.to_device(np.asarray(values, dtype=dtype), on_host=target == "cpu")
    return make


@pytest.mark.parametrize("options", CHECKED)
def test_index_past_the_end_raises_index_error_with_site_and_extent(jit, options, device):
    kernel = jit(read_at, **options)
    out, x = device([0]), device(np.arange(10))
    with pytest.raises(IndexError, match=site(read_at, "x[index]") +
                       "index 10 is out of bounds for axis 0 with size 10$"):
        launch_and_wait(kernel, out, x, 10)


@pytest.mark.parametrize("options", CHECKED)
def test_store_out_of_range(jit, options, device):
    kernel = jit(store_at, **options)
    x = device(np.zeros(4))
    with pytest.raises(IndexError, match=site(store_at, "x[index]") +
                       "index 7 is out of bounds for axis 0 with size 4$"):
        launch_and_wait(kernel, x, 7, 1)
    np.testing.assert_array_equal(x.copy_to_host(), np.zeros(4))


@pytest.mark.parametrize("options", CHECKED)
def test_negative_indices_count_from_the_end(jit, options, device):
    kernel = jit(read_at, **options)
    out, x = device([0]), device(np.arange(10) * 3)
    for index, expected in [(-1, 27), (-10, 0), (9, 27)]:
        launch_and_wait(kernel, out, x, index)
        assert out.copy_to_host()[0] == expected
    with pytest.raises(IndexError, match="index -11 is out of bounds for axis 0 with size 10$"):
        launch_and_wait(kernel, out, x, -11)


@pytest.mark.parametrize("options", CHECKED)
def test_a_constant_index_below_minus_extent_is_out_of_range(jit, options, device):
    # x[-11] once read x[9] on the cpu target: the frontend's `-11 + extent` wrapped again.
    kernel = jit(read_constant_indices, **options)
    out, x = device([0, 0]), device(np.arange(10) + 1)
    with pytest.raises(IndexError, match=site(read_constant_indices, "x[-11]") +
                       "index -11 is out of bounds for axis 0 with size 10$"):
        launch_and_wait(kernel, out, x)
    assert out.copy_to_host()[0] == 1


@pytest.mark.parametrize("options", CHECKED)
def test_two_dimensional_index_names_its_axis(jit, options, device):
    kernel = jit(read_2d, **options)
    out, x = device([0]), device(np.arange(12).reshape(3, 4))
    launch_and_wait(kernel, out, x, -1, -1)
    assert out.copy_to_host()[0] == 11
    with pytest.raises(IndexError, match=site(read_2d, "x[i, j]") +
                       "index 4 is out of bounds for axis 1 with size 4$"):
        launch_and_wait(kernel, out, x, 1, 4)
    with pytest.raises(IndexError, match="index -4 is out of bounds for axis 0 with size 3$"):
        launch_and_wait(kernel, out, x, -4, 0)


@pytest.mark.parametrize("options", CHECKED)
def test_views_are_checked_against_their_own_extent(jit, options, device):
    slice_kernel = jit(read_slice, **options)
    out, x = device([0]), device(np.arange(10))
    launch_and_wait(slice_kernel, out, x, 2, 5, -1)
    assert out.copy_to_host()[0] == 4
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 0 with size 3$"):
        launch_and_wait(slice_kernel, out, x, 2, 5, 3)
    row_kernel = jit(read_row, **options)
    matrix = device(np.arange(12).reshape(3, 4))
    with pytest.raises(IndexError, match=site(read_row, "row]") +
                       "index 5 is out of bounds for axis 0 with size 3$"):
        launch_and_wait(row_kernel, out, matrix, 5, 0)
    with pytest.raises(IndexError, match=site(read_row, "r[index]") +
                       "index 4 is out of bounds for axis 0 with size 4$"):
        launch_and_wait(row_kernel, out, matrix, 1, 4)


@pytest.mark.parametrize("options", CHECKED)
def test_unsigned_index_is_reported_unsigned(jit, options, device):
    kernel = jit(store_at, **options)
    x = device(np.zeros(4))
    with pytest.raises(IndexError, match="index 18446744073709551615 is out of bounds"):
        launch_and_wait(kernel, x, np.uint64(2**64 - 1), 1)
    np.testing.assert_array_equal(x.copy_to_host(), np.zeros(4))


@pytest.mark.parametrize("options", CHECKED)
def test_atomic_out_of_range(jit, options, device):
    kernel = jit(add_at, **options)
    with pytest.raises(IndexError, match=site(add_at, "kaji.atomic.add") +
                       "index 4 is out of bounds for axis 0 with size 4$"):
        launch_and_wait(kernel, device(np.zeros(4, dtype=np.int32), np.int32), 4)


@pytest.mark.parametrize("options", CHECKED)
def test_the_first_of_many_failing_threads_reports(jit, options, device):
    kernel = jit(every_thread_one_size_past, **options)
    out, x = device(np.zeros(64)), device(np.arange(64))
    with pytest.raises(IndexError) as info:
        launch_and_wait(kernel, out, x, blocks=2, threads=32)
    index = int(re.search(r"index (\d+) is out of bounds for axis 0 with size 64$",
                          str(info.value)).group(1))
    assert 64 <= index < 128
    reader = jit(read_at, **options)
    launch_and_wait(reader, out, x, 5)
    assert out.copy_to_host()[0] == 5


@pytest.mark.parametrize("options", CHECKED)
def test_checks_implied_by_an_earlier_one_still_keep_accesses_in_range(jit, options, device,
                                                                       target):
    # x[5] again, x[2] and x[4] get no check of their own (x[5]'s decides them): the report
    # stays x[5]'s, and the cpu target's thread, which goes on after it, writes x[2] and still
    # nothing past the view.
    kernel = jit(constant_stores_past_a_view, **options)
    big = device(np.zeros(8))
    with pytest.raises(IndexError, match=site(constant_stores_past_a_view, "x[5] = 1") +
                       "index 5 is out of bounds for axis 0 with size 4$"):
        launch_and_wait(kernel, big)
    expected = np.zeros(8)
    if target == "cpu":
        expected[2] = 3
    np.testing.assert_array_equal(big.copy_to_host(), expected)


@pytest.mark.parametrize("options", CHECKED)
def test_constant_indices_report_the_first_failure_in_program_order(jit, options, device,
                                                                     target):
    # The checks of these constant indices are deferred to one branch after the last store
    # (LLVMLowering.cpp, DeferredCheck): a[5] still reports, not out[6], with out[0] stored
    # before it. A GPU thread ends at a[5], so nothing after it is stored; the cpu target's
    # thread goes on, with out[1] from scratch, out[6] to scratch and out[2] stored.
    kernel = jit(constant_accesses_past_the_end, **options)
    out, a = device(np.zeros(4), np.float64), device(np.arange(4.0), np.float64)
    with pytest.raises(IndexError, match=site(constant_accesses_past_the_end, "a[5]") +
                       "index 5 is out of bounds for axis 0 with size 4$"):
        launch_and_wait(kernel, out, a)
    result = out.copy_to_host()
    assert result[0] == 1.0
    if target == "cpu":
        assert result[2:].tolist() == [2.0, 0.0]
    else:
        assert result[1:].tolist() == [0.0, 0.0, 0.0]
