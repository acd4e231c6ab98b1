# RUN: %kaji-compile %s --target cpu | %FileCheck %s
# RUN: %kaji-compile %s | %FileCheck %s --check-prefix=PTX
# Found by the program differential (H200 host, seed 1012 program 593): an integer with few
# significant bits but a magnitude past float16's range, converted to float16 and widened,
# must be inf. LLVM 19's InstCombine folds `fpext (sitofp x to half)` into `sitofp x to
# double` by x's known bits alone; kaji clamps the integer to ±65520 before the conversion,
# so 2**31 >> b stays inf (here both values fold to the constant inf, 0x7FF0000000000000).
import numpy as np

import kaji


@kaji.jit("void(float64[::1], bool[::1])")
def power_of_two_to_half(out, flags):
    out[0] = np.float16(2147483648 >> flags[0])

# CHECK-LABEL: define {{.*}}@power_of_two_to_half.host_entry(
# CHECK-NOT: uitofp
# CHECK-NOT: sitofp
# CHECK: store double 0x7FF0000000000000
# CHECK: ret void

# PTX-LABEL: .entry power_of_two_to_half(
# PTX-NOT: cvt.rn.f64.u64
# PTX-NOT: cvt.rn.f64.s64
# PTX: 9218868437227405312
