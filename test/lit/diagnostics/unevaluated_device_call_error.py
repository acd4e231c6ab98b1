# RUN: %not %kaji-compile %s --kernel k --sig 'void(float32[:])' --emit ir 2>&1 | %FileCheck %s --strict-whitespace
import kaji


@kaji.jit(device=True)
def broken(v):
    return v + undefined_name


def k(a):
    a[0] = False and broken(a[1])

# An operand a constant condition leaves unevaluated is still type-checked (docs/sema.md),
# and so is the device function it calls.
# CHECK: {{.*}}unevaluated_device_call_error.py:7:16: error: name 'undefined_name' is not defined
# CHECK-NEXT: {{^}}    return v + undefined_name{{$}}
# CHECK-NEXT: {{^}}               ^{{$}}
