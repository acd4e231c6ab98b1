"""CUDA vector types as Numba has them (numba.cuda.vector_types): `cuda.float32x4(...)` and
CUDA C's aliases (`cuda.float4`, `cuda.int2`, `cuda.double3`, ...), built from numbers and from
smaller vectors of the same lane type, lanes read as `.x .y .z .w`, vectors as kernel locals
(assigned in branches and loops) and tuple elements, as arguments and results of device
functions (also inside returned tuples), vector types as compile-time arguments. Each kernel
writes the lanes it reads into an array, compared with what numpy computes on the host."""

import numpy as np
import pytest

import kaji
from kaji import cuda
from kaji.cuda import float32x2, float32x4, int32x2, int32x3, uint8x2, uint8x4

def outputs(jit, kernel, x, shape):
    """What one thread of `kernel(out, x)` writes into a zeroed `out` of x's dtype."""
    out = np.zeros(shape, dtype=x.dtype)
    jit(kernel)[1, 1](out, x)
    return out


LANE_TYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
              "float32", "float64"]


def four_lanes(vector):
    def kernel(out, x):
        v = vector(x[0], x[1], x[2], x[3])
        out[0] = v.x
        out[1] = v.y
        out[2] = v.z
        out[3] = v.w
    return kernel


@pytest.mark.parametrize("lane", LANE_TYPES)
def test_every_lane_type_reads_back_its_lanes(jit, lane):
    dtype = np.dtype(lane)
    x = np.array([1, 100, 7, 3] if dtype.kind == "u" else [1, -100, 7, -3], dtype=dtype)
    if dtype.kind == "f":
        x = x + dtype.type(0.25)
    kernel = four_lanes(getattr(cuda, f"{lane}x4"))
    np.testing.assert_array_equal(outputs(jit, kernel, x, 4), x)


def one_lane(out, x):
    v = cuda.int32x1(x[0])
    out[0] = v.x


def two_lanes(out, x):
    v = cuda.int32x2(x[0], x[1])
    out[0] = v.x
    out[1] = v.y


def three_lanes(out, x):
    v = int32x3(x[0], x[1], x[2])
    out[0] = v.x
    out[1] = v.y
    out[2] = v.z


@pytest.mark.parametrize("kernel, lanes", [(one_lane, 1), (two_lanes, 2), (three_lanes, 3)])
def test_every_lane_count(jit, kernel, lanes):
    x = np.array([5, -6, 7], dtype=np.int32)[:lanes].copy()
    np.testing.assert_array_equal(outputs(jit, kernel, x, lanes), x)


def test_cuda_c_names_alias_numbas():
    assert cuda.float4 is cuda.float32x4
    assert cuda.double2 is cuda.float64x2
    assert cuda.int3 is cuda.int32x3
    assert cuda.uint1 is cuda.uint32x1
    assert cuda.char2 is cuda.int8x2 and cuda.uchar4 is cuda.uint8x4
    assert cuda.short3 is cuda.int16x3 and cuda.ushort3 is cuda.uint16x3
    assert cuda.long4 is cuda.int64x4 and cuda.longlong4 is cuda.int64x4
    assert cuda.ulong2 is cuda.uint64x2 and cuda.ulonglong2 is cuda.uint64x2


def aliases(out, x):
    f = cuda.float4(x[0], x[1], x[2], x[3])
    d = cuda.double2(f.x, f.w)
    c = cuda.char3(1, -2, 3)
    out[0] = f.y
    out[1] = d.y
    out[2] = c.y


def test_cuda_c_names_build_vectors(jit):
    x = np.array([1.5, 2.5, 3.5, 4.5], dtype=np.float64)
    np.testing.assert_array_equal(outputs(jit, aliases, x, 3), [2.5, 4.5, -2.0])


def from_vectors(out, x):
    xy = float32x2(x[0], x[1])
    zw = float32x2(x[2], x[3])
    v = float32x4(xy, zw)
    w = float32x4(x[4], xy, x[5])
    u = float32x4(cuda.float32x1(x[6]), cuda.float32x3(zw, x[7]))
    for i, lanes in enumerate((v, w, u)):
        out[i, 0] = lanes.x
        out[i, 1] = lanes.y
        out[i, 2] = lanes.z
        out[i, 3] = lanes.w


def test_built_from_smaller_vectors_and_numbers(jit):
    x = np.arange(1, 9, dtype=np.float32)
    np.testing.assert_array_equal(outputs(jit, from_vectors, x, (3, 4)),
                                  [[1, 2, 3, 4], [5, 1, 2, 6], [7, 3, 4, 8]])


def converted_lanes(out, x):
    i = int32x3(x[0], x[1], 7)
    f = float32x2(1, x[2])
    b = uint8x2(x[3], True)
    out[0] = i.x
    out[1] = i.y
    out[2] = i.z
    out[3] = f.x
    out[4] = f.y
    out[5] = b.x
    out[6] = b.y


def test_numbers_convert_to_the_lane_type(jit):
    x = np.array([2.75, -2.75, 0.1, 200.75])
    expected = [2, -2, 7, 1, np.float32(0.1), 200, 1]
    np.testing.assert_array_equal(outputs(jit, converted_lanes, x, 7), expected)


def branch_and_loop(out, x, flag):
    if flag:
        v = float32x2(x[0], x[1])
    else:
        v = float32x2(x[1], x[0])
    u = float32x2(x[0], x[1]) if flag else float32x2(x[1], x[0])
    total = float32x2(0, 1)
    for i in range(x.size):
        total = float32x2(total.x + x[i], total.y * 2)
    out[0] = v.x
    out[1] = v.y
    out[2] = total.x
    out[3] = total.y
    out[4] = u.x
    out[5] = u.y


@pytest.mark.parametrize("flag", [True, False])
def test_locals_in_branches_loops_and_conditional_expressions(jit, flag):
    x = np.array([1.0, 2.0, 3.0], dtype=np.float32)
    out = np.zeros(6, dtype=np.float32)
    jit(branch_and_loop)[1, 1](out, x, flag)
    first, second = (x[0], x[1]) if flag else (x[1], x[0])
    np.testing.assert_array_equal(out, [first, second, x.sum(), 2 ** x.size, first, second])


@cuda.jit(device=True)
def swapped(v):
    return float32x2(v.y, v.x)


@cuda.jit(device=True)
def length_squared(v):
    return v.x * v.x + v.y * v.y


@cuda.jit(device=True)
def larger(a, b):
    if length_squared(a) >= length_squared(b):
        return a
    return b


@cuda.jit(device=True)
def widened(v, z):
    return float32x4(v, z, z)


def through_device_functions(out, x):
    i = cuda.grid(1)
    if i < out.shape[0]:
        a = float32x2(x[i, 0], x[i, 1])
        b = swapped(a)
        c = larger(a, float32x2(x[i, 2], x[i, 3]))
        d = widened(b, length_squared(c))
        out[i, 0] = b.x
        out[i, 1] = b.y
        out[i, 2] = c.x
        out[i, 3] = c.y
        out[i, 4] = d.z


def test_device_functions_take_and_return_vectors(jit):
    x = np.array([[1, 2, 3, 4], [5, 6, 1, 1], [-3, 0, 0, 2]], dtype=np.float32)
    out = np.zeros((3, 5), dtype=np.float32)
    jit(through_device_functions)[1, 3](out, x)
    a, b = x[:, :2], x[:, 2:]
    keep_a = (a * a).sum(axis=1) >= (b * b).sum(axis=1)
    c = np.where(keep_a[:, None], a, b)
    np.testing.assert_array_equal(out[:, :2], a[:, ::-1])
    np.testing.assert_array_equal(out[:, 2:4], c)
    np.testing.assert_array_equal(out[:, 4], (c * c).sum(axis=1))


@cuda.jit(device=True)
def split(v):
    return float32x2(v.x, v.y), v.z, (int32x2(v.w, v.x), v.w)


@cuda.jit(device=True)
def splat(vector, a):
    return vector(a, a)


def tuples_and_type_arguments(out, x):
    v = float32x4(x[0], x[1], x[2], x[3])
    xy, z, (wx, w) = split(v)
    pair = (xy, wx)
    s = splat(cuda.float32x2, x[0])
    i = splat(cuda.int2, 7)
    out[0] = xy.y
    out[1] = z
    out[2] = wx.x
    out[3] = wx.y
    out[4] = w
    out[5] = pair[1].y
    out[6] = s.y
    out[7] = i.x


def test_tuples_of_vectors_and_vector_types_as_arguments(jit):
    x = np.array([1.5, 2.5, 3.5, 4.5], dtype=np.float32)
    np.testing.assert_array_equal(outputs(jit, tuples_and_type_arguments, x, 8),
                                  [2.5, 3.5, 4, 1, 4.5, 1, 1.5, 7])


@cuda.jit("float32x4(float32x4, float32)", device=True)
def scaled(v, s):
    return float32x4(v.x * s, v.y * s, v.z * s, v.w * s)


@cuda.jit([float32x2(float32x2), float32x2(int32x2)], device=True)
def doubled(v):
    return float32x2(v.x + v.x, v.y + v.y)


@cuda.jit(["float32(float32x2)", "float32(int32x2)"], device=True)
def difference(v):
    return v.x - v.y


def through_signatures(out, x):
    v = scaled(float32x4(x[0], x[1], x[2], x[3]), x[4])
    f = doubled(float32x2(x[0], x[1]))
    i = doubled(int32x2(7, -3))
    out[0] = v.x
    out[1] = v.w
    out[2] = f.y
    out[3] = i.x
    out[4] = i.y
    out[5] = difference(float32x2(x[2], x[0]))
    out[6] = difference(int32x2(5, 9))


def test_device_function_signatures_with_vectors(jit):
    x = np.array([1.5, -2.5, 4.0, 0.25, 3.0], dtype=np.float32)
    np.testing.assert_array_equal(
        outputs(jit, through_signatures, x, 7),
        [x[0] * x[4], x[3] * x[4], 2 * x[1], 14, -6, x[2] - x[0], -4])


def test_vector_types_are_type_objects():
    assert str(float32x4(float32x4, kaji.float32)) == "(float32x4, float32) -> float32x4"
    assert str(cuda.float4) == "float32x4" and str(cuda.longlong2) == "int64x2"
    assert float32x4(float32x4) == kaji.types.from_text("float32x4")(cuda.float4)
    assert kaji.types.from_text("float4") is float32x4
    assert kaji.types.as_type(cuda.uchar3) is cuda.uint8x3


@pytest.mark.parametrize("signature", ["void(float32[:], float32x4)",
                                       (kaji.float32[:], float32x4),
                                       "void(float32[:], UniTuple(int32x2 x 2))"])
def test_a_kernel_takes_no_vector(jit, signature):
    def kernel(out, v):
        out[0] = 1

    with pytest.raises(kaji.CompileError, match=r"a kernel cannot take a (float32x4|int32x2): "
                       "its arguments come from the host, which has no vector values"):
        jit(signature)(kernel)


def local_vectors(out, x):
    vs = cuda.local.array(3, dtype=float32x4)
    for i in range(3):
        vs[i] = float32x4(x[i], x[i] + 1, x[i] + 2, x[i] + 3)
    vs[1] = float32x4(vs[2].w, vs[0].x, vs[1].y, vs[1].z)
    for i in range(3):
        out[i, 0] = vs[i].x
        out[i, 1] = vs[i].y
        out[i, 2] = vs[i].z
        out[i, 3] = vs[i].w


def test_local_array_of_vectors(jit):
    x = np.array([1.5, -4.0, 10.25], dtype=np.float32)
    expected = x[:, None] + np.arange(4, dtype=np.float32)
    expected[1] = [expected[2, 3], expected[0, 0], expected[1, 1], expected[1, 2]]
    np.testing.assert_array_equal(outputs(jit, local_vectors, x, (3, 4)), expected)


def shared_vectors(out, x):
    tile = cuda.shared.array(8, dtype=cuda.int2)
    i = cuda.threadIdx.x
    tile[i] = int32x2(x[i], -2 * x[i])
    cuda.syncthreads()
    v = tile[(i + 3) % 8]
    out[i, 0] = v.x
    out[i, 1] = v.y


def test_shared_array_of_vectors(jit):
    x = np.arange(10, 18, dtype=np.int32)
    out = np.zeros((8, 2), dtype=np.int32)
    jit(shared_vectors)[1, 8](out, x)
    neighbour = np.roll(x, -3)
    np.testing.assert_array_equal(out, np.stack([neighbour, -2 * neighbour], axis=1))


@cuda.jit(device=True)
def fill_rows(vs, base):
    for i in range(vs.shape[0]):
        for j in range(vs.shape[1]):
            vs[i, j] = cuda.double3(base + i, base + j, base * i * j)


def vectors_in_views_loops_and_calls(out, x):
    grid = cuda.local.array((2, 3), dtype=cuda.float64x3)
    fill_rows(grid, x[0])
    row = grid[1]
    k = 0
    for v in row:
        out[k] = v.z
        k += 1
    copied = grid.copy()
    grid[0, :] = cuda.float64x3(-1, -2, -3)
    grid[1, 1:] = copied[0, :2]
    out[3] = grid[0, 2].y
    out[4] = grid[1, 2].z
    out[5] = grid[1, 0].x
    out[6] = copied[0, 0].x
    out[7] = grid.shape[1] + grid.size


def test_arrays_of_vectors_in_views_loops_and_device_functions(jit):
    x = np.array([2.5, 0, 0, 0, 0, 0, 0, 0])
    b = x[0]
    np.testing.assert_array_equal(outputs(jit, vectors_in_views_loops_and_calls, x, 8),
                                  [0, b, 2 * b, -2, b * 0 * 1, b + 1, b, 3 + 6])


def dynamic_vectors(out, x):
    dyn = cuda.shared.array(0, dtype=float32x2)
    i = cuda.threadIdx.x
    dyn[i] = float32x2(x[i], 2 * x[i])
    cuda.syncthreads()
    square = dyn[:4].reshape((2, 2))
    v = square[1, i % 2]
    out[i] = v.y + dyn.shape[0]


def test_dynamic_shared_array_of_vectors_and_reshape(jit):
    x = np.array([1.5, -2, 7, 0.25], dtype=np.float32)
    out = np.zeros(4, dtype=np.float32)
    jit(dynamic_vectors)[1, 4, 0, 4 * 8](out, x)
    np.testing.assert_array_equal(out, [2 * x[2] + 4, 2 * x[3] + 4, 2 * x[2] + 4, 2 * x[3] + 4])


def test_no_float16_vectors_as_in_numba_cuda():
    # numba.cuda defines no float16x2...: nvmath-python and numba-cuda-mlir bring their own.
    for name in ("float16x2", "float16x4", "half2", "bfloat16x2"):
        assert not hasattr(cuda, name)


def test_constructors_are_kernel_only():
    with pytest.raises(TypeError, match="only be used inside a kaji kernel"):
        cuda.float32x4(1, 2, 3, 4)


def too_few_lanes(out):
    v = float32x4(out[0], out[1], out[2])
    out[0] = v.x


def mixed_lane_types(out):
    v = float32x4(int32x2(1, 2), out[0], out[1])
    out[0] = v.x


def missing_lane(out):
    v = float32x2(out[0], out[1])
    out[0] = v.z


def lane_assigned(out):
    v = float32x2(out[0], out[1])
    v.x = 3.0
    out[0] = v.x


def vector_arithmetic(out):
    v = float32x2(out[0], out[1])
    w = v + v
    out[0] = w.x


def vector_and_number(out):
    v = float32x2(out[0], out[1]) if out[2] > 0 else out[3]
    out[0] = v.x


def uint8_vector_from_complex(out):
    v = uint8x4(1j, 2, 3, 4)
    out[0] = v.x


def number_into_vectors(out):
    vs = cuda.local.array(2, dtype=float32x2)
    vs[0] = out[0]
    out[0] = vs[0].x


def other_vector_into_vectors(out):
    vs = cuda.local.array(2, dtype=float32x2)
    vs[0] = int32x2(1, 2)
    out[0] = vs[0].x


def vector_into_numbers(out):
    out[0] = float32x2(1, 2)


def vector_array_arithmetic(out):
    vs = cuda.local.array(2, dtype=float32x2)
    vs[0] = float32x2(1, 2)
    vs[0] += vs[0]
    out[0] = vs[0].x


def vector_array_atomic(out):
    vs = cuda.shared.array(2, dtype=float32x2)
    cuda.atomic.add(vs, 0, 1.0)
    out[0] = vs[0].x


def vector_array_sum(out):
    vs = cuda.local.array(2, dtype=float32x2)
    vs[0] = float32x2(1, 2)
    vs[1] = vs[0]
    s = vs.sum()
    out[0] = s.x


def vector_array_dtype_unknown(out):
    vs = cuda.local.array(2, dtype=cuda.float5)
    out[0] = vs[0].x


@pytest.mark.parametrize("kernel, message", [
    (too_few_lanes, r"float32x4\(\) needs 4 lanes in all, got 3 in 'float32x4\(out\[0\], "),
    (mixed_lane_types, r"float32x4\(\) takes numbers and float32 vectors, not 'int32x2'"),
    (missing_lane, r"'float32x2' has no attribute 'z'; its lanes are \.x, \.y"),
    (lane_assigned, r"cannot assign to 'v\.x'"),
    (vector_arithmetic, r"cannot add 'float32x2' and 'float32x2' in 'v \+ v'"),
    (vector_and_number, r"a vector and a number cannot be combined in 'float32x2\(out\[0\], "),
    (uint8_vector_from_complex, r"uint8x4\(\) takes numbers and uint8 vectors, not 'complex128'"),
    (number_into_vectors, r"cannot store 'float32' into 'vs\[0\]', an element of "
                          r"'float32x2\[::1\]'"),
    (other_vector_into_vectors, r"cannot store 'int32x2' into 'vs\[0\]'"),
    (vector_into_numbers, r"cannot store 'float32x2' into 'out\[0\]'"),
    (vector_array_arithmetic, r"cannot assign to 'vs\[0\]' with an operator: vectors have no "
                              r"arithmetic"),
    (vector_array_atomic, r"atomic.add\(\) works on arrays of numbers, not on "
                          r"'float32x2\[::1\]'"),
    (vector_array_sum, r"cannot reduce 'float32x2\[::1\]' in 'vs.sum\(\)'"),
    (vector_array_dtype_unknown, r"float5"),
])
def test_misuse_is_a_compile_error(jit, kernel, message):
    out = np.zeros(4, dtype=np.float32)
    with pytest.raises(kaji.CompileError, match=message):
        jit(kernel)[1, 1](out)
