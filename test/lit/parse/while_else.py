# RUN: %kaji-compile %s --emit ast | %FileCheck %s --strict-whitespace
# while with break/continue and an else block.
def f(n):
    i = 0
    while i < n:
        i += 1
        if i == 3:
            continue
        break
    else:
        i = -1

# CHECK: {{^}}FunctionDef f <3:1>{{$}}
# CHECK-NEXT: {{^}}  Param n <3:7>{{$}}
# CHECK-NEXT: {{^}}  Assign <4:5>{{$}}
# CHECK-NEXT: {{^}}    Name i <4:5>{{$}}
# CHECK-NEXT: {{^}}    Int 0 <4:9>{{$}}
# CHECK-NEXT: {{^}}  While <5:5>{{$}}
# CHECK-NEXT: {{^}}    Compare < <5:11>{{$}}
# CHECK-NEXT: {{^}}      Name i <5:11>{{$}}
# CHECK-NEXT: {{^}}      Name n <5:15>{{$}}
# CHECK-NEXT: {{^}}    AugAssign += <6:9>{{$}}
# CHECK-NEXT: {{^}}      Name i <6:9>{{$}}
# CHECK-NEXT: {{^}}      Int 1 <6:14>{{$}}
# CHECK-NEXT: {{^}}    If <7:9>{{$}}
# CHECK-NEXT: {{^}}      Compare == <7:12>{{$}}
# CHECK-NEXT: {{^}}        Name i <7:12>{{$}}
# CHECK-NEXT: {{^}}        Int 3 <7:17>{{$}}
# CHECK-NEXT: {{^}}      Continue <8:13>{{$}}
# CHECK-NEXT: {{^}}    Break <9:9>{{$}}
# CHECK-NEXT: {{^}}    Else{{$}}
# CHECK-NEXT: {{^}}      Assign <11:9>{{$}}
# CHECK-NEXT: {{^}}        Name i <11:9>{{$}}
# CHECK-NEXT: {{^}}        UnaryOp - <11:13>{{$}}
# CHECK-NEXT: {{^}}          Int 1 <11:14>{{$}}
