# RUN: %kaji-compile %s --kernel k --sig 'void(float64[:], record<40, align 8, mass: f64 at 0, v: f32[3] at 8, tag: i16 at 20, home: record<8, align 4, ix: i32 at 0, w: f32 at 4> at 24>[:])' --emit ir | %FileCheck %s
# a[i] of an array of records is a 0-d view of the record; a field is the 'field' op, a
# scalar field then loaded with no index, an array field indexed, a nested record viewed.
import kaji


@kaji.jit
def k(out, p):
    i = kaji.grid(1)
    out[i] = p[i].mass + p[i]["v"][2] + p[i].home.w
    p[i].tag = 3

# CHECK: %[[R:[0-9]+]] = array_view %p, %{{[0-9]+}}, [], [] : array<record<40, align 8, {{.*}}>, 0, any>
# CHECK: %[[M:[0-9]+]] = field %[[R]], mass : array<f64, 0, C>
# CHECK: load %[[M]][] : f64
# CHECK: %[[V:[0-9]+]] = field %{{[0-9]+}}, v : array<f32, 1, C>
# CHECK: load %[[V]][%{{[0-9]+}}] : f32
# CHECK: %[[H:[0-9]+]] = field %{{[0-9]+}}, home : array<record<8, align 4, ix: i32 at 0, w: f32 at 4>, 0, C>
# CHECK: %[[W:[0-9]+]] = field %[[H]], w : array<f32, 0, C>
# CHECK: load %[[W]][] : f32
# CHECK: %[[T:[0-9]+]] = field %{{[0-9]+}}, tag : array<i16, 0, C>
# CHECK: store %{{[0-9]+}}, %[[T]][]
