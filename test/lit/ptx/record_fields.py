# RUN: %kaji-compile %s --kernel k --sig 'void(float64[:], record<40, align 8, mass: f64 at 0, v: f32[3] at 8, tag: i16 at 20, home: record<8, align 4, ix: i32 at 0, w: f32 at 4> at 24>[:])' --emit ptx > %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
# A field of a record is a load at the element's address plus the field's offset, as wide
# as the field and aligned as the record promises.
import kaji


@kaji.jit
def k(out, p):
    i = kaji.grid(1)
    out[i] = p[i].mass + p[i].v[2] + p[i].home.w
    p[i].tag = 3

# CHECK-DAG: ld.global.f64 %fd{{[0-9]+}}, [%rd{{[0-9]+}}];
# CHECK-DAG: ld.global.f32 %f{{[0-9]+}}, [%rd{{[0-9]+}}+16];
# CHECK-DAG: ld.global.f32 %f{{[0-9]+}}, [%rd{{[0-9]+}}+28];
# CHECK-DAG: st.global.u16 [%rd{{[0-9]+}}+20], %rs{{[0-9]+}};
