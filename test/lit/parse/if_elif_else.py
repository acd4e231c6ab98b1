# RUN: %kaji-compile %s --emit ast | %FileCheck %s --strict-whitespace
# elif becomes an If alone in the Else of the previous If.
def f(x):
    if x < 0:
        return -1
    elif x == 0:
        return 0
    else:
        return 1

# CHECK: {{^}}FunctionDef f <3:1>{{$}}
# CHECK-NEXT: {{^}}  Param x <3:7>{{$}}
# CHECK-NEXT: {{^}}  If <4:5>{{$}}
# CHECK-NEXT: {{^}}    Compare < <4:8>{{$}}
# CHECK-NEXT: {{^}}      Name x <4:8>{{$}}
# CHECK-NEXT: {{^}}      Int 0 <4:12>{{$}}
# CHECK-NEXT: {{^}}    Return <5:9>{{$}}
# CHECK-NEXT: {{^}}      UnaryOp - <5:16>{{$}}
# CHECK-NEXT: {{^}}        Int 1 <5:17>{{$}}
# CHECK-NEXT: {{^}}    Else{{$}}
# CHECK-NEXT: {{^}}      If <6:5>{{$}}
# CHECK-NEXT: {{^}}        Compare == <6:10>{{$}}
# CHECK-NEXT: {{^}}          Name x <6:10>{{$}}
# CHECK-NEXT: {{^}}          Int 0 <6:15>{{$}}
# CHECK-NEXT: {{^}}        Return <7:9>{{$}}
# CHECK-NEXT: {{^}}          Int 0 <7:16>{{$}}
# CHECK-NEXT: {{^}}        Else{{$}}
# CHECK-NEXT: {{^}}          Return <9:9>{{$}}
# CHECK-NEXT: {{^}}            Int 1 <9:16>{{$}}
