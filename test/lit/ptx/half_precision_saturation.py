# CUDA's saturating, relu and NaN-propagating half functions are selects around the plain
# arithmetic, the same on every target: no PTX .sat/.relu/.NaN modifier (sm_80 and newer only).
# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %ptxas %t.ptx
# RUN: %kaji-compile %s --emit ir | %FileCheck %s
from kaji import cuda


@cuda.jit("void(bfloat16[::1], int32[::1], boolean[::1])")
def saturating(out, inf, ok):
    out[0] = cuda.bf16.hadd_sat(out[1], out[2])
    out[3] = cuda.bf16.hfma_relu(out[4], out[5], out[6])
    out[7] = cuda.bf16.hmax_nan(out[8], out[9])
    inf[0] = cuda.bf16.hisinf(out[10])
    ok[0] = cuda.bf16.hltu(out[11], out[12])

# hadd_sat: the sum, then r > 0 ? (r < 1 ? r : 1) : 0
# CHECK: [[SUM:%[0-9]+]] = add {{.*}} : bf16
# CHECK: cmp lt [[SUM]]
# CHECK: cmp gt [[SUM]]
# CHECK: select
# hfma_relu: r <= 0 ? 0 : r
# CHECK: cmp le
# hmax_nan: ties resolved on the bits, NaN when either operand is NaN
# CHECK: bitcast {{.*}} : bf16 to u16
# CHECK: and {{.*}} : u16
# CHECK: cmp ne
# hisinf: an int32
# CHECK: select {{.*}} : i32
# hltu: not (a >= b)
# CHECK: [[GE:%[0-9]+]] = cmp ge {{.*}} : bf16
# CHECK: not [[GE]] : bool
