# RUN: %kaji-compile %s --kernel k --sig 'void(record<24, align 4, v: f32[2] at 0, tag: i16 at 8, home: record<8, align 4, ix: i32 at 0, w: f32 at 4> at 12>[:])' --emit ir | %FileCheck %s
# A whole record is copied field by field: a scalar field is one load and one store, an
# array field a loop over its elements, a nested record its own fields in turn. The padding
# (bytes 10-11 and 20-23) is not copied.
def k(a):
    a[0] = a[1]

# CHECK: %[[S:[0-9]+]] = array_view %a, %{{[0-9]+}}, [], [] : array<record<24, {{.*}}>, 0, any>
# CHECK: %[[D:[0-9]+]] = array_view %a, %{{[0-9]+}}, [], [] : array<record<24, {{.*}}>, 0, any>
# CHECK: %[[SV:[0-9]+]] = field %[[S]], v : array<f32, 1, C>
# CHECK: %[[DV:[0-9]+]] = field %[[D]], v : array<f32, 1, C>
# CHECK: %[[V:[0-9]+]] = load %[[SV]][%{{[0-9]+}}] : f32
# CHECK: store %[[V]], %[[DV]][%{{[0-9]+}}]
# CHECK: %[[ST:[0-9]+]] = field %[[S]], tag : array<i16, 0, C>
# CHECK: %[[T:[0-9]+]] = load %[[ST]][] : i16
# CHECK: %[[DT:[0-9]+]] = field %[[D]], tag : array<i16, 0, C>
# CHECK: store %[[T]], %[[DT]][]
# CHECK: %[[SH:[0-9]+]] = field %[[S]], home : array<record<8, {{.*}}>, 0, C>
# CHECK: %[[DH:[0-9]+]] = field %[[D]], home : array<record<8, {{.*}}>, 0, C>
# CHECK: %[[SX:[0-9]+]] = field %[[SH]], ix : array<i32, 0, C>
# CHECK: %[[X:[0-9]+]] = load %[[SX]][] : i32
# CHECK: %[[DX:[0-9]+]] = field %[[DH]], ix : array<i32, 0, C>
# CHECK: store %[[X]], %[[DX]][]
# CHECK: field %[[SH]], w : array<f32, 0, C>
