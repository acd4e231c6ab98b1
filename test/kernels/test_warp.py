"""Warp-level and block-reducing primitives (Numba's shfl_*_sync, votes, syncwarp,
syncthreads_count/and/or), on every target: on the cpu, threads run as fibers and a warp is
32 consecutive threads of the block's linear index, as on the GPU."""

import numpy as np
import pytest

import kaji
from kaji import cuda

FULL = 0xFFFFFFFF


def warp_sum(out, x):
    i = cuda.grid(1)
    value = x[i]
    offset = 16
    while offset > 0:
        value += cuda.shfl_down_sync(FULL, value, offset)
        offset //= 2
    if cuda.laneid == 0:
        out[i // 32] = value


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float32, np.float64])
def test_shfl_down_tree_reduction(jit, dtype):
    x = np.random.default_rng(20).integers(-50, 50, 256).astype(dtype)
    out = np.zeros(8, dtype=dtype)
    jit(warp_sum)[2, 128](out, x)
    np.testing.assert_array_equal(out, x.reshape(8, 32).sum(axis=1))


def shuffles(out, x):
    i = cuda.grid(1)
    out[0, i] = cuda.shfl_sync(FULL, x[i], 5)
    out[1, i] = cuda.shfl_up_sync(FULL, x[i], 3)
    out[2, i] = cuda.shfl_down_sync(FULL, x[i], 3)
    out[3, i] = cuda.shfl_xor_sync(FULL, x[i], 1)


def test_each_shuffle_reads_the_lane_cuda_defines(jit):
    x = np.arange(64, dtype=np.float64) * 1.5
    out = np.zeros((4, 64))
    jit(shuffles)[1, 64](out, x)
    lane = np.arange(64) % 32
    base = np.arange(64) - lane
    np.testing.assert_array_equal(out[0], x[base + 5])
    np.testing.assert_array_equal(out[1], x[np.where(lane >= 3, np.arange(64) - 3, np.arange(64))])
    np.testing.assert_array_equal(out[2], x[np.where(lane < 29, np.arange(64) + 3, np.arange(64))])
    np.testing.assert_array_equal(out[3], x[base + (lane ^ 1)])


def votes(out, x):
    i = cuda.grid(1)
    positive = x[i] > 0
    out[0, i] = cuda.ballot_sync(FULL, positive)
    out[1, i] = cuda.all_sync(FULL, positive) != 0
    out[2, i] = cuda.any_sync(FULL, positive) != 0
    out[3, i] = cuda.eq_sync(FULL, positive) != 0
    out[4, i] = cuda.match_any_sync(FULL, x[i] % 3)
    out[5, i] = cuda.activemask()
    out[6, i] = cuda.lanemask_lt()


def test_votes_ballots_and_masks(jit):
    x = np.ones(96, dtype=np.int64)
    x[40] = -1                              # warp 1: one lane not positive
    x[64:] = -np.arange(32)                 # warp 2: none positive
    x[:32] = np.arange(32) + 1              # warp 0: all positive, residues differ
    out = np.zeros((7, 96), dtype=np.uint64)
    jit(votes)[1, 96](out, x)
    lanes = np.arange(96) % 32
    for w in range(3):
        warp = slice(32 * w, 32 * w + 32)
        bits = sum(1 << k for k in range(32) if x[32 * w + k] > 0)
        assert (out[0, warp] == bits).all()
        assert (out[1, warp] == all(x[warp] > 0)).all()
        assert (out[2, warp] == any(x[warp] > 0)).all()
        uniform = len(set(x[warp] > 0)) == 1
        assert (out[3, warp] == uniform).all()
        for k in range(32):
            same = sum(1 << j for j in range(32) if x[32 * w + j] % 3 == x[32 * w + k] % 3)
            assert out[4, 32 * w + k] == same
    assert (out[5] == FULL).all()
    np.testing.assert_array_equal(out[6], (1 << lanes) - 1)


def match_all(out, x):
    i = cuda.grid(1)
    mask, same = cuda.match_all_sync(FULL, x[i])
    out[0, i] = mask
    out[1, i] = same
    wide_mask, _ = cuda.match_all_sync(FULL, np.float64(x[i]))
    out[2, i] = wide_mask


def test_match_all_gives_the_lanes_when_all_agree_and_the_predicate(jit):
    x = np.zeros(72, dtype=np.int32)
    x[33] = 4  # warp 1 disagrees; warp 2 is partial (8 lanes) and agrees
    out = np.zeros((3, 72), dtype=np.uint64)
    jit(match_all)[1, 72](out, x)
    want = np.concatenate([np.full(32, FULL), np.zeros(32), np.full(8, 0xFF)])
    np.testing.assert_array_equal(out[0], want)
    np.testing.assert_array_equal(out[1], want != 0)
    np.testing.assert_array_equal(out[2], want)


def numba_match_all(ary_in, ary_out):
    i = cuda.grid(1)
    ballot, pred = cuda.match_all_sync(0xFFFFFFFF, ary_in[i])
    ary_out[i] = ballot if pred else 0


def test_match_all_as_numbas_tests_use_it(jit):
    compiled = jit("void(int32[:], int32[:])")(numba_match_all)
    ary_in, ary_out = np.zeros(10, dtype=np.int32), np.empty(10, dtype=np.int32)
    compiled[1, 10](ary_in, ary_out)
    assert (ary_out == 0b1111111111).all()
    ary_in[1] = 4
    compiled[1, 10](ary_in, ary_out)
    assert (ary_out == 0).all()


def partial_warp(out):
    i = cuda.threadIdx.x
    active = cuda.activemask()
    cuda.syncwarp(active)
    out[0, i] = active
    out[1, i] = cuda.ballot_sync(active, True)


def test_a_partial_last_warp_has_only_its_lanes(jit):
    out = np.zeros((2, 40), dtype=np.uint64)
    jit(partial_warp)[1, 40](out)
    assert (out[:, :32] == FULL).all()
    assert (out[:, 32:] == 0xFF).all()


def divergent_masks(out):
    i = cuda.threadIdx.x
    lane = i % 32
    if lane < 10:
        out[0, i] = cuda.activemask()
    else:
        if lane % 3 == 0:
            out[1, i] = cuda.activemask()
        out[2, i] = cuda.activemask()
    out[3, i] = cuda.activemask()


def test_activemask_in_divergent_branches_has_the_lanes_of_the_branch(jit):
    out = np.zeros((4, 64), dtype=np.uint64)
    jit(divergent_masks)[1, 64](out)
    lanes = np.arange(64) % 32

    def mask(where):
        return sum(1 << k for k in range(32) if where(k))

    first, rest = lanes < 10, lanes >= 10
    np.testing.assert_array_equal(out[0, first], mask(lambda k: k < 10))
    np.testing.assert_array_equal(out[0, rest], 0)
    every_third = rest & (lanes % 3 == 0)
    np.testing.assert_array_equal(out[1, every_third], mask(lambda k: k >= 10 and k % 3 == 0))
    np.testing.assert_array_equal(out[1, ~every_third], 0)
    # after the inner `if`, the else-branch's lanes are together again
    np.testing.assert_array_equal(out[2, rest], mask(lambda k: k >= 10))
    # and after the outer one, the whole warp
    np.testing.assert_array_equal(out[3], FULL)


def block_votes(out, x):
    t = cuda.threadIdx.x
    positive = x[cuda.grid(1)] > 0
    out[0, cuda.blockIdx.x] = cuda.syncthreads_count(positive)
    out[1, cuda.blockIdx.x] = cuda.syncthreads_and(positive) != 0
    out[2, cuda.blockIdx.x] = cuda.syncthreads_or(positive) != 0
    if t == 0:
        out[3, cuda.blockIdx.x] = 1


def test_syncthreads_count_and_or(jit):
    x = np.ones(3 * 100, dtype=np.int32)
    x[100:150] = 0
    x[200:] = 0
    out = np.zeros((4, 3), dtype=np.int32)
    jit(block_votes)[3, 100](out, x)
    np.testing.assert_array_equal(out, [[100, 50, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1]])


def half_warp_exchange(out):
    lane = cuda.laneid
    value = lane * 10
    if lane < 16:
        value = cuda.shfl_xor_sync(0xFFFF, value, 8)
        cuda.syncwarp(0xFFFF)
    out[cuda.threadIdx.x] = value


def test_divergent_half_warp_with_its_own_mask(jit):
    out = np.zeros(32, dtype=np.int32)
    jit(half_warp_exchange)[1, 32](out)
    lanes = np.arange(32)
    np.testing.assert_array_equal(out, np.where(lanes < 16, (lanes ^ 8) * 10, lanes * 10))


def shuffle_bool(out):
    out[0] = cuda.shfl_sync(FULL, True, 0)


def test_shuffling_a_bool_is_a_compile_error(jit):
    with pytest.raises(kaji.CompileError, match="32- and 64-bit numbers, not bool"):
        jit(shuffle_bool)[1, 32](np.zeros(1, np.int32))


def vote_with(mask, predicate, result):
    i = cuda.grid(1)
    if i < result.shape[0]:
        result[i] = cuda.all_sync(mask[i], predicate[i])


@pytest.mark.parametrize("mask, predicate, words", [
    (np.float32, np.int32, "Mask type must be an integer, not float32"),
    (np.bool_, np.int32, "Mask type must be an integer, not bool"),
    (np.int32, np.float64, "Predicate must be an integer or boolean, not float64"),
])
def test_a_vote_takes_an_integer_mask_and_an_integer_or_bool_predicate(jit, mask, predicate,
                                                                        words):
    with pytest.raises(kaji.CompileError, match=words):
        jit(vote_with)[1, 32](np.ones(32, mask), np.ones(32, predicate), np.zeros(32, np.int32))


@pytest.mark.parametrize("mask, predicate", [(np.uint32, np.uint32), (np.int64, np.int64),
                                             (np.uint64, np.bool_)])
def test_votes_take_any_integer_mask(jit, mask, predicate):
    result = np.zeros(32, np.int32)
    jit(vote_with)[1, 32](np.full(32, ~np.array(0, dtype=mask)), np.ones(32, predicate), result)
    assert (result == 1).all()
