"""Recursive device functions: self and mutual recursion, typed by a base case (a return
that does not depend on the recursive call, Numba's rule) or by an eager signature; void
recursive functions; kernels called from kernels (compiled as device functions, as in
Numba); inline= and forceinline= keep results."""

import numpy as np

import kaji


@kaji.jit(device=True)
def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


@kaji.jit(device=True)
def power(x, n):
    if n == 0:
        return 1.0
    half = power(x, n // 2)
    if n % 2 == 0:
        return half * half
    return half * half * x


@kaji.jit(device=True)
def is_even(n):
    if n == 0:
        return True
    return is_odd(n - 1)


@kaji.jit(device=True)
def is_odd(n):
    if n == 0:
        return False
    return is_even(n - 1)


@kaji.jit("int64(int64)", device=True)
def factorial(n):
    return 1 if n <= 1 else n * factorial(n - 1)


@kaji.jit(device=True)
def triangle(n):
    # The base case is the conditional expression's other branch.
    return 0 if n == 0 else n + triangle(n - 1)


@kaji.jit(device=True)
def fill_down(out, n):
    if n < 0:
        return
    out[n] = n * n
    fill_down(out, n - 1)


def recursive_calls(out, n):
    i = kaji.grid(1)
    if i < n.size:
        out[0, i] = fib(n[i])
        out[1, i] = power(2.0, n[i])
        out[2, i] = is_even(n[i])
        out[3, i] = factorial(n[i])
        out[4, i] = triangle(n[i])


def test_self_and_mutual_recursion(jit):
    n = np.arange(20, dtype=np.int64)
    out = np.zeros((5, n.size), dtype=np.float64)
    jit(recursive_calls)[1, 32](out, n)
    fibs = [0, 1]
    while len(fibs) < n.size:
        fibs.append(fibs[-1] + fibs[-2])
    np.testing.assert_array_equal(out[0], fibs)
    np.testing.assert_array_equal(out[1], 2.0 ** n)
    np.testing.assert_array_equal(out[2], n % 2 == 0)
    np.testing.assert_array_equal(out[3], [float(np.prod(np.arange(1, k + 1))) for k in n])
    np.testing.assert_array_equal(out[4], n * (n + 1) // 2)


def recursive_fill(out):
    fill_down(out, out.size - 1)


def test_void_recursion(jit):
    out = np.zeros(30, dtype=np.int64)
    jit(recursive_fill)[1, 1](out)
    np.testing.assert_array_equal(out, np.arange(30) ** 2)


def test_recursion_types_from_base_case(jit):
    # The base case returns float32: so does every call.
    @kaji.jit(device=True)
    def halve_until(x, n):
        if n == 0:
            return x
        return halve_until(x, n - 1) * np.float32(0.5)

    def kernel(out, x):
        out[0] = halve_until(x[0], 3)

    x = np.array([10.0], dtype=np.float32)
    out = np.zeros(1, dtype=np.float32)
    jit(kernel)[1, 1](out, x)
    assert out[0] == np.float32(1.25)
    assert "-> f32" in jit(kernel).inspect_ir("void(float32[:], float32[:])")


# A kernel; called from a kernel it is compiled into that kernel, whatever its own target.
@kaji.jit(target="cpu")
def add_one(out, i):
    out[i] += 1


def calls_a_kernel(out):
    i = kaji.grid(1)
    if i < out.size:
        add_one(out, i)
        add_one(out, i)


def test_kernel_called_from_kernel(jit):
    out = np.arange(100, dtype=np.int32)
    jit(calls_a_kernel)[1, 128](out)
    np.testing.assert_array_equal(out, np.arange(100) + 2)


@kaji.jit(device=True, inline="always")
def always_square(v):
    return v * v


@kaji.jit(device=True, inline="never")
def never_cube(v):
    return v * v * v


@kaji.jit(device=True, forceinline=True)
def forced_double(v):
    return v + v


def inlining_kernel(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = always_square(x[i]) + never_cube(x[i]) + forced_double(x[i])


def test_inlining_options_keep_results(jit):
    x = np.arange(-20, 20, dtype=np.int64)
    out = np.zeros_like(x)
    jit(inlining_kernel)[1, 64](out, x)
    np.testing.assert_array_equal(out, x * x + x ** 3 + 2 * x)
