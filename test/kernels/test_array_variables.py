"""Array variables hold one array or several, as Python's do: reassigned on different paths
(the double buffer of Numba-CUDA's Laplace example), swapped each iteration, a parameter
reassigned, a view bound in a loop and read after it, local and shared arrays swapped; each
against the same function run by Python on NumPy arrays."""

import numpy as np
import pytest

import kaji


def double_buffer(buf_0, buf_1, steps):
    i = kaji.grid(1)
    if i >= buf_0.size:
        return
    for step in range(steps):
        if step % 2 == 0:
            data = buf_0
            next_data = buf_1
        else:
            data = buf_1
            next_data = buf_0
        next_data[i] = data[i] * 2 + step


def swapped_parameters(a, b, steps):
    i = kaji.grid(1)
    if i >= a.size:
        return
    for step in range(steps):
        b[i] = a[i] + step
        a, b = b, a


def python_reference(kernel, threads, *args):
    """Runs `kernel` once per thread index, as Python, with kaji.grid(1) answering it."""
    grid = kaji.grid
    try:
        for thread in range(threads):
            kaji.grid = lambda ndim, thread=thread: thread
            kernel(*args)
    finally:
        kaji.grid = grid


@pytest.mark.parametrize("kernel", [double_buffer, swapped_parameters],
                         ids=lambda k: k.__name__)
@pytest.mark.parametrize("steps", [0, 1, 4, 5])
def test_arrays_reassigned_as_python_does(jit, kernel, steps):
    start_0 = np.arange(8, dtype=np.float64)
    start_1 = np.full(8, -1.0)
    expected_0, expected_1 = start_0.copy(), start_1.copy()
    python_reference(kernel, 8, expected_0, expected_1, steps)
    buf_0, buf_1 = start_0.copy(), start_1.copy()
    jit(kernel)[1, 8](buf_0, buf_1, steps)
    np.testing.assert_array_equal(buf_0, expected_0)
    np.testing.assert_array_equal(buf_1, expected_1)


def test_a_parameter_reassigned_another_argument(jit):
    @jit
    def kernel(out, a, b, use_b):
        if use_b:
            a = b
        out[0] = a[0] + a.size

    out = np.zeros(1)
    kernel[1, 1](out, np.array([1.0, 2.0]), np.array([10.0, 20.0, 30.0]), True)
    assert out[0] == 13.0
    kernel[1, 1](out, np.array([1.0, 2.0]), np.array([10.0, 20.0, 30.0]), False)
    assert out[0] == 3.0


def test_a_row_bound_in_a_loop_is_read_after_it(jit):
    @jit
    def kernel(out, a):
        for i in range(a.shape[0]):
            row = a[i]
        out[0] = row[0]
        out[1] = row.size

    a = np.arange(12, dtype=np.float64).reshape(3, 4)
    out = np.zeros(2)
    kernel[1, 1](out, a)
    np.testing.assert_array_equal(out, [8.0, 4.0])


def test_local_arrays_swapped(jit):
    @jit
    def kernel(out, n):
        current = kaji.local.array(4, np.int64)
        following = kaji.local.array(4, np.int64)
        for k in range(4):
            current[k] = k
        for step in range(n):
            for k in range(4):
                following[k] = current[k] + current[(k + 1) % 4]
            current, following = following, current
        for k in range(4):
            out[k] = current[k]

    expected = list(range(4))
    for _ in range(5):
        expected = [expected[k] + expected[(k + 1) % 4] for k in range(4)]
    out = np.zeros(4, dtype=np.int64)
    kernel[1, 1](out, 5)
    np.testing.assert_array_equal(out, expected)


def test_shared_arrays_swapped(jit):
    @jit
    def kernel(out, n):
        i = kaji.threadIdx.x
        ping = kaji.shared.array(32, np.float32)
        pong = kaji.shared.array(32, np.float32)
        ping[i] = i
        kaji.syncthreads()
        for step in range(n):
            pong[i] = ping[i] + ping[(i + 1) % 32]
            kaji.syncthreads()
            ping, pong = pong, ping
        out[i] = ping[i]

    expected = np.arange(32, dtype=np.float32)
    for _ in range(3):
        expected = expected + np.roll(expected, -1)
    out = np.zeros(32, dtype=np.float32)
    kernel[1, 32](out, 3)
    np.testing.assert_array_equal(out, expected)


def test_a_contiguous_array_and_a_strided_view_share_a_variable(jit):
    @jit
    def kernel(out, a, every_other):
        x = a
        if every_other:
            x = a[::2]
        for k in range(x.size):
            out[k] = x[k]

    a = np.arange(6, dtype=np.float64)
    for every_other, expected in ((True, a[::2]), (False, a)):
        out = np.full(6, -1.0)
        kernel[1, 1](out, a, every_other)
        np.testing.assert_array_equal(out[:expected.size], expected)


def test_arrays_of_two_types_in_one_variable_are_an_error(jit):
    @jit
    def kernel(out, a, b, flag):
        x = a
        if flag:
            x = b
        out[0] = x[0]

    with pytest.raises(kaji.CompileError, match="variable 'x' is assigned both"):
        kernel[1, 1](np.zeros(1), np.zeros(2), np.zeros(2, dtype=np.int32), True)
