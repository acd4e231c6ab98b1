# RUN: %not %kaji-compile %s --emit ir 2>&1 | %FileCheck %s --strict-whitespace
import kaji


@kaji.jit("void(UniTuple(int32 x))")
def k(t):
    pass

# The caret points into the signature string of the decorator.
# CHECK: {{.*}}tuple_signature_count.py:5:33: error: expected a positive count in 'UniTuple(type x count)'
# CHECK-NEXT: {{^}}@kaji.jit("void(UniTuple(int32 x))"){{$}}
# CHECK-NEXT: {{^}}                                ^{{$}}
