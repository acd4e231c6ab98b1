# Arrays of records are arrays of bytes in CUDA C++: a record is a view of them, a field a
# typed view from the field's byte offset on, a fixed-size array field with its own extent
# and stride.
# REQUIRES: nvrtc
# RUN: %kaji-compile %s --kernel k --sig 'void(float64[:], record<16, align 8, x: f64 at 0, v: f32[2] at 8>[:])' --backend nvrtc --emit cuda | %FileCheck %s
# RUN: %kaji-compile %s --kernel k --sig 'void(float64[:], record<16, align 8, x: f64 at 0, v: f32[2] at 8>[:])' --backend nvrtc --emit ptx -o %t.ptx
# RUN: %ptxas %t.ptx
def k(out, a):
    out[0] = a[1].x + a[1].v[1]

# CHECK: const kaji::array<u8, 1> a = {a_data, {a_shape0}, {a_stride0}};
# CHECK: [[R:v[0-9]+]] = kaji::array<u8, 1>{(u8 *)((char *)a.data + v{{[0-9]+}}), {0}, {0}};
# CHECK: = kaji::array<f64, 1>{(f64 *)((char *)[[R]].data + 0), {0}, {0}};
# CHECK: = kaji::array<f32, 1>{(f32 *)((char *)[[R]].data + 8), {2}, {4}};
