# RUN: %kaji-compile %s --target cpu | %FileCheck %s
# RUN: %kaji-compile %s --target cpu --fastmath | %FileCheck %s --check-prefix=FAST
# The cpu target rounds every float operation, bit for bit as NumPy: no instruction carries
# `contract`, and the host JIT fuses only what does (FPOpFusion::Standard). Fast math marks
# them, so there a * b + c may become an fma.
import kaji


@kaji.jit("void(float64[::1], float64[::1], float64[::1], float64[::1])")
def multiply_add(out, a, b, c):
    out[0] = a[0] * b[0] + c[0]

# CHECK-LABEL: define {{.*}}@multiply_add.host_entry(
# CHECK-NOT: contract
# CHECK: [[PRODUCT:%[0-9a-z.]+]] = fmul double
# CHECK-NOT: contract
# CHECK: fadd double [[PRODUCT]],
# CHECK-NOT: contract
# CHECK: ret void

# FAST-LABEL: define {{.*}}@multiply_add.host_entry(
# FAST: [[PRODUCT:%[0-9a-z.]+]] = fmul {{.*}}contract{{.*}} double
# FAST: fadd {{.*}}contract{{.*}} double {{.*}}[[PRODUCT]]
