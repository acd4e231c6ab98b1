"""cuda.shared.array(0, dtype): the launch's dynamic shared memory, sized by the fourth launch
parameter (kernel[grid, block, stream, nbytes]); every such array aliases its start."""

import numpy as np
import pytest

import kaji
from kaji import cuda


def reverse_in_block(a):
    buffer = cuda.shared.array(0, np.float32)
    i = cuda.threadIdx.x
    base = cuda.blockIdx.x * cuda.blockDim.x
    buffer[i] = a[base + i]
    cuda.syncthreads()
    a[base + i] = buffer[cuda.blockDim.x - 1 - i]


def test_dynamic_shared_memory_reverses_each_block(jit):
    threads, blocks = 64, 5
    a = np.arange(threads * blocks, dtype=np.float32)
    jit(reverse_in_block)[blocks, threads, 0, threads * 4](a)
    expected = np.arange(threads * blocks, dtype=np.float32).reshape(blocks, threads)[:, ::-1]
    np.testing.assert_array_equal(a, expected.ravel())


def dynamic_sizes(out):
    floats = cuda.shared.array(0, np.float32)
    doubles = cuda.shared.array(0, dtype=np.float64)
    bytes_ = cuda.shared.array(shape=0, dtype=np.uint8)
    if cuda.threadIdx.x == 0:
        out[0] = floats.size
        out[1] = doubles.size
        out[2] = len(bytes_)


@pytest.mark.parametrize("nbytes", [0, 8, 100, 4096])
def test_dynamic_array_size_is_the_launch_bytes_over_the_itemsize(jit, nbytes):
    out = np.full(3, -1, dtype=np.int64)
    jit(dynamic_sizes)[1, 32, 0, nbytes](out)
    np.testing.assert_array_equal(out, [nbytes // 4, nbytes // 8, nbytes])


def aliasing(out):
    floats = cuda.shared.array(0, np.float32)
    words = cuda.shared.array(0, np.int32)
    i = cuda.threadIdx.x
    floats[i] = np.float32(i) + np.float32(0.5)
    cuda.syncthreads()
    out[i] = words[i]


def test_every_dynamic_array_aliases_the_same_memory(jit):
    out = np.zeros(32, dtype=np.int32)
    jit(aliasing)[1, 32, 0, 32 * 4](out)
    np.testing.assert_array_equal(out, (np.arange(32, dtype=np.float32) + 0.5).view(np.int32))


def slices_of_dynamic(out):
    dynamic = cuda.shared.array(0, np.float32)
    first = dynamic[0:32]
    second = dynamic[32:64]
    t = cuda.threadIdx.x
    first[t] = t
    second[t] = 100 + t
    cuda.syncthreads()
    out[t] = dynamic[t]
    out[32 + t] = dynamic[32 + t]
    out[64 + t] = second.size


def test_slices_of_dynamic_memory_are_distinct_regions(jit):
    out = np.zeros(96, dtype=np.float32)
    jit(slices_of_dynamic)[1, 32, 0, 64 * 4](out)
    expected = np.concatenate([np.arange(32), 100 + np.arange(32), np.full(32, 32)])
    np.testing.assert_array_equal(out, expected)


def static_and_dynamic(out):
    fixed = cuda.shared.array(32, np.int32)
    dynamic = cuda.shared.array(0, np.int32, alignment=256)
    i = cuda.threadIdx.x
    fixed[i] = i
    dynamic[i] = 1000 + i
    cuda.syncthreads()
    out[i] = fixed[31 - i] + dynamic[31 - i] * 10000


def test_static_shared_arrays_do_not_overlap_the_dynamic_memory(jit):
    out = np.zeros(32, dtype=np.int64)
    jit(static_and_dynamic)[3, 32, 0, 32 * 4](out)
    reversed_ = np.arange(31, -1, -1)
    np.testing.assert_array_equal(out, reversed_ + (1000 + reversed_) * 10000)


def aligned_arrays(out):
    tile = cuda.shared.array((4, 8), np.float64, alignment=512)
    scratch = cuda.local.array(8, np.int16, alignment=64)
    i = cuda.threadIdx.x
    scratch[i % 8] = i
    tile[i // 8, i % 8] = scratch[i % 8] * 2.0
    cuda.syncthreads()
    out[i] = tile[3 - i // 8, i % 8]


def test_alignment_keeps_array_contents(jit):
    out = np.zeros(32, dtype=np.float64)
    jit(aligned_arrays)[1, 32](out)
    expected = (np.arange(32).reshape(4, 8)[::-1] * 2.0).ravel()
    np.testing.assert_array_equal(out, expected)


def read_past_dynamic(out):
    values = cuda.shared.array(0, np.float32)
    out[0] = values[16]


def test_index_beyond_the_dynamic_size_is_an_index_error_on_cpu():
    kernel = kaji.jit(target="cpu")(read_past_dynamic)
    out = np.zeros(1, dtype=np.float32)
    with pytest.raises(IndexError, match="index 16 is out of bounds for axis 0 with size 16"):
        kernel[1, 1, 0, 64](out)
    kernel[1, 1, 0, 68](out)
