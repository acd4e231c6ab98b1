"""cuda.wgmma, Hopper's warpgroup multiply-accumulate (docs/language.md, "Warpgroup matrix
multiply-accumulate"): every shape and input type against numpy, tiles written into shared
memory 128-byte swizzled by plain stores and by asynchronous copies, an accumulator loaded,
changed through x[i] and stored in both orders by two warpgroups, the example's pipelined GEMM;
the bounds and layout checks of its shared matrices, and the misuse the compiler refuses, at
the line. The inputs are small integers, so every product and sum is exact."""

import numpy as np
import pytest

import kaji
from kaji import cuda
from kaji.cuda import wgmma, wmma

from compile_errors import compile_error
from example_files import load_example

ml_dtypes = pytest.importorskip("ml_dtypes")

WARPGROUP = 128
SHAPES = [(n, dtype) for n in (32, 64, 128, 256) for dtype in (np.float16, ml_dtypes.bfloat16)]


def _swizzled(row, column):
    """The column of a 64-column tile of 16-bit elements where element (row, column) is stored:
    its 16-byte chunk's index xor the row's place in its group of 8."""
    return ((column // 8) ^ (row % 8)) * 8 + column % 8


def _shared_tile_product(n, dtype):
    """out = c + a @ b.T for a 64 x 64, b n x 64: a and b stored swizzled into one shared tile
    by plain stores, then four multiplies of k = 16 in one group."""

    def kernel(a, b, c, out):
        tiles = cuda.shared.array((64 + n, 64), dtype)
        t = cuda.threadIdx.x
        for e in range(t, 64 * 64, WARPGROUP):
            r, col = e // 64, e % 64
            tiles[r, ((col // 8) ^ (r % 8)) * 8 + col % 8] = a[r, col]
        for e in range(t, n * 64, WARPGROUP):
            r, col = e // 64, e % 64
            tiles[64 + r, ((col // 8) ^ (r % 8)) * 8 + col % 8] = b[r, col]
        cuda.syncthreads()
        acc = wmma.fragment(wmma.accumulator, 64, n, 16, np.float32)
        wmma.load_matrix_sync(acc, c, n, wmma.mem_row_major)
        for k in range(0, 64, 16):
            wgmma.mma_async(acc, tiles[0:64, k:k + 16], tiles[64:64 + n, k:k + 16])
        wgmma.commit_group()
        wgmma.wait_group(0)
        wmma.store_matrix_sync(out, acc, n, wmma.mem_row_major)

    return kernel


@pytest.mark.parametrize("n, dtype", SHAPES,
                         ids=[f"m64n{n}k16-{np.dtype(d).name}" for n, d in SHAPES])
def test_every_shape_and_input_matches_numpy(jit, n, dtype):
    rng = np.random.default_rng(n)
    a = rng.integers(-4, 5, (64, 64)).astype(dtype)
    b = rng.integers(-4, 5, (n, 64)).astype(dtype)
    c = rng.integers(-50, 50, (64, n)).astype(np.float32)
    out = np.zeros((64, n), np.float32)
    jit(_shared_tile_product(n, dtype))[1, WARPGROUP](a, b, c, out)
    np.testing.assert_array_equal(out, c + a.astype(np.float32) @ b.astype(np.float32).T)


def two_warpgroups(a, b, out_t):
    """Warpgroup g multiplies rows 64 g on of a by b into an accumulator filled with 1, doubles
    its elements through x[i] and stores it column major: out_t = (2 (1 + a @ b.T)).T."""
    tiles = cuda.shared.array((160, 64), np.float16)
    t = cuda.threadIdx.x
    for e in range(t, 160 * 16, 256):
        r, col = e // 16, e % 16
        value = a[r, col] if r < 128 else b[r - 128, col]
        tiles[r, ((col // 8) ^ (r % 8)) * 8 + col % 8] = value
    cuda.syncthreads()
    g = t // WARPGROUP
    acc = wmma.fragment(wmma.accumulator, 64, 32, 16, np.float32)
    wmma.fill_fragment(acc, 1)
    wgmma.mma_async(acc, tiles[64 * g:64 * g + 64, 0:16], tiles[128:160, 0:16])
    wgmma.commit_group()
    wgmma.wait_group(0)
    for i in range(acc.num_elements):
        acc.x[i] = acc.x[i] * 2
    wmma.store_matrix_sync(out_t[0:, 64 * g:], acc, out_t.shape[1], wmma.mem_col_major)


def test_two_warpgroups_elements_and_column_major_store(jit):
    rng = np.random.default_rng(7)
    a = rng.integers(-4, 5, (128, 16)).astype(np.float16)
    b = rng.integers(-4, 5, (32, 16)).astype(np.float16)
    out_t = np.zeros((32, 128), np.float32)
    jit(two_warpgroups)[1, 2 * WARPGROUP](a, b, out_t)
    expected = 2 * (1 + a.astype(np.float32) @ b.astype(np.float32).T)
    np.testing.assert_array_equal(out_t.T, expected)


def elements_per_thread(out):
    acc = wmma.fragment(wmma.accumulator, 64, 256, 16, np.float32)
    out[cuda.threadIdx.x] = acc.num_elements


def test_a_thread_holds_its_share_of_the_accumulator(jit):
    out = np.zeros(WARPGROUP, np.int64)
    jit(elements_per_thread)[1, WARPGROUP](out)
    assert (out == 64 * 256 // WARPGROUP).all()


@pytest.mark.checks_own_ptx
def test_the_example_gemm(jit):
    """examples/gemm_warpgroup.py's kernel: 128 x 256 tiles of 2 warpgroups, k in five steps of
    64 through its ring of four shared stages filled by asynchronous copies (so the ring wraps),
    two of the four blocks of a 256 x 512 product."""
    example = load_example("gemm_warpgroup")
    rng = np.random.default_rng(3)
    a = rng.integers(-3, 4, (256, 320)).astype(ml_dtypes.bfloat16)
    bt = rng.integers(-3, 4, (512, 320)).astype(ml_dtypes.bfloat16)
    c = np.zeros((256, 512), np.float32)
    jit(example.gemm.py_func)[(2, 2), example.THREADS, 0, example.SHARED_BYTES](a, bt, c)
    np.testing.assert_array_equal(c, a.astype(np.float32) @ bt.astype(np.float32).T)


def multiply_rows(a_rows, width, out):
    """One multiply of the shared view tiles[a_rows:a_rows + 64, 0:width] (rows of 128 bytes
    when width is 64) by b; what the checks see."""
    tiles = cuda.shared.array((128, 64), np.float16)
    narrow = cuda.shared.array((128, 32), np.float16)
    acc = wmma.fragment(wmma.accumulator, 64, 32, 16, np.float32)
    wmma.fill_fragment(acc, 0)
    if width == 64:
        wgmma.mma_async(acc, tiles[a_rows:a_rows + 64, 0:16], tiles[96:128, 0:16])
    else:
        wgmma.mma_async(acc, narrow[a_rows:a_rows + 64, 0:16], tiles[96:128, 0:16])
    wgmma.commit_group()
    wgmma.wait_group(0)
    wmma.store_matrix_sync(out, acc, 32, wmma.mem_row_major)


def test_checked_views_of_the_wrong_layout_are_value_errors(jit):
    """Rows 64 bytes apart, or a view whose first row is not the first of a group of 8, read
    other elements than the view's on the GPU: under bounds checks a ValueError at the line."""
    kernel = jit(multiply_rows, boundscheck=True)
    out = np.zeros((64, 32), np.float32)
    kernel[1, WARPGROUP](8, 64, out)  # rows 8 to 71: a group of 8 on
    for a_rows, width in ((0, 32), (4, 64)):
        with pytest.raises(ValueError, match=r"test_wgmma.py:\d+:\d+: in 'multiply_rows'.*"
                                             r"rows are 128 bytes apart"):
            kernel[1, WARPGROUP](a_rows, width, out)
            kaji.synchronize()


def test_a_checked_view_too_small_is_an_index_error(jit):
    kernel = jit(multiply_rows, boundscheck=True)
    out = np.zeros((64, 32), np.float32)
    with pytest.raises(IndexError, match="index 63 is out of bounds for axis 0 with size 56"):
        kernel[1, WARPGROUP](72, 64, out)  # tiles[72:136] has 56 rows
        kaji.synchronize()


def into_a_warp_accumulator(x, y):
    tiles = cuda.shared.array((96, 64), np.float16)
    acc = wmma.fragment(wmma.accumulator, 16, 16, 16, np.float32)
    wgmma.mma_async(acc, tiles[0:64, 0:16], tiles[64:96, 0:16])


def from_global(x, y):
    tiles = cuda.shared.array((96, 64), np.float16)
    acc = wmma.fragment(wmma.accumulator, 64, 32, 16, np.float32)
    wgmma.mma_async(acc, x, tiles[64:96, 0:16])


def of_float32(x, y):
    tiles = cuda.shared.array((96, 32), np.float32)
    acc = wmma.fragment(wmma.accumulator, 64, 32, 16, np.float32)
    wgmma.mma_async(acc, tiles[0:64, 0:16], tiles[64:96, 0:16])


def of_two_types(x, y):
    tiles = cuda.shared.array((64, 64), np.float16)
    other = cuda.shared.array((32, 64), np.int16)
    acc = wmma.fragment(wmma.accumulator, 64, 32, 16, np.float32)
    wgmma.mma_async(acc, tiles[0:64, 0:16], other.view(np.float16)[0:32, 0:16].view(np.int16))


def from_one_dimension(x, y):
    tiles = cuda.shared.array(4096, np.float16)
    acc = wmma.fragment(wmma.accumulator, 64, 32, 16, np.float32)
    wgmma.mma_async(acc, tiles, tiles)


def wait_for_a_variable(x, y):
    wgmma.wait_group(x.shape[0])


def commit_with_an_argument(x, y):
    wgmma.commit_group(1)


def an_a_fragment(x, y):
    wmma.fragment(wmma.matrix_a, 64, 64, 16, np.float16, wmma.row_major)


def in_one_lane(x, y):
    tiles = cuda.shared.array((96, 64), np.float16)
    acc = wmma.fragment(wmma.accumulator, 64, 32, 16, np.float32)
    if cuda.laneid == 0:
        wgmma.mma_async(acc, tiles[0:64, 0:16], tiles[64:96, 0:16])


@pytest.mark.parametrize("kernel, words", [
    (into_a_warp_accumulator, "accumulates into a warpgroup's accumulator"),
    (from_global, "reads a (64 x 16) from a 2-d shared array, not"),
    (of_float32, "the tensor cores multiply no"),
    (of_two_types, "the tensor cores multiply no"),
    (from_one_dimension, "from a 2-d shared array"),
    (wait_for_a_variable, "takes the number of groups that may still run as a constant integer"),
    (commit_with_an_argument, "takes 0 arguments, got 1"),
    (an_a_fragment, "has accumulator fragments only"),
    (in_one_lane, "'warpgroup_mma' runs only in the lanes of a warp"),
])
def test_misuse_is_a_compile_error_at_the_line(kernel, words):
    message = compile_error(kernel, "void(float16[:, ::1], float64[::1])")
    assert words in message
    assert "test_wgmma.py:" in message


@pytest.mark.parametrize("cc", [(8, 0), (8, 9)])
def test_older_gpus_are_refused(cc):
    message = compile_error(multiply_rows, "void(int64, int64, float32[:, ::1])", cc=cc)
    assert "needs sm_90" in message and f"compiling for sm_{cc[0]}{cc[1]}" in message


def test_the_ptx_is_sm_90a():
    ptx, _ = kaji.compiling.compile_ptx(multiply_rows, "void(int64, int64, float32[:, ::1])",
                                        cc=(9, 0))
    assert ".target sm_90a" in ptx
    assert "wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16" in ptx
