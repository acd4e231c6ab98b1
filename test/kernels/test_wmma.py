"""cuda.wmma, the tensor cores' warp-level matrix multiply-accumulate (docs/language.md, "Tensor
cores"): every shape and element kind of ir/MatrixFragments.def, A and B row and column major,
accumulators loaded and stored either way, from global and shared memory, and element-wise code
on a fragment's x, against numpy. Inputs are small integers, so every product and sum is exact
in every element kind and the tensor cores' order of summation does not matter. The PTX of the
llvm backend is assembled by ptxas for sm_80 and sm_90 where the toolkit is."""

import os
import shutil
import subprocess
import tempfile

import numpy as np
import pytest

import kaji
from kaji import cuda
from kaji.cuda import wmma

from compile_errors import compile_error
from example_files import load_example

ml_dtypes = pytest.importorskip("ml_dtypes")

# (m, n, k, input dtype, accumulator dtype), as MatrixFragments.def lists them.
CASES = [
    (16, 16, 16, np.float16, np.float32),
    (16, 16, 16, np.float16, np.float16),
    (32, 8, 16, np.float16, np.float32),
    (8, 32, 16, np.float16, np.float16),
    (16, 16, 16, ml_dtypes.bfloat16, np.float32),
    (32, 8, 16, ml_dtypes.bfloat16, np.float32),
    (8, 32, 16, ml_dtypes.bfloat16, np.float32),
    (16, 16, 8, np.float32, np.float32),
    (16, 16, 16, np.int8, np.int32),
    (16, 16, 16, np.uint8, np.int32),
    (32, 8, 16, np.int8, np.int32),
    (8, 32, 16, np.uint8, np.int32),
    # mma.sync's shapes: each lane's elements where PTX places them on the GPU
    (16, 8, 16, np.float16, np.float32),
    (16, 8, 16, ml_dtypes.bfloat16, np.float32),
    (16, 8, 8, np.float32, np.float32),
]


def _name(case):
    m, n, k, inputs, accumulators = case
    return f"m{m}n{n}k{k}-{np.dtype(inputs).name}-{np.dtype(accumulators).name}"


def _multiply_add(m, n, k, inputs, accumulators, a_layout, b_layout, c_layout):
    """A kernel of one warp: d = a @ b + c, then d * 2 - 1 element by element."""
    a_order = wmma.row_major if a_layout == "C" else wmma.col_major
    b_order = wmma.row_major if b_layout == "C" else wmma.col_major
    c_order = wmma.mem_row_major if c_layout == "C" else wmma.mem_col_major

    def kernel(a, b, c, d):
        fa = wmma.fragment(wmma.matrix_a, m, n, k, inputs, a_order)
        fb = wmma.fragment(wmma.matrix_b, m, n, k, inputs, b_order)
        fc = wmma.fragment(wmma.accumulator, m, n, k, accumulators)
        wmma.load_matrix_sync(fa, a, a.shape[1])
        wmma.load_matrix_sync(fb, b, b.shape[1])
        wmma.load_matrix_sync(fc, c, c.shape[1], c_order)
        wmma.mma_sync(fc, fa, fb, fc)
        for i in range(fc.num_elements):
            fc.x[i] = fc.x[i] * 2 - 1
        wmma.store_matrix_sync(d, fc, d.shape[1], c_order)

    return kernel


def _matrix(rng, shape, dtype, layout):
    """Small integers of `dtype`, and the array holding them in `layout`'s order (its transpose
    for F: element (i, j) at j * rows + i)."""
    values = rng.integers(0 if np.dtype(dtype).kind == "u" else -3, 4, shape).astype(dtype)
    stored = values if layout == "C" else np.ascontiguousarray(values.T)
    return values, stored


@pytest.mark.checks_own_ptx
@pytest.mark.parametrize("case", CASES, ids=_name)
@pytest.mark.parametrize("layouts", ["CCC", "FFF", "CFC", "FCF"])
def test_multiply_accumulate_matches_numpy(jit, case, layouts):
    m, n, k, inputs, accumulators = case
    rng = np.random.default_rng(m * 100 + n * 10 + k)
    a, a_stored = _matrix(rng, (m, k), inputs, layouts[0])
    b, b_stored = _matrix(rng, (k, n), inputs, layouts[1])
    c, c_stored = _matrix(rng, (m, n), accumulators, layouts[2])
    d = np.zeros_like(c_stored)
    jit(_multiply_add(m, n, k, inputs, accumulators, *layouts))[1, 32](a_stored, b_stored,
                                                                      c_stored, d)
    wide = np.int64 if np.dtype(accumulators).kind == "i" else np.float64
    expected = (a.astype(wide) @ b.astype(wide) + c.astype(wide)) * 2 - 1
    result = d if layouts[2] == "C" else d.T
    np.testing.assert_array_equal(result.astype(wide), expected)


def _ptxas():
    found = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
    return found if os.path.exists(found) else None


@pytest.mark.skipif(_ptxas() is None, reason="needs ptxas (the CUDA toolkit)")
@pytest.mark.parametrize("case", CASES, ids=_name)
@pytest.mark.parametrize("cc", [(8, 0), (9, 0)])
def test_ptx_assembles(case, cc):
    m, n, k, inputs, accumulators = case
    kernel = _multiply_add(m, n, k, inputs, accumulators, "C", "F", "F")
    matrix, result = np.dtype(inputs).name, np.dtype(accumulators).name
    signature = f"void({matrix}[:, ::1], {matrix}[:, ::1], {result}[:, ::1], {result}[:, ::1])"
    ptx, _ = kaji.compiling.compile_ptx(kernel, signature, cc=cc)
    instruction = "mma.sync.aligned.m16n8" if n == 8 and m == 16 else "wmma.mma.sync.aligned"
    assert instruction in ptx and ".local" not in ptx
    with tempfile.NamedTemporaryFile("w", suffix=".ptx") as file:
        file.write(ptx)
        file.flush()
        assembled = subprocess.run([_ptxas(), "--gpu-name", f"sm_{cc[0]}{cc[1]}", "-o",
                                    os.devnull, file.name], capture_output=True, text=True)
    assert assembled.returncode == 0, assembled.stderr


def _staged_mma(a_layout, b_layout):
    """One warp: d = a @ b for a 16 x 16, b 16 x 8 (float16), both copied into shared memory in
    their layout's order with `ldm` elements from one row (or column) to the next, then loaded
    from there: a row at a time (ldmatrix) on the GPU where each row starts on a 16-byte
    boundary, element by element otherwise."""
    a_order = wmma.row_major if a_layout == "C" else wmma.col_major
    b_order = wmma.row_major if b_layout == "C" else wmma.col_major

    def kernel(a, b, d, ldm):
        tiles = cuda.shared.array((2, 16 * 24), np.float16)
        for e in range(cuda.threadIdx.x, 256, 32):
            r, c = e // 16, e % 16
            tiles[0, (r * ldm + c) if a_layout == "C" else (c * ldm + r)] = a[r, c]
            r, c = e // 8 % 16, e % 8
            if e < 128:
                tiles[1, (r * ldm + c) if b_layout == "C" else (c * ldm + r)] = b[r, c]
        cuda.syncwarp()
        fa = wmma.fragment(wmma.matrix_a, 16, 8, 16, np.float16, a_order)
        fb = wmma.fragment(wmma.matrix_b, 16, 8, 16, np.float16, b_order)
        fd = wmma.fragment(wmma.accumulator, 16, 8, 16, np.float32)
        wmma.load_matrix_sync(fa, tiles[0], ldm)
        wmma.load_matrix_sync(fb, tiles[1], ldm)
        wmma.fill_fragment(fd, 0)
        wmma.mma_sync(fd, fa, fb, fd)
        wmma.store_matrix_sync(d, fd, 8, wmma.mem_row_major)

    return kernel


@pytest.mark.parametrize("layouts", ["CC", "CF", "FC", "FF"])
@pytest.mark.parametrize("ldm", [16, 24, 17])
def test_mma_sync_fragments_from_shared_memory(jit, layouts, ldm):
    rng = np.random.default_rng(ldm)
    a = rng.integers(-3, 4, (16, 16)).astype(np.float16)
    b = rng.integers(-3, 4, (16, 8)).astype(np.float16)
    d = np.zeros((16, 8), np.float32)
    jit(_staged_mma(*layouts))[1, 32](a, b, d, ldm)
    np.testing.assert_array_equal(d, a.astype(np.float32) @ b.astype(np.float32))


def tiled_gemm(a, b, c):
    """c = a @ b over 16 x 16 tiles, a warp per tile of c, its rows of a and columns of b
    staged in shared memory; a and b bfloat16, c float32."""
    tile_a = cuda.shared.array((16, 16), ml_dtypes.bfloat16)
    tile_b = cuda.shared.array((16, 16), ml_dtypes.bfloat16)
    row, column = cuda.blockIdx.y * 16, cuda.blockIdx.x * 16
    lane = cuda.threadIdx.x
    fa = wmma.fragment(wmma.matrix_a, 16, 16, 16, ml_dtypes.bfloat16, wmma.row_major)
    fb = wmma.fragment(wmma.matrix_b, 16, 16, 16, ml_dtypes.bfloat16, wmma.row_major)
    acc = wmma.fragment(wmma.accumulator, 16, 16, 16, np.float32)
    wmma.fill_fragment(acc, 0)
    for step in range(0, a.shape[1], 16):
        for i in range(lane, 256, 32):
            tile_a[i // 16, i % 16] = a[row + i // 16, step + i % 16]
            tile_b[i // 16, i % 16] = b[step + i // 16, column + i % 16]
        cuda.syncwarp()
        wmma.load_matrix_sync(fa, tile_a, 16)
        wmma.load_matrix_sync(fb, tile_b, 16)
        wmma.mma_sync(acc, fa, fb, acc)
        cuda.syncwarp()
    wmma.store_matrix_sync(c[row:, column:], acc, c.shape[1], wmma.mem_row_major)


@pytest.mark.checks_own_ptx
def test_tiled_gemm_from_shared_memory(jit):
    rng = np.random.default_rng(7)
    a = rng.integers(-3, 4, (48, 64)).astype(ml_dtypes.bfloat16)
    b = rng.integers(-3, 4, (64, 32)).astype(ml_dtypes.bfloat16)
    c = np.zeros((48, 32), np.float32)
    jit(tiled_gemm)[(2, 3), 32](a, b, c)
    np.testing.assert_array_equal(c, a.astype(np.float32) @ b.astype(np.float32))


@pytest.mark.checks_own_ptx
def test_the_example_gemm(jit):
    """examples/gemm_tensor_cores.py's kernel: 128 x 128 tiles of 4 warps, k in four steps of 64
    through its ring of three shared stages (so the ring wraps), filled by asynchronous copies."""
    example = load_example("gemm_tensor_cores")
    rng = np.random.default_rng(3)
    a = rng.integers(-3, 4, (256, 256)).astype(ml_dtypes.bfloat16)
    b = rng.integers(-3, 4, (256, 128)).astype(ml_dtypes.bfloat16)
    c = np.zeros((256, 128), np.float32)
    jit(example.gemm.py_func)[(1, 2), example.THREADS, 0, example.SHARED_BYTES](a, b, c)
    np.testing.assert_array_equal(c, a.astype(np.float32) @ b.astype(np.float32))


def fill_and_count(out, value):
    f = wmma.fragment(wmma.accumulator, 16, 16, 16, np.float32)
    wmma.fill_fragment(f, value)
    total = 0.0
    for i in range(f.num_elements):
        total += f.x[i]
    out[cuda.threadIdx.x] = total / f.num_elements
    wmma.store_matrix_sync(out[32:], f, 16, wmma.mem_row_major)


@pytest.mark.checks_own_ptx
def test_fill_and_elements(jit):
    out = np.zeros(32 + 256, np.float32)
    jit(fill_and_count)[1, 32](out, 1.5)
    np.testing.assert_array_equal(out, np.full(32 + 256, 1.5, np.float32))


@cuda.jit(device=True)
def relu_scaled(f, scale):
    for i in range(f.num_elements):
        f.x[i] = max(f.x[i] * scale, 0)


def epilogue_in_a_device_function(c):
    f = wmma.fragment(wmma.accumulator, 16, 16, 16, np.float32)
    wmma.load_matrix_sync(f, c, 16, wmma.mem_row_major)
    relu_scaled(f, 2)
    wmma.store_matrix_sync(c, f, 16, wmma.mem_row_major)


@pytest.mark.checks_own_ptx
def test_a_device_function_changes_the_callers_fragment(jit):
    c = np.arange(-128, 128, dtype=np.float32).reshape(16, 16)
    expected = np.maximum(c * 2, 0)
    jit(epilogue_in_a_device_function)[1, 32](c)
    np.testing.assert_array_equal(c, expected)


def element_past_the_end(out, i):
    f = wmma.fragment(wmma.accumulator, 16, 16, 16, np.float32)
    wmma.fill_fragment(f, 2.0)
    f.x[f.num_elements - 1] = 3.0
    out[cuda.threadIdx.x] = f.x[i]


def test_an_element_out_of_range_is_an_index_error():
    kernel = kaji.jit(target="cpu")(element_past_the_end)
    out = np.zeros(32, np.float32)
    kernel[1, 32](out, -1)  # from the end, as Python's
    np.testing.assert_array_equal(out, np.full(32, 3.0, np.float32))
    with pytest.raises(IndexError, match="out of bounds for axis 0 with size 256"):
        kernel[1, 32](out, 256)


def wrong_shape(out):
    wmma.fragment(wmma.matrix_a, 16, 16, 32, np.float16, wmma.row_major)


def accumulator_of_inputs(out):
    wmma.fragment(wmma.accumulator, 16, 16, 16, np.int8)


def missing_layout(out):
    wmma.fragment(wmma.matrix_a, 16, 16, 16, np.float16)


def mismatched_mma(out):
    a = wmma.fragment(wmma.matrix_a, 16, 16, 16, np.float16, wmma.row_major)
    b = wmma.fragment(wmma.matrix_b, 16, 16, 16, np.int8, wmma.row_major)
    c = wmma.fragment(wmma.accumulator, 16, 16, 16, np.float32)
    wmma.mma_sync(c, a, b, c)


def bfloat16_fragment(out):
    wmma.fragment(wmma.matrix_a, 16, 16, 16, ml_dtypes.bfloat16, wmma.row_major)


def store_without_layout(out):
    c = wmma.fragment(wmma.accumulator, 16, 16, 16, np.float32)
    wmma.store_matrix_sync(out, c, 16)


def load_in_lane_zero(out):
    c = wmma.fragment(wmma.accumulator, 16, 16, 16, np.float32)
    if cuda.laneid == 0:
        wmma.load_matrix_sync(c, out, 16, wmma.mem_row_major)


def store_after_lanes_return(out):
    c = wmma.fragment(wmma.accumulator, 16, 16, 16, np.float32)
    wmma.fill_fragment(c, 1.0)
    if cuda.threadIdx.x % 32 < 16:
        return
    wmma.store_matrix_sync(out, c, 16, wmma.mem_row_major)


@pytest.mark.parametrize("kernel, cc, words", [
    (wrong_shape, (9, 0), "no shape m16n16k32"),
    (accumulator_of_inputs, (9, 0), "no accumulator fragment of m16n16k16 holds i8"),
    (missing_layout, (9, 0), "takes its layout, cuda.wmma.row_major or col_major, last"),
    (mismatched_mma, (9, 0), "the tensor cores multiply no"),
    (bfloat16_fragment, (7, 5), "needs sm_80 or newer (compiling for sm_75)"),
    (store_without_layout, (9, 0), "takes 4 arguments, got 3"),
    (load_in_lane_zero, (9, 0), "runs only in the lanes of a warp that the branch at line"),
    (store_after_lanes_return, (9, 0), "a warp's lanes must run it together"),
])
def test_misuse_is_a_compile_error_at_the_line(kernel, cc, words):
    message = compile_error(kernel, "void(float32[::1])", cc)
    assert words in message
    assert "test_wmma.py:" in message


def store_by_warp_zero(out):
    c = wmma.fragment(wmma.accumulator, 16, 16, 16, np.float32)
    wmma.fill_fragment(c, 2.0)
    if cuda.threadIdx.x // 32 == 0 and cuda.laneid < 32:
        wmma.store_matrix_sync(out, c, 16, wmma.mem_row_major)


def test_a_branch_every_lane_of_a_warp_takes_alike_compiles(jit):
    """A warp's lanes take `threadIdx.x // 32 == 0` (and `laneid < 32`) alike: no error, and
    only warp 0 stores."""
    out = np.zeros((16, 16), np.float32)
    jit(store_by_warp_zero)[1, 64](out)
    np.testing.assert_array_equal(out, np.full((16, 16), 2.0, np.float32))
