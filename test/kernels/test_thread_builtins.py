"""Per-thread builtins: local arrays, lane ids, fences, bit functions, fma, selp."""

import math

import numpy as np
import pytest

import kaji
from kaji import cuda


def reverse_in_local(out, x):
    i = kaji.grid(1)
    if i < out.shape[0]:
        scratch = kaji.local.array(8, np.float64)
        for k in range(8):
            scratch[k] = x[i, k]
        for k in range(8):
            out[i, k] = scratch[7 - k]


def test_local_array_is_private_to_each_thread(jit):
    x = np.random.default_rng(5).standard_normal((300, 8))
    out = np.zeros_like(x)
    jit(reverse_in_local)[3, 128](out, x)
    np.testing.assert_array_equal(out, x[:, ::-1])


def local_2d(out):
    i = kaji.grid(1)
    if i < out.size:
        m = cuda.local.array((3, 4), dtype=np.int32)
        for r in range(3):
            for c in range(4):
                m[r, c] = i * 100 + r * 10 + c
        out[i] = m[2, 3] - m[1, 1]


def test_local_array_2d(jit):
    out = np.zeros(200, np.int32)
    jit(local_2d)[2, 128](out)
    np.testing.assert_array_equal(out, np.full(200, 23 - 11, np.int32))


def local_with_barrier(out, x):
    t = kaji.threadIdx.x
    mine = kaji.local.array(2, np.int32)
    mine[0] = x[t]
    kaji.syncthreads()
    mine[1] = x[(t + 1) % 64]
    out[t] = mine[0] * 1000 + mine[1]


def test_local_arrays_survive_barriers(jit):
    x = np.arange(64, dtype=np.int32)
    out = np.zeros(64, np.int32)
    jit(local_with_barrier)[1, 64](out, x)
    np.testing.assert_array_equal(out, x * 1000 + np.roll(x, -1))


def too_big_local(out):
    big = kaji.local.array(70000, np.float64)
    big[0] = 1.0
    out[0] = big[0]


def test_oversized_local_array_is_a_compile_error(jit):
    with pytest.raises(kaji.CompileError, match="over kaji's limit of 524288 bytes"):
        jit(too_big_local)[1, 1](np.zeros(1))


def lanes(out):
    x, y = kaji.threadIdx.x, kaji.threadIdx.y
    out[y, x] = kaji.laneid + 100 * kaji.warpsize


@pytest.mark.parametrize("block", [(32, 1), (8, 6), (40, 2)])
def test_laneid_counts_the_linear_thread_index(jit, block):
    out = np.zeros((block[1], block[0]), np.int32)
    jit(lanes)[1, block](out)
    linear = np.arange(block[0] * block[1]).reshape(block[1], block[0])
    np.testing.assert_array_equal(out, linear % 32 + 3200)


def fenced_publish(data, flag, out):
    if kaji.threadIdx.x == 0:
        data[0] = 42
        kaji.threadfence_block()
        kaji.threadfence()
        kaji.threadfence_system()
        flag[0] = 1
    kaji.syncthreads()
    out[kaji.threadIdx.x] = data[0] * flag[0]


def test_fences_compile_and_order_writes(jit):
    data, flag = np.zeros(1, np.int32), np.zeros(1, np.int32)
    out = np.zeros(64, np.int32)
    jit(fenced_publish)[1, 64](data, flag, out)
    np.testing.assert_array_equal(out, 42)


def wait_for_the_first_thread(flag, out, pause):
    i = cuda.threadIdx.x
    if i == 0:
        cuda.nanosleep(pause)
        cuda.atomic.exch(flag, 0, 1)
    else:
        while cuda.atomic.add(flag, 0, 0) == 0:
            cuda.nanosleep(20)
    out[i] = flag[0] + i


def test_a_thread_sleeping_while_it_waits_lets_the_one_it_waits_for_run(jit):
    flag, out = np.zeros(1, np.int32), np.zeros(64, np.int32)
    jit(wait_for_the_first_thread)[1, 64](flag, out, np.uint32(100))
    np.testing.assert_array_equal(out, np.arange(64) + 1)


def test_nanosleep_takes_an_integer(jit):
    def kernel(x):
        cuda.nanosleep(x)

    with pytest.raises(kaji.CompileError, match=r"nanosleep\(\) takes an integer, not 'float64'"):
        jit(kernel)[1, 1](1.5)


def bit_functions(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[0, i] = kaji.popc(x[i])
        out[1, i] = cuda.brev(x[i])
        out[2, i] = kaji.clz(x[i])
        out[3, i] = kaji.ffs(x[i])


def reference_bits(x, bits):
    values = [int(v) & ((1 << bits) - 1) for v in x]
    popc = [bin(v).count("1") for v in values]
    brev = [int(format(v, f"0{bits}b")[::-1], 2) for v in values]
    clz = [bits - v.bit_length() for v in values]
    ffs = [(v & -v).bit_length() for v in values]
    return popc, brev, clz, ffs


@pytest.mark.parametrize("dtype", [np.int32, np.uint32, np.int64, np.uint64])
def test_popc_brev_clz_ffs(jit, dtype):
    bits = np.dtype(dtype).itemsize * 8
    rng = np.random.default_rng(6)
    x = np.concatenate([[0, 1, 2, -1 if np.issubdtype(dtype, np.signedinteger) else 7],
                        rng.integers(0, 2**31, 60)]).astype(dtype)
    out = np.zeros((4, x.size), dtype=dtype)
    jit(bit_functions)[1, 64](out, x)
    for row, expected in zip(out, reference_bits(x, bits)):
        np.testing.assert_array_equal(row, np.array(expected, dtype=np.uint64).astype(dtype))


def fused(out, a, b, c):
    i = kaji.grid(1)
    if i < out.size:
        out[i] = kaji.fma(a[i], b[i], c[i]) + cuda.cbrt(a[i] * a[i] * a[i]) * 0.0


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_fma_is_exact_to_one_rounding(jit, dtype):
    a = np.array([1.0 + 2.0 ** -12, 3.0, -2.5], dtype=dtype)
    b = np.array([1.0 - 2.0 ** -12, 0.5, 4.0], dtype=dtype)
    c = np.array([-1.0, 1.0, 10.0], dtype=dtype)
    out = np.zeros(3, dtype=dtype)
    jit(fused)[1, 32](out, a, b, c)
    exact = [math.fsum([float(x) * float(y), float(z)]) for x, y, z in zip(a, b, c)]
    np.testing.assert_array_equal(out, np.array(exact, dtype=dtype))


def select(out, x):
    i = kaji.grid(1)
    if i < x.size:
        out[i] = kaji.selp(x[i] > 0, x[i], -x[i] * 2)


def test_selp_chooses_per_thread(jit):
    x = np.linspace(-3, 3, 50)
    out = np.zeros_like(x)
    jit(select)[1, 64](out, x)
    np.testing.assert_array_equal(out, np.where(x > 0, x, -x * 2))
