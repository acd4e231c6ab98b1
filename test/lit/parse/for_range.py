# RUN: %kaji-compile %s --emit ast | %FileCheck %s --strict-whitespace
# A for loop over range() with a tuple target and an else block.
def f(out, n):
    for i in range(0, n, 2):
        out[i] = i
    for i, j in pairs:
        pass
    else:
        out[0] = 0

# CHECK: {{^}}FunctionDef f <3:1>{{$}}
# CHECK-NEXT: {{^}}  Param out <3:7>{{$}}
# CHECK-NEXT: {{^}}  Param n <3:12>{{$}}
# CHECK-NEXT: {{^}}  For <4:5>{{$}}
# CHECK-NEXT: {{^}}    Name i <4:9>{{$}}
# CHECK-NEXT: {{^}}    Call <4:14>{{$}}
# CHECK-NEXT: {{^}}      Name range <4:14>{{$}}
# CHECK-NEXT: {{^}}      Int 0 <4:20>{{$}}
# CHECK-NEXT: {{^}}      Name n <4:23>{{$}}
# CHECK-NEXT: {{^}}      Int 2 <4:26>{{$}}
# CHECK-NEXT: {{^}}    Assign <5:9>{{$}}
# CHECK-NEXT: {{^}}      Subscript <5:9>{{$}}
# CHECK-NEXT: {{^}}        Name out <5:9>{{$}}
# CHECK-NEXT: {{^}}        Name i <5:13>{{$}}
# CHECK-NEXT: {{^}}      Name i <5:18>{{$}}
# CHECK-NEXT: {{^}}  For <6:5>{{$}}
# CHECK-NEXT: {{^}}    Tuple <6:9>{{$}}
# CHECK-NEXT: {{^}}      Name i <6:9>{{$}}
# CHECK-NEXT: {{^}}      Name j <6:12>{{$}}
# CHECK-NEXT: {{^}}    Name pairs <6:17>{{$}}
# CHECK-NEXT: {{^}}    Pass <7:9>{{$}}
# CHECK-NEXT: {{^}}    Else{{$}}
# CHECK-NEXT: {{^}}      Assign <9:9>{{$}}
# CHECK-NEXT: {{^}}        Subscript <9:9>{{$}}
# CHECK-NEXT: {{^}}          Name out <9:9>{{$}}
# CHECK-NEXT: {{^}}          Int 0 <9:13>{{$}}
# CHECK-NEXT: {{^}}        Int 0 <9:18>{{$}}
