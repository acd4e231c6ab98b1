# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
# ptxas folds a 16-bit min/max and an equality test of its result into one packed two-lane
# VIMNMX.U16x2 whose upper lane decides the predicate (an H100 gave `True % (254 & v)` as 0 for
# uint8 v = 6): every 16-bit min/max is a 32-bit one of the extended operands, narrowed by
# cvt.u16.u32 (kaji/codegen/PtxasMiscompiledOps.h).
import kaji


@kaji.jit("void(int64[:], uint8[:], int8[:], uint16[:])")
def narrow_min_max(out, v, a, b):
    out[0] = True % (254 & v[0])
    out[1] = max(a[0] * (-2) + 1, False // b[0]) != 0
    out[2] = min(b[0], b[1])


# CHECK-LABEL: .entry narrow_min_max
# CHECK-NOT: {{(min|max)\.[su]16}}
# `1 % x` is 0 where max(x, 1) == 1:
# CHECK: cvt.u32.u16 [[MASKED:%kaji_left]], %rs{{[0-9]+}};
# CHECK-NEXT: max.u32 [[WIDE:%kaji_wide]], [[MASKED]], 1;
# CHECK-NEXT: cvt.u16.u32 [[MAX:%rs[0-9]+]], [[WIDE]];
# CHECK: setp.{{eq|ne}}.s16 %p{{[0-9]+}}, [[MAX]], 1;
# CHECK: cvt.s32.s16 [[LEFT:%kaji_left]], %rs{{[0-9]+}};
# CHECK-NEXT: max.s32 [[WIDE2:%kaji_wide]], [[LEFT]], 0;
# CHECK-NEXT: cvt.u16.u32 %rs{{[0-9]+}}, [[WIDE2]];
# CHECK: cvt.u32.u16 [[B0:%kaji_left]], %rs{{[0-9]+}};
# CHECK-NEXT: cvt.u32.u16 [[B1:%kaji_right]], %rs{{[0-9]+}};
# CHECK-NEXT: min.u32 [[WIDE3:%kaji_wide]], [[B0]], [[B1]];
# CHECK-NOT: {{(min|max)\.[su]16}}
# CHECK: ret;
