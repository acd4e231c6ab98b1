# RUN: %kaji-compile %s --emit ast | %FileCheck %s --strict-whitespace
# `x if c else y` binds looser than `or`.
def f(a, b, c):
    return a if b or c else not a

# CHECK: {{^}}FunctionDef f <3:1>{{$}}
# CHECK-NEXT: {{^}}  Param a <3:7>{{$}}
# CHECK-NEXT: {{^}}  Param b <3:10>{{$}}
# CHECK-NEXT: {{^}}  Param c <3:13>{{$}}
# CHECK-NEXT: {{^}}  Return <4:5>{{$}}
# CHECK-NEXT: {{^}}    IfExp <4:12>{{$}}
# CHECK-NEXT: {{^}}      BoolOp or <4:17>{{$}}
# CHECK-NEXT: {{^}}        Name b <4:17>{{$}}
# CHECK-NEXT: {{^}}        Name c <4:22>{{$}}
# CHECK-NEXT: {{^}}      Name a <4:12>{{$}}
# CHECK-NEXT: {{^}}      UnaryOp not <4:29>{{$}}
# CHECK-NEXT: {{^}}        Name a <4:33>{{$}}
