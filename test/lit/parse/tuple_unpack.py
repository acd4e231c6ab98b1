# RUN: %kaji-compile %s --emit ast | %FileCheck %s --strict-whitespace
# Tuple assignment targets, swaps and chained assignment.
def f(a, b):
    a, b = b, a
    (x, y), z = (1, 2), 3
    p = q = 0

# CHECK: {{^}}FunctionDef f <3:1>{{$}}
# CHECK-NEXT: {{^}}  Param a <3:7>{{$}}
# CHECK-NEXT: {{^}}  Param b <3:10>{{$}}
# CHECK-NEXT: {{^}}  Assign <4:5>{{$}}
# CHECK-NEXT: {{^}}    Tuple <4:5>{{$}}
# CHECK-NEXT: {{^}}      Name a <4:5>{{$}}
# CHECK-NEXT: {{^}}      Name b <4:8>{{$}}
# CHECK-NEXT: {{^}}    Tuple <4:12>{{$}}
# CHECK-NEXT: {{^}}      Name b <4:12>{{$}}
# CHECK-NEXT: {{^}}      Name a <4:15>{{$}}
# CHECK-NEXT: {{^}}  Assign <5:5>{{$}}
# CHECK-NEXT: {{^}}    Tuple <5:5>{{$}}
# CHECK-NEXT: {{^}}      Tuple <5:5>{{$}}
# CHECK-NEXT: {{^}}        Name x <5:6>{{$}}
# CHECK-NEXT: {{^}}        Name y <5:9>{{$}}
# CHECK-NEXT: {{^}}      Name z <5:13>{{$}}
# CHECK-NEXT: {{^}}    Tuple <5:17>{{$}}
# CHECK-NEXT: {{^}}      Tuple <5:17>{{$}}
# CHECK-NEXT: {{^}}        Int 1 <5:18>{{$}}
# CHECK-NEXT: {{^}}        Int 2 <5:21>{{$}}
# CHECK-NEXT: {{^}}      Int 3 <5:25>{{$}}
# CHECK-NEXT: {{^}}  Assign <6:5>{{$}}
# CHECK-NEXT: {{^}}    Name p <6:5>{{$}}
# CHECK-NEXT: {{^}}    Name q <6:9>{{$}}
# CHECK-NEXT: {{^}}    Int 0 <6:13>{{$}}
