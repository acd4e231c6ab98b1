# RUN: %not %kaji-compile %s --kernel saxpy --sig 'void(float32[:], float32, float32[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
import kaji


def saxpy(out, a, x, y):
    out[0] = a * x[0] + y[0]

# CHECK: {{.*}}wrong_argument_count.py:5:1: error: kernel 'saxpy' takes 4 arguments but the signature gives 3
# CHECK-NEXT: {{^}}def saxpy(out, a, x, y):{{$}}
# CHECK-NEXT: {{^}}^{{$}}
