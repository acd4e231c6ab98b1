"""Every atomic of kaji.atomic (Numba's set) on global and shared memory, against numpy."""

import numpy as np
import pytest

import kaji
from kaji import cuda

INTS = [np.int32, np.uint32, np.int64, np.uint64]
NUMBERS = INTS + [np.float32, np.float64]


def into_first(operation):
    """A kernel that applies the atomic `operation` with every element of x to out[0]."""
    def kernel(out, x):
        i = kaji.grid(1)
        if i < x.size:
            operation(out, 0, x[i])
    return kernel


atomic_max = into_first(cuda.atomic.max)
atomic_min = into_first(cuda.atomic.min)
atomic_nanmax = into_first(cuda.atomic.nanmax)
atomic_nanmin = into_first(cuda.atomic.nanmin)


def atomic_sub(out, x):
    i = kaji.grid(1)
    if i < x.size:
        kaji.atomic.sub(out, i % 4, x[i])


def launch(jit, kernel, n, *args):
    jit(kernel)[(n + 127) // 128, 128](*args)


# On integers nanmax and nanmin are max and min.
@pytest.mark.parametrize("dtype", NUMBERS)
@pytest.mark.parametrize("largest, smallest", [(atomic_max, atomic_min),
                                               (atomic_nanmax, atomic_nanmin)])
def test_max_and_min(jit, dtype, largest, smallest):
    x = (np.random.default_rng(1).uniform(-1000, 1000, 5000)).astype(dtype)
    high = np.array([x[0]], dtype=dtype)
    low = np.array([x[0]], dtype=dtype)
    launch(jit, largest, x.size, high, x)
    launch(jit, smallest, x.size, low, x)
    assert high[0] == x.max() and low[0] == x.min()


def numba_max_rule(element, value, larger):
    """Numba's float atomic max (larger) or min: a NaN on either side changes nothing."""
    if np.isnan(element) or np.isnan(value):
        return element
    return max(element, value) if larger else min(element, value)


def nan_ignoring_rule(element, value, larger):
    """nanmax and nanmin: NaN is a missing value on either side, as fmax."""
    pick = np.fmax if larger else np.fmin
    return pick(element, value)


FLOAT_NAN_CASES = [
    ([1.0, np.nan, 7.0, -3.0, np.nan], np.nan),
    ([1.0, np.nan, 7.0, -3.0, np.nan], 2.0),
    ([np.nan, np.nan], 2.0),
    ([np.nan, np.nan], np.nan),
    ([44.0, -44.0], np.nan),
]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("values, stored", FLOAT_NAN_CASES)
@pytest.mark.parametrize("kernel, rule, larger", [
    (atomic_max, numba_max_rule, True), (atomic_min, numba_max_rule, False),
    (atomic_nanmax, nan_ignoring_rule, True), (atomic_nanmin, nan_ignoring_rule, False)])
def test_float_max_and_min_follow_numbas_nan_rules(jit, dtype, values, stored, kernel, rule,
                                                   larger):
    x = np.array(values, dtype=dtype)
    out = np.array([stored], dtype=dtype)
    expected = dtype(stored)
    for value in x:  # each rule gives one result whatever the order the threads take
        expected = rule(expected, value, larger)
    launch(jit, kernel, x.size, out, x)
    np.testing.assert_array_equal(out, [expected])


def atomic_max_returns(out, old, x):
    i = kaji.grid(1)
    if i < x.size:
        old[i] = cuda.atomic.max(out, i, x[i])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_float_max_returns_the_element_before(jit, dtype):
    x = np.array([5.0, 1.0, np.nan, 3.0], dtype=dtype)
    out = np.array([2.0, 2.0, 2.0, np.nan], dtype=dtype)
    old = np.zeros(4, dtype=dtype)
    launch(jit, atomic_max_returns, x.size, out, old, x)
    np.testing.assert_array_equal(old, [2.0, 2.0, 2.0, np.nan])
    np.testing.assert_array_equal(out, [5.0, 2.0, 2.0, np.nan])


@pytest.mark.parametrize("dtype", NUMBERS)
def test_sub(jit, dtype):
    x = np.random.default_rng(2).integers(0, 10, 4000).astype(dtype)
    out = np.full(4, 100_000, dtype=dtype)
    launch(jit, atomic_sub, x.size, out, x)
    expected = np.full(4, 100_000, dtype=np.float64) - [x[k::4].astype(np.float64).sum()
                                                       for k in range(4)]
    np.testing.assert_array_equal(out, expected.astype(dtype))


def atomic_bits(out, x):
    i = kaji.grid(1)
    if i < x.size:
        cuda.atomic.and_(out, 0, x[i])
        cuda.atomic.or_(out, 1, x[i])
        cuda.atomic.xor(out, 2, x[i])


@pytest.mark.parametrize("dtype", INTS)
def test_and_or_xor(jit, dtype):
    x = np.random.default_rng(3).integers(0, 2**31, 3000).astype(dtype) | 1
    out = np.array([np.iinfo(dtype).max, 0, 0], dtype=dtype)
    launch(jit, atomic_bits, x.size, out, x)
    np.testing.assert_array_equal(out, [np.bitwise_and.reduce(x), np.bitwise_or.reduce(x),
                                        np.bitwise_xor.reduce(x)])


def exchange(slots, out):
    i = kaji.grid(1)
    if i < out.size:
        out[i] = kaji.atomic.exch(slots, 0, i + 1)


@pytest.mark.parametrize("dtype", NUMBERS)
def test_exch_hands_every_value_on_once(jit, dtype):
    slots = np.zeros(1, dtype=dtype)
    out = np.zeros(1000, dtype=dtype)
    launch(jit, exchange, out.size, slots, out)
    # The values read back plus the last one left form 0..1000 exactly once.
    np.testing.assert_array_equal(np.sort(np.append(out, slots)), np.arange(1001, dtype=dtype))


def wrapping(counters, out, limit):
    i = kaji.grid(1)
    if i < out.size:
        out[i] = kaji.atomic.inc(counters, 0, limit)
        kaji.atomic.dec(counters, 1, limit)


@pytest.mark.parametrize("dtype", [np.uint32, np.uint64])
def test_inc_and_dec_wrap_like_cuda(jit, dtype):
    counters = np.array([0, 0], dtype=dtype)
    out = np.zeros(100, dtype=dtype)
    jit(wrapping)[1, 100](counters, out, dtype(9))
    # inc: old >= limit ? 0 : old + 1, so the counter cycles through 0..9.
    np.testing.assert_array_equal(np.sort(out), np.sort(np.arange(100) % 10).astype(dtype))
    assert counters[0] == 100 % 10
    # dec: old == 0 or old > limit ? limit : old - 1, from 0: 9, 8, ..., 0, 9, ...
    assert counters[1] == (-100) % 10


def lock_increment(lock, total, n):
    i = kaji.grid(1)
    if i < n and kaji.threadIdx.x == 0:
        while kaji.atomic.cas(lock, 0, 0, 1) != 0:
            pass
        total[0] += 1
        kaji.threadfence()
        kaji.atomic.exch(lock, 0, 0)


def test_cas_spin_lock_from_one_thread_per_block(jit):
    lock = np.zeros(1, np.int32)
    total = np.zeros(1, np.int64)
    jit(lock_increment)[64, 32](lock, total, 64 * 32)
    assert total[0] == 64 and lock[0] == 0


def first_claim(flag, winner):
    i = kaji.grid(1)
    if i < 500:
        if cuda.atomic.compare_and_swap(flag, -1, i) == -1:
            winner[0] = i


@pytest.mark.parametrize("dtype", INTS)
def test_compare_and_swap_lets_exactly_one_thread_win(jit, dtype):
    if not np.issubdtype(dtype, np.signedinteger):
        pytest.skip("the -1 sentinel needs a signed type")
    flag = np.array([-1], dtype=dtype)
    winner = np.array([-2], dtype=dtype)
    jit(first_claim)[4, 128](flag, winner)
    assert flag[0] == winner[0] and 0 <= winner[0] < 500


def shared_max(out, x):
    best = kaji.shared.array(1, np.float32)
    if kaji.threadIdx.x == 0:
        best[0] = -np.inf
    kaji.syncthreads()
    i = kaji.grid(1)
    if i < x.size:
        kaji.atomic.max(best, 0, x[i])
    kaji.syncthreads()
    if kaji.threadIdx.x == 0:
        out[kaji.blockIdx.x] = best[0]


def test_max_on_shared_memory(jit):
    x = np.random.default_rng(4).standard_normal(128 * 8).astype(np.float32)
    out = np.zeros(8, np.float32)
    jit(shared_max)[8, 128](out, x)
    np.testing.assert_array_equal(out, x.reshape(8, 128).max(axis=1))


def bad_bool(a):
    kaji.atomic.add(a, 0, True)


def bad_bitwise_float(a):
    kaji.atomic.xor(a, 0, 1.0)


def bad_inc_signed(a):
    kaji.atomic.inc(a, 0, 3)


def bad_cas_arity(a):
    kaji.atomic.cas(a, 0, 1)


@pytest.mark.parametrize("kernel, array, message", [
    (bad_bool, np.zeros(1, np.bool_), "32- and 64-bit numbers, not bool"),
    (bad_bool, np.zeros(1, np.int16), "32- and 64-bit numbers, not i16"),
    (bad_bitwise_float, np.zeros(1, np.float32), "integer arrays, not f32"),
    (bad_inc_signed, np.zeros(1, np.int32), "uint32 and uint64 arrays, not i32"),
    (bad_cas_arity, np.zeros(1, np.int32), "an index, the expected value and the new value"),
], ids=["bool", "int16", "xor-float", "inc-signed", "cas-arity"])
def test_unsupported_atomics_are_compile_errors(jit, kernel, array, message):
    with pytest.raises(kaji.CompileError, match=message):
        jit(kernel)[1, 1](array)
