# Fast math computes float32 sin, cos, tan, exp, log, log2, log10 and pow with the hardware's
# approximations (libdevice's __nv_fast_ functions: sin.approx, ex2.approx, lg2.approx, all
# .ftz) and divides and takes square roots approximately, as CUDA's --use_fast_math and
# Numba's fastmath=True;
# without it none of these is (libdevice's exact functions use ex2.approx and rcp.approx
# internally). float64 has no approximate forms
# of these.
# RUN: %kaji-compile %s --kernel functions --sig 'void(float32[::1], float32)' --fastmath | %FileCheck %s --check-prefix=FAST
# RUN: %kaji-compile %s --kernel functions --sig 'void(float32[::1], float32)' | %FileCheck %s --check-prefix=EXACT
# RUN: %kaji-compile %s --kernel functions --sig 'void(float64[::1], float64)' --fastmath | %FileCheck %s --check-prefix=DOUBLE
# RUN: %kaji-compile %s --kernel functions --sig 'void(float32[::1], float32)' --fastmath -o %t.ptx
# RUN: %ptxas %t.ptx
import math

import kaji


@kaji.jit
def functions(out, x):
    out[0] = math.sin(x)
    out[1] = math.cos(x)
    out[2] = math.tan(x)
    out[3] = math.exp(x)
    out[4] = math.log(x)
    out[5] = math.log2(x)
    out[6] = math.log10(x)
    out[7] = math.pow(x, out[8])
    out[9] = out[10] / x
    out[11] = math.sqrt(x)


# FAST-DAG: sin.approx.ftz.f32
# FAST-DAG: cos.approx.ftz.f32
# FAST-DAG: ex2.approx.ftz.f32
# FAST-DAG: lg2.approx.ftz.f32
# FAST-DAG: div.approx.ftz.f32
# FAST-DAG: sqrt.approx.ftz.f32
# FAST-NOT: div.rn.f32
# FAST-NOT: sqrt.rn.f32
# EXACT-NOT: sin.approx
# EXACT-NOT: cos.approx
# EXACT-NOT: lg2.approx.ftz
# EXACT-NOT: div.approx
# EXACT-NOT: sqrt.approx
# EXACT-DAG: div.rn.f32
# EXACT-DAG: sqrt.rn.f32
# DOUBLE-NOT: sin.approx
# DOUBLE-NOT: cos.approx
# DOUBLE-NOT: div.approx
# DOUBLE-NOT: sqrt.approx
