# RUN: %kaji-compile %s --emit ast | %FileCheck %s --strict-whitespace
# Implicit joining inside brackets and explicit backslash continuation.
def f(a, b,
      c):
    x = (a +
         b)
    y = a + \
        c
    z = [1,
         2,]

# CHECK: {{^}}FunctionDef f <3:1>{{$}}
# CHECK-NEXT: {{^}}  Param a <3:7>{{$}}
# CHECK-NEXT: {{^}}  Param b <3:10>{{$}}
# CHECK-NEXT: {{^}}  Param c <4:7>{{$}}
# CHECK-NEXT: {{^}}  Assign <5:5>{{$}}
# CHECK-NEXT: {{^}}    Name x <5:5>{{$}}
# CHECK-NEXT: {{^}}    BinOp + <5:10>{{$}}
# CHECK-NEXT: {{^}}      Name a <5:10>{{$}}
# CHECK-NEXT: {{^}}      Name b <6:10>{{$}}
# CHECK-NEXT: {{^}}  Assign <7:5>{{$}}
# CHECK-NEXT: {{^}}    Name y <7:5>{{$}}
# CHECK-NEXT: {{^}}    BinOp + <7:9>{{$}}
# CHECK-NEXT: {{^}}      Name a <7:9>{{$}}
# CHECK-NEXT: {{^}}      Name c <8:9>{{$}}
# CHECK-NEXT: {{^}}  Assign <9:5>{{$}}
# CHECK-NEXT: {{^}}    Name z <9:5>{{$}}
# CHECK-NEXT: {{^}}    List <9:9>{{$}}
# CHECK-NEXT: {{^}}      Int 1 <9:10>{{$}}
# CHECK-NEXT: {{^}}      Int 2 <10:10>{{$}}
