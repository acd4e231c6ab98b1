# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
# ptxas does not sign-extend the result of neg.s16 again (an H100 widened -(int16 -32768) to
# 32768): every 16-bit negation, also the one NVPTX makes of `x * -2`, is a 32-bit neg of the
# sign-extended value narrowed by cvt.u16.u32, after which ptxas sign-extends.
import kaji


@kaji.jit("void(int64[:], int16[:])")
def widened_negations(out, x):
    out[0] = -x[0]
    out[1] = x[0] * -2


# CHECK-LABEL: .entry widened_negations
# CHECK-NOT: neg.s16
# CHECK: cvt.s32.s16 [[WIDE:%[a-z_]+]], %rs
# CHECK-NEXT: neg.s32 [[WIDE]], [[WIDE]];
# CHECK-NEXT: cvt.u16.u32 [[NEGATED:%rs[0-9]+]], [[WIDE]];
# CHECK: cvt.s64.s16 %rd{{[0-9]+}}, [[NEGATED]];
# CHECK-NOT: neg.s16
# CHECK: shl.b16 [[DOUBLED:%rs[0-9]+]]
# CHECK: cvt.s32.s16 [[WIDE2:%[a-z_]+]], [[DOUBLED]];
# CHECK-NEXT: neg.s32
# CHECK-NOT: neg.s16
# CHECK: ret;
