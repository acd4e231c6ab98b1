# RUN: %kaji-compile %s --emit llvm | %FileCheck %s
import kaji


@kaji.jit("void(float64[:, :], int64, int64)")
def put(a, i, j):
    a[i, j] = 1.0

# A 2-D array of any layout takes two shape parameters (each in [0, 2**62], the ABI's bound)
# and two stride parameters.
# CHECK: define {{.*}}void @put(ptr addrspace(1) {{[^,]*}}, i64 range(i64 0, 4611686018427387905) {{[^,]*}}, i64 range(i64 0, 4611686018427387905) {{[^,]*}}, i64 {{[^,]*}}, i64 {{[^,]*}}, i64 {{[^,]*}}, i64 {{[^,]*}})
# CHECK: mul {{.*}}i64
# CHECK: store double 1.0{{.*}}, ptr addrspace(1)
