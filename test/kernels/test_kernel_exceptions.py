"""Exceptions in kernels (Numba's debug=True): `raise E("message")`, `raise E` and
`assert cond, "message"` in a kernel or device function make the launch raise E with the
message and the kernel's file:line:col when the launch returns: the cpu target runs the kernel
at once, and on cuda a debug=True launch waits for it, as Numba's does. Without debug, on cuda,
a failing assert is not checked and a raise ends its thread silently (Numba's behaviour); the
cpu target always reports."""

import re

import numpy as np
import pytest

import kaji

_FILE = __file__.rsplit("/", 1)[-1]


class ThresholdExceeded(Exception):
    pass


@pytest.fixture
def on_target(target):
    """The array a kernel of `target` takes: GPU memory on cuda, the host array itself on
    cpu (where a GPU exists, kaji.to_device gives GPU memory, which a cpu kernel refuses)."""
    return (lambda host: host) if target == "cpu" else kaji.to_device


def to_host(array):
    return array.copy_to_host() if hasattr(array, "copy_to_host") else array


def launch_and_wait(kernel, *args, blocks=1, threads=32):
    kernel[blocks, threads](*args)
    kaji.synchronize()


def raise_with_message(out, limit):
    i = kaji.grid(1)
    if i >= limit:
        raise ValueError("index over the limit")
    out[i] = i


def raise_class_alone(out):
    if kaji.grid(1) == 3:
        raise ZeroDivisionError
    out[0] = 1


def raise_user_class(out):
    i = kaji.grid(1)
    if out[i] > 5:
        raise ThresholdExceeded("value above five")


def assert_with_message(x):
    i = kaji.grid(1)
    assert x[i] >= 0, "x must not be negative"


def assert_alone(x):
    i = kaji.grid(1)
    assert x[i] < 100


def checked_index(x, i):
    if i >= x.size:
        raise IndexError("checked_index: out of range")
    return x[i]


def kernel_calling_device(out, x):
    i = kaji.grid(1)
    out[i] = checked(x, i + 1)


checked = kaji.jit(device=True)(checked_index)


def test_raise_with_message_raises_that_class_with_file_and_line(jit, on_target):
    kernel = jit(raise_with_message, debug=True, opt=False)
    out = on_target(np.zeros(64, dtype=np.int64))
    with pytest.raises(ValueError, match=rf"{_FILE}:\d+:\d+: in 'raise_with_message\S*', "
                                         r"tid=\[(\d+), 0, 0\] ctaid=\[0, 0, 0\]: "
                                         r"index over the limit") as raised:
        launch_and_wait(kernel, out, 10, threads=64)
    # One of the threads that raised (10 to 63) is named, as Numba names it.
    raising = int(re.search(r"tid=\[(\d+),", str(raised.value)).group(1))
    assert 10 <= raising < 64


def test_raise_of_a_class_alone(jit, on_target):
    kernel = jit(raise_class_alone, debug=True, opt=False)
    with pytest.raises(ZeroDivisionError, match=rf"{_FILE}:\d+:\d+"):
        launch_and_wait(kernel, on_target(np.zeros(1, dtype=np.int32)))


def test_user_exception_class_of_the_module(jit, on_target):
    kernel = jit(raise_user_class, debug=True, opt=False)
    values = np.arange(32, dtype=np.float32)
    with pytest.raises(ThresholdExceeded, match="value above five"):
        launch_and_wait(kernel, on_target(values))


def test_user_exception_class_local_to_a_function(jit, on_target):
    class Local(Exception):
        pass

    def kernel(x):
        if x[kaji.grid(1)] == 7:
            raise Local("seven")

    with pytest.raises(Local, match="seven"):
        launch_and_wait(jit(kernel, debug=True, opt=False),
                        on_target(np.arange(32, dtype=np.int32)))


def test_no_exception_when_nothing_raises(jit, on_target):
    kernel = jit(raise_with_message, debug=True, opt=False)
    out = on_target(np.zeros(32, dtype=np.int64))
    launch_and_wait(kernel, out, 32)
    np.testing.assert_array_equal(to_host(out), np.arange(32))


def test_failing_assert_raises_assertion_error_with_message(jit, on_target):
    kernel = jit(assert_with_message, debug=True, opt=False)
    x = np.ones(32, dtype=np.float64)
    x[17] = -1
    with pytest.raises(AssertionError, match=rf"{_FILE}:\d+:\d+: .*x must not be negative"):
        launch_and_wait(kernel, on_target(x))


def test_failing_assert_without_message(jit, on_target):
    kernel = jit(assert_alone, debug=True, opt=False)
    x = np.zeros(32, dtype=np.int32)
    x[3] = 100
    with pytest.raises(AssertionError, match=rf"{_FILE}:\d+:\d+: in 'assert_alone"):
        launch_and_wait(kernel, on_target(x))


def test_passing_assert_changes_nothing(jit, on_target):
    launch_and_wait(jit(assert_with_message, debug=True, opt=False),
                    on_target(np.ones(32)))


def test_raise_in_a_device_function(jit, on_target):
    kernel = jit(kernel_calling_device, debug=True, opt=False)
    x = on_target(np.arange(32, dtype=np.float32))
    out = on_target(np.zeros(32, dtype=np.float32))
    with pytest.raises(IndexError, match="checked_index: out of range"):
        launch_and_wait(kernel, out, x)


def test_the_launch_after_an_exception_runs(jit, on_target):
    kernel = jit(raise_with_message, debug=True, opt=False)
    out = on_target(np.zeros(32, dtype=np.int64))
    with pytest.raises(ValueError):
        launch_and_wait(kernel, out, 4)
    launch_and_wait(kernel, out, 32)
    np.testing.assert_array_equal(to_host(out), np.arange(32))


def test_without_debug_the_cuda_target_ends_the_raising_threads_silently():
    kernel = kaji.jit(raise_with_message, target="cuda")
    kernel.add_signature("void(int64[:], int64)")
    ir = kernel.inspect_ir("void(int64[:], int64)") if hasattr(kernel, "inspect_ir") else \
        kernel.inspect("void(int64[:], int64)", "ir")
    assert "raise\n" in ir and "ValueError" not in ir


def test_without_debug_the_cuda_target_drops_asserts():
    kernel = kaji.jit(assert_with_message, target="cuda")
    kernel.add_signature("void(float64[:])")
    assert "raise" not in kernel.inspect("void(float64[:])", "ir")


def test_the_cpu_target_reports_without_debug():
    kernel = kaji.jit(assert_with_message, target="cpu")
    x = -np.ones(4)
    with pytest.raises(AssertionError, match="x must not be negative"):
        kernel[1, 4](x)


def test_a_debug_launch_on_a_stream_raises(jit, target):
    if target == "cpu":
        pytest.skip("streams belong to a GPU; the cpu target raises at the launch")
    kernel = jit(raise_with_message, debug=True, opt=False)
    stream = kaji.stream()
    out = kaji.to_device(np.zeros(32, dtype=np.int64))
    with pytest.raises(ValueError, match="index over the limit"):
        kernel[1, 32, stream](out, 8)
    stream.synchronize()  # reported once


def test_a_debug_launch_raises_before_any_copy(jit, on_target):
    kernel = jit(raise_with_message, debug=True, opt=False)
    out = on_target(np.zeros(32, dtype=np.int64))
    with pytest.raises(ValueError, match="index over the limit"):
        kernel[1, 32](out, 8)
    assert list(to_host(out)[:8]) == list(range(8))


def copy_first(out, x):
    out[0] = x[0]


def test_a_kernel_collected_before_the_sync_leaves_nothing_to_read():
    # A bounds-checked launch arms its module's exception slot for the next sync; the kernel
    # (and its module) dropped before that sync must not leave the slot armed: reading the
    # unloaded module's memory failed with CUDA_ERROR_INVALID_VALUE.
    import gc

    if not kaji.cuda.is_available():
        pytest.skip("needs a GPU")
    kernel = kaji.jit(copy_first, target="cuda", boundscheck=True)
    out = kaji.to_device(np.zeros(1))
    kernel[1, 1](out, kaji.to_device(np.ones(1)))
    del kernel
    gc.collect()
    kaji.synchronize()
    assert out.copy_to_host()[0] == 1


def divided(r, x, y):
    r[0] = y[0] / x[0]
    r[1] = y[0]


def floor_divided(r, a, b):
    r[0] = a // b
    r[1] = 1


@pytest.mark.parametrize("kernel, args", [
    (divided, (np.zeros(2), np.zeros(1), np.ones(1))),
    (floor_divided, (np.zeros(2, np.int64), 7, 0)),
])
def test_debug_division_by_zero_raises_and_stops_the_thread(target, kernel, args):
    # Numba's debug=True error model: Python's ZeroDivisionError, raised where the division is.
    r = args[0]
    with pytest.raises(ZeroDivisionError, match="division by zero"):
        kaji.jit(target=target, debug=True, opt=False)(kernel)[1, 1](*args)
    assert (r == 0).all()  # neither the quotient nor what follows it was written


def test_without_debug_or_with_fastmath_division_by_zero_is_ieee(target):
    for options in ({}, {"debug": True, "fastmath": True}):
        r = np.zeros(2)
        kaji.jit(target=target, opt=not options, **options)(divided)[1, 1](
            r, np.zeros(1), np.ones(1))
        assert r[0] == np.inf and r[1] == 1
    r = np.zeros(2)
    kaji.jit(target=target, debug=True, opt=False)(divided)[1, 1](r, np.full(1, 2.0), np.ones(1))
    assert list(r) == [0.5, 1.0]
