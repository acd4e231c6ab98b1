# RUN: %not %kaji-compile %s --kernel k --sig 'void(int64[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
import kaji


@kaji.jit(device=True)
def fact(n):
    return 1 if n <= 1 else n * fact(n - 1)


def k(a):
    a[0] = fact(a[0])

# CHECK: {{.*}}recursive_device_function.py:7:33: error: recursive device functions are not supported ('fact' calls itself)
# CHECK-NEXT: {{^}}    return 1 if n <= 1 else n * fact(n - 1){{$}}
# CHECK-NEXT: {{^}}                                ^{{$}}
