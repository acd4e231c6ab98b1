# RUN: %kaji-compile %s --kernel k --sig 'void(record<24, align 4, v: f32[2] at 0, tag: i16 at 8, home: record<8, align 4, ix: i32 at 0, w: f32 at 4> at 12>[:])' --emit ptx > %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
# A whole record copied is a load and a store per field at the fields' offsets, the array
# field's loop unrolled; padding is left alone.
def k(a):
    a[0] = a[1]

# CHECK-DAG: ld.global.f32 %f{{[0-9]+}}, [%[[S:rd[0-9]+]]+4];
# CHECK-DAG: st.global.f32 [%[[D:rd[0-9]+]]+4], %f{{[0-9]+}};
# CHECK-DAG: ld.global.u16 %rs{{[0-9]+}}, [%[[S]]+8];
# CHECK-DAG: st.global.u16 [%[[D]]+8], %rs{{[0-9]+}};
# CHECK-DAG: ld.global.u32 %r{{[0-9]+}}, [%[[S]]+12];
# CHECK-DAG: st.global.u32 [%[[D]]+12], %r{{[0-9]+}};
# CHECK-DAG: ld.global.f32 %f{{[0-9]+}}, [%[[S]]+16];
# CHECK-DAG: st.global.f32 [%[[D]]+16], %f{{[0-9]+}};
