# Block arguments are variables the branches assign; a loop swapping two values goes
# through temporaries, so neither assignment reads the other's new value.
# REQUIRES: nvrtc
# RUN: %kaji-compile %s --backend nvrtc --emit cuda | %FileCheck %s
# RUN: %kaji-compile %s --backend nvrtc --emit ptx -o %t.ptx
# RUN: %ptxas %t.ptx
import kaji


@kaji.jit("void(int64[:], int64)")
def fibonacci(out, n):
    a = 0
    b = 1
    for _ in range(n):
        a, b = b, a + b
    out[0] = a

# CHECK: const i64 kaji_t0 = {{.*}}; const i64 kaji_t1 = {{.*}}; {{.*}} goto bb{{[0-9]+}}; }
