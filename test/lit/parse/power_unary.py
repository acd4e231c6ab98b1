# RUN: %kaji-compile %s --emit ast | %FileCheck %s --strict-whitespace
# `**` binds tighter than a unary minus on its left and is right-associative.
def f(x):
    a = -2**2
    b = 2**-x
    c = x**2**3

# CHECK: {{^}}FunctionDef f <3:1>{{$}}
# CHECK-NEXT: {{^}}  Param x <3:7>{{$}}
# CHECK-NEXT: {{^}}  Assign <4:5>{{$}}
# CHECK-NEXT: {{^}}    Name a <4:5>{{$}}
# CHECK-NEXT: {{^}}    UnaryOp - <4:9>{{$}}
# CHECK-NEXT: {{^}}      BinOp ** <4:10>{{$}}
# CHECK-NEXT: {{^}}        Int 2 <4:10>{{$}}
# CHECK-NEXT: {{^}}        Int 2 <4:13>{{$}}
# CHECK-NEXT: {{^}}  Assign <5:5>{{$}}
# CHECK-NEXT: {{^}}    Name b <5:5>{{$}}
# CHECK-NEXT: {{^}}    BinOp ** <5:9>{{$}}
# CHECK-NEXT: {{^}}      Int 2 <5:9>{{$}}
# CHECK-NEXT: {{^}}      UnaryOp - <5:12>{{$}}
# CHECK-NEXT: {{^}}        Name x <5:13>{{$}}
# CHECK-NEXT: {{^}}  Assign <6:5>{{$}}
# CHECK-NEXT: {{^}}    Name c <6:5>{{$}}
# CHECK-NEXT: {{^}}    BinOp ** <6:9>{{$}}
# CHECK-NEXT: {{^}}      Name x <6:9>{{$}}
# CHECK-NEXT: {{^}}      BinOp ** <6:12>{{$}}
# CHECK-NEXT: {{^}}        Int 2 <6:12>{{$}}
# CHECK-NEXT: {{^}}        Int 3 <6:15>{{$}}
