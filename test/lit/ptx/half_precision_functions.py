# cuda.fp16's arithmetic is float16 arithmetic on the GPU; its functions compute in float32 and
# round to float16 once; hne is the ordered not-equal (false for NaN).
# RUN: %kaji-compile %s --emit ptx | %FileCheck %s
# RUN: %kaji-compile %s --emit ptx -o %t.ptx
# RUN: %ptxas %t.ptx
# RUN: %kaji-compile %s --emit ir | %FileCheck %s --check-prefix=IR
from kaji import cuda


@cuda.jit("void(float16[::1], float16[::1], boolean[::1])")
def half_functions(out, a, ok):
    out[0] = cuda.fp16.hadd(a[0], a[1])
    out[1] = cuda.fp16.hsin(a[0])
    ok[0] = cuda.fp16.hne(a[0], a[1])

# CHECK: add.rn.f16
# CHECK: cvt.f32.f16
# CHECK: cvt.rn.f16.f32
# IR: add {{.*}} : f16
# IR: cast {{.*}} : f16 to f32
# IR: cast {{.*}} : f32 to f16
# IR-DAG: [[LT:%[0-9]+]] = cmp lt {{.*}} : f16
# IR-DAG: [[GT:%[0-9]+]] = cmp gt {{.*}} : f16
# IR: or [[LT]], [[GT]] : bool
