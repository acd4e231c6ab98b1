"""kernel[griddim, blockdim, ...]: the configured launch is kept and reused while the
configuration stays the same, and only then (cpu target: no GPU needed)."""

import numpy as np
import pytest

import kaji


@kaji.jit(target="cpu")
def mark(out):
    i = kaji.grid(1)
    if i < out.size:
        out[i] = 1


def marked(config):
    out = np.zeros(1024, np.int32)
    mark[config](out)
    return int(out.sum())


def test_the_same_configuration_gives_the_same_launch():
    assert mark[4, 32] is mark[4, 32]
    assert mark[int("4"), int("32")] is mark[4, 32]  # equal ints made apart
    assert mark[(2, 1), 32] is mark[(int("2"), 1), 32]
    assert mark[4, 32] is not mark[4, 64]


@pytest.mark.parametrize("configs", [
    [(1, 32), (2, 32), (1, 32), (np.int64(3), 32), (np.int64(4), 32), ((1,), 32), ((5,), 32)],
    [(2, 32, None), (2, 32, 0), (2, 64, 0), (2, 64, 0, 0), (2, 64, 0, 16)],
], ids=["grids", "streams and shared memory"])
def test_each_configuration_launches_with_its_own_shape(configs):
    for config in configs:
        grid = config[0][0] if isinstance(config[0], tuple) else config[0]
        assert marked(config) == int(grid) * config[1]


def test_a_bool_after_an_equal_int_is_still_rejected():
    mark[1, 32]
    with pytest.raises(TypeError, match=r"griddim must be a sequence of integers, got \[True\]"):
        mark[True, 32]


@pytest.mark.parametrize("config, error, message", [
    ((2.0, 3), TypeError, r"griddim must be a sequence of integers, got \[2.0\]"),
    ((2, (3.0, 1)), TypeError, r"blockdim must be a sequence of integers, got \[3.0, 1\]"),
    (((1, 2, 3, 4), 32), ValueError,
     r"griddim must be a sequence of 1, 2 or 3 integers, got \[1, 2, 3, 4\]"),
    ((1, ()), ValueError, r"blockdim must be a sequence of 1, 2 or 3 integers, got \[\]"),
    (("4", 32), TypeError, r"griddim must be a sequence of integers, got \['4'\]"),
])
def test_malformed_shapes_are_numbas_errors(config, error, message):
    with pytest.raises(error, match=message):
        mark[config]


def test_distinct_stream_objects_are_distinct_configurations():
    first, second = kaji.external_stream(0x1234), kaji.external_stream(0x1234)
    assert mark[1, 32, first] is mark[1, 32, first]
    assert mark[1, 32, first] is not mark[1, 32, second]


def test_kernel_arguments_are_positional():
    with pytest.raises(TypeError, match="positional"):
        mark[1, 32](out=np.zeros(4, np.int32))
