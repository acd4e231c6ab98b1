# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %FileCheck %s < %t.ptx
# RUN: %ptxas %t.ptx
# RUN: %kaji-compile %s -O0 --emit ptx | %FileCheck %s --check-prefix=O0
# The cuda target contracts a * b ± c into one fma, as numba-cuda (NVVM's -fma=1) and nvcc
# (-fmad=true) do by default (docs/sema.md, "Accuracy"); also a division by a power of two,
# which LLVM makes a product (w / 2 is w * 0.5). At -O0 (Numba's opt=False) every operation
# rounds as written, as NVVM compiles it there.
import kaji


@kaji.jit("void(float64[::1], float64[::1], float64[::1], float64[::1])")
def multiply_add(out, a, b, c):
    out[0] = a[0] * b[0] + c[0]
    out[1] = c[0] - a[0] * b[0]
    out[2] = a[0] // 2 - b[0] / 2

# CHECK-LABEL: .entry multiply_add(
# CHECK-NOT: mul.rn.f64
# CHECK: fma.rn.f64
# CHECK: fma.rn.f64
# CHECK: fma.rn.f64 {{.*}}0dBFE0000000000000
# CHECK-NOT: mul.rn.f64
# CHECK: ret;

# O0-LABEL: .entry multiply_add(
# O0-NOT: fma
# O0: mul.rn.f64
# O0: add.rn.f64
# O0-NOT: fma
# O0: ret;
