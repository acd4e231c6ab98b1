# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
import kaji


@kaji.jit(device=True)
def minmax(a, b):
    return min(a, b), max(a, b)


@kaji.jit("void(float32[:, :], UniTuple(int64 x 2), Tuple(float32, int32))")
def k(a, idx, scale):
    lo, hi = minmax(a[idx], scale[0])
    a[idx] = hi * scale[1] - lo

# The tuples arrive as parameters of their own: the array's pointer, extents and strides,
# then the two indices, then the float and the int.
# CHECK: .entry k(
# CHECK: .param .u64 {{.*}}k_param_5,
# CHECK-NEXT: .param .u64 {{.*}}k_param_6,
# CHECK-NEXT: .param .f32 {{.*}}k_param_7,
# CHECK-NEXT: .param .u32 {{.*}}k_param_8
# The device function's tuple returns through registers once inlined: no local memory.
# CHECK-NOT: .local
