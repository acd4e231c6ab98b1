# RUN: %kaji-compile %s --emit ast | %FileCheck %s --strict-whitespace
# `a < b <= c` is one Compare with two operators; `is not` and `not in` are single operators.
def f(a, b, c):
    x = a < b <= c
    y = a is not None
    z = a not in b

# CHECK: {{^}}FunctionDef f <3:1>{{$}}
# CHECK-NEXT: {{^}}  Param a <3:7>{{$}}
# CHECK-NEXT: {{^}}  Param b <3:10>{{$}}
# CHECK-NEXT: {{^}}  Param c <3:13>{{$}}
# CHECK-NEXT: {{^}}  Assign <4:5>{{$}}
# CHECK-NEXT: {{^}}    Name x <4:5>{{$}}
# CHECK-NEXT: {{^}}    Compare <, <= <4:9>{{$}}
# CHECK-NEXT: {{^}}      Name a <4:9>{{$}}
# CHECK-NEXT: {{^}}      Name b <4:13>{{$}}
# CHECK-NEXT: {{^}}      Name c <4:18>{{$}}
# CHECK-NEXT: {{^}}  Assign <5:5>{{$}}
# CHECK-NEXT: {{^}}    Name y <5:5>{{$}}
# CHECK-NEXT: {{^}}    Compare is not <5:9>{{$}}
# CHECK-NEXT: {{^}}      Name a <5:9>{{$}}
# CHECK-NEXT: {{^}}      None <5:18>{{$}}
# CHECK-NEXT: {{^}}  Assign <6:5>{{$}}
# CHECK-NEXT: {{^}}    Name z <6:5>{{$}}
# CHECK-NEXT: {{^}}    Compare not in <6:9>{{$}}
# CHECK-NEXT: {{^}}      Name a <6:9>{{$}}
# CHECK-NEXT: {{^}}      Name b <6:18>{{$}}
