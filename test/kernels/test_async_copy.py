"""cuda.pipeline, asynchronous copies from global into shared memory (docs/language.md,
"Asynchronous copies"): double-buffered stages of 4, 8 and 16 bytes per thread in every element
size, where each thread reads what another copied, against numpy; bounds checks of the spans
copied; and the misuse the compiler refuses, at the line."""

import numpy as np
import pytest

import kaji
from kaji import cuda

from compile_errors import compile_error

ml_dtypes = pytest.importorskip("ml_dtypes")

THREADS = 32

# (element type, bytes each thread copies per stage)
CASES = [
    (np.float32, 16), (np.float32, 8), (np.float32, 4), (np.float64, 16), (np.float64, 8),
    (np.float16, 16), (ml_dtypes.bfloat16, 16), (np.int16, 8), (np.int8, 4), (np.uint8, 16),
]


def _double_buffered_sums(dtype, nbytes):
    """Each block sums its row of x in stages of THREADS * count elements: stage s + 1 is
    copied while stage s is summed, and thread t sums the elements thread t + 1 copied."""
    count = nbytes // np.dtype(dtype).itemsize
    chunk = THREADS * count

    def kernel(x, out):
        stages = cuda.shared.array((2, chunk), dtype)
        t = cuda.threadIdx.x
        row = cuda.blockIdx.x
        steps = x.shape[1] // chunk
        cuda.pipeline.memcpy_async(stages[0, t * count:], x[row, t * count:], nbytes)
        cuda.pipeline.commit()
        neighbour = (t + 1) % THREADS
        for s in range(steps):
            if s + 1 < steps:
                cuda.pipeline.memcpy_async(stages[(s + 1) % 2, t * count:],
                                           x[row, (s + 1) * chunk + t * count:], nbytes)
            cuda.pipeline.commit()
            cuda.pipeline.wait_prior(1)
            cuda.syncthreads()
            for i in range(count):
                out[row, t] += stages[s % 2, neighbour * count + i]
            cuda.syncthreads()

    return kernel, chunk


def _expected_sums(x, count):
    rows, columns = x.shape
    parts = x.astype(np.float64).reshape(rows, columns // (THREADS * count), THREADS, count)
    return np.roll(parts.sum(axis=(1, 3)), -1, axis=1)


@pytest.mark.parametrize("dtype, nbytes", CASES,
                         ids=[f"{np.dtype(d).name}-{b}B" for d, b in CASES])
def test_double_buffered_stages_match_numpy(jit, dtype, nbytes):
    kernel, chunk = _double_buffered_sums(dtype, nbytes)
    rows = 3
    x = np.random.default_rng(1).integers(0, 50, (rows, 5 * chunk)).astype(dtype)
    out = np.zeros((rows, THREADS), np.float64)
    jit(kernel)[rows, THREADS](x, out)
    np.testing.assert_array_equal(out, _expected_sums(x, nbytes // x.itemsize))


def staged_into_dynamic_shared(x, out):
    words = cuda.shared.array(0, np.uint32)
    t = cuda.threadIdx.x
    cuda.pipeline.memcpy_async(words[4 * t:], x[4 * t:], 16)
    cuda.pipeline.commit()
    cuda.pipeline.wait_prior(0)
    cuda.syncthreads()
    out[t] = words[4 * THREADS - 1 - t]


def test_into_dynamic_shared_memory(jit):
    x = np.arange(4 * THREADS, dtype=np.uint32) * 3
    out = np.zeros(THREADS, np.uint32)
    jit(staged_into_dynamic_shared)[1, THREADS, 0, 4 * THREADS * 4](x, out)
    np.testing.assert_array_equal(out, x[::-1][:THREADS])


def copy_from(x, start, out):
    tile = cuda.shared.array(8, np.float32)
    if cuda.threadIdx.x == 0:
        cuda.pipeline.memcpy_async(tile[4:], x[start:], 16)
        cuda.pipeline.commit()
        cuda.pipeline.wait_prior(0)
        out[0] = tile[7]


def test_a_span_out_of_range_is_an_index_error(jit):
    kernel = jit(copy_from, boundscheck=True)
    x = np.arange(10, dtype=np.float32)
    out = np.zeros(1, np.float32)
    kernel[1, 1](x, 4, out)  # from x[4:], 16 bytes from its start as the GPU needs
    assert out[0] == 7
    # At once on the cpu target, at the next synchronize on the GPU.
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 0 with size 2"):
        kernel[1, 1](x, 8, out)
        kaji.synchronize()
    with pytest.raises(IndexError, match="test_async_copy.py:"):
        kernel[1, 1](x, 7, out)
        kaji.synchronize()


def into_global(x, y):
    cuda.pipeline.memcpy_async(x[0:], y[0:], 16)


def from_shared(x, y):
    tile = cuda.shared.array(8, np.float32)
    other = cuda.shared.array(8, np.float32)
    cuda.pipeline.memcpy_async(tile[0:], other[0:], 16)


def twelve_bytes(x, y):
    tile = cuda.shared.array(8, np.float32)
    cuda.pipeline.memcpy_async(tile[0:], x[0:], 12)


def bytes_not_constant(x, y):
    tile = cuda.shared.array(8, np.float32)
    cuda.pipeline.memcpy_async(tile[0:], x[0:], x.shape[0])


def part_of_an_element(x, y):
    tile = cuda.shared.array(8, np.float64)
    cuda.pipeline.memcpy_async(tile[0:], y[0:], 4)


def two_element_types(x, y):
    tile = cuda.shared.array(8, np.float32)
    cuda.pipeline.memcpy_async(tile[0:], y[0:], 16)


def strided_source(x, y):
    tile = cuda.shared.array(8, np.float32)
    cuda.pipeline.memcpy_async(tile[0:], x[::2], 16)


def wait_for_a_variable(x, y):
    cuda.pipeline.wait_prior(x.shape[0])


def commit_with_an_argument(x, y):
    cuda.pipeline.commit(1)


@pytest.mark.parametrize("kernel, words", [
    (into_global, "copies from global memory into shared memory: its destination is in global"),
    (from_shared, "its source is in shared memory"),
    (twelve_bytes, "copies 4, 8 or 16 bytes, a constant number of whole f32 elements, not 12"),
    (bytes_not_constant, "copies 4, 8 or 16 bytes"),
    (part_of_an_element, "whole f64 elements, not 4"),
    (two_element_types, "copies between arrays of one element type"),
    (strided_source, "its source must be C-contiguous"),
    (wait_for_a_variable, "takes the number of groups that may still be copying as a constant"),
    (commit_with_an_argument, "takes 0 arguments, got 1"),
])
def test_misuse_is_a_compile_error_at_the_line(kernel, words):
    message = compile_error(kernel, "void(float32[::1], float64[::1])")
    assert words in message
    assert "test_async_copy.py:" in message


def test_a_misaligned_copy_is_a_value_error(jit):
    """What the GPU faults on (a 16-byte cp.async from x[1:]) is, under bounds checks, a
    ValueError at the line on every target."""
    kernel = jit(copy_from, boundscheck=True)
    x = np.arange(12, dtype=np.float32)
    out = np.zeros(1, np.float32)
    with pytest.raises(ValueError, match=r"test_async_copy.py:\d+:\d+: in 'copy_from'.*"
                                         r"an asynchronous copy of 16 bytes needs its source and "
                                         r"destination aligned to 16 bytes"):
        kernel[1, 1](x, 1, out)
        kaji.synchronize()
