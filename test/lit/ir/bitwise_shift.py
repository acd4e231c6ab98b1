# RUN: %kaji-compile %s --kernel k --sig 'void(int32[:], int32, uint8)' --emit ir | %FileCheck %s
import kaji


@kaji.jit
def k(out, a, b):
    out[0] = (a & 7) | (a ^ b)
    out[1] = (a << 2) >> b
    out[2] = ~a

# CHECK: and %a, %{{[0-9]+}} : i32
# CHECK: xor %a, %{{[0-9]+}} : i32
# CHECK: or {{.*}} : i32
# CHECK: shl %a, %{{[0-9]+}} : i32
# CHECK: shr {{.*}} : i32
# CHECK: not %a : i32
