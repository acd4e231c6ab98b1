# RUN: %kaji-compile %s --emit ast | %FileCheck %s --strict-whitespace
# Slices with every combination of omitted parts.
def f(a, n):
    b = a[1:n:2]
    c = a[:]
    d = a[::2]
    e = a[:n, 1:]

# CHECK: {{^}}FunctionDef f <3:1>{{$}}
# CHECK-NEXT: {{^}}  Param a <3:7>{{$}}
# CHECK-NEXT: {{^}}  Param n <3:10>{{$}}
# CHECK-NEXT: {{^}}  Assign <4:5>{{$}}
# CHECK-NEXT: {{^}}    Name b <4:5>{{$}}
# CHECK-NEXT: {{^}}    Subscript <4:9>{{$}}
# CHECK-NEXT: {{^}}      Name a <4:9>{{$}}
# CHECK-NEXT: {{^}}      Slice <4:11>{{$}}
# CHECK-NEXT: {{^}}        Lower{{$}}
# CHECK-NEXT: {{^}}          Int 1 <4:11>{{$}}
# CHECK-NEXT: {{^}}        Upper{{$}}
# CHECK-NEXT: {{^}}          Name n <4:13>{{$}}
# CHECK-NEXT: {{^}}        Step{{$}}
# CHECK-NEXT: {{^}}          Int 2 <4:15>{{$}}
# CHECK-NEXT: {{^}}  Assign <5:5>{{$}}
# CHECK-NEXT: {{^}}    Name c <5:5>{{$}}
# CHECK-NEXT: {{^}}    Subscript <5:9>{{$}}
# CHECK-NEXT: {{^}}      Name a <5:9>{{$}}
# CHECK-NEXT: {{^}}      Slice <5:11>{{$}}
# CHECK-NEXT: {{^}}  Assign <6:5>{{$}}
# CHECK-NEXT: {{^}}    Name d <6:5>{{$}}
# CHECK-NEXT: {{^}}    Subscript <6:9>{{$}}
# CHECK-NEXT: {{^}}      Name a <6:9>{{$}}
# CHECK-NEXT: {{^}}      Slice <6:11>{{$}}
# CHECK-NEXT: {{^}}        Step{{$}}
# CHECK-NEXT: {{^}}          Int 2 <6:13>{{$}}
# CHECK-NEXT: {{^}}  Assign <7:5>{{$}}
# CHECK-NEXT: {{^}}    Name e <7:5>{{$}}
# CHECK-NEXT: {{^}}    Subscript <7:9>{{$}}
# CHECK-NEXT: {{^}}      Name a <7:9>{{$}}
# CHECK-NEXT: {{^}}      Tuple <7:11>{{$}}
# CHECK-NEXT: {{^}}        Slice <7:11>{{$}}
# CHECK-NEXT: {{^}}          Upper{{$}}
# CHECK-NEXT: {{^}}            Name n <7:12>{{$}}
# CHECK-NEXT: {{^}}        Slice <7:15>{{$}}
# CHECK-NEXT: {{^}}          Lower{{$}}
# CHECK-NEXT: {{^}}            Int 1 <7:15>{{$}}
