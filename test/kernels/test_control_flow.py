"""Statements and control flow: assignment forms (tuple unpacking, swaps, annotated
assignment), if/elif/else, while and while/else, for over range with one to three arguments
(negative and run-time steps), for/else, break, continue, early return, pass, short-circuit
and/or/not, and variables whose type is unified across branches and loop iterations."""

import numpy as np
import pytest

import kaji

N = 1000


def classify(out, x):
    i = kaji.grid(1)
    if i < x.size:
        v = x[i]
        if v < -10:
            out[i] = -2
        elif v < 0:
            out[i] = -1
        elif v == 0:
            out[i] = 0
        elif v <= 10:
            out[i] = 1
        else:
            out[i] = 2


def test_if_elif_else(jit):
    x = np.arange(-500, 500, dtype=np.int32) // 20
    out = np.full(x.size, 99, dtype=np.int32)
    jit(classify)[8, 128](out, x)
    expected = np.select([x < -10, x < 0, x == 0, x <= 10], [-2, -1, 0, 1], 2)
    np.testing.assert_array_equal(out, expected)


def collatz_steps(out, x):
    i = kaji.grid(1)
    if i < x.size:
        n = x[i]
        steps = 0
        while n != 1:
            if n % 2 == 0:
                n //= 2
            else:
                n = 3 * n + 1
            steps += 1
        out[i] = steps


def python_collatz(n):
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


def test_while_loop(jit):
    x = np.arange(1, 301, dtype=np.int64)
    out = np.zeros_like(x)
    jit(collatz_steps)[3, 128](out, x)
    expected = np.array(list(map(python_collatz, x.tolist())), dtype=np.int64)
    np.testing.assert_array_equal(out, expected)


def first_divisor_while(out, x):
    i = kaji.grid(1)
    if i < x.size:
        n = x[i]
        d = 2
        while d * d <= n:
            if n % d == 0:
                out[i] = d
                break
            d += 1
        else:
            out[i] = 0


def python_first_divisor(n):
    d = 2
    while d * d <= n:
        if n % d == 0:
            return d
        d += 1
    return 0


def test_while_else_runs_only_without_break(jit):
    x = np.arange(2, 1002, dtype=np.int32)
    out = np.full(x.size, -1, dtype=np.int32)
    jit(first_divisor_while)[8, 128](out, x)
    expected = np.array(list(map(python_first_divisor, x.tolist())), dtype=np.int32)
    np.testing.assert_array_equal(out, expected)


def is_prime_for_else(out, x):
    i = kaji.grid(1)
    if i < x.size:
        n = x[i]
        result = 0
        if n >= 2:
            for d in range(2, n):
                if d * d > n:
                    result = 1
                    break
                if n % d == 0:
                    break
            else:
                result = 1
        out[i] = result


def python_is_prime(n):
    if n < 2:
        return 0
    d = 2
    while d * d <= n:
        if n % d == 0:
            return 0
        d += 1
    return 1


def test_for_else(jit):
    x = np.arange(0, 1000, dtype=np.int64)
    out = np.full(x.size, -1, dtype=np.int64)
    jit(is_prime_for_else)[8, 128](out, x)
    expected = np.array(list(map(python_is_prime, x.tolist())), dtype=np.int64)
    np.testing.assert_array_equal(out, expected)


def range_one_arg(out, n):
    i = kaji.grid(1)
    if i < out.shape[0]:
        total = 0
        count = 0
        for j in range(n + i):
            total += j
            count += 1
        out[i, 0] = total
        out[i, 1] = count


@pytest.mark.parametrize("n", [-3, 0, 1, 10])
def test_for_range_one_argument(jit, n):
    out = np.zeros((20, 2), dtype=np.int64)
    jit(range_one_arg)[1, 20](out, n)
    for i in range(20):
        np.testing.assert_array_equal(out[i], [sum(range(n + i)), len(range(n + i))])


def range_args(out, start, stop, step):
    i = kaji.grid(1)
    if i == 0:
        count = 0
        for j in range(start, stop, step):
            out[count] = j
            count += 1
        out[out.size - 1] = count


@pytest.mark.parametrize("start, stop, step", [(0, 10, 1), (3, 17, 4), (10, 0, -1),
                                               (10, -11, -3), (5, 5, 1), (5, 0, 2),
                                               (-4, 4, 3), (100, 7, -31), (0, 10, 100),
                                               (7, 8, -1), (-9223372036854775807, -9223372036854775805, 1)])
def test_for_range_runtime_start_stop_step(jit, start, stop, step):
    out = np.full(64, -99, dtype=np.int64)
    jit(range_args)[1, 1](out, start, stop, step)
    expected = list(range(start, stop, step))
    np.testing.assert_array_equal(out[:len(expected)], expected)
    np.testing.assert_array_equal(out[-1], len(expected))


@pytest.mark.parametrize("start, stop", [(0, 10), (10, 0), (3, 3)])
def test_for_range_runtime_zero_step_runs_no_iterations(jit, start, stop):
    # Python raises ValueError; a kernel cannot, and must not spin forever.
    out = np.full(64, -99, dtype=np.int64)
    jit(range_args)[1, 1](out, start, stop, 0)
    np.testing.assert_array_equal(out[-1], 0)
    np.testing.assert_array_equal(out[:-1], -99)


def range_literal_steps(out):
    i = kaji.grid(1)
    if i == 0:
        a = 0
        for j in range(3, 20):
            a += j
        b = 0
        for j in range(20, 3, -2):
            b = b * 3 + j
        c = 0
        for j in range(-5, -40, -7):
            c = c * 2 + j
        d = 0
        for j in range(0, -10):
            d += 1
        out[0] = a
        out[1] = b
        out[2] = c
        out[3] = d
        out[4] = j


def python_literal_steps():
    a = sum(range(3, 20))
    b = 0
    for j in range(20, 3, -2):
        b = b * 3 + j
    c = 0
    for j in range(-5, -40, -7):
        c = c * 2 + j
    return [a, b, c, 0, j]


def test_for_range_literal_and_negative_steps(jit):
    out = np.zeros(5, dtype=np.int64)
    jit(range_literal_steps)[1, 1](out)
    np.testing.assert_array_equal(out, python_literal_steps())


def break_continue(out, x):
    i = kaji.grid(1)
    if i < out.size:
        total = 0
        for j in range(x.size):
            if x[j] < 0:
                continue
            if x[j] > 90 + i % 10:
                break
            total += x[j]
        out[i] = total


def test_break_and_continue(jit):
    rng = np.random.default_rng(6)
    x = rng.integers(-50, 100, 200).astype(np.int32)
    out = np.zeros(64, dtype=np.int64)
    jit(break_continue)[1, 64](out, x)
    expected = []
    for i in range(64):
        total = 0
        for v in x.tolist():
            if v < 0:
                continue
            if v > 90 + i % 10:
                break
            total += v
        expected.append(total)
    np.testing.assert_array_equal(out, expected)


def nested_loops(out, n):
    i = kaji.grid(1)
    if i < out.size:
        count = 0
        for a in range(n):
            for b in range(n):
                if b > a:
                    break
                if (a + b + i) % 3 == 0:
                    continue
                count += 1
            if a == 5 + i:
                break
        out[i] = count


def test_nested_loops_break_inner_only(jit):
    out = np.zeros(10, dtype=np.int64)
    jit(nested_loops)[1, 10](out, 12)
    expected = []
    for i in range(10):
        count = 0
        for a in range(12):
            for b in range(12):
                if b > a:
                    break
                if (a + b + i) % 3 == 0:
                    continue
                count += 1
            if a == 5 + i:
                break
        expected.append(count)
    np.testing.assert_array_equal(out, expected)


def while_with_continue(out):
    i = kaji.grid(1)
    if i < out.size:
        k = 0
        total = 0
        while k < 20 + i:
            k += 1
            if k % 3 == 0:
                continue
            total += k
        out[i] = total


def test_while_with_continue(jit):
    out = np.zeros(16, dtype=np.int64)
    jit(while_with_continue)[1, 16](out)
    expected = []
    for i in range(16):
        total = 0
        for k in range(1, 21 + i):
            if k % 3 != 0:
                total += k
        expected.append(total)
    np.testing.assert_array_equal(out, expected)


def early_return(out, x):
    i = kaji.grid(1)
    if i >= x.size:
        return
    if x[i] < 0:
        out[i] = -1
        return
    out[i] = x[i] * 2


def test_early_return_from_kernel(jit):
    x = np.arange(-100, 900, dtype=np.int32)
    out = np.zeros(x.size + 24, dtype=np.int32)
    jit(early_return)[8, 128](out, x)
    expected = np.zeros(out.size, dtype=np.int32)
    expected[:x.size] = np.where(x < 0, -1, x * 2)
    np.testing.assert_array_equal(out, expected)


def with_pass(out):
    i = kaji.grid(1)
    if i < out.size:
        if i % 2 == 0:
            pass
        else:
            out[i] = 1
        for j in range(3):
            pass
        while False:
            pass


def test_pass(jit):
    out = np.zeros(10, dtype=np.int8)
    jit(with_pass)[1, 10](out)
    np.testing.assert_array_equal(out, np.arange(10) % 2)


def tuple_assignments(out, x):
    i = kaji.grid(1)
    if i < x.size:
        a, b = x[i], 2 * x[i] + 1
        a, b = b, a
        c = d = a - b
        (e, f), g = (c + 1, d + 2), 7
        out[i, 0] = a
        out[i, 1] = b
        out[i, 2] = c
        out[i, 3] = d
        out[i, 4] = e
        out[i, 5] = f
        out[i, 6] = g


def test_tuple_unpacking_swap_and_chained_assignment(jit):
    x = np.arange(-50, 50, dtype=np.int64)
    out = np.zeros((x.size, 7), dtype=np.int64)
    jit(tuple_assignments)[1, x.size](out, x)
    a = 2 * x + 1
    b = x
    c = a - b
    expected = np.stack([a, b, c, c, c + 1, c + 2, np.full(x.size, 7)], axis=1)
    np.testing.assert_array_equal(out, expected)


def fibonacci(out):
    i = kaji.grid(1)
    if i < out.size:
        a, b = 0, 1
        for _ in range(i):
            a, b = b, a + b
        out[i] = a


def test_fibonacci_with_tuple_swap(jit):
    out = np.zeros(90, dtype=np.int64)
    jit(fibonacci)[1, 90](out)
    expected = [0, 1]
    while len(expected) < 90:
        expected.append(expected[-1] + expected[-2])
    np.testing.assert_array_equal(out, expected)


def annotated(out, x):
    i = kaji.grid(1)
    if i < x.size:
        total: float = 0.0
        count: int
        count = 0
        for j in range(i + 1):
            total += x[j]
            count += 1
        out[i] = total / count


def test_annotated_assignment(jit):
    x = np.arange(100, dtype=np.float64)
    out = np.zeros_like(x)
    jit(annotated)[1, 100](out, x)
    np.testing.assert_allclose(out, np.cumsum(x) / np.arange(1, 101), rtol=1e-15)


@kaji.jit(device=True)
def mark(hits, i):
    hits[i] += 1
    return True


def short_circuit(out, hits, flags):
    i = kaji.grid(1)
    if i < flags.size:
        if flags[i] and mark(hits, 2 * i):
            out[i] += 1
        if flags[i] or mark(hits, 2 * i + 1):
            out[i] += 10
        if not flags[i]:
            out[i] += 100


def test_and_or_short_circuit(jit):
    flags = np.array([True, False] * 50)
    out = np.zeros(flags.size, dtype=np.int32)
    hits = np.zeros(2 * flags.size, dtype=np.int32)
    jit(short_circuit)[1, flags.size](out, hits, flags)
    np.testing.assert_array_equal(out, np.where(flags, 11, 110))
    np.testing.assert_array_equal(hits[0::2], flags.astype(np.int32))
    np.testing.assert_array_equal(hits[1::2], (~flags).astype(np.int32))


def bool_values(out, x, y):
    i = kaji.grid(1)
    if i < x.size:
        out[0, i] = x[i] and y[i]
        out[1, i] = x[i] or y[i]
        out[2, i] = not x[i]
        out[3, i] = x[i] > 0 and y[i] > 0 or x[i] < -5
        out[4, i] = not (x[i] == 0 or y[i] == 0)


def test_and_or_return_an_operand(jit):
    x = np.array([0, 0, 3, 3, -7, -7], dtype=np.int64)
    y = np.array([0, 5, 0, 5, 0, 5], dtype=np.int64)
    out = np.zeros((5, x.size), dtype=np.int64)
    jit(bool_values)[1, x.size](out, x, y)
    expected = []
    for a, b in zip(x.tolist(), y.tolist()):
        expected.append([a and b, a or b, not a, a > 0 and b > 0 or a < -5,
                         not (a == 0 or b == 0)])
    np.testing.assert_array_equal(out, np.array(expected, dtype=np.int64).T)


def unified_types(out, x):
    i = kaji.grid(1)
    if i < x.size:
        acc = 0
        for j in range(4):
            acc += x[i] * j
        v = 1
        if x[i] > 0.5:
            v = 2.5
        out[i] = acc + v


def test_variable_type_unified_across_branches_and_loops(jit):
    x = np.linspace(0, 1, 101)
    out = np.zeros_like(x)
    jit(unified_types)[1, x.size](out, x)
    np.testing.assert_allclose(out, x * 6 + np.where(x > 0.5, 2.5, 1.0), rtol=1e-14)


def loop_variable_after_loop(out, n):
    i = kaji.grid(1)
    if i == 0:
        j = -1
        for j in range(n):
            pass
        out[0] = j
        k = 0
        while k < n:
            k += 3
        out[1] = k


@pytest.mark.parametrize("n", [0, 1, 10])
def test_loop_variable_keeps_last_value(jit, n):
    out = np.zeros(2, dtype=np.int64)
    jit(loop_variable_after_loop)[1, 1](out, n)
    j = -1
    for j in range(n):
        pass
    k = 0
    while k < n:
        k += 3
    np.testing.assert_array_equal(out, [j, k])
