"""kernel.forall(ntasks): Numba's launch of at least ntasks threads, block size from the
occupancy API."""

import numpy as np
import pytest

import kaji


def increment(a):
    i = kaji.grid(1)
    if i < a.size:
        a[i] += 1


@pytest.mark.parametrize("ntasks", [1, 1000, 100_003])
def test_forall_covers_every_task(jit, ntasks):
    a = np.zeros(ntasks, np.int32)
    jit(increment).forall(ntasks)(a)
    np.testing.assert_array_equal(a, 1)


def test_forall_with_explicit_block_size_and_zero_tasks(jit):
    a = np.zeros(10, np.int32)
    kernel = jit(increment)
    kernel.forall(10, tpb=4)(a)
    kernel.forall(0)(a)
    np.testing.assert_array_equal(a, 1)


def test_occupancy_block_size_is_a_whole_number_of_warps(jit):
    size = jit(increment).occupancy_block_size((np.zeros(4, np.int32),))
    assert 32 <= size <= 1024 and size % 32 == 0


@pytest.mark.parametrize("bad", [2.5, True])
def test_forall_rejects_what_is_not_a_task_count(jit, bad):
    with pytest.raises(ValueError, match="non-negative int of tasks"):
        jit(increment).forall(bad)


def test_forall_rejects_a_negative_count_with_numbas_message(jit):
    with pytest.raises(ValueError, match="Can't create ForAll with negative task count"):
        jit(increment).forall(-1)
