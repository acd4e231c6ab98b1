# RUN: %kaji-compile %s --kernel k --sig 'void(float8_e4m3fn[:], float32[:], float32)' --emit ir | %FileCheck %s
# An 8-bit float converts with integer operations on float32's bits and a bitcast: no cast
# and no comparison takes one (docs/ir.md).
import kaji


@kaji.jit
def k(out, back, x):
    out[0] = kaji.float8_e4m3fn(x)
    back[0] = out[0]

# CHECK: bitcast %x : f32 to u32
# CHECK: bitcast %{{[0-9]+}} : u8 to f8e4m3
# CHECK: store %{{[0-9]+}}, %out[
# CHECK: load %out[
# CHECK: bitcast %{{[0-9]+}} : f8e4m3 to u8
# CHECK-NOT: cast %{{[0-9]+}} : f8e4m3
# CHECK: bitcast %{{[0-9]+}} : u16 to f16
