"""Records (numpy structured dtypes): arrays of them as kernel arguments, fields read and
written as `r.f`, `r['f']`, `a[i].f` and `a.f[i]` (numpy's recarray), nested records, fixed-size array fields, and a
record passed alone. Every result is compared with numpy doing the same on the host."""

import numpy as np
import pytest

import kaji
from kaji import cuda

POINT = np.dtype([("x", np.float32), ("y", np.float32), ("id", np.int32)])
PARTICLE = np.dtype(
    [("mass", np.float64), ("v", np.float32, 3), ("tag", np.int16),
     ("home", [("ix", np.int32), ("w", np.float32)])],
    align=True)


def points(n, seed):
    rng = np.random.default_rng(seed)
    a = np.zeros(n, dtype=POINT)
    a["x"] = rng.standard_normal(n)
    a["y"] = rng.standard_normal(n)
    a["id"] = rng.integers(-1000, 1000, n)
    return a


def particles(n, seed):
    rng = np.random.default_rng(seed)
    a = np.zeros(n, dtype=PARTICLE)
    a["mass"] = rng.random(n) + 0.5
    a["v"] = rng.standard_normal((n, 3))
    a["tag"] = rng.integers(-100, 100, n)
    a["home"]["ix"] = rng.integers(0, 50, n)
    a["home"]["w"] = rng.random(n)
    return a


def norms(out, a):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = a[i].x * a[i].x + a[i]["y"] * a[i]["y"] + a[i].id


def test_field_reads_by_attribute_and_by_name(jit):
    a = points(300, 1)
    out = np.zeros(300, dtype=np.float32)
    jit(norms)[3, 128](out, a)
    expected = a["x"] * a["x"] + a["y"] * a["y"] + a["id"].astype(np.float32)
    np.testing.assert_allclose(out, expected, rtol=1e-6)


def swap_and_count(a):
    i = cuda.grid(1)
    if i < a.size:
        r = a[i]
        x = r.x
        r.x = r["y"]
        a[i]["y"] = x
        r.id += 7
        a[i].id *= 2


def test_field_writes_reach_the_caller(jit):
    a = points(200, 2)
    expected = a.copy()
    expected["x"], expected["y"] = a["y"], a["x"]
    expected["id"] = (a["id"] + 7) * 2
    jit(swap_and_count)[2, 128](a)
    np.testing.assert_array_equal(a, expected)


def momentum(out, p):
    i = cuda.grid(1)
    if i < p.shape[0]:
        s = 0.0
        for k in range(3):
            s += p[i].mass * p[i].v[k]
        out[i] = s + p[i].tag + p[i].home.w * p[i].home.ix


def test_aligned_record_with_array_and_nested_fields(jit):
    p = particles(257, 3)
    out = np.zeros(257)
    jit(momentum)[3, 128](out, p)
    expected = ((p["mass"][:, None] * p["v"].astype(np.float64)).sum(axis=1) + p["tag"]
                + p["home"]["w"].astype(np.float64) * p["home"]["ix"])
    np.testing.assert_allclose(out, expected, rtol=1e-6)


def scale_velocities(p, factor):
    i = cuda.grid(1)
    if i < p.shape[0]:
        for k in range(3):
            p[i].v[k] *= factor
        p[i].home.ix = i
        p[i]["v"][0] += 1


def test_writes_into_array_and_nested_fields(jit):
    # A factor of 2 keeps v * 2 + 1 exact either way: the cuda targets may fuse it into an fma.
    p = particles(100, 4)
    expected = p.copy()
    expected["v"] *= np.float32(2)
    expected["v"][:, 0] += 1
    expected["home"]["ix"] = np.arange(100)
    jit(scale_velocities)[1, 128](p, np.float32(2))
    np.testing.assert_array_equal(p, expected)


def two_d(out, a):
    i, j = cuda.grid(2)
    if i < a.shape[0] and j < a.shape[1]:
        out[i, j] = a[i, j].x - a[i, j].id


def test_two_dimensional_arrays_of_records(jit):
    a = points(48, 5).reshape(6, 8)
    out = np.zeros((6, 8), dtype=np.float32)
    jit(two_d)[(1, 1), (8, 8)](out, a)
    np.testing.assert_allclose(out, a["x"] - a["id"].astype(np.float32), rtol=1e-6)


def from_record(out, r):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = r.mass * i + r.v[i % 3] + r.home.ix


def test_a_record_passed_alone(jit):
    p = particles(3, 6)
    out = np.zeros(10)
    jit(from_record)[1, 32](out, p[1])
    i = np.arange(10)
    expected = p[1]["mass"] * i + p[1]["v"].astype(np.float64)[i % 3] + p[1]["home"]["ix"]
    np.testing.assert_allclose(out, expected, rtol=1e-6)


def strided_view(out, a):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = a[i].y


def test_strided_views_of_records(jit):
    a = points(100, 7)
    out = np.zeros(34, dtype=np.float32)
    jit(strided_view)[1, 64](out, a[::3])
    np.testing.assert_array_equal(out, a["y"][::3])


def test_device_arrays_of_records(target):
    if target != "cuda":
        pytest.skip("device memory is the cuda target's")
    a = points(64, 8)
    d = kaji.to_device(a)
    assert d.dtype == POINT
    kaji.jit(swap_and_count)[1, 64](d)
    expected = a.copy()
    expected["x"], expected["y"] = a["y"], a["x"]
    expected["id"] = (a["id"] + 7) * 2
    np.testing.assert_array_equal(d.copy_to_host(), expected)


def unknown_field(a):
    a[0].z = 1


def test_unknown_field_is_a_compile_error(jit):
    with pytest.raises(kaji.CompileError, match=r"has no field 'z' \(its fields: x, y, id\)"):
        jit(unknown_field)[1, 1](points(1, 9))


PACKED = np.dtype([("n", np.int32), ("x", np.float64)])


def read_packed(out, a):
    out[0] = a[0].x


def test_misaligned_fields_are_a_compile_error(jit):
    a = np.zeros(2, dtype=PACKED)
    with pytest.raises(kaji.CompileError, match="needs 8-byte alignment.*align=True"):
        jit(read_packed)[1, 1](np.zeros(1), a)


def read_packed_int(out, a):
    out[0] = a[1].n


def test_packed_records_read_their_aligned_fields(jit):
    a = np.zeros(2, dtype=PACKED)
    a["n"] = [3, 4]
    out = np.zeros(1, dtype=np.int32)
    jit(read_packed_int)[1, 1](out, a)
    assert out[0] == 4


def total_mass(out, p):
    s = 0.0
    for r in p:
        s += r.mass * r.home.ix
    out[0] = s


def test_for_loops_over_records(jit):
    p = particles(40, 10)
    out = np.zeros(1)
    jit(total_mass)[1, 1](out, p)
    np.testing.assert_allclose(out[0], (p["mass"] * p["home"]["ix"]).sum(), rtol=1e-12)


def whole_field(out, a):
    xs = a["x"]
    i = cuda.grid(1)
    if i < xs.size:
        out[i] = xs[i]


def test_a_field_of_the_whole_array(jit):
    a = points(70, 11)
    out = np.zeros(70, dtype=np.float32)
    jit(whole_field)[1, 128](out, a)
    np.testing.assert_array_equal(out, a["x"])


def fields_by_attribute(out, a):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = a.x[i] + a.id[i]  # numpy's recarray: a field of every element
    if i == 0:
        a.y[1:3] = a.size  # a view: writes reach the records


def test_a_field_of_the_whole_array_by_attribute(jit):
    a = points(70, 12)
    expected_y = a["y"].copy()
    expected_y[1:3] = 70
    out = np.zeros(70, dtype=np.float32)
    jit(fields_by_attribute)[1, 128](out, a)
    np.testing.assert_array_equal(out, a["x"] + a["id"].astype(np.float32))
    np.testing.assert_array_equal(a["y"], expected_y)


def permute(out, a, order):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a[order[i]]


def test_whole_records_are_copied(jit):
    p = particles(90, 12)
    order = np.random.default_rng(12).permutation(90)
    out = np.zeros_like(p)
    jit(permute)[1, 128](out, p, order)
    np.testing.assert_array_equal(out, p[order])


def copy_through_a_local(out, a):
    i = cuda.grid(1)
    if i < out.size:
        r = a[out.size - 1 - i]
        out[i] = r
        out[i].home = a[i].home
        out[i]["tag"] = a[i].tag


def test_records_through_locals_and_nested_records(jit):
    p = particles(70, 13)
    out = np.zeros_like(p)
    jit(copy_through_a_local)[1, 128](out, p)
    expected = p[::-1].copy()
    expected["home"] = p["home"]
    expected["tag"] = p["tag"]
    np.testing.assert_array_equal(out, expected)


def swap_neighbours(a):
    # Source and destination in one array: field by field, each record whole afterwards.
    i = cuda.grid(1)
    if 2 * i + 1 < a.size:
        j = 2 * i
        a[j].id, a[j + 1].id = a[j + 1].id, a[j].id
        a[j + 1] = a[j]


def test_copying_within_one_array(jit):
    a = points(64, 14)
    expected = a.copy()
    expected["id"][0::2], expected["id"][1::2] = a["id"][1::2], a["id"][0::2]
    expected[1::2] = expected[0::2]
    jit(swap_neighbours)[1, 32](a)
    np.testing.assert_array_equal(a, expected)


def mixed_records(out, a):
    out[0] = a[0]


def test_a_record_of_another_type_is_a_compile_error(jit):
    with pytest.raises(kaji.CompileError,
                       match=r"cannot assign 'record<12, .*\[\]' to 'out\[0\]', a "
                             r"record<32, .*: a record takes a record of its own type"):
        jit(mixed_records)[1, 1](particles(1, 15), points(1, 15))


def record_from_number(out):
    out[0] = 1.0


def test_a_number_into_a_record_is_a_compile_error(jit):
    with pytest.raises(kaji.CompileError, match=r"cannot assign 'float64' to 'out\[0\]'"):
        jit(record_from_number)[1, 1](points(1, 16))


def reversed_through_shared(out, a):
    # Each block keeps its records in shared memory and writes them back in reverse order.
    buffer = cuda.shared.array(64, dtype=PARTICLE)
    t = cuda.threadIdx.x
    i = cuda.blockIdx.x * 64 + t
    buffer[t] = a[i]
    buffer[t].tag += 1
    cuda.syncthreads()
    out[i] = buffer[63 - t]


def test_shared_arrays_of_records(jit):
    p = particles(128, 17)
    out = np.zeros_like(p)
    jit(reversed_through_shared)[2, 64](out, p)
    expected = p.copy()
    expected["tag"] += 1
    expected = expected.reshape(2, 64)[:, ::-1].reshape(128)
    np.testing.assert_array_equal(out, expected)


def sorted_locally(out, a):
    # A local array of records, sorted by a field with whole-record swaps.
    i = cuda.grid(1)
    if i < out.shape[0]:
        local = cuda.local.array(4, POINT)
        for k in range(4):
            local[k] = a[i, k]
        for m in range(4):
            for k in range(3 - m):
                if local[k].x > local[k + 1].x:
                    x, y, ident = local[k].x, local[k].y, local[k].id
                    local[k] = local[k + 1]
                    local[k + 1].x = x
                    local[k + 1]["y"] = y
                    local[k + 1].id = ident
        for k in range(4):
            out[i, k] = local[k]


def test_local_arrays_of_records(jit):
    a = points(4 * 50, 18).reshape(50, 4)
    out = np.zeros_like(a)
    jit(sorted_locally)[1, 64](out, a)
    np.testing.assert_array_equal(out, np.sort(a, order="x", axis=1))


def local_fields(out, a):
    i = cuda.grid(1)
    if i < out.size:
        local = cuda.local.array((2, 3), dtype=PARTICLE)
        for j in range(2):
            for k in range(3):
                local[j, k].v[k] = a[i].v[k] * (j + 1)
                local[j, k].home.w = a[i].home.w
        s = 0.0
        for j in range(2):
            for k in range(3):
                s += local[j, k].v[k] + local[j, k].home.w
        out[i] = s


def test_fields_of_a_two_dimensional_local_array(jit):
    p = particles(40, 19)
    out = np.zeros(40)
    jit(local_fields)[1, 64](out, p)
    expected = 3 * p["v"].astype(np.float64).sum(axis=1) + 6 * p["home"]["w"].astype(np.float64)
    np.testing.assert_allclose(out, expected, rtol=1e-6)


def misaligned_local(out):
    local = cuda.local.array(2, dtype=PARTICLE, alignment=4)
    out[0] = local[0].mass


def test_a_local_array_of_records_aligned_below_the_record_is_a_compile_error(jit):
    with pytest.raises(kaji.CompileError,
                       match="alignment 4 is less than the 8-byte alignment of the record"):
        jit(misaligned_local)[1, 1](np.zeros(1))


def dynamic_records(out, a):
    buffer = cuda.shared.array(0, dtype=PARTICLE)
    t = cuda.threadIdx.x
    if t < a.size:
        buffer[t] = a[t]
    cuda.syncthreads()
    if t < buffer.size:
        out[t] = buffer[buffer.size - 1 - t]


def test_dynamic_shared_arrays_of_records(jit):
    p = particles(20, 20)
    out = np.zeros_like(p)
    jit(dynamic_records)[1, 32, 0, 20 * PARTICLE.itemsize + 7](out, p)
    np.testing.assert_array_equal(out, p[::-1])


point_t = kaji.from_dtype(POINT)


def local_copy_by_type_object(out, a):
    i = cuda.grid(1)
    if i < a.size:
        local = cuda.local.array(2, dtype=point_t)
        local[1] = a[i]
        out[i] = local[1].x * local[1].id


def test_record_type_objects_in_signatures_and_local_arrays(jit):
    kernel = jit(kaji.void(kaji.float32[:], point_t[:]))(local_copy_by_type_object)
    assert kernel.signatures == [
        "void(float32[:], record<12, align 4, x: f32 at 0, y: f32 at 4, id: i32 at 8>[:])"]
    a = points(50, 21)
    out = np.zeros(50, dtype=np.float32)
    kernel[1, 64](out, a)
    np.testing.assert_allclose(out, a["x"] * a["id"].astype(np.float32), rtol=1e-6)


TABLE = particles(6, 22)


def from_constant_table(out, picks):
    i = cuda.grid(1)
    if i < out.size:
        table = cuda.const.array_like(TABLE)
        r = table[picks[i]]
        out[i] = r
        out[i].tag = table[picks[i]].v.size + r.home.ix


def test_constant_arrays_of_records(jit):
    picks = np.array([5, 0, 3, 3, 1, 4, 2], dtype=np.int32)
    out = np.zeros(7, dtype=PARTICLE)
    jit(from_constant_table)[1, 32](out, picks)
    expected = TABLE[picks].copy()
    expected["tag"] = 3 + TABLE["home"]["ix"][picks]
    np.testing.assert_array_equal(out, expected)


def write_constant_table(out):
    table = cuda.const.array_like(TABLE)
    table[0].mass = 1.0


def test_constant_records_are_read_only(jit):
    with pytest.raises(kaji.CompileError, match=r"cannot assign to 'table\[0\]\.mass'.*constant"):
        jit(write_constant_table)[1, 1](np.zeros(1))


EMPTY = np.dtype([])
EMPTY_TABLE = np.zeros(3, dtype=EMPTY)


def local_of_empty_records(out):
    local = cuda.local.array(4, EMPTY)
    out[0] = local.size


def constant_of_empty_records(out):
    table = cuda.const.array_like(EMPTY_TABLE)
    out[0] = table.size


@pytest.mark.parametrize("kernel, what", [(local_of_empty_records, "local array"),
                                          (constant_of_empty_records, "constant array")])
def test_arrays_of_records_without_fields_are_a_compile_error(jit, kernel, what):
    with pytest.raises(kaji.CompileError, match=f"a {what} of a record with no fields"):
        jit(kernel)[1, 1](np.zeros(1))


POLYGON = np.dtype([("corners", POINT, (2, 2)), ("n", np.int64), ("c", np.complex64)],
                   align=True)


def copy_polygons(out, a):
    i = cuda.grid(1)
    if i < out.size:
        local = cuda.local.array(1, POLYGON)
        local[0] = a[i]
        out[i] = local[0]
        out[i].corners[1, 0] = a[0].corners[0, 1]
        if i == 1:
            out[i].corners = a[0].corners


def test_records_with_arrays_of_records_and_complex_fields(jit):
    rng = np.random.default_rng(23)
    a = np.zeros(5, dtype=POLYGON)
    a["corners"]["x"] = rng.standard_normal((5, 2, 2))
    a["corners"]["id"] = rng.integers(0, 9, (5, 2, 2))
    a["n"] = rng.integers(-5, 5, 5)
    a["c"] = rng.standard_normal(5) + 1j * rng.standard_normal(5)
    out = np.zeros_like(a)
    jit(copy_polygons)[1, 32](out, a)
    expected = a.copy()
    expected["corners"][:, 1, 0] = a[0]["corners"][0, 1]
    expected[1]["corners"] = a[0]["corners"]
    np.testing.assert_array_equal(out, expected)


def assign_a_slice(a):
    a[0:2] = a[2:4]


def test_a_slice_of_records_is_a_compile_error(jit):
    with pytest.raises(kaji.CompileError, match=r"cannot assign to 'a\[0:2\]'.*one record at a time"):
        jit(assign_a_slice)[1, 1](points(4, 24))
